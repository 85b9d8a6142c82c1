/*
 * cmd_gofuzzer.c: `cgofuzz compile-go-fuzzer PKG FuzzFunc NAME [TAGS]`,
 * the replacement of OSS-Fuzz's compile_native_go_fuzzer, with its
 * arguments:
 *
 *   PKG       the package: an import path, or a directory (what `go list`
 *             takes; an existing directory is used as one, ./ or not)
 *   FuzzFunc  the fuzz target, func FuzzFunc(f *testing.F) in its tests
 *   NAME      the fuzzer's name: the file written is $OUT/NAME
 *   TAGS      build tags (default "gofuzz", as OSS-Fuzz always builds Go
 *             fuzzers; given, they replace it, as compile_go_fuzzer's
 *             fourth argument does)
 *
 * It builds the package's unmodified test binary with `go test -c
 * -fuzz=^FuzzFunc$ -tags TAGS`, checks that it has the target, learns the
 * target's argument kinds and f.Add seeds by running it (coordinator
 * discovery, coord.h), adds the package's testdata/fuzz/FuzzFunc files as
 * seeds, and writes $OUT/NAME: a launcher (golaunch.c) that speaks
 * libFuzzer's command line and runs the test binary's own Go workers.
 *
 * $SANITIZER picks how cgo code is built (as OSS-Fuzz's base-builder sets
 * it): address: `go test -asan` (Go's ASan interoperation: the C code and
 * the Go runtime's view of the heap; CC defaults to clang, whose ASan
 * runtime is linked statically); with CGOFUZZ_GO_ASAN=cgo instead only the
 * C code is built with -fsanitize=address (about 15x more execs per second
 * for Go-heavy targets, but C reading past a Go slice goes unseen);
 * memory: `go test -msan`; undefined: the C code with UBSan; none or unset:
 * no sanitizer. coverage: OSS-Fuzz's Go coverage build: the test binary
 * is built with -cover -coverpkg=MODULE/... (MODULE: the package's
 * module), $OUT/NAME.gocovpath maps MODULE to its directory for the
 * coverage script's sed (s=MODULE=DIR=), and the launcher runs
 * $FUZZ_CORPUS_DIR for -test.coverprofile (gocover.c).
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
#include "coord.h"
#include "dir.h"
#include "os.h"
#include "rawargs.h"
#include "scratch.h"
#include "spawn.h"

extern char **environ;

#define CMD "cgofuzz compile-go-fuzzer"

/* The flags of UBSan for cgo code: OSS-Fuzz's SANITIZER_FLAGS_undefined
 * less the C++-only checks (function, vptr) and unsigned-integer-overflow
 * (which OSS-Fuzz only uses as a coverage signal). */
#define UBSAN_FLAGS                                                            \
  "-fsanitize=array-bounds,bool,builtin,enum,integer-divide-by-zero,null,"     \
  "object-size,return,returns-nonnull-attribute,shift,"                        \
  "signed-integer-overflow,unreachable,vla-bound -fno-sanitize-recover=all"

static const char usage_text[] =
    "usage: " CMD " PKG FuzzFunc NAME [TAGS]\n"
    "Builds the fuzz target FuzzFunc of the Go package PKG (an import path "
    "or a\n"
    "directory) into $OUT/NAME, a fuzz target with libFuzzer's command line "
    "for\n"
    "ClusterFuzz, OSS-Fuzz and ClusterFuzzLite (OSS-Fuzz's "
    "compile_native_go_fuzzer\n"
    "arguments). TAGS: build tags, default gofuzz.\n"
    "Environment: OUT (required), SANITIZER (address, memory, undefined, "
    "coverage,\n"
    "none), CC (default clang with a sanitizer), CGOFUZZ_GO_ASAN=cgo (ASan "
    "for the\n"
    "C code only, without go test -asan).\n";

