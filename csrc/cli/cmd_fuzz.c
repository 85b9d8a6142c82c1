/*
 * cmd_fuzz.c: `cgofuzz fuzz [flags] BINARY [ARGS...]`: fuzz one target of a
 * Go test binary (built with `go test -c -fuzz=.`) the way `go test -fuzz`
 * does, from the package directory. Flags mirror go test's: -fuzz, -run,
 * -fuzztime, -fuzzminimizetime, -parallel, -fuzzcachedir, -v, plus
 * -fuzzcontinue (keep going after a failure).
 *
 * -run: go test first runs the tests and seed corpora matching -run, with
 * the fuzzed target skipped, and does not fuzz if any fails. We do the same
 * by running the binary once with -test.run=RE -test.skip=^Target$ before
 * fuzzing. Go's default -run matches everything; without an explicit -run
 * we skip that pass (a crasher already written for another target in the
 * same package would otherwise stop every fuzzing run).
 *
 * Dictionary mutations (docs/godict.md): unless -autodict=false, the
 * constants the target's package compares with (from `go tool objdump` of
 * the binary) and the printable runs of the corpus become dictionary
 * tokens, with the entries of every -dict file (libFuzzer/AFL format);
 * -dictout writes the dictionary used. Only for Go test binaries: a C
 * target's worker has comparison feedback of its own.
 *
 * Several targets (-fuzz matching more than one, or several BINARY
 * arguments: the leading arguments that are executable files, up to an
 * optional "--"; the rest go to the workers) are fuzzed in one run by
 * campaign.c (docs/campaigns.md): -fuzztime is then the whole run's
 * budget, shared by an energy schedule, and -fuzztimeper each target's
 * cap. -junit writes a JUnit report and -fuzzstats a CSV time series, for
 * one target too (whose output is otherwise exactly go test's).
 *
 * Package mode: positional arguments that are not executable files are
 * `go list` patterns (./..., ./pkg, example.com/m/..., a directory);
 * gopkgs.c builds each package's test binary (go test -c -fuzz, -tags)
 * and every matching target runs in its package's directory, with go
 * test's cache for the package ($GOCACHE/fuzz/<import path>, or
 * <-fuzzcachedir>/<import path>). Binaries and patterns do not mix.
 *
 * Also the fake worker: when the test binary we run for discovery starts
 * its workers as `cgofuzz -test.fuzzworker ...` (see coord_discover.c),
 * main() lands in cli_fake_worker.
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
#include "clock.h"
#include "coord.h"
#include "fb.h"
#include "gobin.h"
#include "os.h"
#include "scratch.h"
#include "spawn.h"

int cli_fake_worker(void) { return cgofuzz_gobin_fake_worker(); }

/* Runs the tests matching run_re (the fuzz target skipped), as go test
 * does before fuzzing. Their output is passed on, except the binary's
 * final PASS line when they pass. Returns 0 when they pass. A binary of
 * go1.18 or go1.19 (gover) has no -test.skip: it is run with -test.run
 * alone, so the fuzz targets matching run_re run their seed corpus too, as
 * that release's own `go test -run=RE -fuzz=F` does; extra -test.* flags
 * it does not know are left out (cgofuzz_gobin_test_flag_ok). */
static int run_tests_first(const char *binary, int gover, const char *skip_re,
                           const char *run_re, bool verbose, char **extra,
                           size_t n_extra) {
  size_t n = 0;
  char **av = calloc(n_extra + 6, sizeof *av);
  cgofuzz_buf run = {0}, skip = {0}, out = {0};
  if (!av || cgofuzz_buf_printf(&run, "-test.run=%s", run_re) != 0 ||
      cgofuzz_buf_printf(&skip, "-test.skip=%s", skip_re) != 0 ||
      cgofuzz_buf_putc(&run, 0) != 0 || cgofuzz_buf_putc(&skip, 0) != 0) {
    free(av);
    cgofuzz_buf_free(&run);
    cgofuzz_buf_free(&skip);
    return -1;
  }
  av[n++] = (char *)binary;
  av[n++] = "-test.paniconexit0";
  av[n++] = (char *)run.data;
  if (cgofuzz_gobin_test_flag_ok(gover, "-test.skip"))
    av[n++] = (char *)skip.data;
  if (verbose)
    av[n++] = "-test.v=true";
  for (size_t i = 0; i < n_extra; i++)
    if (cgofuzz_gobin_test_flag_ok(gover, extra[i]))
      av[n++] = extra[i];
  fflush(stdout);
  fflush(stderr);
  cgofuzz_spawn sp = {.path = binary, .argv = av};
  int st = cgofuzz_spawn_run(&sp, &out, true, -1);
  bool ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  const char *o = (const char *)out.data;
  size_t len = out.len;
  if (ok) { /* drop the final PASS and the "no tests to run" warning */
    if (len >= 5 && memcmp(o + len - 5, "PASS\n", 5) == 0 &&
        (len == 5 || o[len - 6] == '\n'))
      len -= 5;
    const char *w = "testing: warning: no tests to run\n";
    size_t wl = strlen(w);
    if (len >= wl && memcmp(o + len - wl, w, wl) == 0)
      len -= wl;
  }
  if (len)
    fwrite(o, 1, len, stdout);
  if (!ok && (len < 5 || memcmp(o + len - 5, "FAIL\n", 5) != 0))
    printf("FAIL\n");
  fflush(stdout);
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&run);
  cgofuzz_buf_free(&skip);
  free(av);
  return ok ? 0 : -1;
}

/* -v, as go test's -test.v: a boolean, or "test2json" (verbose, the
 * framing lines marked for test2json). */
typedef struct chatty_flag {
  bool on, json;
} chatty_flag;

