/*
 * cmd_cgocc.c: `cgofuzz cgo-cc ARGS...` and `cgofuzz cgo-c++ ARGS...`, the
 * C and C++ compilers for a Go package's cgo code (CC="cgofuzz cgo-cc"
 * CXX="cgofuzz cgo-c++"): clang, with the package's own C made visible to
 * Go's fuzzing, no source change (docs/cgo.md).
 *
 * The go command calls $CC for four things, told apart by their arguments:
 *  - probes and preprocessing (-E, -###, --version, stdin sources, no -c
 *    and no object to link): passed to clang unchanged;
 *  - compiles (-c) of a package's C: clang with
 *    -fsanitize-coverage=inline-8bit-counters,trace-cmp and the
 *    -fno-builtin-* flags that keep memcmp and its kin calls (as `cgofuzz
 *    cc`). Not instrumented: Go's own packages (the package directory, the
 *    first -I, or the working directory under $GOROOT: runtime/cgo, net,
 *    os/user), cgo's generated _cgo_export.c and _cgo_main.c, cgo's type
 *    probes (cgo-gcc-input-*), and cgofuzz's own runtime in package gofuzz
 *    (-DCGOFUZZ_RUNTIME). After the compile the object's __sancov_cntrs
 *    sections become NOBITS: they are zero, and a NOBITS section can share
 *    an output section with Go's NOBITS counters without ld rewriting it.
 *    cgo's wrappers file (x.cgo2.c) is compiled from a copy whose wrappers
 *    call the cgo loop first (cgowrap.c);
 *  - links: every link gets libcgofuzz_cgo.a (the counters' init callback
 *    and the comparison hooks, cgo_hooks.c, forced in with -u unless an
 *    input already defines the hooks, as package gofuzz's runtime does;
 *    the cgo loop, cgo_loop.c and its mutations, cgo_mutate.c, which
 *    cgo's rewritten wrappers call;
 *    and, always, cgo_stack.c, which gives Go's report of a crash in C
 *    the C frames, unwound by the frame pointers compiles keep)
 *    and, without ASan, MSan or TSan, whose runtimes intercept them
 *    already, the whole of libcgofuzz_interceptors.a (memcmp, strcmp, ...
 *    reporting their operands). A cgofuzz installed with `go install` has
 *    no archives: it compiles the sources into objects on first use
 *    and names their directory in $CGOFUZZ_CGO_OBJDIR (cmd/cgofuzz);
 *  - the final link of a `go test -fuzz` binary (an input named go.o with
 *    a .go.fuzzcntrs section): internal/fuzz's counter range is
 *    [_counters, _ecounters), two symbols of go.o in that section, which
 *    Go's code addresses by symbol (R_X86_64_PC32 against the symbol, not
 *    the section). A linker script places every C object's __sancov_cntrs
 *    right after go.o's .go.fuzzcntrs in one output section, and go.o's
 *    _ecounters (and its alias runtime.__stop___sancov_cntrs) is moved by
 *    the C counters' total size M, so the range Go's worker resets,
 *    snapshots and compares on every exec holds every C edge as a counter
 *    of its own. The script asserts that the section's size is Go's N
 *    plus M, so a miscount fails the link rather than the fuzzing. Moving
 *    the symbols is idempotent (a second link of the same go.o finds them
 *    moved already). The script also defines cgofuzz_cgo_in_go_range (the
 *    C counters' start), which package gofuzz looks for (weakly) to know
 *    that its Cover has nothing left to bridge, and, for the cgo loop,
 *    cgofuzz_cgo_go_counters (Go's range's start) and cgofuzz_cgo_c_end.
 * A Go binary with instrumented C keeps its symbol table (the -s of a `go
 * test` build is dropped), so sanitizer reports name the C functions of
 * their stacks, when fuzzing and when `go test -run` reproduces.
 * So `go test -fuzz` sees the C side too, with or without cgofuzz; with
 * cgofuzz as coordinator, the tracing copy (gobin_patch.c) also points
 * the C comparison hooks at Go's, so C compares feed its comparison
 * feedback and dictionary.
 *
 * gcc cannot emit inline 8-bit counters: a gcc named by CGOFUZZ_CLANG is
 * refused in one line, and so is a missing clang, rather than building a
 * binary whose C side the fuzzer cannot see.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "dir.h"
#include "elfrel.h"
#include "file.h"
#include "os.h"
#include "spawn.h"

#define CNTRS ".go.fuzzcntrs" /* the output section */
#define C_CNTRS "__sancov_cntrs"