/* The environment with each "NAME=VALUE" of set replacing NAME. */
static char **make_env(char **set, size_t nset) {
  size_t n = 0;
  while (environ[n])
    n++;
  char **env = calloc(n + nset + 1, sizeof *env);
  if (!env)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    bool replaced = false;
    for (size_t j = 0; j < nset && !replaced; j++) {
      size_t nl = strcspn(set[j], "=") + 1;
      replaced = strncmp(environ[i], set[j], nl) == 0;
    }
    if (!replaced)
      env[k++] = environ[i];
  }
  for (size_t j = 0; j < nset; j++)
    env[k++] = set[j];
  return env;
}

static bool valid_name(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
      return false;
  return true;
}

static bool valid_func(const char *s) {
  if (strncmp(s, "Fuzz", 4) != 0)
    return false;
  for (const char *c = s; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (*c >= '0' && *c <= '9') || *c == '_' || (unsigned char)*c >= 0x80))
      return false;
  return true;
}

/* How $SANITIZER builds the test binary: go test flags and environment. */
typedef struct build_mode {
  const char *goflag; /* "-asan", "-msan" or NULL */
  bool cover;         /* SANITIZER=coverage: -cover -coverpkg=MODULE/... */
  char *env[4];       /* "NAME=VALUE", malloc'd */
  size_t nenv;
  const char *what; /* for the summary */
} build_mode;

static int add_env(build_mode *m, const char *name, const char *value) {
  size_t l = strlen(name) + strlen(value) + 2;
  if (m->nenv == sizeof m->env / sizeof m->env[0] ||
      !(m->env[m->nenv] = malloc(l)))
    return -1;
  snprintf(m->env[m->nenv++], l, "%s=%s", name, value);
  return 0;
}

/* CGO_CFLAGS or CGO_LDFLAGS as they are (Go's default if unset) plus
 * extra. */
static int add_cgo_flags(build_mode *m, const char *name, const char *dflt,
                         const char *extra) {
  const char *cur = getenv(name);
  cgofuzz_buf b = {0};
  int rc = cgofuzz_buf_printf(&b, "%s %s%c", cur ? cur : dflt, extra, 0);
  if (rc == 0)
    rc = add_env(m, name, (const char *)b.data);
  cgofuzz_buf_free(&b);
  return rc;
}

static int pick_mode(build_mode *m) {
  const char *san = getenv("SANITIZER");
  const char *asan_mode = getenv("CGOFUZZ_GO_ASAN");
  const char *cc = getenv("CC");
  bool clang = false;
  memset(m, 0, sizeof *m);
  m->what = "none";
  if (!san || !*san || strcmp(san, "none") == 0)
    return 0;
  if (strcmp(san, "coverage") == 0) {
    m->cover = true;
    m->what = "coverage (go test -cover: with FUZZ_CORPUS_DIR set, "
              "-test.coverprofile writes the Go profile of that corpus)";
    return 0;
  }
  if (strcmp(san, "address") == 0) {
    if (asan_mode && strcmp(asan_mode, "cgo") == 0) {
      m->what = "address, C code only (CGOFUZZ_GO_ASAN=cgo)";
      if (add_cgo_flags(m, "CGO_CFLAGS", "-O2 -g",
                        "-fsanitize=address -fno-omit-frame-pointer") != 0 ||
          add_cgo_flags(m, "CGO_LDFLAGS", "-O2 -g", "-fsanitize=address") != 0)
        return -1;
    } else {
      m->goflag = "-asan";
      m->what = "address (go test -asan)";
    }
    clang = true;
  } else if (strcmp(san, "memory") == 0) {
    m->goflag = "-msan";
    m->what = "memory (go test -msan)";
    clang = true;
  } else if (strcmp(san, "undefined") == 0) {
    m->what = "undefined, C code only";
    if (add_cgo_flags(m, "CGO_CFLAGS", "-O2 -g", UBSAN_FLAGS) != 0 ||
        add_cgo_flags(m, "CGO_LDFLAGS", "-O2 -g", UBSAN_FLAGS) != 0)
      return -1;
    clang = true;
  } else {
    fprintf(stderr,
            CMD ": SANITIZER=%s is not supported for Go fuzz targets "
                "(address, memory, undefined, coverage, none)\n",
            san);
    return -2;
  }
  if (clang && (add_env(m, "CGO_ENABLED", "1") != 0 ||
                ((!cc || !*cc) && add_env(m, "CC", "clang") != 0)))
    return -1;
  return 0;
}

