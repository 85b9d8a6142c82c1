/*
 * gopkgs.c: the package mode of `cgofuzz fuzz` (docs/campaigns.md): the
 * positional arguments are `go list` patterns (./..., ./pkg/a,
 * example.com/m/..., a directory); each matching package with test files
 * is built into a test binary with `go test -c -fuzz=RE`, several at once
 * (up to the CPU count), in a temporary directory removed at the end. go's
 * build cache serves repeated runs; -tags and $GOFLAGS reach both go list
 * and go test -c. Packages are built with CC and CXX set to cgofuzz's cgo
 * compilers when a clang is there (cgo_compilers below), so the C code of
 * cgo packages guides the fuzzing with no source change.
 *
 * A package that does not build (or that go list reports an error for)
 * keeps go's output, which cmd_fuzz.c prints and campaign.c reports as an
 * error; the others go on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "dir.h"
#include "scratch.h"
#include "spawn.h"

/* The package lines cli_gopkgs_build reads: "importpath\tdir\tT\tE"
 * (T: it has test files; E: go list has an error for it). */
#define LIST_PACKAGES                                                          \
  "{{.ImportPath}}\t{{.Dir}}\t{{if or .TestGoFiles .XTestGoFiles}}T{{end}}"    \
  "\t{{if .Error}}E{{end}}"

/* Runs `go list -e [-deps -test] [-tags T] -f FORMAT patterns...` into
 * out. go's stderr (warnings such as "matched no packages") is passed on
 * unless quiet; a failure is said unless quiet. */
static int go_list(const char *go, char *const *patterns, size_t n,
                   const char *tags, bool deps, const char *format, bool quiet,
                   cgofuzz_buf *out) {
  char **av = calloc(n + 10, sizeof *av);
  if (!av)
    return -1;
  size_t k = 0;
  cgofuzz_buf tg = {0};
  av[k++] = "go";
  av[k++] = "list";
  av[k++] = "-e";
  if (deps) {
    av[k++] = "-deps";
    av[k++] = "-test";
  }
  if (tags) {
    cgofuzz_buf_printf(&tg, "-tags=%s", tags);
    cgofuzz_buf_putc(&tg, 0);
    av[k++] = (char *)tg.data;
  }
  av[k++] = "-f";
  av[k++] = (char *)format;
  av[k++] = "--";
  for (size_t i = 0; i < n; i++)
    av[k++] = patterns[i];
  fflush(stderr);
  cgofuzz_spawn sp = {.path = go,
                      .argv = av,
                      .stdout_fd = -1,
                      .stderr_fd = quiet ? -1 : STDERR_FILENO};
  int st = cgofuzz_spawn_run(&sp, out, false, -1);
  free(av);
  cgofuzz_buf_free(&tg);
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    if (!quiet)
      fprintf(stderr, "cgofuzz fuzz: go list failed%s\n",
              st < 0 ? " to start" : "");
    return -1;
  }
  return 0;
}

/* The arguments of `go test -c [-race] -fuzz=RE -o=OUT [-tags=TAGS] PKG`
 * (av: room for 9), their formatted parts in fz, o and tg (the caller
 * frees them); false when out of memory. */
static bool test_c_argv(char **av, bool race, const char *fuzz_re,
                        const char *out, const char *tags, const char *pkg,
                        cgofuzz_buf *fz, cgofuzz_buf *o, cgofuzz_buf *tg) {
  size_t k = 0;
  cgofuzz_buf_printf(fz, "-fuzz=%s", fuzz_re);
  cgofuzz_buf_printf(o, "-o=%s", out);
  cgofuzz_buf_printf(tg, "-tags=%s", tags ? tags : "");
  if (cgofuzz_buf_putc(fz, 0) || cgofuzz_buf_putc(o, 0) ||
      cgofuzz_buf_putc(tg, 0))
    return false;
  av[k++] = "go";
  av[k++] = "test";
  av[k++] = "-c";
  if (race)
    av[k++] = "-race";
  av[k++] = (char *)fz->data;
  av[k++] = (char *)o->data;
  if (tags && *tags)
    av[k++] = (char *)tg->data;
  av[k++] = (char *)pkg;
  av[k] = NULL;
  return true;
}

/* One `go test -c` of package p, started with its output to log. */
static pid_t start_build(const char *go, const cli_gopkg *p,
                         const char *fuzz_re, const char *tags, int log) {
  cgofuzz_buf fz = {0}, o = {0}, tg = {0};
  char *av[9];
  pid_t pid = -1;
  if (test_c_argv(av, false, fuzz_re, p->binary, tags, p->imp, &fz, &o, &tg)) {
    cgofuzz_spawn sp = {
        .path = go, .argv = av, .stdout_fd = log, .stderr_fd = log};
    pid = cgofuzz_spawn_start(&sp);
  }
  cgofuzz_buf_free(&fz);
  cgofuzz_buf_free(&o);
  cgofuzz_buf_free(&tg);
  return pid;
}