static int set_chatty(void *dst, const char *v, cgofuzz_err *why) {
  chatty_flag *c = dst;
  const char *reason;
  c->json = strcmp(v, "test2json") == 0;
  if (c->json)
    c->on = true;
  else if (cgofuzz_flag_parse_bool(v, &c->on, &reason) != 0)
    return cgofuzz_errf(why, 0, "%s", reason);
  return 0;
}

/* -dict: every file given is kept (the flag may be repeated). */
typedef struct dict_files {
  const char **path;
  size_t n;
} dict_files;

static int add_dict_file(void *dst, const char *value, cgofuzz_err *why) {
  dict_files *f = dst;
  const char **p = realloc(f->path, (f->n + 1) * sizeof *p);
  if (!p) {
    snprintf(why->msg, sizeof why->msg, "out of memory");
    return -1;
  }
  f->path = p;
  f->path[f->n++] = value;
  return 0;
}

/* The dictionary of this run in *out: -dict files, then (autodict, Go
 * binaries only) the binary's constants: its data's now, its code's by the
 * coordinator (fb->dict_code) unless dictout or counted (an exec-counted
 * run: -fuzztime or -fuzztimeper Nx); the corpus's tokens are
 * added by the coordinator once it has loaded the corpus. Returns 0 (*out NULL
 * when there is no dictionary), or the exit status when a -dict file is bad or
 * memory runs out. */
static int build_dict(const cgofuzz_coord_config *cfg, const dict_files *files,
                      bool autodict, bool dictout, bool counted, cgofuzz_fb *fb,
                      cgofuzz_fb_dict **out) {
  *out = NULL;
  bool go_binary = cgofuzz_gobin_go_counters(cfg->binary) > 0;
  if (!files->n && !(autodict && go_binary) && !dictout)
    return 0;
  cgofuzz_fb_dict *d = cgofuzz_fb_dict_new();
  if (!d) {
    fprintf(stderr, "cgofuzz fuzz: out of memory\n");
    return CLI_EXIT_FAIL;
  }
  for (size_t i = 0; i < files->n; i++) {
    cgofuzz_err err = {0};
    if (cgofuzz_fb_dict_load(d, files->path[i], &err) != 0) {
      fprintf(stderr, "cgofuzz fuzz: %s\n", err.msg);
      cgofuzz_fb_dict_free(d);
      return CLI_EXIT_USAGE;
    }
  }
  if (autodict && go_binary) {
    /* -dictout writes the whole dictionary before fuzzing, and a run of
     * -fuzztime=Nx is to be the same every time (with GODEBUG=fuzzseed):
     * both wait for objdump. Otherwise the coordinator adds the code's
     * constants when objdump is done, without holding the first inputs
     * back. */
    cgofuzz_err err = {0};
    if (cgofuzz_fb_godict_attach(fb, cfg->binary, cfg->target, d,
                                 dictout || counted, &err) != 0 &&
        cfg->verbose && !cfg->quiet)
      fprintf(stderr, "cgofuzz: %s\n", err.msg);
  }
  *out = d;
  return 0;
}

static void usage_fuzz(const cgofuzz_flag *flags, size_t n) {
  fprintf(stderr,
          "usage: cgofuzz fuzz [flags] BINARY... [--] [ARGS...]\n"
          "       cgofuzz fuzz [flags] PACKAGE... [--] [ARGS...]\n"
          "Fuzzes the targets matching -fuzz of Go test binaries (go test -c "
          "-fuzz=.) or C target binaries, from the package directory, or of "
          "the packages matching go list patterns (./..., any argument that "
          "is not an executable file), each built with go test -c and run in "
          "its package's directory; several targets share one run "
          "(docs/campaigns.md).\n");
  cli_print_flags(flags, n);
}

/* Whether a positional argument names a test binary: not a flag, an
 * executable regular file. */
static bool is_binary_arg(const char *a) {
  struct stat sb;
  return a[0] != '-' && stat(a, &sb) == 0 && S_ISREG(sb.st_mode) &&
         access(a, X_OK) == 0;
}

/* "^T$" for one target, "^(A|B|C)$" for several (a -test.skip). */
static char *skip_pattern(char **names, size_t n) {
  cgofuzz_buf b = {0};
  cgofuzz_buf_puts(&b, n == 1 ? "^" : "^(");
  for (size_t i = 0; i < n; i++)
    cgofuzz_buf_printf(&b, "%s%s", i ? "|" : "", names[i]);
  cgofuzz_buf_puts(&b, n == 1 ? "$" : ")$");
  if (cgofuzz_buf_putc(&b, 0) != 0) {
    cgofuzz_buf_free(&b);
    return NULL;
  }
  return (char *)b.data;
}

/* The binaries given and their matching targets. */
typedef struct bin_info {
  char path[PATH_MAX];
  const char *base;
  const char *arg; /* as named in messages */
  /* Package mode: the package's import path, directory, that directory
   * as named from ours and the package as go test names it from there
   * (cfg.display_dir and display_pkg); NULL otherwise. */
  const char *imp, *dir;
  char *reldir, *relpkg;
  char **names;
  size_t n;
  int gover; /* the Go release that built it (cgofuzz_gobin_gover) */
  /* Not read from the binary, which is not a C target either (coord.h's
   * gover_unknown); or not a test binary at all when it lists nothing. */
  bool gover_unknown;
} bin_info;

/* Frees b[0..n) and b. */
static void free_bins(bin_info *b, int n) {
  for (int i = 0; i < n; i++) {
    cgofuzz_coord_free_names(b[i].names, b[i].n);
    free(b[i].reldir);
    free(b[i].relpkg);
  }
  free(b);
}

int cli_cmd_fuzz(int argc, char **argv) {
  return cli_fuzz_main(argc, argv, NULL);
}