static void free_mode(build_mode *m) {
  for (size_t i = 0; i < m->nenv; i++)
    free(m->env[i]);
}

/* Runs argv in dir with env; its stdout into *out (if out), its stderr to
 * ours. Returns the wait status or -1. */
static int run(const char *path, char **argv, const char *dir, char **env,
               cgofuzz_buf *out) {
  fflush(stdout);
  fflush(stderr);
  cgofuzz_spawn s = {.path = path,
                     .argv = argv,
                     .envp = env,
                     .dir = dir,
                     .stdout_fd = out ? -1 : 2,
                     .stderr_fd = 2};
  if (out)
    return cgofuzz_spawn_run(&s, out, false, -1);
  pid_t pid = cgofuzz_spawn_start(&s);
  return pid < 0 ? -1 : cgofuzz_spawn_wait(pid, -1, NULL);
}

static bool ok(int st) { return st >= 0 && WIFEXITED(st) && !WEXITSTATUS(st); }

/* Appends the files of dir/testdata/fuzz/target (sorted by name, as Go
 * reads them) to g's seeds, each checked against the target's kinds.
 * Returns 0, or -1 after printing why. */
static int add_testdata(const char *dir, const char *target, cli_golaunch *g) {
  cgofuzz_buf td = {0};
  if (cgofuzz_buf_printf(&td, "%s/testdata/fuzz/%s%c", dir, target, 0) != 0)
    return -1;
  char **names;
  size_t n;
  if (cgofuzz_dir_names((const char *)td.data, false, &names, &n) != 0) {
    int e = errno;
    cgofuzz_buf_free(&td);
    if (e == ENOENT || e == ENOTDIR)
      return 0;
    fprintf(stderr, CMD ": %s/testdata/fuzz/%s: %s\n", dir, target,
            strerror(e));
    return -1;
  }
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    cgofuzz_buf path = {0}, data = {0}, raw = {0};
    cgofuzz_err err = {0};
    struct stat st;
    if (cgofuzz_buf_printf(&path, "%s/%s%c", (const char *)td.data, names[i],
                           0) != 0) {
      rc = -1;
    } else if (stat((const char *)path.data, &st) == 0 && S_ISDIR(st.st_mode)) {
      /* Go skips directories */
    } else if (cli_read_file((const char *)path.data, &data) != 0) {
      rc = -1;
    } else if (cgofuzz_rawargs_from_corpus(g->kinds, g->n_kinds, data.data,
                                           data.len, &raw, &err) != 0) {
      if (err.line > 0)
        fprintf(stderr, "%s:%d: %s\n", (const char *)path.data, err.line,
                err.msg);
      else
        fprintf(stderr, "%s: %s\n", (const char *)path.data, err.msg);
      fprintf(stderr,
              CMD ": the seed corpus file above does not fit %s (go test "
                  "would fail on it too)\n",
              target);
      rc = -1;
    } else {
      cgofuzz_buf *ns = realloc(g->seeds, (g->n_seeds + 1) * sizeof *ns);
      if (!ns) {
        rc = -1;
      } else {
        g->seeds = ns;
        ns[g->n_seeds++] = data;
        data = (cgofuzz_buf){0};
      }
    }
    cgofuzz_buf_free(&path);
    cgofuzz_buf_free(&data);
    cgofuzz_buf_free(&raw);
  }
  cgofuzz_dir_names_free(names, n);
  cgofuzz_buf_free(&td);
  return rc;
}