/* The go-installed cgofuzz's runtime objects (cmd/cgofuzz/cgoobj.go). */
#define CGO_OBJDIR_ENV "CGOFUZZ_CGO_OBJDIR"
#define CGO_OBJ "cgofuzz_cgo.o"
#define STACK_OBJ "cgofuzz_cgo_stack.o"
#define LOOP_OBJ "cgofuzz_cgo_loop.o"
#define MUTATE_OBJ "cgofuzz_cgo_mutate.o"
#define INTERCEPT_OBJ "cgofuzz_interceptors.o"

typedef struct cgocc {
  const char *tool; /* "cgofuzz cgo-cc" or "cgofuzz cgo-c++", for messages */
  const char *cc;   /* clang or clang++ */
  /* Where the link's runtime pieces are: the archives of an install or a
   * build tree, or (objs) the objects of $CGOFUZZ_CGO_OBJDIR. */
  char lib[PATH_MAX];
  bool objs;
  char **av; /* the command built */
  size_t n;
} cgocc;

static bool has_arg(int argc, char **argv, const char *a) {
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], a) == 0)
      return true;
  return false;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Whether path (absolute, or relative to the working directory) is inside
 * $GOROOT. */
static bool in_goroot(const char *path) {
  const char *root = getenv("GOROOT");
  char abs[PATH_MAX], real_root[PATH_MAX];
  if (!root || !*root || !realpath(root, real_root) || !realpath(path, abs))
    return false;
  size_t n = strlen(real_root);
  return strncmp(abs, real_root, n) == 0 && (abs[n] == '/' || abs[n] == 0);
}

/* The source files of a compile line (arguments that are not options and
 * end like C, C++ or assembly); "-" for stdin counts as a source. */
static bool is_source(const char *a) {
  static const char *const ext[] = {".c", ".cc", ".cpp", ".cxx", ".C",
                                    ".m", ".S",  ".s",   ".sx"};
  if (strcmp(a, "-") == 0)
    return true;
  if (a[0] == '-')
    return false;
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
    if (ends_with(a, ext[i]))
      return true;
  return false;
}

/* Whether a compile line is one of a package's own C sources, to be
 * instrumented (see the head comment for what is not). */
static bool instrumented_compile(int argc, char **argv) {
  const char *first_inc = NULL;
  bool any = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-DCGOFUZZ_RUNTIME") == 0 ||
        strncmp(a, "-DCGOFUZZ_RUNTIME=", 18) == 0)
      return false;
    if (!first_inc && strcmp(a, "-I") == 0 && i + 1 < argc)
      first_inc = argv[i + 1];
    else if (!first_inc && strncmp(a, "-I", 2) == 0 && a[2])
      first_inc = a + 2;
    if (strcmp(a, "-o") == 0 || strcmp(a, "-x") == 0 || strcmp(a, "-I") == 0 ||
        strcmp(a, "-include") == 0 || strcmp(a, "-MF") == 0) {
      i++; /* an option's own argument, not a source */
      continue;
    }
    if (!is_source(a))
      continue;
    const char *b = base_name(a);
    if (strcmp(a, "-") == 0 || ends_with(a, ".s") || ends_with(a, ".S") ||
        ends_with(a, ".sx") || strcmp(b, "_cgo_export.c") == 0 ||
        strcmp(b, "_cgo_main.c") == 0 || strncmp(b, "cgo-gcc-input-", 14) == 0)
      return false;
    any = true;
  }
  if (!any)
    return false;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && in_goroot(cwd))
    return false;
  return !(first_inc && in_goroot(first_inc));
}

static const char *output_of(int argc, char **argv) {
  for (int i = 0; i + 1 < argc; i++)
    if (strcmp(argv[i], "-o") == 0)
      return argv[i + 1];
  return NULL;
}

/* Runs the command built so far; its exit status (or 127 when it cannot
 * start, with a message). */