/* Whether any package the patterns' tests build (with the run's tags),
 * outside GOROOT, has cgo files (go list -deps -test). */
static bool uses_cgo(const char *go, char *const *patterns, size_t n,
                     const char *tags) {
  cgofuzz_buf out = {0};
  bool any = false;
  if (go_list(go, patterns, n, tags, true,
              "{{if and .CgoFiles (not .Goroot)}}{{.ImportPath}}{{end}}", true,
              &out) == 0)
    for (size_t i = 0; i < out.len; i++)
      any = any || (out.data[i] != '\n' && out.data[i] != ' ');
  cgofuzz_buf_free(&out);
  return any;
}

/* The C side of cgo packages (docs/cgo.md):
 * `go test -c` gets CC and CXX set to cgofuzz-cgo-cc and cgofuzz-cgo-c++
 * when there is a clang to run them with ($CGOFUZZ_CLANG, a clang named by
 * $CC, or clang in PATH), so the packages' own C code guides the fuzzing.
 * Without one, a line says that the C code stays invisible, when there is
 * C code. CGOFUZZ_CGO=0 leaves CC and CXX alone. */
static void cgo_compilers(const char *go, char *const *patterns, size_t n,
                          const char *tags) {
  const char *off = getenv("CGOFUZZ_CGO");
  if (off && strcmp(off, "0") == 0)
    return;
  const char *cc = getenv("CC"), *clang = getenv("CGOFUZZ_CLANG");
  bool cc_is_clang = cc && *cc && strstr(cc, "clang") && !strchr(cc, ' ');
  if (cc && *cc && strstr(cc, "cgofuzz-cgo-c"))
    return; /* set up already */
  char *found = NULL;
  if (!clang || !*clang)
    clang = cc_is_clang ? cc : (found = cli_find_in_path("clang"));
  char wcc[4096], wcxx[4096];
  if (clang && (!cc || !*cc || cc_is_clang) &&
      cli_cgocc_paths(wcc, wcxx, sizeof wcc) == 0) {
    setenv("CGOFUZZ_CLANG", clang, 1);
    if (!getenv("CGOFUZZ_CLANGXX")) {
      /* clang-14 -> clang++-14; clang -> clang++. */
      char xx[4096];
      const char *at = strstr(clang, "clang");
      snprintf(xx, sizeof xx, "%.*sclang++%s", (int)(at - clang), clang,
               at + 5);
      setenv("CGOFUZZ_CLANGXX", xx, 1);
    }
    setenv("CC", wcc, 1);
    setenv("CXX", wcxx, 1);
  } else if (uses_cgo(go, patterns, n, tags)) {
    fprintf(stderr,
            "cgofuzz fuzz: %s: the cgo packages' C code is built without "
            "coverage and does not guide the fuzzing (install clang, or set "
            "CC to a clang)\n",
            cc && *cc ? "CC is not a clang" : "no clang in PATH");
  }
  free(found);
}