/* Removes the build directory (one file and the directory). */
static void remove_build(const char *tmp, const char *bin) {
  if (bin)
    unlink(bin);
  if (tmp)
    rmdir(tmp);
}

/* One run of compile-go-fuzzer: what its steps share. What it owns is
 * NULL, empty or zero until a step makes it, so gf_free releases whatever
 * the steps made, whichever of them ended the run. */
typedef struct gofuzzer {
  const char *pkg, *func, *name, *tags;
  char outdir[PATH_MAX], self[PATH_MAX], cwd[PATH_MAX];
  build_mode mode;
  char *go, **env, *pkgdir, *imp;
  bool isdir; /* pkg is a directory, listed and built from inside */
  char tmp[PATH_MAX], bin[PATH_MAX + 64];
  cgofuzz_buf listed, fz, re, outpath, info;
  cgofuzz_buf binbytes, modlist, coverpkg, covpath;
  char **names;
  size_t nnames;
  cli_golaunch g;
  cgofuzz_coord_config cfg;
  cgofuzz_err err;
} gofuzzer;

static int gf_oom(void) {
  fprintf(stderr, CMD ": out of memory\n");
  return CLI_EXIT_FAIL;
}

static int gf_args(gofuzzer *f, int argc, char **argv) {
  if (argc >= 1 &&
      (strcmp(argv[0], "-h") == 0 || strcmp(argv[0], "-help") == 0 ||
       strcmp(argv[0], "--help") == 0)) {
    fputs(usage_text, stdout);
    return CLI_EXIT_OK;
  }
  if (argc < 3 || argc > 4) {
    fprintf(stderr, CMD ": want 3 or 4 arguments, have %d\n%s", argc,
            usage_text);
    return CLI_EXIT_USAGE;
  }
  f->pkg = argv[0];
  f->func = argv[1];
  f->name = argv[2];
  f->tags = argc == 4 ? argv[3] : "gofuzz";
  if (!valid_func(f->func)) {
    fprintf(stderr,
            CMD ": %s is not a fuzz target name (func FuzzXxx(f "
                "*testing.F))\n",
            f->func);
    return CLI_EXIT_USAGE;
  }
  if (!valid_name(f->name)) {
    fprintf(stderr,
            CMD ": NAME \"%s\" must be letters, digits, '_' and '-' only, "
                "without an extension (what ClusterFuzz takes for a fuzz "
                "target)\n",
            f->name);
    return CLI_EXIT_USAGE;
  }
  return CLI_GO_ON;
}

/* $OUT, our own executable and directory, $SANITIZER's build mode, go and
 * the environment it runs in. */