/* p made absolute (from the current directory), malloc'd; NULL stays. */
static const char *absolute(const char *p, char ***keep, size_t *nkeep) {
  char cwd[PATH_MAX];
  if (!p || p[0] == '/' || !getcwd(cwd, sizeof cwd))
    return p;
  char **k = realloc(*keep, (*nkeep + 1) * sizeof *k);
  char *a = malloc(strlen(cwd) + strlen(p) + 2);
  if (k)
    *keep = k;
  if (!k || !a) {
    free(a);
    return p;
  }
  sprintf(a, "%s/%s", cwd, p);
  (*keep)[(*nkeep)++] = a;
  return a;
}

/* dir as named from the current directory: "." , "a/b", or dir itself
 * (absolute) when it is not below; malloc'd. */
static char *rel_dir(const char *dir) {
  char cwd[PATH_MAX], rd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd) || !realpath(dir, rd))
    return strdup(dir);
  size_t l = strlen(cwd);
  if (strcmp(rd, cwd) == 0)
    return strdup(".");
  if (strncmp(rd, cwd, l) == 0 && (rd[l] == '/' || l == 1))
    return strdup(rd + l + (l > 1));
  return strdup(dir);
}

/* The package in the directory reldir names (rel_dir) as go test names
 * it from ours: "./a/b", malloc'd; NULL for "." and absolute paths. */
static char *rel_pkg(const char *reldir) {
  if (!reldir || reldir[0] == '/' || strcmp(reldir, ".") == 0)
    return NULL;
  size_t l = strlen(reldir) + 3;
  char *p = malloc(l);
  if (p)
    snprintf(p, l, "./%s", reldir);
  return p;
}

/* The flags of `cgofuzz fuzz`, as parsed. */
typedef struct fuzz_opts {
  const char *fuzz_re, *run_re, *cachedir;
  /* -fuzztime and -fuzzminimizetime are go test's duration-or-count
   * flags: "Nx" or a duration; only the latter may be zero (off). */
  cgofuzz_flag_dur fuzztime, mintime, fuzztimeper;
  cgofuzz_flag_dur fuzztimeout; /* -fuzztimeout, -fuzzrsslimitmb */
  cgofuzz_flag_dur syncevery;
  const char *syncdir;
  int64_t rsslimit;
  int64_t parallel;
  bool cont, autodict, cmpfeedback, racereplay, goleaks;
  chatty_flag chatty;
  const char *dictout, *junit, *fuzzstats;
  const char *tags, *panic_on, *focus;
  dict_files dicts;
} fuzz_opts;

/* The flag table's length, and the entries read back by index (whether
 * they appeared). */
enum { FUZZ_NFLAGS = 24, FUZZ_FLAG_MINTIME = 3, FUZZ_FLAG_PARALLEL = 4 };

/* What -racereplay and -focus make once per binary, for each of its
 * targets: its -race build and its focus mask, or why either failed (each
 * target then gets that as its error). */
typedef struct bin_side {
  char *race, *race_err;
  uint8_t *focus;
  size_t focus_len;
  char *focus_err;
} bin_side;

/* One run of cli_fuzz_main: what its steps share. What it owns is NULL or
 * zero until a step makes it, so fuzz_free releases whatever the steps
 * made, whichever of them ended the run. */
typedef struct fuzz_run {
  int argc;
  char **argv;
  cli_fuzz_pre *pre; /* go test -exec (cmd_exec.c), or NULL */
  fuzz_opts o;
  cgofuzz_flag flags[FUZZ_NFLAGS];
  /* argv[first..): nbin binaries or npat package patterns, then from
   * extra_at the workers' arguments */
  int first, nbin, npat, extra_at;
  cgofuzz_coord_config cfg; /* every target's, before its own fields */
  cli_gopkgs pkgs;
  char **abs_keep; /* package mode: the user's paths made absolute */
  size_t n_abs;
  bin_info *bins;  /* [nbin] */
  bin_side *sides; /* [nbin] once one is needed (side_of) */
  char self[PATH_MAX];
  cli_campaign cp;
  char *cache_alloc, *gocache, *imp;
  /* The targets to fuzz, and the packages that have some: with more than
   * one, the failure blocks on stdout name paths and packages from our
   * directory. */
  size_t total, pkgs_fuzzed;
  cgofuzz_err err;
} fuzz_run;

static int fuzz_oom(void) {
  fprintf(stderr, "cgofuzz fuzz: out of memory\n");
  return CLI_EXIT_FAIL;
}