int cli_gopkgs_build(char *const *patterns, size_t n, const char *fuzz_re,
                     const char *tags, cli_gopkgs *g) {
  memset(g, 0, sizeof *g);
  char *go = cli_find_in_path("go");
  if (!go) {
    fprintf(stderr, "cgofuzz fuzz: package patterns need go, which is not in "
                    "PATH\n");
    return -1;
  }
  cgo_compilers(go, patterns, n, tags);
  cgofuzz_buf list = {0};
  int rc = -1;
  if (go_list(go, patterns, n, tags, false, LIST_PACKAGES, false, &list) != 0 ||
      cgofuzz_buf_putc(&list, 0))
    goto done;
  cgofuzz_buf td = {0};
  cgofuzz_buf_printf(&td, "%s/cgofuzz-pkgs-XXXXXX", cgofuzz_tmpdir());
  cgofuzz_buf_putc(&td, 0);
  if (!td.data || !mkdtemp((char *)td.data)) {
    fprintf(stderr, "cgofuzz fuzz: cannot make a temporary directory: %s\n",
            strerror(errno));
    cgofuzz_buf_free(&td);
    goto done;
  }
  g->tmpdir = (char *)td.data;
  /* The packages to build: those with test files, and those go list has an
   * error for (go test -c then says what it is, in go's words). */
  for (char *line = (char *)list.data; *line;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    char *f[4] = {line, NULL, NULL, NULL};
    for (int i = 1; i < 4 && f[i - 1]; i++) {
      char *tab = strchr(f[i - 1], '\t');
      if (tab) {
        *tab = '\0';
        f[i] = tab + 1;
      }
    }
    if (f[3] && (*f[2] == 'T' || *f[3] == 'E')) {
      cli_gopkg *p = realloc(g->p, (g->n + 1) * sizeof *p);
      if (!p)
        goto done;
      g->p = p;
      p += g->n++;
      memset(p, 0, sizeof *p);
      cgofuzz_buf b = {0};
      cgofuzz_buf_printf(&b, "%s/%zu.test", g->tmpdir, g->n);
      cgofuzz_buf_putc(&b, 0);
      p->imp = strdup(f[0]);
      p->dir = strdup(f[1]);
      p->binary = (char *)b.data;
      if (!p->imp || !p->dir || !p->binary)
        goto done;
    }
    line = nl ? nl + 1 : line + strlen(line);
  }
  /* Build them, up to the CPU count at a time, each one's output to a
   * log of its own; waited for in order. */
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t width = cpus > 0 ? (size_t)cpus : 1;
  pid_t *pids = calloc(g->n + 1, sizeof *pids);
  int *logs = calloc(g->n + 1, sizeof *logs);
  if (!pids || !logs) {
    free(pids);
    free(logs);
    goto done;
  }
  fflush(stdout);
  fflush(stderr);
  size_t started = 0;
  for (size_t i = 0; i < g->n; i++) {
    while (started < g->n && started < i + width) {
      cli_gopkg *p = &g->p[started];
      cgofuzz_buf lp = {0};
      cgofuzz_buf_printf(&lp, "%s/%zu.log", g->tmpdir, started + 1);
      cgofuzz_buf_putc(&lp, 0);
      logs[started] = lp.data
                          ? open((char *)lp.data,
                                 O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
                          : -1;
      cgofuzz_buf_free(&lp);
      pids[started] = logs[started] >= 0
                          ? start_build(go, p, fuzz_re, tags, logs[started])
                          : -1;
      started++;
    }
    cli_gopkg *p = &g->p[i];
    int st = pids[i] > 0 ? cgofuzz_spawn_wait(pids[i], -1, NULL) : -1;
    bool ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
              access(p->binary, X_OK) == 0;
    if (!ok) {
      cgofuzz_buf out = {0};
      if (logs[i] >= 0 && lseek(logs[i], 0, SEEK_SET) == 0) {
        char buf[4096];
        ssize_t r;
        while ((r = read(logs[i], buf, sizeof buf)) > 0)
          cgofuzz_buf_append(&out, buf, (size_t)r);
      }
      if (!out.len)
        cgofuzz_buf_printf(&out, "go test -c %s: %s\n", p->imp,
                           pids[i] > 0 ? "failed" : strerror(errno));
      p->error = strndup(out.len ? (const char *)out.data : "", out.len);
      cgofuzz_buf_free(&out);
      unlink(p->binary);
      free(p->binary);
      p->binary = NULL;
    }
    if (logs[i] >= 0)
      close(logs[i]);
  }
  free(pids);
  free(logs);
  rc = 0;
done:
  cgofuzz_buf_free(&list);
  free(go);
  return rc;
}

void cli_gopkgs_free(cli_gopkgs *g) {
  for (size_t i = 0; i < g->n; i++) {
    cli_gopkg *p = &g->p[i];
    free(p->imp);
    free(p->dir);
    free(p->binary);
    free(p->error);
  }
  if (g->tmpdir) /* the binaries and their build logs */
    cgofuzz_dir_remove_all(g->tmpdir);
  free(g->tmpdir);
  free(g->p);
  memset(g, 0, sizeof *g);
}

int cli_gopkgs_race_build(const char *dir, const char *tags, const char *out,
                          cgofuzz_buf *log) {
  char *go = cli_find_in_path("go");
  cgofuzz_buf fz = {0}, o = {0}, tg = {0};
  char *av[9];
  int rc = -1;
  if (!go) {
    cgofuzz_buf_puts(log, "go is not in PATH");
  } else if (test_c_argv(av, true, ".", out, tags, ".", &fz, &o, &tg)) {
    cgofuzz_spawn sp = {.path = go, .argv = av, .dir = dir};
    int st = cgofuzz_spawn_run(&sp, log, true, -1);
    rc = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
  }
  free(go);
  cgofuzz_buf_free(&fz);
  cgofuzz_buf_free(&o);
  cgofuzz_buf_free(&tg);
  return rc;
}
