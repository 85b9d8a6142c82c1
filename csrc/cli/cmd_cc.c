/*
 * cmd_cc.c: `cgofuzz cc ARGS...` and `cgofuzz c++ ARGS...`: clang with
 * cgofuzz's instrumentation and runtime, like afl-clang-fast or
 * -fsanitize=fuzzer. Compiles get
 *   -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp -I<include>
 * and the -fno-builtin-* flags of -fsanitize=fuzzer (memcmp, bcmp, strcmp,
 * strncmp, strcasecmp, strncasecmp, strstr, strcasestr, memmem), so those
 * calls stay calls: clang -O2 would otherwise expand memcmp(p, "deadline",
 * 8) into a 64-bit compare that no trace-cmp hook sees. Links (no
 * -c/-S/-E/-M) also get libcgofuzz_main.a libcgofuzz.a -lpthread and,
 * unless -fsanitize= names address, memory or thread (whose interceptors
 * call the runtime's sanitizer weak hooks themselves), the whole of
 * libcgofuzz_interceptors.a, whose memcmp etc. report their operands
 * (docs/comparisons.md). "fuzzer" is dropped from -fsanitize= lists (a
 * libFuzzer build line works unchanged; "fuzzer-no-link" likewise), other
 * sanitizers are kept.
 *
 * Coverage mode: `cgofuzz cc -cover ...` (the flag is cgofuzz's, not
 * clang's, and is removed) adds clang's source-based coverage,
 * -fprofile-instr-generate -fcoverage-mapping, to compiles and links, so a
 * run with LLVM_PROFILE_FILE set writes a profile for llvm-profdata and
 * llvm-cov (`cgofuzz cover BINARY` does that over a corpus; the runtime
 * libraries themselves carry no coverage mapping).
 *
 * Finding the runtime, first match wins:
 *  1. $CGOFUZZ_LIBDIR (holding libcgofuzz.a, libcgofuzz_main.a) and
 *     $CGOFUZZ_INCLUDEDIR (holding cgofuzz/target.h);
 *  2. an install tree (`cmake --install`, moved or not): <exe dir>/../lib/
 *     cgofuzz (else <exe dir>/../lib) and <exe dir>/../include, <exe dir>
 *     from the executable's real path (/proc/self/exe, so a symbolic link
 *     to bin/cgofuzz works);
 *  3. a build tree: <exe dir>/.. holds the libraries and CMakeCache.txt,
 *     whose cgofuzz_SOURCE_DIR gives <source>/include.
 * The compiler is $CGOFUZZ_CLANG (or $CGOFUZZ_CLANGXX), else clang
 * (clang++).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "os.h"

static bool exists(const char *dir, const char *name) {
  char p[PATH_MAX + 64];
  return snprintf(p, sizeof p, "%s/%s", dir, name) < (int)sizeof p &&
         access(p, R_OK) == 0;
}

static bool from_cache(const char *builddir, char *inc, size_t n) {
  char p[PATH_MAX + 32];
  if (snprintf(p, sizeof p, "%s/CMakeCache.txt", builddir) >= (int)sizeof p)
    return false;
  FILE *f = fopen(p, "r");
  if (!f)
    return false;
  char line[PATH_MAX + 64];
  bool ok = false;
  while (!ok && fgets(line, sizeof line, f)) {
    static const char key[] = "cgofuzz_SOURCE_DIR:STATIC=";
    if (strncmp(line, key, sizeof key - 1) == 0) {
      line[strcspn(line, "\r\n")] = 0;
      ok = snprintf(inc, n, "%s/include", line + sizeof key - 1) < (int)n &&
           exists(inc, "cgofuzz/target.h");
    }
  }
  fclose(f);
  return ok;
}

int cli_cc_locate(char *lib, char *inc_or_null, size_t n) {
  char incbuf[PATH_MAX];
  char *inc = inc_or_null ? inc_or_null : incbuf;
  if (!inc_or_null)
    n = n < sizeof incbuf ? n : sizeof incbuf;
  const char *el = getenv("CGOFUZZ_LIBDIR"), *ei = getenv("CGOFUZZ_INCLUDEDIR");
  if (el && ei) {
    snprintf(lib, n, "%s", el);
    snprintf(inc, n, "%s", ei);
    return exists(lib, "libcgofuzz.a") && exists(inc, "cgofuzz/target.h") ? 0
                                                                          : -1;
  }
  char exe[PATH_MAX];
  if (cgofuzz_os_self_exe(exe, sizeof exe) != 0)
    return -1;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return -1;
  *slash = 0; /* exe is now the bin directory */
  char up[PATH_MAX];
  /* (Checked lengths: a truncated path would name another directory.) */
  if (snprintf(up, sizeof up, "%s/..", exe) >= (int)sizeof up ||
      snprintf(inc, n, "%s/../include", exe) >= (int)n)
    return -1;
  static const char *const libdirs[] = {"lib/cgofuzz", "lib"};
  for (size_t i = 0; i < sizeof libdirs / sizeof libdirs[0]; i++) {
    if (snprintf(lib, n, "%s/../%s", exe, libdirs[i]) >= (int)n)
      return -1;
    if (exists(lib, "libcgofuzz.a") && exists(inc, "cgofuzz/target.h"))
      return 0;
  }
  if (snprintf(lib, n, "%s", up) >= (int)n)
    return -1;
  if (exists(lib, "libcgofuzz.a") && from_cache(up, inc, n))
    return 0;
  return -1;
}