static int gf_setup(gofuzzer *f) {
  const char *outenv = getenv("OUT");
  if (!outenv || !*outenv) {
    fprintf(stderr, CMD ": $OUT is not set: it names the directory the fuzz "
                        "target is written to\n");
    return CLI_EXIT_USAGE;
  }
  struct stat st;
  if (!realpath(outenv, f->outdir) || stat(f->outdir, &st) != 0 ||
      !S_ISDIR(st.st_mode)) {
    fprintf(stderr, CMD ": $OUT=%s is not a directory\n", outenv);
    return CLI_EXIT_USAGE;
  }
  if (cgofuzz_os_self_exe(f->self, sizeof f->self) != 0 ||
      !getcwd(f->cwd, sizeof f->cwd)) {
    fprintf(stderr, CMD ": cannot find our own executable\n");
    return CLI_EXIT_FAIL;
  }
  int pm = pick_mode(&f->mode);
  if (pm != 0) {
    if (pm == -1)
      fprintf(stderr, CMD ": out of memory\n");
    return pm == -2 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  if (!(f->go = cli_find_in_path("go"))) {
    fprintf(stderr, CMD ": go is not installed (not found in $PATH)\n");
    return CLI_EXIT_FAIL;
  }
  if (!(f->env = make_env(f->mode.env, f->mode.nenv)))
    return gf_oom();
  return CLI_GO_ON;
}

/* `go list -tags TAGS -f format PKG` into *out, from inside PKG when it
 * is a directory (f->isdir). Returns the wait status or -1. */
static int go_list(const gofuzzer *f, const char *format, cgofuzz_buf *out) {
  char *argv[] = {f->go,
                  "list",
                  "-tags",
                  (char *)f->tags,
                  "-f",
                  (char *)format,
                  f->isdir ? "." : (char *)f->pkg,
                  NULL};
  return run(f->go, argv, f->isdir ? f->pkg : NULL, f->env, out);
}

/* The package: its directory and import path, as go list sees them. A
 * directory is listed from inside, so that its own module applies. */
static int gf_list_package(gofuzzer *f) {
  struct stat st;
  f->isdir = stat(f->pkg, &st) == 0 && S_ISDIR(st.st_mode);
  int s = go_list(f, "{{.Dir}}\n{{.ImportPath}}", &f->listed);
  char *nl1 = NULL, *nl2 = NULL;
  if (ok(s) && cgofuzz_buf_putc(&f->listed, 0) == 0) {
    nl1 = strchr((char *)f->listed.data, '\n');
    nl2 = nl1 ? strchr(nl1 + 1, '\n') : NULL;
  }
  if (!nl1 || !nl2 || nl2[1] != '\0' || nl1 == (char *)f->listed.data) {
    if (ok(s))
      fprintf(stderr, CMD ": %s names %s package\n", f->pkg,
              nl2 && nl2[1] ? "more than one" : "no");
    fprintf(stderr, CMD ": cannot find the Go package %s (go list failed)\n",
            f->pkg);
    return CLI_EXIT_USAGE;
  }
  *nl1 = *nl2 = '\0';
  if (!(f->pkgdir = strdup((char *)f->listed.data)) ||
      !(f->imp = strdup(nl1 + 1)))
    return gf_oom();
  return CLI_GO_ON;
}

/* A coverage build covers the package's module: its path and directory
 * (none outside a module: the package alone). */
static int gf_cover_module(gofuzzer *f) {
  if (!f->mode.cover)
    return CLI_GO_ON;
  int s = go_list(f, "{{with .Module}}{{.Path}}\n{{.Dir}}{{end}}", &f->modlist);
  char *nl = NULL;
  if (ok(s) && cgofuzz_buf_putc(&f->modlist, 0) == 0)
    nl = strchr((char *)f->modlist.data, '\n');
  if (nl) {
    *nl = '\0';
    char *end = strchr(nl + 1, '\n');
    if (end)
      *end = '\0';
  }
  const char *mp = nl ? (const char *)f->modlist.data : f->imp;
  const char *md = nl ? nl + 1 : f->pkgdir;
  if (cgofuzz_buf_printf(&f->coverpkg, "-coverpkg=%s%s%c", mp, nl ? "/..." : "",
                         0) != 0 ||
      cgofuzz_buf_printf(&f->covpath, "s=%s=%s=\n", mp, md) != 0)
    return gf_oom();
  return CLI_GO_ON;
}

/* The test binary, built in a directory of our own. */
static int gf_build(gofuzzer *f) {
  const build_mode *mode = &f->mode;
  snprintf(f->tmp, sizeof f->tmp, "%s/cgofuzz-build-XXXXXX", cgofuzz_tmpdir());
  if (!mkdtemp(f->tmp)) {
    fprintf(stderr, CMD ": mkdtemp %s: %s\n", f->tmp, strerror(errno));
    f->tmp[0] = '\0';
    return CLI_EXIT_FAIL;
  }
  snprintf(f->bin, sizeof f->bin, "%s/%s.test", f->tmp, f->name);
  if (cgofuzz_buf_printf(&f->fz, "-fuzz=^%s$%c", f->func, 0) != 0)
    return gf_oom();
  char *buildargv[14];
  size_t nb = 0;
  buildargv[nb++] = f->go;
  buildargv[nb++] = "test";
  buildargv[nb++] = "-c";
  buildargv[nb++] = (char *)f->fz.data;
  buildargv[nb++] = "-tags";
  buildargv[nb++] = (char *)f->tags;
  if (mode->goflag)
    buildargv[nb++] = (char *)mode->goflag;
  if (mode->cover) {
    buildargv[nb++] = "-cover";
    buildargv[nb++] = (char *)f->coverpkg.data;
  }
  buildargv[nb++] = "-o";
  buildargv[nb++] = f->bin;
  /* Built in the same context as it was listed: from inside a directory
   * given, else from here (our module, go.work, vendor directory). */
  buildargv[nb++] = f->isdir ? "." : (char *)f->pkg;
  buildargv[nb] = NULL;
  fprintf(stderr, CMD ": building %s: go test -c %s -tags %s%s%s%s%s\n", f->imp,
          (char *)f->fz.data, f->tags, mode->goflag ? " " : "",
          mode->goflag ? mode->goflag : "", mode->cover ? " -cover " : "",
          mode->cover ? (char *)f->coverpkg.data : "");
  int s = run(f->go, buildargv, f->isdir ? f->pkg : NULL, f->env, NULL);
  if (!ok(s)) {
    fprintf(stderr, CMD ": go test -c failed for %s\n", f->imp);
    return CLI_EXIT_FAIL;
  }
  struct stat st;
  if (stat(f->bin, &st) != 0) {
    fprintf(stderr, CMD ": %s has no test files: no test binary was built\n",
            f->imp);
    return CLI_EXIT_USAGE;
  }
  return CLI_GO_ON;
}

/* The target must be in it (what OSS-Fuzz's script greps for). */
static int gf_check_target(gofuzzer *f) {
  if (cgofuzz_buf_printf(&f->re, "^%s$%c", f->func, 0) != 0)
    return gf_oom();
  if (cgofuzz_gobin_list_targets(f->bin, (const char *)f->re.data, &f->names,
                                 &f->nnames, &f->err) != 0) {
    fprintf(stderr, CMD ": %s\n", f->err.msg);
    return CLI_EXIT_FAIL;
  }
  if (f->nnames != 1) {
    fprintf(stderr,
            CMD ": Could not find the function: func %s(f *testing.F) in the "
                "tests of %s\n",
            f->func, f->imp);
    return CLI_EXIT_USAGE;
  }
  return CLI_GO_ON;
}

/* Its argument kinds and f.Add seeds, found in the package's directory
 * as go test would run it (a target may read files before f.Fuzz), then
 * testdata/fuzz/FuzzFunc's. */
static int gf_discover(gofuzzer *f) {
  if (chdir(f->pkgdir) != 0) {
    fprintf(stderr, CMD ": %s: %s\n", f->pkgdir, strerror(errno));
    return CLI_EXIT_FAIL;
  }
  f->cfg.binary = f->bin;
  f->cfg.target = f->func;
  f->cfg.parallel = 1;
  int dr = cgofuzz_coord_discover(&f->cfg, f->self, &f->err);
  if (chdir(f->cwd) != 0) {
    fprintf(stderr, CMD ": %s: %s\n", f->cwd, strerror(errno));
    return CLI_EXIT_FAIL;
  }
  if (dr != 0) {
    fprintf(stderr, CMD ": %s\n", f->err.msg);
    return CLI_EXIT_FAIL;
  }
  cli_golaunch *g = &f->g;
  g->target = (char *)f->func;
  g->fuzzer = (char *)f->name;
  g->pkg = f->imp;
  g->kinds = f->cfg.kinds;
  g->n_kinds = f->cfg.n_kinds;
  if (g->n_kinds == 0) {
    fprintf(stderr, CMD ": %s takes no arguments to fuzz\n", f->func);
    return CLI_EXIT_FAIL;
  }
  /* The f.Add seeds, then testdata/fuzz/FuzzFunc. */
  g->seeds = f->cfg.seeds;
  g->n_seeds = f->cfg.n_seeds;
  f->cfg.seeds = NULL;
  f->cfg.n_seeds = 0;
  if (add_testdata(f->pkgdir, f->func, g) != 0)
    return CLI_EXIT_FAIL;
  return CLI_GO_ON;
}

/* $OUT/NAME, the launcher with the test binary, and for a coverage build
 * $OUT/NAME.gocovpath. */
static int gf_write(gofuzzer *f) {
  cli_golaunch *g = &f->g;
  if (cgofuzz_buf_printf(
          &f->info, "compile-go-fuzzer %s %s %s; tags %s; sanitizer %s", f->imp,
          f->func, f->name, f->tags, f->mode.what) != 0 ||
      cgofuzz_buf_putc(&f->info, 0) != 0)
    return gf_oom();
  g->info = (char *)f->info.data;
  if (cli_read_file(f->bin, &f->binbytes) != 0)
    return CLI_EXIT_FAIL;
  if (cgofuzz_buf_printf(&f->outpath, "%s/%s%c", f->outdir, f->name, 0) != 0)
    return gf_oom();
  if (cli_golaunch_write((const char *)f->outpath.data, f->self,
                         f->binbytes.data, f->binbytes.len, g) != 0)
    return CLI_EXIT_FAIL;
  if (f->mode.cover) {
    cgofuzz_buf cp = {0};
    int w = cgofuzz_buf_printf(&cp, "%s.gocovpath%c",
                               (const char *)f->outpath.data, 0);
    if (w == 0)
      w = cli_write_file_atomic((const char *)cp.data, f->covpath.data,
                                f->covpath.len, 0644);
    cgofuzz_buf_free(&cp);
    if (w != 0)
      return CLI_EXIT_FAIL;
  }
  fprintf(stderr, CMD ": wrote %s: %s(", (const char *)f->outpath.data,
          f->func);
  for (size_t i = 0; i < g->n_kinds; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", cgofuzz_kind_name(g->kinds[i]));
  fprintf(stderr, ") of %s, %zu seed%s, sanitizer: %s\n", f->imp, g->n_seeds,
          g->n_seeds == 1 ? "" : "s", f->mode.what);
  return CLI_EXIT_OK;
}

static void gf_free(gofuzzer *f) {
  for (size_t i = 0; i < f->g.n_seeds; i++)
    cgofuzz_buf_free(&f->g.seeds[i]);
  free(f->g.seeds);
  cgofuzz_coord_free_discovery(&f->cfg); /* the kinds */
  cgofuzz_coord_free_names(f->names, f->nnames);
  remove_build(f->tmp[0] ? f->tmp : NULL, f->bin[0] ? f->bin : NULL);
  cgofuzz_buf *bufs[] = {&f->listed,  &f->fz,       &f->re,
                         &f->outpath, &f->info,     &f->binbytes,
                         &f->modlist, &f->coverpkg, &f->covpath};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
  free(f->env);
  free(f->pkgdir);
  free(f->imp);
  free(f->go);
  free_mode(&f->mode);
}

int cli_cmd_gofuzzer(int argc, char **argv) {
  static int (*const steps[])(gofuzzer *) = {
      gf_setup,        gf_list_package, gf_cover_module, gf_build,
      gf_check_target, gf_discover,     gf_write};
  gofuzzer f;
  memset(&f, 0, sizeof f);
  int rc = gf_args(&f, argc, argv);
  for (size_t i = 0; rc == CLI_GO_ON && i < sizeof steps / sizeof *steps; i++)
    rc = steps[i](&f);
  gf_free(&f);
  return rc;
}