static int run(const cgocc *c) {
  cli_cc_log(c->av, c->n);
  pid_t pid = fork();
  if (pid == 0) {
    execvp(c->cc, c->av);
    fprintf(stderr,
            "%s: cannot run %s (%s): install clang, or set "
            "CGOFUZZ_CLANG%s to a clang\n",
            c->tool, c->cc, strerror(errno), strstr(c->tool, "++") ? "XX" : "");
    _exit(127);
  }
  int st;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) {
    fprintf(stderr, "%s: cannot run %s: %s\n", c->tool, c->cc, strerror(errno));
    return 127;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void add(cgocc *c, const char *a) { c->av[c->n++] = (char *)a; }

/* What tells this build of cgofuzz from another of the same version: the
 * size and modification time of the program and of libcgofuzz_cgo.a. */
static const char *build_tag(void) {
  static char tag[64];
  char self[PATH_MAX], lib[PATH_MAX], p[PATH_MAX + 32];
  unsigned long long h = 1469598103934665603ull;
  struct stat st;
  if (cgofuzz_os_self_exe(self, sizeof self) == 0 && stat(self, &st) == 0)
    h = (h ^ (unsigned long long)st.st_mtime) * 1099511628211ull ^
        (unsigned long long)st.st_size;
  if (cli_cc_locate(lib, NULL, sizeof lib) == 0 &&
      snprintf(p, sizeof p, "%s/libcgofuzz_cgo.a", lib) < (int)sizeof p &&
      stat(p, &st) == 0)
    h = ((h ^ (unsigned long long)st.st_mtime) * 1099511628211ull) ^
        (unsigned long long)st.st_size;
  snprintf(tag, sizeof tag, "%016llx", h);
  return tag;
}

/* `-###`, which the go command runs to identify the C compiler for its
 * build cache: clang's answer, with " (cgofuzz-cgo-cc VERSION)" after the
 * version line, so objects and binaries built through cgofuzz never share
 * cache entries with plain clang's, or with another build of cgofuzz's. */
static int identify(cgocc *c, int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    add(c, argv[i]);
  char *path = strchr(c->cc, '/') ? strdup(c->cc) : cli_find_in_path(c->cc);
  cgofuzz_buf out = {0};
  cgofuzz_spawn sp = {
      .path = path, .argv = c->av, .stdout_fd = -1, .stderr_fd = -1};
  int st = path ? cgofuzz_spawn_run(&sp, &out, true, -1) : -1;
  free(path);
  if (st < 0) {
    fprintf(stderr,
            "%s: cannot run %s: install clang, or set CGOFUZZ_CLANG%s "
            "to a clang\n",
            c->tool, c->cc, strstr(c->tool, "++") ? "XX" : "");
    cgofuzz_buf_free(&out);
    return 127;
  }
  /* clang answers on stderr; so does this. */
  bool marked = false;
  for (size_t a = 0, b; a < out.len; a = b) {
    for (b = a; b < out.len && out.data[b] != '\n'; b++)
      ;
    const char *line = (const char *)out.data + a;
    int len = (int)(b - a);
    if (b < out.len)
      b++; /* the newline */
    if (!marked && b > a + (size_t)len &&
        memmem(line, (size_t)len, " version ", 9)) {
      fprintf(stderr, "%.*s (cgofuzz-cgo-cc %s %s)\n", len, line, cli_version,
              build_tag());
      marked = true;
    } else {
      fwrite(line, 1, b - a, stderr);
    }
  }
  cgofuzz_buf_free(&out);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* cgo's wrappers file (x.cgo2.c) becomes a rewritten copy beside it that
 * calls the cgo loop (cgowrap.c); any failure keeps cgo's own, which
 * works the same without the loop. The copy's path is kept in path. */
static const char *loop_source(const char *a, char *path, size_t n) {
  size_t len = strlen(a);
  if (len < 7 || strcmp(a + len - 7, ".cgo2.c") != 0 ||
      snprintf(path, n, "%.*s.cgofuzz.c", (int)(len - 2), a) >= (int)n)
    return a;
  cgofuzz_err err = {0};
  return cli_cgowrap_rewrite(a, path, &err) == 0 ? path : a;
}

static int compile(cgocc *c, int argc, char **argv) {
  static char loop_src[PATH_MAX];
  add(c, "-fsanitize-coverage=inline-8bit-counters,trace-cmp");
  /* Frame pointers: the C frames of a crash report unwind by them
   * (cgo_stack.c). Before the package's flags, which may say otherwise. */
  add(c, "-fno-omit-frame-pointer");
  for (size_t i = 0; cli_cc_no_builtin[i]; i++)
    add(c, cli_cc_no_builtin[i]);
  bool looped = false;
  for (int i = 0; i < argc; i++) {
    bool src = i == 0 || strcmp(argv[i - 1], "-o") != 0;
    const char *a = src && !looped && is_source(argv[i])
                        ? loop_source(argv[i], loop_src, sizeof loop_src)
                        : argv[i];
    looped = looped || a != argv[i];
    add(c, a);
  }
  int rc = run(c);
  const char *out = output_of(argc, argv);
  if (rc != 0 || !out)
    return rc;
  int changed;
  cgofuzz_err err = {0};
  if (cgofuzz_elfrel_make_nobits(out, C_CNTRS, &changed, &err) != 0) {
    fprintf(stderr, "%s: %s\n", c->tool, err.msg);
    return 1;
  }
  return 0;
}

/* The final link of a fuzz test binary: moves go.o's counter end past the
 * C counters and writes the linker script that puts them there. Go's range
 * is the section holding internal/fuzz._ecounters: .go.fuzzcntrs from
 * go1.20, __sancov_cntrs in go1.19, __libfuzzer_extra_counters in go1.18;
 * every symbol at its end (_ecounters and, by release, its alias
 * runtime.__stop___sancov_cntrs or __stop___sancov_cntrs) moves. Returns
 * the script's path in script (empty when there is nothing to do; then
 * *instrumented says whether the link has instrumented C at all), 0, or
 * -1 after a message. */
static int place_counters(const cgocc *c, int argc, char **argv,
                          const char *goo, char *script, size_t n,
                          bool *instrumented) {
  script[0] = 0;
  cgofuzz_err err = {0};
  uint64_t go_n = 0, end = 0, shndx = 0, at = 0;
  char sec[64] = "";
  int has = cgofuzz_elfrel_symbol(goo, "internal/fuzz._ecounters", &end, &shndx,
                                  &err);
  if (has < 0 ||
      (has == 1 &&
       cgofuzz_elfrel_section(goo, shndx, sec, sizeof sec, &go_n, &err) != 0)) {
    fprintf(stderr, "%s: %s\n", c->tool, err.msg);
    return -1;
  }
  /* Without -fuzz, _ecounters is an ordinary variable elsewhere. */
  static const char *const ranges[] = {".go.fuzzcntrs", "__sancov_cntrs",
                                       "__libfuzzer_extra_counters"};
  bool known = false;
  for (size_t i = 0; has == 1 && i < sizeof ranges / sizeof ranges[0]; i++)
    known = known || strcmp(sec, ranges[i]) == 0;
  if (!known)
    has = 0, go_n = 0;
  at = go_n;
  /* In link order, each COMDAT group once: the linker keeps the first
   * object's copy of a C++ inline or template function and its counters. */
  cgofuzz_hashset groups = {0};
  for (int i = 0; i < argc; i++) {
    if (!ends_with(argv[i], ".o") || strcmp(argv[i], goo) == 0)
      continue;
    if (cgofuzz_elfrel_append_size(argv[i], C_CNTRS, &at, &groups, &err) != 0) {
      cgofuzz_hashset_free(&groups);
      fprintf(stderr, "%s: %s\n", c->tool, err.msg);
      return -1;
    }
  }
  cgofuzz_hashset_free(&groups);
  uint64_t m = at - go_n;
  *instrumented = m > 0;
  if (m == 0 || has == 0)
    return 0; /* no instrumented C, or not built with -fuzz (no range) */
  if (end == go_n) {
    int moved = 0;
    if (cgofuzz_elfrel_move_symbols(goo, shndx, go_n, m, &moved, &err) != 0) {
      fprintf(stderr, "%s: %s\n", c->tool, err.msg);
      return -1;
    }
  } else if (end != go_n + m) {
    fprintf(stderr,
            "%s: %s: internal/fuzz._ecounters is at %llu, neither the end "
            "of %s (%llu) nor past the C counters (%llu): not a counter "
            "range cgofuzz knows, the C edges would be invisible\n",
            c->tool, goo, (unsigned long long)end, sec,
            (unsigned long long)go_n, (unsigned long long)(go_n + m));
    return -1;
  }
  const char *slash = strrchr(goo, '/');
  int dl = slash ? (int)(slash - goo) : 1;
  if (snprintf(script, n, "%.*s/cgofuzz-counters.ld", dl, slash ? goo : ".") >=
      (int)n) {
    fprintf(stderr, "%s: %s: path too long\n", c->tool, goo);
    return -1;
  }
  /* go.o by its own path where the script syntax takes it as it is. */
  bool plain =
      strspn(goo, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789/._-+") == strlen(goo);
  cgofuzz_buf text = {0};
  cgofuzz_buf_printf(&text,
                     "/* cgofuzz cgo-cc: the C code's edge counters right "
                     "after Go's. */\n"
                     "SECTIONS {\n"
                     "  " CNTRS " (NOLOAD) : {\n"
                     "    cgofuzz_cgo_go_counters = .;\n"
                     "    %s(%s)\n"
                     "    __start___sancov_cntrs = .;\n"
                     "    *(" C_CNTRS ")\n"
                     "    __stop___sancov_cntrs = .;\n"
                     "    cgofuzz_cgo_c_end = .;\n"
                     "  }\n"
                     "  cgofuzz_cgo_in_go_range = __start___sancov_cntrs;\n"
                     "} INSERT AFTER .bss;\n"
                     "ASSERT(SIZEOF(" CNTRS ") == %llu, \"cgofuzz cgo-cc: the "
                     "C counters are not where Go's counter range ends\");\n",
                     plain ? goo : "*/go.o", sec,
                     (unsigned long long)(go_n + m));
  int w = -1;
  errno = ENOMEM;
  if (!text.failed)
    w = cgofuzz_file_write_atomic(script, text.data, text.len, 0666,
                                  CGOFUZZ_FILE_KEEP_MODE, NULL);
  cgofuzz_buf_free(&text);
  if (w != 0) {
    fprintf(stderr, "%s: %s: %s\n", c->tool, script, strerror(errno));
    return -1;
  }
  return 0;
}

static int link_(cgocc *c, int argc, char **argv) {
  const char *goo = NULL;
  bool hooks_defined = false;
  for (int i = 0; i < argc; i++) {
    if (strcmp(base_name(argv[i]), "go.o") == 0)
      goo = argv[i];
    else if (ends_with(argv[i], ".o") && !hooks_defined)
      hooks_defined =
          cgofuzz_elfrel_defines(argv[i], "__sanitizer_cov_trace_cmp1");
  }
  static char script[PATH_MAX + 32], scriptflag[PATH_MAX + 48];
  bool instrumented = false;
  if (goo && place_counters(c, argc, argv, goo, script, sizeof script,
                            &instrumented) != 0)
    return 1;
  for (int i = 0; i < argc; i++)
    if (!instrumented || strcmp(argv[i], "-s") != 0)
      add(c, argv[i]);
  if (script[0]) {
    snprintf(scriptflag, sizeof scriptflag, "-Wl,-T,%s", script);
    add(c, scriptflag);
  }
  static char cgolib[PATH_MAX + 32], iclib[PATH_MAX + 48],
      stackobj[PATH_MAX + 32];
  snprintf(cgolib, sizeof cgolib, "%s/%s", c->lib,
           c->objs ? CGO_OBJ : "libcgofuzz_cgo.a");
  snprintf(stackobj, sizeof stackobj, "%s/" STACK_OBJ, c->lib);
  snprintf(iclib, sizeof iclib, "%s/%s", c->lib,
           c->objs ? INTERCEPT_OBJ : "libcgofuzz_interceptors.a");
  bool intercept = !cli_cc_intercepting_sanitizer(argc, argv);
  if (c->objs) { /* an object is linked whole, as -u and --whole-archive do */
    static char loopobj[PATH_MAX + 32], mutateobj[PATH_MAX + 32];
    snprintf(loopobj, sizeof loopobj, "%s/" LOOP_OBJ, c->lib);
    snprintf(mutateobj, sizeof mutateobj, "%s/" MUTATE_OBJ, c->lib);
    if (intercept)
      add(c, iclib);
    if (!hooks_defined)
      add(c, cgolib);
    add(c, loopobj); /* cgo's wrappers call it (cgowrap.c) */
    add(c, mutateobj);
    add(c, stackobj);
    return run(c);
  }
  if (intercept) {
    add(c, "-Wl,--whole-archive");
    add(c, iclib);
    add(c, "-Wl,--no-whole-archive");
  }
  if (!hooks_defined)
    add(c, "-Wl,-u,cgofuzz_cgo_gohooks");
  add(c, "-Wl,-u,cgofuzz_cgo_stack_init");
  add(c, cgolib);
  return run(c);
}

/* Finds the pieces a link adds (cgocc.lib, .objs): the objects of
 * $CGOFUZZ_CGO_OBJDIR when both are there, else the archives beside the
 * install's or build tree's libcgofuzz.a. 0, or -1 when neither. */
static int locate_runtime(cgocc *c) {
  const char *d = getenv(CGO_OBJDIR_ENV);
  char p[PATH_MAX + 48];
  if (d && *d &&
      snprintf(c->lib, sizeof c->lib, "%s", d) < (int)sizeof c->lib &&
      snprintf(p, sizeof p, "%s/" CGO_OBJ, d) < (int)sizeof p &&
      access(p, R_OK) == 0 &&
      snprintf(p, sizeof p, "%s/" INTERCEPT_OBJ, d) < (int)sizeof p &&
      access(p, R_OK) == 0 &&
      snprintf(p, sizeof p, "%s/" STACK_OBJ, d) < (int)sizeof p &&
      access(p, R_OK) == 0 &&
      snprintf(p, sizeof p, "%s/" LOOP_OBJ, d) < (int)sizeof p &&
      access(p, R_OK) == 0 &&
      snprintf(p, sizeof p, "%s/" MUTATE_OBJ, d) < (int)sizeof p &&
      access(p, R_OK) == 0) {
    c->objs = true;
    return 0;
  }
  return cli_cc_locate(c->lib, NULL, sizeof c->lib);
}

int cli_cmd_cgocc(int argc, char **argv, bool cxx) {
  static cgocc c;
  c.tool = cxx ? "cgofuzz cgo-c++" : "cgofuzz cgo-cc";
  c.cc = getenv(cxx ? "CGOFUZZ_CLANGXX" : "CGOFUZZ_CLANG");
  if (!c.cc || !*c.cc)
    c.cc = cxx ? "clang++" : "clang";
  const char *b = base_name(c.cc);
  if ((strstr(b, "gcc") || strstr(b, "g++")) && !strstr(b, "clang")) {
    fprintf(stderr,
            "%s: %s is gcc, which cannot emit the inline 8-bit edge counters "
            "cgofuzz reads; install clang or set CGOFUZZ_CLANG%s to one\n",
            c.tool, c.cc, cxx ? "XX" : "");
    return 1;
  }
  if (!(c.av = calloc((size_t)argc + 32, sizeof *c.av)))
    return 1;
  add(&c, c.cc);
  bool compile_only = has_arg(argc, argv, "-c") || has_arg(argc, argv, "-S");
  bool other = has_arg(argc, argv, "-E") || has_arg(argc, argv, "-M") ||
               has_arg(argc, argv, "-MM") || has_arg(argc, argv, "-###");
  bool objects = false;
  for (int i = 0; i < argc; i++)
    objects = objects || ends_with(argv[i], ".o") || ends_with(argv[i], ".a") ||
              is_source(argv[i]);
  if (has_arg(argc, argv, "-###"))
    return identify(&c, argc, argv);
  if (!other && compile_only && has_arg(argc, argv, "-c") &&
      instrumented_compile(argc, argv))
    return compile(&c, argc, argv);
  if (other || compile_only || !objects || has_arg(argc, argv, "-")) {
    for (int i = 0; i < argc; i++)
      add(&c, argv[i]);
    return run(&c);
  }
  if (locate_runtime(&c) != 0) {
    fprintf(stderr,
            "%s: cannot find libcgofuzz_cgo.a (in an install's lib/cgofuzz "
            "or a build tree); set CGOFUZZ_LIBDIR to its directory\n",
            c.tool);
    return 1;
  }
  return link_(&c, argc, argv);
}

int cli_cgocc_by_name(int argc, char **argv) {
  if (argc < 1)
    return -1;
  const char *b = base_name(argv[0]);
  if (strcmp(b, "cgofuzz-cgo-cc") == 0)
    return cli_cmd_cgocc(argc - 1, argv + 1, false);
  if (strcmp(b, "cgofuzz-cgo-c++") == 0)
    return cli_cmd_cgocc(argc - 1, argv + 1, true);
  return -1;
}

/* Whether dir/name is a link to (or a copy of) the program at self. */
static bool names_self(const char *dir, const char *name, const char *self) {
  char p[PATH_MAX], real[PATH_MAX];
  return snprintf(p, sizeof p, "%s/%s", dir, name) < (int)sizeof p &&
         realpath(p, real) && strcmp(real, self) == 0;
}

/* Makes dir/name a symbolic link to self (replacing a stale one). */
static int make_link(const char *dir, const char *name, const char *self) {
  char p[PATH_MAX];
  if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
    return -1;
  return cgofuzz_file_symlink_atomic(self, p);
}

int cli_cgocc_paths(char *cc, char *cxx, size_t n) {
  char self[PATH_MAX], dir[PATH_MAX];
  if (cgofuzz_os_self_exe(self, sizeof self) != 0) {
    fprintf(stderr, "cgofuzz cgo-env: cannot find this program's path\n");
    return -1;
  }
  snprintf(dir, sizeof dir, "%s", self);
  *strrchr(dir, '/') = 0;
  bool beside = names_self(dir, "cgofuzz-cgo-cc", self) &&
                names_self(dir, "cgofuzz-cgo-c++", self);
  if (!beside) {
    /* The user's cache, never a shared directory: no HOME, no links. */
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w = xdg && *xdg ? snprintf(dir, sizeof dir, "%s/cgofuzz/bin", xdg)
            : home && *home
                ? snprintf(dir, sizeof dir, "%s/.cache/cgofuzz/bin", home)
                : -1;
    if (w < 0 || w >= (int)sizeof dir) {
      fprintf(stderr,
              "cgofuzz cgo-env: no cgofuzz-cgo-cc beside %s and "
              "neither XDG_CACHE_HOME nor HOME is set to make one\n",
              self);
      return -1;
    }
    if (cgofuzz_dir_make_all(dir, 0755) != 0 ||
        (!names_self(dir, "cgofuzz-cgo-cc", self) &&
         make_link(dir, "cgofuzz-cgo-cc", self) != 0) ||
        (!names_self(dir, "cgofuzz-cgo-c++", self) &&
         make_link(dir, "cgofuzz-cgo-c++", self) != 0)) {
      fprintf(stderr, "cgofuzz cgo-env: cannot make links in %s: %s\n", dir,
              strerror(errno));
      return -1;
    }
  }
  if (snprintf(cc, n, "%s/cgofuzz-cgo-cc", dir) >= (int)n ||
      snprintf(cxx, n, "%s/cgofuzz-cgo-c++", dir) >= (int)n) {
    fprintf(stderr, "cgofuzz cgo-env: %s: path too long\n", dir);
    return -1;
  }
  return 0;
}

/* A shell word for s: single-quoted unless it needs no quotes. */
static void put_word(const char *s) {
  if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                "0123456789/._-+") == strlen(s)) {
    fputs(s, stdout);
    return;
  }
  putchar('\'');
  for (; *s; s++)
    if (*s == '\'')
      fputs("'\\''", stdout);
    else
      putchar(*s);
  putchar('\'');
}

int cli_cmd_cgoenv(int argc, char **argv) {
  (void)argv;
  if (argc != 0) {
    fprintf(stderr, "usage: cgofuzz cgo-env\n");
    return CLI_EXIT_USAGE;
  }
  char cc[PATH_MAX], cxx[PATH_MAX];
  if (cli_cgocc_paths(cc, cxx, sizeof cc) != 0)
    return 1;
  fputs("CC=", stdout);
  put_word(cc);
  fputs("\nCXX=", stdout);
  put_word(cxx);
  fputs("\nexport CC CXX\n", stdout);
  return 0;
}