/* The sanitizers whose runtimes intercept memcmp and its kin and call the
 * sanitizer weak hooks (clang 14's driver links libFuzzer's interceptors
 * unless one of them is on; HWASan intercepts none of them). */
static const char *const intercepting[] = {"address", "memory", "thread"};
#define N_INTERCEPTING (sizeof intercepting / sizeof intercepting[0])

/* Updates on[] (one flag per intercepting[] name) from -fsanitize=LIST
 * (enable) or -fno-sanitize=LIST (disable; "all" disables every one). */
static void track_sanitizers(const char *list, bool enable, bool *on) {
  char *copy = strdup(list), *save = NULL;
  if (!copy)
    return;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
    for (size_t i = 0; i < N_INTERCEPTING; i++)
      if (strcmp(t, intercepting[i]) == 0 || (!enable && !strcmp(t, "all")))
        on[i] = enable;
  free(copy);
}

bool cli_cc_intercepting_sanitizer(int argc, char **argv) {
  bool on[N_INTERCEPTING] = {0};
  for (int i = 0; i < argc; i++) {
    if (strncmp(argv[i], "-fno-sanitize=", 14) == 0)
      track_sanitizers(argv[i] + 14, false, on);
    else if (strncmp(argv[i], "-fsanitize=", 11) == 0)
      track_sanitizers(argv[i] + 11, true, on);
  }
  for (size_t i = 0; i < N_INTERCEPTING; i++)
    if (on[i])
      return true;
  return false;
}

const char *const cli_cc_no_builtin[] = {
    "-fno-builtin-memcmp",     "-fno-builtin-bcmp",
    "-fno-builtin-strcmp",     "-fno-builtin-strncmp",
    "-fno-builtin-strcasecmp", "-fno-builtin-strncasecmp",
    "-fno-builtin-strstr",     "-fno-builtin-strcasestr",
    "-fno-builtin-memmem",     NULL,
};

/* Copies a -fsanitize= list without "fuzzer"/"fuzzer-no-link"; NULL if
 * nothing is left. */
static char *strip_fuzzer(const char *arg) {
  const char *list = arg + strlen("-fsanitize=");
  char *out = malloc(strlen(arg) + 1), *o = out;
  if (!out)
    return NULL;
  o += sprintf(o, "-fsanitize=");
  char *copy = strdup(list), *save = NULL;
  bool any = false;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (strcmp(t, "fuzzer") != 0 && strcmp(t, "fuzzer-no-link") != 0) {
      o += sprintf(o, "%s%s", any ? "," : "", t);
      any = true;
    }
  free(copy);
  if (!any) {
    free(out);
    return NULL;
  }
  return out;
}

