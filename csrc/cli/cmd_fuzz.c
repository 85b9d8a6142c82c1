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
#include "os.h"
#include "spawn.h"

int cli_fake_worker(void) { return cgofuzz_coord_fake_worker(); }

/* Runs the tests matching run_re (the fuzz target skipped), as go test
 * does before fuzzing. Their output is passed on, except the binary's
 * final PASS line when they pass. Returns 0 when they pass. A binary of
 * go1.18 or go1.19 (gover) has no -test.skip: it is run with -test.run
 * alone, so the fuzz targets matching run_re run their seed corpus too, as
 * that release's own `go test -run=RE -fuzz=F` does; extra -test.* flags
 * it does not know are left out (cgofuzz_coord_test_flag_ok). */
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
  if (cgofuzz_coord_test_flag_ok(gover, "-test.skip"))
    av[n++] = (char *)skip.data;
  if (verbose)
    av[n++] = "-test.v=true";
  for (size_t i = 0; i < n_extra; i++)
    if (cgofuzz_coord_test_flag_ok(gover, extra[i]))
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
 * coordinator (cfg->dict_code) unless dictout or counted (an exec-counted
 * run: -fuzztime or -fuzztimeper Nx); the corpus's tokens are
 * added by the coordinator once it has loaded the corpus. Returns 0 (*out NULL
 * when there is no dictionary), or the exit status when a -dict file is bad or
 * memory runs out. */