static void fuzz_flag_table(fuzz_opts *o, cgofuzz_flag *flags) {
  const cgofuzz_flag t[] = {
      {.name = "fuzz",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->fuzz_re,
       .usage = "`regexp` selecting the fuzz targets"},
      {.name = "run",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->run_re,
       .usage = "first run the tests and seed corpora matching this `regexp`"},
      {.name = "fuzztime",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &o->fuzztime,
       .usage = "time (e.g. 10s) or Nx execs; with several targets, the "
                "whole run's budget, shared by the schedule"},
      {.name = "fuzzminimizetime", /* FUZZ_FLAG_MINTIME */
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &o->mintime,
       .usage = "time or Nx execs for minimizing a crasher (default 60s)",
       .allow_zero = true},
      {.name = "parallel", /* FUZZ_FLAG_PARALLEL */
       .type = CGOFUZZ_FLAG_INT,
       .dst = &o->parallel,
       .usage = "number of workers (default: online CPUs)"},
      {.name = "fuzzcachedir",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->cachedir,
       .usage = "parent of the <Target> cache `dir` (default "
                "$GOCACHE/fuzz/<import path>)"},
      {.name = "v",
       .type = CGOFUZZ_FLAG_BOOL_FUNC,
       .dst = &o->chatty,
       .func = set_chatty,
       .usage = "verbose: === RUN and --- PASS lines (=test2json: marked "
                "for test2json, as go test -json runs a test binary)"},
      {.name = "fuzzcontinue",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &o->cont,
       .usage = "keep fuzzing after a failure; write every distinct failure "
                "(other targets go on)"},
      {.name = "dict",
       .type = CGOFUZZ_FLAG_FUNC,
       .dst = &o->dicts,
       .func = add_dict_file,
       .usage = "libFuzzer/AFL dictionary `file` of tokens to insert "
                "(repeatable)"},
      {.name = "autodict",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &o->autodict,
       .usage = "also take tokens from the constants the target's code "
                "compares with and from the corpus (default true)"},
      {.name = "cmpfeedback",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &o->cmpfeedback,
       .usage = "trace the comparisons of each new input in a patched copy "
                "of a Go test binary and try the inputs that pass them "
                "(default true; docs/comparisons.md)"},
      {.name = "dictout",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->dictout,
       .usage = "write the dictionary used to `file` (libFuzzer format)"},
      {.name = "fuzztimeper",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &o->fuzztimeper,
       .usage = "time or Nx execs per target: each target's cap (with "
                "-fuzztime) or its whole budget (without)"},
      {.name = "junit",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->junit,
       .usage = "write a JUnit XML report to `file`: a test case per target"},
      {.name = "fuzzstats",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->fuzzstats,
       .usage = "write a CSV time series of each target's figures to "
                "`file` (docs/campaigns.md)"},
      {.name = "fuzztimeout",
       .type = CGOFUZZ_FLAG_DURATION,
       .dst = &o->fuzztimeout,
       .usage = "a worker that runs one input this long is hung: it is "
                "stopped and the input recorded (default: the binary's Go "
                "release's own timer, 10s, or 60s from Go 1.27)"},
      {.name = "fuzzrsslimitmb",
       .type = CGOFUZZ_FLAG_INT,
       .dst = &o->rsslimit,
       .usage = "a worker whose resident set grows above this many MiB is "
                "stopped and its input recorded (default 0: no limit)"},
      {.name = "syncdir",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->syncdir,
       .usage = "share inputs with other runs through `dir`: before each "
                "slice its inputs go into the cache, after it the cache's "
                "and testdata's go there (docs/campaigns.md)"},
      {.name = "syncevery",
       .type = CGOFUZZ_FLAG_DURATION,
       .dst = &o->syncevery,
       .usage = "with -syncdir, the slice length: a sync between slices "
                "(default 60s)"},
      {.name = "tags",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->tags,
       .usage = "package patterns: build `tags` for go list and go test -c "
                "(comma-separated, as go's -tags)"},
      {.name = "focus",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->focus,
       .usage = "git `revision`: weigh up the inputs that reach Go code "
                "changed since it (git diff of the working tree; for "
                "fuzzing a pull request)"},
      {.name = "racereplay",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &o->racereplay,
       .usage = "run every new input once more in a -race build of the "
                "package (go test -c -race, built in its directory): a data "
                "race there is a failure, re-run by go test -race -run"},
      {.name = "goleaks",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &o->goleaks,
       .usage = "run every new input again and fail on goroutines it leaves "
                "running (goleak's check, for Go test binaries that do not "
                "import it); re-run by go test -run -exec=cgofuzz with "
                "CGOFUZZ_FLAGS=-goleaks"},
      {.name = "panic-on",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &o->panic_on,
       .usage = "Go `functions` (comma-separated, e.g. "
                "example.com/m/log.(*Logger).Error) whose call is a failure: "
                "the workers run a copy in which calling them panics"},
  };
  _Static_assert(sizeof t / sizeof t[0] == FUZZ_NFLAGS, "FUZZ_NFLAGS");
  memcpy(flags, t, sizeof t);
}

