/*
 * cmd_cc.c: `cgofuzz cc ARGS...` and `cgofuzz c++ ARGS...`: clang with
 * cgofuzz's instrumentation and runtime, like afl-clang-fast or
 * -fsanitize=fuzzer. Compiles get
 *   -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp -I<include>
 * and links (no -c/-S/-E/-M) also libcgofuzz_main.a libcgofuzz.a -lpthread.
 * "fuzzer" is dropped from -fsanitize= lists (a libFuzzer build line works
 * unchanged; "fuzzer-no-link" likewise), other sanitizers are kept.
 *
 * Finding the runtime, first match wins:
 *  1. $CGOFUZZ_LIBDIR (holding libcgofuzz.a, libcgofuzz_main.a) and
 *     $CGOFUZZ_INCLUDEDIR (holding cgofuzz/target.h);
 *  2. an install tree: <exe dir>/../lib and <exe dir>/../include;
 *  3. a build tree: <exe dir>/.. holds the libraries and CMakeCache.txt,
 *     whose cgofuzz_SOURCE_DIR gives <source>/include.
 * The compiler is $CGOFUZZ_CLANG (or $CGOFUZZ_CLANGXX), else clang
 * (clang++).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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

static int locate(char *lib, char *inc, size_t n) {
  const char *el = getenv("CGOFUZZ_LIBDIR"), *ei = getenv("CGOFUZZ_INCLUDEDIR");
  if (el && ei) {
    snprintf(lib, n, "%s", el);
    snprintf(inc, n, "%s", ei);
    return exists(lib, "libcgofuzz.a") && exists(inc, "cgofuzz/target.h") ? 0
                                                                          : -1;
  }
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k <= 0)
    return -1;
  exe[k] = 0;
  char *slash = strrchr(exe, '/');
  *slash = 0; /* exe is now the bin directory */
  char up[PATH_MAX];
  /* (Checked lengths: a truncated path would name another directory.) */
  if (snprintf(up, sizeof up, "%s/..", exe) >= (int)sizeof up ||
      snprintf(lib, n, "%s/../lib", exe) >= (int)n ||
      snprintf(inc, n, "%s/../include", exe) >= (int)n)
    return -1;
  if (exists(lib, "libcgofuzz.a") && exists(inc, "cgofuzz/target.h"))
    return 0;
  if (snprintf(lib, n, "%s", up) >= (int)n)
    return -1;
  if (exists(lib, "libcgofuzz.a") && from_cache(up, inc, n))
    return 0;
  return -1;
}

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
  if (locate(lib, inc, sizeof lib) != 0) {
    fprintf(stderr, "cgofuzz cc: cannot find libcgofuzz.a and the headers; "
                    "set CGOFUZZ_LIBDIR and CGOFUZZ_INCLUDEDIR\n");
    return CLI_EXIT_FAIL;
  }
  const char *cc = getenv(cxx ? "CGOFUZZ_CLANGXX" : "CGOFUZZ_CLANG");
  if (!cc || !*cc)
    cc = cxx ? "clang++" : "clang";
  char **av = calloc((size_t)argc + 12, sizeof *av);
  if (!av)
    return CLI_EXIT_FAIL;
  size_t n = 0;
  bool link = true;
  av[n++] = (char *)cc;
  av[n++] = "-fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp";
  static char incflag[PATH_MAX + 4];
  snprintf(incflag, sizeof incflag, "-I%s", inc);
  av[n++] = incflag;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
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
  static char mainlib[PATH_MAX + 32], rtlib[PATH_MAX + 32];
  if (link) {
    snprintf(mainlib, sizeof mainlib, "%s/libcgofuzz_main.a", lib);
    snprintf(rtlib, sizeof rtlib, "%s/libcgofuzz.a", lib);
    av[n++] = mainlib;
    av[n++] = rtlib;
    av[n++] = "-lpthread";
    av[n++] = "-lm";
  }
  av[n] = NULL;
  if (getenv("CGOFUZZ_CC_VERBOSE")) {
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "%s%s", i ? " " : "", av[i]);
    fputc('\n', stderr);
  }
  execvp(cc, av);
  fprintf(stderr, "cgofuzz cc: cannot run %s\n", cc);
  return CLI_EXIT_FAIL;
}