int cli_cmd_cc(int argc, char **argv, bool cxx) {
  static char lib[PATH_MAX], inc[PATH_MAX];
  if (cli_cc_locate(lib, inc, sizeof lib) != 0) {
    fprintf(stderr, "cgofuzz cc: cannot find libcgofuzz.a and the headers "
                    "(C targets need the CMake install, which has them; "
                    "`go install` gives only the tool): set CGOFUZZ_LIBDIR "
                    "and CGOFUZZ_INCLUDEDIR\n");
    return CLI_EXIT_FAIL;
  }
  const char *cc = getenv(cxx ? "CGOFUZZ_CLANGXX" : "CGOFUZZ_CLANG");
  if (!cc || !*cc)
    cc = cxx ? "clang++" : "clang";
  size_t n_no_builtin = 0;
  while (cli_cc_no_builtin[n_no_builtin])
    n_no_builtin++;
  char **av = calloc((size_t)argc + n_no_builtin + 16, sizeof *av);
  if (!av)
    return CLI_EXIT_FAIL;
  size_t n = 0;
  bool link = true;
  av[n++] = (char *)cc;
  av[n++] = "-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp";
  static char incflag[PATH_MAX + 4];
  snprintf(incflag, sizeof incflag, "-I%s", inc);
  av[n++] = incflag;
  for (size_t i = 0; i < n_no_builtin; i++)
    av[n++] = (char *)cli_cc_no_builtin[i];
  bool cover = false;
  for (int i = 0; i < argc; i++)
    cover = cover || strcmp(argv[i], "-cover") == 0;
  if (cover) {
    av[n++] = "-fprofile-instr-generate";
    av[n++] = "-fcoverage-mapping";
  }
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-cover") == 0)
      continue; /* handled above */
    if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
        strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0)
      link = false;
    if (strncmp(a, "-fsanitize=", 11) == 0) {
      char *s = strip_fuzzer(a);
      if (s)
        av[n++] = s;
      continue;
    }
    av[n++] = argv[i];
  }
  static char mainlib[PATH_MAX + 32], rtlib[PATH_MAX + 32],
      iclib[PATH_MAX + 48];
  bool intercepted = cli_cc_intercepting_sanitizer(argc, argv);
  if (link) {
    snprintf(mainlib, sizeof mainlib, "%s/libcgofuzz_main.a", lib);
    snprintf(rtlib, sizeof rtlib, "%s/libcgofuzz.a", lib);
    av[n++] = mainlib;
    av[n++] = rtlib;
    if (!intercepted) {
      snprintf(iclib, sizeof iclib, "%s/libcgofuzz_interceptors.a", lib);
      if (access(iclib, R_OK) == 0) {
        av[n++] = "-Wl,--whole-archive";
        av[n++] = iclib;
        av[n++] = "-Wl,--no-whole-archive";
      } else {
        fprintf(stderr,
                "cgofuzz cc: warning: %s is missing: memcmp, strcmp "
                "and their kin will be invisible to the fuzzer\n",
                iclib);
      }
    }
    av[n++] = "-lpthread";
    av[n++] = "-lm";
  }
  av[n] = NULL;
  cli_cc_log(av, n);
  execvp(cc, av);
  fprintf(stderr, "cgofuzz cc: cannot run %s\n", cc);
  return CLI_EXIT_FAIL;
}

void cli_cc_log(char *const *av, size_t n) {
  const char *to = getenv("CGOFUZZ_CC_VERBOSE");
  if (!to)
    return;
  FILE *f = strchr(to, '/') ? fopen(to, "a") : stderr;
  if (!f) {
    fprintf(stderr, "cgofuzz: CGOFUZZ_CC_VERBOSE=%s: %s\n", to,
            strerror(errno));
    return;
  }
  for (size_t i = 0; i < n; i++)
    fprintf(f, "%s%s", i ? " " : "", av[i]);
  fputc('\n', f);
  if (f != stderr)
    fclose(f);
}