static int fuzz_parse_flags(fuzz_run *r) {
  r->o.autodict = r->o.cmpfeedback = true;
  fuzz_flag_table(&r->o, r->flags);
  r->first = cli_parse_flags("fuzz", r->flags, FUZZ_NFLAGS, r->argc, r->argv);
  if (r->first < 0) {
    usage_fuzz(r->flags, FUZZ_NFLAGS);
    return r->first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (r->first >= r->argc) {
    fprintf(stderr, "cgofuzz fuzz: BINARY or PACKAGE expected\n");
    usage_fuzz(r->flags, FUZZ_NFLAGS);
    return CLI_EXIT_USAGE;
  }
  return CLI_GO_ON;
}

/* The flags' checks, and the coordinator's configuration they give. */
static int fuzz_config(fuzz_run *r) {
  const fuzz_opts *o = &r->o;
  cgofuzz_coord_config *cfg = &r->cfg;
  cfg->minimize_ns = 60LL * 1000000000;
  cfg->fuzz_ns = o->fuzztime.ns;
  cfg->fuzz_count = o->fuzztime.count;
  if (r->flags[FUZZ_FLAG_MINTIME].seen) {
    cfg->minimize_off = o->mintime.ns == 0 && o->mintime.count == 0;
    cfg->minimize_ns = o->mintime.count ? 0 : o->mintime.ns;
    cfg->minimize_count = o->mintime.count;
  }
  if (o->parallel < 0 ||
      (r->flags[FUZZ_FLAG_PARALLEL].seen && o->parallel < 1)) {
    fprintf(stderr, "cgofuzz fuzz: -parallel must be at least 1\n");
    return CLI_EXIT_USAGE;
  }
  if ((o->fuzztime.ns || o->fuzztime.count) &&
      (o->fuzztimeper.ns || o->fuzztimeper.count) &&
      !o->fuzztime.count != !o->fuzztimeper.count) {
    fprintf(stderr, "cgofuzz fuzz: -fuzztime and -fuzztimeper must both be "
                    "durations or both be counts (Nx)\n");
    return CLI_EXIT_USAGE;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cfg->parallel = o->parallel
                      ? (int)(o->parallel > INT_MAX ? INT_MAX : o->parallel)
                      : (int)(cpus > 0 ? cpus : 1);
  cfg->verbose = o->chatty.on;
  cfg->json_marks = o->chatty.json;
  cfg->quiet = r->pre != NULL;
  cfg->fuzz_continue = o->cont;
  cfg->panic_on = o->panic_on;
  if (o->fuzztimeout.ns < 0 || o->rsslimit < 0) {
    fprintf(stderr, "cgofuzz fuzz: -%s must not be negative\n",
            o->fuzztimeout.ns < 0 ? "fuzztimeout" : "fuzzrsslimitmb");
    return CLI_EXIT_USAGE;
  }
  cfg->exec_timeout_ns = o->fuzztimeout.ns;
  cfg->rss_limit_mb = o->rsslimit;
  return CLI_GO_ON;
}

/* The binaries: the leading positional arguments that are executable
 * files (the first always is one), up to an optional "--". Outside go
 * test -exec, the leading ones that are not flags are binaries or, when
 * not executable files, package patterns (package mode). */
static int fuzz_split_args(fuzz_run *r) {
  int argc = r->argc, first = r->first, nbin = 1, npat = 0;
  char **argv = r->argv;
  if (r->pre) {
    while (first + nbin < argc && is_binary_arg(argv[first + nbin]))
      nbin++;
  } else {
    nbin = 0;
    while (first + nbin + npat < argc && argv[first + nbin + npat][0] != '-') {
      if (is_binary_arg(argv[first + nbin + npat]))
        nbin++;
      else
        npat++;
    }
  }
  r->nbin = nbin;
  r->npat = npat;
  r->extra_at = first + nbin + npat;
  if (r->extra_at < argc && strcmp(argv[r->extra_at], "--") == 0)
    r->extra_at++;
  r->cfg.extra_args = argv + r->extra_at;
  r->cfg.n_extra = (size_t)(argc - r->extra_at);
  if (npat && nbin) {
    fprintf(stderr, "cgofuzz fuzz: give test binaries or package patterns, "
                    "not both (a pattern is an argument that is not an "
                    "executable file)\n");
    return CLI_EXIT_USAGE;
  }
  if (!nbin && !npat) {
    fprintf(stderr, "cgofuzz fuzz: BINARY or PACKAGE expected\n");
    usage_fuzz(r->flags, FUZZ_NFLAGS);
    return CLI_EXIT_USAGE;
  }
  if (npat && !r->o.fuzz_re) {
    fprintf(stderr, "cgofuzz fuzz: -fuzz is required\n");
    return CLI_EXIT_USAGE;
  }
  return CLI_GO_ON;
}

/* Package mode: the targets run in their packages' directories, so the
 * user's paths are made absolute first; then the packages are built, and
 * each that built is a binary. */
static int fuzz_build_packages(fuzz_run *r) {
  if (!r->npat)
    return CLI_GO_ON;
  fuzz_opts *o = &r->o;
  o->junit = absolute(o->junit, &r->abs_keep, &r->n_abs);
  o->syncdir = absolute(o->syncdir, &r->abs_keep, &r->n_abs);
  o->fuzzstats = absolute(o->fuzzstats, &r->abs_keep, &r->n_abs);
  o->dictout = absolute(o->dictout, &r->abs_keep, &r->n_abs);
  o->cachedir = absolute(o->cachedir, &r->abs_keep, &r->n_abs);
  for (size_t i = 0; i < o->dicts.n; i++)
    o->dicts.path[i] = absolute(o->dicts.path[i], &r->abs_keep, &r->n_abs);
  if (cli_gopkgs_build(r->argv + r->first, (size_t)r->npat, o->fuzz_re, o->tags,
                       &r->pkgs))
    return CLI_EXIT_FAIL;
  for (size_t i = 0; i < r->pkgs.n; i++) {
    if (!r->pkgs.p[i].error) {
      r->nbin++;
      continue;
    }
    fputs(r->pkgs.p[i].error, stderr);
    fprintf(stderr,
            "cgofuzz fuzz: %s: build failed; the other packages go "
            "on\n",
            r->pkgs.p[i].imp);
  }
  return CLI_GO_ON;
}

/* Binary i (of package *pk, which moves on past it, in package mode):
 * its path, names, and the Go release it follows. */
static int fuzz_read_bin(fuzz_run *r, int i, size_t *pk) {
  bin_info *b = &r->bins[i];
  b->arg = r->argv[r->first + i];
  if (r->npat) {
    const cli_gopkg *p = r->pkgs.p;
    while (p[*pk].error)
      (*pk)++;
    b->arg = p[*pk].binary;
    b->imp = p[*pk].imp;
    b->dir = p[*pk].dir;
    b->reldir = rel_dir(p[*pk].dir);
    b->relpkg = rel_pkg(b->reldir);
    (*pk)++;
  }
  if (!realpath(b->arg, b->path)) {
    fprintf(stderr, "cgofuzz fuzz: %s: not found\n", b->arg);
    return CLI_EXIT_USAGE;
  }
  const char *sl = strrchr(b->path, '/');
  b->base = sl ? sl + 1 : b->path;
  if (b->imp)
    b->base = b->imp;
  /* The release to follow (issue 14): read from the binary's build info;
   * a C target, or a binary whose build info cannot be read, follows the
   * newest (the latter with a warning). */
  cgofuzz_err gerr = {0};
  int known = cgofuzz_gobin_gover(b->path, &b->gover, &gerr);
  b->gover_unknown = known <= 0 && (cgofuzz_gobin_go_counters(b->path) > 0 ||
                                    cgofuzz_gobin_counters(b->path) == 0);
  if (known < 0)
    fprintf(stderr,
            "cgofuzz fuzz: warning: %s: cannot tell which Go release built "
            "it (%s); following go1.%d\n",
            b->arg, gerr.msg, b->gover);
  for (int k = r->extra_at; k < r->argc; k++)
    if (!cgofuzz_gobin_test_flag_ok(b->gover, r->argv[k]))
      fprintf(stderr,
              "cgofuzz fuzz: warning: %s was built by go1.%d, which has no "
              "flag %s: not passed to it\n",
              b->arg, b->gover, r->argv[k]);
  return CLI_GO_ON;
}

static int fuzz_read_bins(fuzz_run *r) {
  if (!(r->bins = calloc((size_t)r->nbin + 1, sizeof *r->bins)))
    return fuzz_oom();
  size_t pk = 0;
  for (int i = 0; i < r->nbin; i++) {
    int rc = fuzz_read_bin(r, i, &pk);
    if (rc != CLI_GO_ON)
      return rc;
  }
  if (cgofuzz_os_self_exe(r->self, sizeof r->self) != 0) {
    fprintf(stderr, "cgofuzz fuzz: cannot find our own executable\n");
    return CLI_EXIT_FAIL;
  }
  return CLI_GO_ON;
}

/* The targets of each binary that -fuzz matches (go test -exec: the one
 * the binary named). */
static int fuzz_list_targets(fuzz_run *r) {
  r->cp.start_ms = cgofuzz_mono_ms();
  r->cp.pkgs = r->npat ? &r->pkgs : NULL;
  for (int i = 0; i < r->nbin; i++) {
    bin_info *b = &r->bins[i];
    int lrc = 0;
    if (r->pre) { /* go test -exec: the binary named its one target */
      if (!(b->names = calloc(1, sizeof *b->names)) ||
          !(b->names[0] = strdup(r->pre->target)))
        return fuzz_oom();
      b->n = 1;
    } else {
      int home = cli_enter_dir(b->dir);
      lrc =
          cgofuzz_gobin_list_targets(b->path, r->o.fuzz_re ? r->o.fuzz_re : ".",
                                     &b->names, &b->n, &r->err);
      cli_leave_dir(home);
    }
    if (lrc != 0) {
      fprintf(stderr, "cgofuzz fuzz: %s\n", r->err.msg);
      return CLI_EXIT_USAGE;
    }
    if (b->n == 0 && !r->pre && b->gover_unknown &&
        cgofuzz_gobin_counters(b->path) == 0) {
      /* No Go build info, no counters and no target listed: /usr/bin/true
       * answers -test.list with nothing too. A Go test binary with no
       * target matching -fuzz still gets go test's warning below. */
      fprintf(stderr,
              "cgofuzz fuzz: %s is not a Go test binary (no Go build "
              "information, no coverage counters, no fuzz target listed) "
              "nor a C target built by cgofuzz cc\n",
              b->arg);
      return CLI_EXIT_USAGE;
    }
    r->total += b->n;
    r->pkgs_fuzzed += b->imp && b->n;
  }
  if (!r->o.fuzz_re) {
    fprintf(stderr, "cgofuzz fuzz: -fuzz is required\n");
    return CLI_EXIT_USAGE;
  }
  if (r->total == 0 && !cli_campaign_broken(&r->cp)) {
    fprintf(stderr, "testing: warning: no fuzz tests to fuzz\n");
    printf("PASS\n");
    return CLI_EXIT_OK;
  }
  return CLI_GO_ON;
}

/* The campaign's budgets and, without -fuzzcachedir, go test's cache:
 * $GOCACHE/fuzz/<import path>. */
static int fuzz_plan(fuzz_run *r) {
  const fuzz_opts *o = &r->o;
  cli_campaign *cp = &r->cp;
  /* -syncdir: slices with a sync between them, one target too. */
  cp->single = r->total == 1 && !o->syncdir;
  cp->syncdir = o->syncdir;
  cp->sync_ms = o->syncdir
                    ? (o->syncevery.ns > 0 ? o->syncevery.ns / 1000000 : 60000)
                    : 0;
  cp->verbose = o->chatty.on;
  cp->cont = o->cont;
  cp->total_ns = o->fuzztime.ns;
  cp->total_count = o->fuzztime.count;
  cp->per_ns = o->fuzztimeper.ns;
  cp->per_count = o->fuzztimeper.count;
  if (cp->single && !cp->total_ns && !cp->total_count) {
    cp->total_ns = cp->per_ns; /* one target: its budget is the run's */
    cp->total_count = cp->per_count;
  }
  if (o->cachedir) {
    r->cfg.cache_root = o->cachedir;
    return CLI_GO_ON;
  }
  /* Package mode adds each package's import path below it; a binary run
   * from its package's directory takes the path from go list. */
  char *goenv[] = {"go", "env", "GOCACHE", NULL};
  char *golist[] = {"go", "list", NULL};
  if (cgofuzz_gobin_cmd_line(goenv, &r->gocache) != 0 ||
      (!r->npat && cgofuzz_gobin_cmd_line(golist, &r->imp) != 0)) {
    fprintf(stderr,
            "cgofuzz fuzz: cannot find the cache dir with `go env "
            "GOCACHE`%s; pass -fuzzcachedir\n",
            r->npat ? "" : " and `go list`");
    return CLI_EXIT_USAGE;
  }
  size_t l = strlen(r->gocache) + (r->imp ? strlen(r->imp) : 0) + 8;
  if (!(r->cache_alloc = malloc(l)))
    return fuzz_oom();
  snprintf(r->cache_alloc, l, "%s/fuzz%s%s", r->gocache, r->imp ? "/" : "",
           r->imp ? r->imp : "");
  r->cfg.cache_root = r->cache_alloc;
  return CLI_GO_ON;
}

/* -run: the tests of each binary first, its fuzzed targets skipped. */
static int fuzz_run_tests(fuzz_run *r) {
  if (!(r->cp.t = calloc(r->total + 1, sizeof *r->cp.t)))
    return fuzz_oom();
  for (int i = 0; i < r->nbin && r->o.run_re; i++) {
    const bin_info *b = &r->bins[i];
    char *skip = b->n ? skip_pattern(b->names, b->n) : NULL;
    int home = cli_enter_dir(b->dir);
    int rt = b->n ? (skip ? run_tests_first(b->path, b->gover, skip,
                                            r->o.run_re, r->o.chatty.on,
                                            r->cfg.extra_args, r->cfg.n_extra)
                          : -1)
                  : 0;
    cli_leave_dir(home);
    free(skip);
    if (rt != 0)
      return CLI_EXIT_FAIL;
  }
  return CLI_GO_ON;
}

/* t's label in the campaign's lines and, with binaries of several
 * packages, its own cache (package mode: go test's, by import path). */
static int fuzz_target_names(fuzz_run *r, const bin_info *b, size_t k,
                             cli_ctarget *t) {
  cgofuzz_buf lb = {0}, cb = {0};
  if (b->imp)
    cgofuzz_buf_printf(&lb, "%s.", b->imp);
  else if (r->nbin > 1)
    cgofuzz_buf_printf(&lb, "%s:", b->base);
  cgofuzz_buf_puts(&lb, b->names[k]);
  cgofuzz_buf_putc(&lb, 0);
  t->label = (char *)lb.data;
  bool own_cache = r->nbin > 1 || b->imp;
  if (own_cache) {
    cgofuzz_buf_printf(&cb, "%s/%s", r->cfg.cache_root, b->base);
    cgofuzz_buf_putc(&cb, 0);
    t->cfg.cache_root = (const char *)cb.data;
  }
  if (!t->label || (own_cache && !cb.data))
    return fuzz_oom();
  return CLI_GO_ON;
}

/* Binary b's side state, NULL when out of memory. */
static bin_side *side_of(fuzz_run *r, const bin_info *b) {
  if (!r->sides && !(r->sides = calloc((size_t)r->nbin, sizeof *r->sides)))
    return NULL;
  return &r->sides[b - r->bins];
}

/* Formats why a binary's step failed into *err (NULL when out of memory:
 * the caller's target then reports memory). */
static void side_error(char **err, const char *what, const cgofuzz_buf *why) {
  cgofuzz_buf e = {0};
  cgofuzz_buf_printf(&e, "%s: %.*s", what,
                     (int)(why->len > 2000 ? 2000 : why->len),
                     (const char *)why->data);
  *err = cgofuzz_buf_putc(&e, 0) == 0 ? (char *)e.data : NULL;
}

/* t's error is its binary's err (a copy). */
static int target_error(cli_ctarget *t, const char *err) {
  return err && (t->error = strdup(err)) ? CLI_GO_ON : fuzz_oom();
}

/* -racereplay: the -race build of binary b's package, made once per binary
 * in its package's directory (ours for a binary named on the command line
 * or run by go test -exec, which runs it there) into the scratch
 * directory, for t's feedback. A build that fails is the error of each of
 * the binary's targets. */
static int race_binary(fuzz_run *r, const bin_info *b, cli_ctarget *t) {
  bin_side *sd = side_of(r, b);
  if (!sd)
    return fuzz_oom();
  if (!sd->race && !sd->race_err) {
    const char *home = cgofuzz_scratch_dir();
    cgofuzz_buf out = {0}, log = {0};
    cgofuzz_buf_printf(&out, "%s/race-%zu-%s", home ? home : cgofuzz_tmpdir(),
                       (size_t)(b - r->bins), b->base);
    fprintf(stderr, "cgofuzz: -racereplay: building %s with -race\n",
            b->reldir ? b->reldir : ".");
    if (cgofuzz_buf_putc(&out, 0) == 0 &&
        cli_gopkgs_race_build(b->dir, r->o.tags, (const char *)out.data,
                              &log) == 0) {
      sd->race = (char *)out.data;
    } else {
      side_error(&sd->race_err, "-racereplay: go test -c -race failed", &log);
      cgofuzz_buf_free(&out);
    }
    cgofuzz_buf_free(&log);
  }
  if (!sd->race)
    return target_error(t, sd->race_err);
  t->fb->race_binary = sd->race;
  return CLI_GO_ON;
}

/* -focus=REV: binary b's counters on Go lines changed since REV, found
 * once per binary from its package's directory (focus.c), for t's run. A
 * revision git cannot diff against is the error of each of its targets. */
static int focus_mask(fuzz_run *r, const bin_info *b, cli_ctarget *t) {
  bin_side *sd = side_of(r, b);
  if (!sd)
    return fuzz_oom();
  if (!sd->focus && !sd->focus_err) {
    cgofuzz_buf why = {0}, what = {0};
    size_t n = 0, sites = 0;
    if (cli_focus_mask(b->dir, r->o.focus, b->path, &sd->focus, &sd->focus_len,
                       &n, &sites, &why) != 0) {
      cgofuzz_buf_printf(&what, "-focus=%s", r->o.focus);
      side_error(&sd->focus_err, cgofuzz_buf_cstr(&what), &why);
    } else if (r->o.chatty.on && !r->pre) {
      fprintf(stderr,
              "cgofuzz: -focus=%s: %zu of the %zu Go counters of %s are on "
              "lines changed since it%s\n",
              r->o.focus, n, sites, b->arg,
              n ? "; the schedule counts them 8 times"
                : " (none: the run weighs as without -focus)");
    }
    cgofuzz_buf_free(&why);
    cgofuzz_buf_free(&what);
  }
  if (!sd->focus)
    return target_error(t, sd->focus_err);
  t->cfg.focus = sd->focus;
  t->cfg.focus_len = sd->focus_len;
  t->cfg.focus_rev = r->o.focus;
  return CLI_GO_ON;
}

/* Target k of binary b into the campaign: its configuration, dictionary
 * and discovery (its argument kinds and seeds). A failed discovery is the
 * target's error, which the campaign reports. */
static int fuzz_add_target(fuzz_run *r, const bin_info *b, size_t k) {
  const fuzz_opts *o = &r->o;
  cli_campaign *cp = &r->cp;
  cli_ctarget *t = &cp->t[cp->n++];
  t->cfg = r->cfg;
  t->binary = b->path;
  t->bin_base = b->base;
  t->cfg.binary = b->path;
  t->cfg.target = b->names[k];
  t->cfg.gover = b->gover;
  t->cfg.gover_unknown = b->gover_unknown;
  t->imp = b->imp;
  t->dir = b->dir;
  t->cfg.display_dir = b->reldir;
  t->cfg.display_pkg = b->relpkg;
  t->cfg.display_block = r->pkgs_fuzzed > 1;
  int rc = fuzz_target_names(r, b, k, t);
  if (rc != CLI_GO_ON)
    return rc;
  if (!(t->fb = cgofuzz_fb_new()))
    return fuzz_oom();
  if ((rc = build_dict(
           &t->cfg, &o->dicts, o->autodict, cp->single && o->dictout != NULL,
           cp->total_count > 0 || cp->per_count > 0, t->fb, &t->dict)) != 0)
    return rc;
  int drc = 0;
  if (r->pre) { /* discovered by the binary's own run (cmd_exec.c) */
    const cgofuzz_coord_config *d = r->pre->disc;
    t->cfg.kinds = d->kinds;
    t->cfg.n_kinds = d->n_kinds;
    t->cfg.seeds = d->seeds;
    t->cfg.n_seeds = d->n_seeds;
    t->cfg.disc_env = d->disc_env;
    t->cfg.n_disc_env = d->n_disc_env;
    t->cfg.run_line_printed = true;
    memset(r->pre->disc, 0, sizeof *r->pre->disc); /* now t's */
  } else {
    int home = cli_enter_dir(t->dir);
    drc = cgofuzz_coord_discover(&t->cfg, r->self, &r->err);
    cli_leave_dir(home);
  }
  if (drc != 0) {
    if (!(t->error = strdup(r->err.msg)))
      return fuzz_oom();
  }
  t->fb->dict = t->dict;
  t->fb->cmp_feedback = o->cmpfeedback;
  if (o->racereplay && !t->error && (rc = race_binary(r, b, t)) != CLI_GO_ON)
    return rc;
  if (o->goleaks && !t->error && !b->gover_unknown &&
      cgofuzz_gobin_go_counters(b->path) > 0)
    t->fb->goleak_binary = b->path; /* a C target has no goroutines */
  if (o->focus && !t->error && (rc = focus_mask(r, b, t)) != CLI_GO_ON)
    return rc;
  t->fb->dict_out = cp->single ? o->dictout : NULL;
  t->cfg.feedback = cgofuzz_fb_table(t->fb);
  return CLI_GO_ON;
}

static int fuzz_add_targets(fuzz_run *r) {
  for (int i = 0; i < r->nbin; i++)
    for (size_t k = 0; k < r->bins[i].n; k++) {
      int rc = fuzz_add_target(r, &r->bins[i], k);
      if (rc != CLI_GO_ON)
        return rc;
    }
  return CLI_GO_ON;
}

/* The campaign itself, and its reports. */
static int fuzz_campaign(fuzz_run *r) {
  const fuzz_opts *o = &r->o;
  if (o->dictout && !r->cp.single)
    fprintf(stderr, "cgofuzz fuzz: -dictout is for one target; ignored\n");
  if (o->fuzzstats && cli_stats_open(&r->cp, o->fuzzstats) != 0)
    return CLI_EXIT_USAGE;
  int rc = cli_campaign_run(&r->cp);
  if (o->junit && cli_junit_write(&r->cp, o->junit) != 0 && rc == CLI_EXIT_OK)
    rc = CLI_EXIT_FAIL;
  return rc;
}

static void fuzz_free(fuzz_run *r) {
  for (int i = 0; r->sides && i < r->nbin; i++) {
    free(r->sides[i].race); /* the files go with the scratch directory */
    free(r->sides[i].race_err);
    free(r->sides[i].focus);
    free(r->sides[i].focus_err);
  }
  free(r->sides);
  for (size_t i = 0; i < r->cp.n; i++) {
    cli_ctarget *t = &r->cp.t[i];
    cgofuzz_coord_free_discovery(&t->cfg);
    cgofuzz_fb_free(t->fb);
    cgofuzz_fb_dict_free(t->dict);
    cgofuzz_coord_report_free(&t->report);
    if (t->cfg.cache_root != r->cfg.cache_root)
      free((char *)t->cfg.cache_root);
    free(t->label);
    free(t->error);
  }
  free(r->cp.t);
  if (r->cp.stats)
    fclose(r->cp.stats);
  if (r->bins)
    free_bins(r->bins, r->nbin);
  cli_gopkgs_free(&r->pkgs);
  cgofuzz_coord_free_names(r->abs_keep, r->n_abs);
  free(r->o.dicts.path);
  free(r->cache_alloc);
  free(r->gocache);
  free(r->imp);
}

int cli_fuzz_main(int argc, char **argv, cli_fuzz_pre *pre) {
  static int (*const steps[])(fuzz_run *) = {
      fuzz_parse_flags, fuzz_config,       fuzz_split_args, fuzz_build_packages,
      fuzz_read_bins,   fuzz_list_targets, fuzz_plan,       fuzz_run_tests,
      fuzz_add_targets, fuzz_campaign};
  fuzz_run r;
  memset(&r, 0, sizeof r);
  r.argc = argc;
  r.argv = argv;
  r.pre = pre;
  int rc = CLI_GO_ON;
  for (size_t i = 0; rc == CLI_GO_ON && i < sizeof steps / sizeof *steps; i++)
    rc = steps[i](&r);
  fuzz_free(&r);
  return rc;
}