static int build_dict(cgofuzz_coord_config *cfg, const dict_files *files,
                      bool autodict, bool dictout, bool counted,
                      cgofuzz_coord_dict **out) {
  *out = NULL;
  bool go_binary = cgofuzz_coord_go_counters(cfg->binary) > 0;
  if (!files->n && !(autodict && go_binary) && !dictout)
    return 0;
  cgofuzz_coord_dict *d = cgofuzz_coord_dict_new();
  if (!d) {
    fprintf(stderr, "cgofuzz fuzz: out of memory\n");
    return CLI_EXIT_FAIL;
  }
  for (size_t i = 0; i < files->n; i++) {
    cgofuzz_err err = {0};
    if (cgofuzz_coord_dict_load(d, files->path[i], &err) != 0) {
      fprintf(stderr, "cgofuzz fuzz: %s\n", err.msg);
      cgofuzz_coord_dict_free(d);
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
    if (cgofuzz_coord_godict_attach(cfg, d, dictout || counted, &err) != 0 &&
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
  int gover; /* the Go release that built it (cgofuzz_coord_binary_gover) */
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

int cli_fuzz_main(int argc, char **argv, cli_fuzz_pre *pre) {
  bool exec_mode = pre != NULL;
  const char *fuzz_re = NULL, *run_re = NULL, *cachedir = NULL;
  /* -fuzztime and -fuzzminimizetime are go test's duration-or-count
   * flags: "Nx" or a duration; only the latter may be zero (off). */
  cgofuzz_flag_dur fuzztime = {0}, mintime = {0}, fuzztimeper = {0};
  cgofuzz_flag_dur fuzztimeout = {0}; /* -fuzztimeout, -fuzzrsslimitmb */
  cgofuzz_flag_dur syncevery = {0};
  const char *syncdir = NULL;
  int64_t rsslimit = 0;
  int64_t parallel = 0;
  bool cont = false, autodict = true, cmpfeedback = true;
  chatty_flag chatty = {0};
  const char *dictout = NULL, *junit = NULL, *fuzzstats = NULL;
  const char *tags = NULL;
  dict_files dicts = {0};
  cgofuzz_flag flags[] = {
      {.name = "fuzz",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &fuzz_re,
       .usage = "`regexp` selecting the fuzz targets"},
      {.name = "run",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &run_re,
       .usage = "first run the tests and seed corpora matching this `regexp`"},
      {.name = "fuzztime",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &fuzztime,
       .usage = "time (e.g. 10s) or Nx execs; with several targets, the "
                "whole run's budget, shared by the schedule"},
      {.name = "fuzzminimizetime",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &mintime,
       .usage = "time or Nx execs for minimizing a crasher (default 60s)",
       .allow_zero = true},
      {.name = "parallel",
       .type = CGOFUZZ_FLAG_INT,
       .dst = &parallel,
       .usage = "number of workers (default: online CPUs)"},
      {.name = "fuzzcachedir",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &cachedir,
       .usage = "parent of the <Target> cache `dir` (default "
                "$GOCACHE/fuzz/<import path>)"},
      {.name = "v",
       .type = CGOFUZZ_FLAG_BOOL_FUNC,
       .dst = &chatty,
       .func = set_chatty,
       .usage = "verbose: === RUN and --- PASS lines (=test2json: marked "
                "for test2json, as go test -json runs a test binary)"},
      {.name = "fuzzcontinue",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &cont,
       .usage = "keep fuzzing after a failure; write every distinct failure "
                "(other targets go on)"},
      {.name = "dict",
       .type = CGOFUZZ_FLAG_FUNC,
       .dst = &dicts,
       .func = add_dict_file,
       .usage = "libFuzzer/AFL dictionary `file` of tokens to insert "
                "(repeatable)"},
      {.name = "autodict",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &autodict,
       .usage = "also take tokens from the constants the target's code "
                "compares with and from the corpus (default true)"},
      {.name = "cmpfeedback",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &cmpfeedback,
       .usage = "trace the comparisons of each new input in a patched copy "
                "of a Go test binary and try the inputs that pass them "
                "(default true; docs/comparisons.md)"},
      {.name = "dictout",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &dictout,
       .usage = "write the dictionary used to `file` (libFuzzer format)"},
      {.name = "fuzztimeper",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &fuzztimeper,
       .usage = "time or Nx execs per target: each target's cap (with "
                "-fuzztime) or its whole budget (without)"},
      {.name = "junit",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &junit,
       .usage = "write a JUnit XML report to `file`: a test case per target"},
      {.name = "fuzzstats",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &fuzzstats,
       .usage = "write a CSV time series of each target's figures to "
                "`file` (docs/campaigns.md)"},
      {.name = "fuzztimeout",
       .type = CGOFUZZ_FLAG_DURATION,
       .dst = &fuzztimeout,
       .usage = "a worker that runs one input this long is hung: it is "
                "stopped and the input recorded (default: the binary's Go "
                "release's own timer, 10s, or 60s from Go 1.27)"},
      {.name = "fuzzrsslimitmb",
       .type = CGOFUZZ_FLAG_INT,
       .dst = &rsslimit,
       .usage = "a worker whose resident set grows above this many MiB is "
                "stopped and its input recorded (default 0: no limit)"},
      {.name = "syncdir",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &syncdir,
       .usage = "share inputs with other runs through `dir`: before each "
                "slice its inputs go into the cache, after it the cache's "
                "and testdata's go there (docs/campaigns.md)"},
      {.name = "syncevery",
       .type = CGOFUZZ_FLAG_DURATION,
       .dst = &syncevery,
       .usage = "with -syncdir, the slice length: a sync between slices "
                "(default 60s)"},
      {.name = "tags",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &tags,
       .usage = "package patterns: build `tags` for go list and go test -c "
                "(comma-separated, as go's -tags)"},
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("fuzz", flags, nflags, argc, argv);
  if (first < 0) {
    usage_fuzz(flags, nflags);
    free(dicts.path);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (first >= argc) {
    fprintf(stderr, "cgofuzz fuzz: BINARY or PACKAGE expected\n");
    usage_fuzz(flags, nflags);
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  cgofuzz_coord_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.minimize_ns = 60LL * 1000000000;
  cfg.fuzz_ns = fuzztime.ns;
  cfg.fuzz_count = fuzztime.count;
  if (flags[3].seen) {
    cfg.minimize_off = mintime.ns == 0 && mintime.count == 0;
    cfg.minimize_ns = mintime.count ? 0 : mintime.ns;
    cfg.minimize_count = mintime.count;
  }
  if (parallel < 0 || (flags[4].seen && parallel < 1)) {
    fprintf(stderr, "cgofuzz fuzz: -parallel must be at least 1\n");
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  if ((fuzztime.ns || fuzztime.count) &&
      (fuzztimeper.ns || fuzztimeper.count) &&
      !fuzztime.count != !fuzztimeper.count) {
    fprintf(stderr, "cgofuzz fuzz: -fuzztime and -fuzztimeper must both be "
                    "durations or both be counts (Nx)\n");
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cfg.parallel = parallel ? (int)(parallel > INT_MAX ? INT_MAX : parallel)
                          : (int)(cpus > 0 ? cpus : 1);
  bool verbose = chatty.on;
  cfg.verbose = verbose;
  cfg.json_marks = chatty.json;
  cfg.quiet = exec_mode;
  cfg.fuzz_continue = cont;
  if (fuzztimeout.ns < 0 || rsslimit < 0) {
    fprintf(stderr, "cgofuzz fuzz: -%s must not be negative\n",
            fuzztimeout.ns < 0 ? "fuzztimeout" : "fuzzrsslimitmb");
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  cfg.exec_timeout_ns = fuzztimeout.ns;
  cfg.rss_limit_mb = rsslimit;
  /* The binaries: the leading positional arguments that are executable
   * files (the first always is one), up to an optional "--". Outside go
   * test -exec, the leading ones that are not flags are binaries or, when
   * not executable files, package patterns (package mode). */
  int nbin = 1, npat = 0;
  if (exec_mode) {
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
  int extra_at = first + nbin + npat;
  if (extra_at < argc && strcmp(argv[extra_at], "--") == 0)
    extra_at++;
  cfg.extra_args = argv + extra_at;
  cfg.n_extra = (size_t)(argc - extra_at);
  if (npat && nbin) {
    fprintf(stderr, "cgofuzz fuzz: give test binaries or package patterns, "
                    "not both (a pattern is an argument that is not an "
                    "executable file)\n");
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  if (!nbin && !npat) {
    fprintf(stderr, "cgofuzz fuzz: BINARY or PACKAGE expected\n");
    usage_fuzz(flags, nflags);
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  if (npat && !fuzz_re) {
    fprintf(stderr, "cgofuzz fuzz: -fuzz is required\n");
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  /* Package mode: the targets run in their packages' directories, so the
   * user's paths are made absolute first; then the packages are built. */
  cli_gopkgs pkgs = {0};
  char **abs_keep = NULL;
  size_t n_abs = 0;
  if (npat) {
    junit = absolute(junit, &abs_keep, &n_abs);
    syncdir = absolute(syncdir, &abs_keep, &n_abs);
    fuzzstats = absolute(fuzzstats, &abs_keep, &n_abs);
    dictout = absolute(dictout, &abs_keep, &n_abs);
    cachedir = absolute(cachedir, &abs_keep, &n_abs);
    for (size_t i = 0; i < dicts.n; i++)
      dicts.path[i] = absolute(dicts.path[i], &abs_keep, &n_abs);
    if (cli_gopkgs_build(argv + first, (size_t)npat, fuzz_re, tags, &pkgs)) {
      cli_gopkgs_free(&pkgs);
      cgofuzz_coord_free_names(abs_keep, n_abs);
      free(dicts.path);
      return CLI_EXIT_FAIL;
    }
    for (size_t i = 0; i < pkgs.n; i++) {
      if (!pkgs.p[i].error) {
        nbin++;
        continue;
      }
      fputs(pkgs.p[i].error, stderr);
      fprintf(stderr,
              "cgofuzz fuzz: %s: build failed; the other packages go "
              "on\n",
              pkgs.p[i].imp);
    }
  }

  char self[PATH_MAX];
  bin_info *bins = calloc((size_t)nbin + 1, sizeof *bins);
  if (!bins) {
    fprintf(stderr, "cgofuzz fuzz: out of memory\n");
    cli_gopkgs_free(&pkgs);
    cgofuzz_coord_free_names(abs_keep, n_abs);
    free(dicts.path);
    return CLI_EXIT_FAIL;
  }
  for (int i = 0, pk = 0; i < nbin; i++) {
    bins[i].arg = argv[first + i];
    if (npat) {
      while (pkgs.p[pk].error)
        pk++;
      bins[i].arg = pkgs.p[pk].binary;
      bins[i].imp = pkgs.p[pk].imp;
      bins[i].dir = pkgs.p[pk].dir;
      bins[i].reldir = rel_dir(pkgs.p[pk].dir);
      bins[i].relpkg = rel_pkg(bins[i].reldir);
      pk++;
    }
    if (!realpath(bins[i].arg, bins[i].path)) {
      fprintf(stderr, "cgofuzz fuzz: %s: not found\n", bins[i].arg);
      free_bins(bins, i + 1);
      cli_gopkgs_free(&pkgs);
      cgofuzz_coord_free_names(abs_keep, n_abs);
      free(dicts.path);
      return CLI_EXIT_USAGE;
    }
    const char *sl = strrchr(bins[i].path, '/');
    bins[i].base = sl ? sl + 1 : bins[i].path;
    if (bins[i].imp)
      bins[i].base = bins[i].imp;
    /* The release to follow (issue 14): read from the binary's build info;
     * a C target, or a binary whose build info cannot be read, follows the
     * newest (the latter with a warning). */
    cgofuzz_err gerr = {0};
    int known = cgofuzz_coord_binary_gover(bins[i].path, &bins[i].gover, &gerr);
    bins[i].gover_unknown =
        known <= 0 && (cgofuzz_coord_go_counters(bins[i].path) > 0 ||
                       cgofuzz_coord_counters(bins[i].path) == 0);
    if (known < 0)
      fprintf(stderr,
              "cgofuzz fuzz: warning: %s: cannot tell which Go release built "
              "it (%s); following go1.%d\n",
              bins[i].arg, gerr.msg, bins[i].gover);
    for (int k = extra_at; k < argc; k++)
      if (!cgofuzz_coord_test_flag_ok(bins[i].gover, argv[k]))
        fprintf(stderr,
                "cgofuzz fuzz: warning: %s was built by go1.%d, which has no "
                "flag %s: not passed to it\n",
                bins[i].arg, bins[i].gover, argv[k]);
  }
  if (cgofuzz_os_self_exe(self, sizeof self) != 0) {
    fprintf(stderr, "cgofuzz fuzz: cannot find our own executable\n");
    free(bins);
    free(dicts.path);
    return CLI_EXIT_FAIL;
  }

  int rc = CLI_EXIT_FAIL;
  char *cache_alloc = NULL, *gocache = NULL, *imp = NULL;
  cli_campaign cp;
  memset(&cp, 0, sizeof cp);
  cp.start_ms = cgofuzz_mono_ms();
  cp.pkgs = npat ? &pkgs : NULL;
  /* Packages with targets to fuzz: with more than one, the failure
   * blocks on stdout name paths and packages from our directory. */
  size_t total = 0, pkgs_fuzzed = 0;
  cgofuzz_err err = {0};
  for (int i = 0; i < nbin; i++) {
    int lrc = 0;
    if (pre) { /* go test -exec: the binary named its one target */
      if (!(bins[i].names = calloc(1, sizeof *bins[i].names)) ||
          !(bins[i].names[0] = strdup(pre->target)))
        goto oom;
      bins[i].n = 1;
    } else {
      int home = cli_enter_dir(bins[i].dir);
      lrc = cgofuzz_coord_list_targets(bins[i].path, fuzz_re ? fuzz_re : ".",
                                       &bins[i].names, &bins[i].n, &err);
      cli_leave_dir(home);
    }
    if (lrc != 0) {
      fprintf(stderr, "cgofuzz fuzz: %s\n", err.msg);
      rc = CLI_EXIT_USAGE;
      goto done;
    }
    if (bins[i].n == 0 && !pre && bins[i].gover_unknown &&
        cgofuzz_coord_counters(bins[i].path) == 0) {
      /* No Go build info, no counters and no target listed: /usr/bin/true
       * answers -test.list with nothing too. A Go test binary with no
       * target matching -fuzz still gets go test's warning below. */
      fprintf(stderr,
              "cgofuzz fuzz: %s is not a Go test binary (no Go build "
              "information, no coverage counters, no fuzz target listed) "
              "nor a C target built by cgofuzz cc\n",
              bins[i].arg);
      rc = CLI_EXIT_USAGE;
      goto done;
    }
    total += bins[i].n;
    pkgs_fuzzed += bins[i].imp && bins[i].n;
  }
  if (!fuzz_re) {
    fprintf(stderr, "cgofuzz fuzz: -fuzz is required\n");
    rc = CLI_EXIT_USAGE;
    goto done;
  }
  if (total == 0 && !cli_campaign_broken(&cp)) {
    fprintf(stderr, "testing: warning: no fuzz tests to fuzz\n");
    printf("PASS\n");
    rc = CLI_EXIT_OK;
    goto done;
  }
  /* -syncdir: slices with a sync between them, one target too. */
  cp.single = total == 1 && !syncdir;
  cp.syncdir = syncdir;
  cp.sync_ms =
      syncdir ? (syncevery.ns > 0 ? syncevery.ns / 1000000 : 60000) : 0;
  cp.verbose = verbose;
  cp.cont = cont;
  cp.total_ns = fuzztime.ns;
  cp.total_count = fuzztime.count;
  cp.per_ns = fuzztimeper.ns;
  cp.per_count = fuzztimeper.count;
  if (cp.single && !cp.total_ns && !cp.total_count) {
    cp.total_ns = cp.per_ns; /* one target: its budget is the run's */
    cp.total_count = cp.per_count;
  }
  if (cachedir) {
    cfg.cache_root = cachedir;
  } else {
    /* go test's: $GOCACHE/fuzz/<import path>. Package mode adds each
     * package's import path below it; a binary run from its package's
     * directory takes the path from go list. */
    char *goenv[] = {"go", "env", "GOCACHE", NULL};
    char *golist[] = {"go", "list", NULL};
    if (cgofuzz_coord_cmd_line(goenv, &gocache) != 0 ||
        (!npat && cgofuzz_coord_cmd_line(golist, &imp) != 0)) {
      fprintf(stderr,
              "cgofuzz fuzz: cannot find the cache dir with `go env "
              "GOCACHE`%s; pass -fuzzcachedir\n",
              npat ? "" : " and `go list`");
      rc = CLI_EXIT_USAGE;
      goto done;
    }
    size_t l = strlen(gocache) + (imp ? strlen(imp) : 0) + 8;
    if (!(cache_alloc = malloc(l)))
      goto oom;
    snprintf(cache_alloc, l, "%s/fuzz%s%s", gocache, imp ? "/" : "",
             imp ? imp : "");
    cfg.cache_root = cache_alloc;
  }
  if (!(cp.t = calloc(total + 1, sizeof *cp.t)))
    goto oom;
  /* -run: the tests of each binary first, its fuzzed targets skipped. */
  for (int i = 0; i < nbin && run_re; i++) {
    char *skip = bins[i].n ? skip_pattern(bins[i].names, bins[i].n) : NULL;
    int home = cli_enter_dir(bins[i].dir);
    int r =
        bins[i].n
            ? (skip ? run_tests_first(bins[i].path, bins[i].gover, skip, run_re,
                                      verbose, cfg.extra_args, cfg.n_extra)
                    : -1)
            : 0;
    cli_leave_dir(home);
    free(skip);
    if (r != 0) {
      rc = CLI_EXIT_FAIL;
      goto done;
    }
  }
  for (int i = 0; i < nbin; i++)
    for (size_t k = 0; k < bins[i].n; k++) {
      cli_ctarget *t = &cp.t[cp.n++];
      cgofuzz_buf lb = {0}, cb = {0};
      t->cfg = cfg;
      t->binary = bins[i].path;
      t->bin_base = bins[i].base;
      t->cfg.binary = bins[i].path;
      t->cfg.target = bins[i].names[k];
      t->cfg.gover = bins[i].gover;
      t->cfg.gover_unknown = bins[i].gover_unknown;
      t->imp = bins[i].imp;
      t->dir = bins[i].dir;
      t->cfg.display_dir = bins[i].reldir;
      t->cfg.display_pkg = bins[i].relpkg;
      t->cfg.display_block = pkgs_fuzzed > 1;
      if (bins[i].imp)
        cgofuzz_buf_printf(&lb, "%s.", bins[i].imp);
      else if (nbin > 1)
        cgofuzz_buf_printf(&lb, "%s:", bins[i].base);
      cgofuzz_buf_puts(&lb, bins[i].names[k]);
      cgofuzz_buf_putc(&lb, 0);
      t->label = (char *)lb.data;
      /* binaries of several packages: a cache each (package mode: go
       * test's, by import path) */
      bool own_cache = nbin > 1 || bins[i].imp;
      if (own_cache) {
        cgofuzz_buf_printf(&cb, "%s/%s", cfg.cache_root, bins[i].base);
        cgofuzz_buf_putc(&cb, 0);
        t->cfg.cache_root = (const char *)cb.data;
      }
      if (!t->label || (own_cache && !cb.data))
        goto oom;
      if ((rc = build_dict(
               &t->cfg, &dicts, autodict, cp.single && dictout != NULL,
               cp.total_count > 0 || cp.per_count > 0, &t->dict)) != 0)
        goto done;
      rc = CLI_EXIT_FAIL;
      int drc = 0;
      if (pre) { /* discovered by the binary's own run (cmd_exec.c) */
        const cgofuzz_coord_config *d = pre->disc;
        t->cfg.kinds = d->kinds;
        t->cfg.n_kinds = d->n_kinds;
        t->cfg.seeds = d->seeds;
        t->cfg.n_seeds = d->n_seeds;
        t->cfg.disc_env = d->disc_env;
        t->cfg.n_disc_env = d->n_disc_env;
        t->cfg.run_line_printed = true;
        memset(pre->disc, 0, sizeof *pre->disc); /* now t's */
      } else {
        int home = cli_enter_dir(t->dir);
        drc = cgofuzz_coord_discover(&t->cfg, self, &err);
        cli_leave_dir(home);
      }
      if (drc != 0) {
        if (!(t->error = strdup(err.msg)))
          goto oom;
      }
      t->cfg.dict = t->dict;
      t->cfg.cmp_feedback = cmpfeedback;
      t->cfg.dict_out = cp.single ? dictout : NULL;
    }
  if (dictout && !cp.single)
    fprintf(stderr, "cgofuzz fuzz: -dictout is for one target; ignored\n");
  if (fuzzstats && cli_stats_open(&cp, fuzzstats) != 0) {
    rc = CLI_EXIT_USAGE;
    goto done;
  }
  rc = cli_campaign_run(&cp);
  if (junit && cli_junit_write(&cp, junit) != 0 && rc == CLI_EXIT_OK)
    rc = CLI_EXIT_FAIL;
  goto done;
oom:
  fprintf(stderr, "cgofuzz fuzz: out of memory\n");
  rc = CLI_EXIT_FAIL;
done:
  for (size_t i = 0; i < cp.n; i++) {
    cli_ctarget *t = &cp.t[i];
    cgofuzz_coord_free_discovery(&t->cfg);
    cgofuzz_coord_dict_free(t->dict);
    cgofuzz_coord_report_free(&t->report);
    if (t->cfg.cache_root != cfg.cache_root)
      free((char *)t->cfg.cache_root);
    free(t->label);
    free(t->error);
  }
  free(cp.t);
  if (cp.stats)
    fclose(cp.stats);
  free_bins(bins, nbin);
  cli_gopkgs_free(&pkgs);
  cgofuzz_coord_free_names(abs_keep, n_abs);
  free(dicts.path);
  free(cache_alloc);
  free(gocache);
  free(imp);
  return rc;
}
