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
 * Also the fake worker: when the test binary we run for discovery starts
 * its workers as `cgofuzz -test.fuzzworker ...` (see coord_discover.c),
 * main() lands in cli_fake_worker.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "coord.h"
#include "spawn.h"

/* cgofuzz_parse_duration, with -2 for "0x" (a count of zero), which
 * -fuzztime rejects and -fuzzminimizetime takes as "off". */
static int parse_fuzztime(const char *s, int64_t *ns, int64_t *count) {
  if (cgofuzz_parse_duration(s, ns, count) != 0)
    return -1;
  size_t l = strlen(s);
  return *count == 0 && l > 1 && s[l - 1] == 'x' ? -2 : 0;
}

int cli_fake_worker(void) { return cgofuzz_coord_fake_worker(); }

/* Runs the tests matching run_re (the fuzz target skipped), as go test
 * does before fuzzing. Their output is passed on, except the binary's
 * final PASS line when they pass. Returns 0 when they pass. */
static int run_tests_first(const char *binary, const char *target,
                           const char *run_re, bool verbose, char **extra,
                           size_t n_extra) {
  size_t n = 0;
  char **av = calloc(n_extra + 6, sizeof *av);
  cgofuzz_buf run = {0}, skip = {0}, out = {0};
  if (!av || cgofuzz_buf_printf(&run, "-test.run=%s", run_re) != 0 ||
      cgofuzz_buf_printf(&skip, "-test.skip=^%s$", target) != 0 ||
      cgofuzz_buf_putc(&run, 0) != 0 || cgofuzz_buf_putc(&skip, 0) != 0) {
    free(av);
    cgofuzz_buf_free(&run);
    cgofuzz_buf_free(&skip);
    return -1;
  }
  av[n++] = (char *)binary;
  av[n++] = "-test.paniconexit0";
  av[n++] = (char *)run.data;
  av[n++] = (char *)skip.data;
  if (verbose)
    av[n++] = "-test.v=true";
  for (size_t i = 0; i < n_extra; i++)
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

static void usage_fuzz(cli_flag *flags, size_t n) {
  fprintf(stderr, "usage: cgofuzz fuzz [flags] BINARY [ARGS...]\n"
                  "Fuzzes the target of a Go test binary (go test -c "
                  "-fuzz=.) matching -fuzz, from the package directory.\n");
  cli_print_flags(flags, n);
}

int cli_cmd_fuzz(int argc, char **argv) {
  const char *fuzz_re = NULL, *run_re = NULL, *fuzztime = NULL, *mintime = NULL,
             *cachedir = NULL;
  int64_t parallel = 0;
  bool verbose = false, cont = false;
  cli_flag flags[] = {
      {"fuzz", FLAG_STRING, &fuzz_re, "regexp selecting the fuzz target",
       false},
      {"run", FLAG_STRING, &run_re,
       "first run the tests and seed corpora matching this regexp", false},
      {"fuzztime", FLAG_STRING, &fuzztime, "time (e.g. 10s) or Nx execs",
       false},
      {"fuzzminimizetime", FLAG_STRING, &mintime,
       "time or Nx execs for minimizing a crasher (default 60s)", false},
      {"parallel", FLAG_I64, &parallel,
       "number of workers (default: online CPUs)", false},
      {"fuzzcachedir", FLAG_STRING, &cachedir,
       "parent of the <Target> cache dir (default $GOCACHE/fuzz/<import "
       "path>)",
       false},
      {"v", FLAG_BOOL, &verbose, "verbose: === RUN and --- PASS lines", false},
      {"fuzzcontinue", FLAG_BOOL, &cont,
       "keep fuzzing after a failure; write every distinct failure", false},
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("fuzz", flags, nflags, argc, argv);
  if (first < 0) {
    usage_fuzz(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  if (first >= argc) {
    fprintf(stderr, "cgofuzz fuzz: BINARY expected\n");
    usage_fuzz(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  cgofuzz_coord_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.minimize_ns = 60LL * 1000000000;
  if (fuzztime) {
    int r = parse_fuzztime(fuzztime, &cfg.fuzz_ns, &cfg.fuzz_count);
    if (r != 0) {
      fprintf(stderr, "invalid value \"%s\" for flag -fuzztime: %s\n", fuzztime,
              r == -2 ? "invalid count" : "invalid duration");
      return CLI_EXIT_USAGE;
    }
  }
  if (mintime) {
    int64_t ns, n;
    int r = parse_fuzztime(mintime, &ns, &n);
    if (r == -1) {
      fprintf(stderr,
              "invalid value \"%s\" for flag -fuzzminimizetime: invalid "
              "duration\n",
              mintime);
      return CLI_EXIT_USAGE;
    }
    if (r == -2 || (ns == 0 && n == 0))
      cfg.minimize_off = true;
    cfg.minimize_ns = n ? 0 : ns;
    cfg.minimize_count = n;
  }
  if (parallel < 0 || (flags[4].set && parallel < 1)) {
    fprintf(stderr, "cgofuzz fuzz: -parallel must be at least 1\n");
    return CLI_EXIT_USAGE;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cfg.parallel = parallel ? (int)parallel : (int)(cpus > 0 ? cpus : 1);
  cfg.verbose = verbose;
  cfg.fuzz_continue = cont;
  cfg.extra_args = argv + first + 1;
  cfg.n_extra = (size_t)(argc - first - 1);

  char binpath[PATH_MAX], self[PATH_MAX];
  if (!realpath(argv[first], binpath)) {
    fprintf(stderr, "cgofuzz fuzz: %s: not found\n", argv[first]);
    return CLI_EXIT_USAGE;
  }
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    fprintf(stderr, "cgofuzz fuzz: cannot find our own executable\n");
    return CLI_EXIT_FAIL;
  }
  self[sl] = '\0';
  cfg.binary = binpath;

  int rc = CLI_EXIT_FAIL;
  char **names = NULL, *cache_alloc = NULL, *gocache = NULL, *imp = NULL;
  size_t nnames = 0;
  cgofuzz_err err = {0};
  if (cgofuzz_coord_list_targets(binpath, fuzz_re ? fuzz_re : ".", &names,
                                 &nnames, &err) != 0) {
    fprintf(stderr, "cgofuzz fuzz: %s\n", err.msg);
    rc = CLI_EXIT_USAGE;
    goto done;
  }
  if (!fuzz_re) {
    fprintf(stderr, "cgofuzz fuzz: -fuzz is required\n");
    rc = CLI_EXIT_USAGE;
    goto done;
  }
  if (nnames == 0) {
    fprintf(stderr, "testing: warning: no fuzz tests to fuzz\n");
    printf("PASS\n");
    rc = CLI_EXIT_OK;
    goto done;
  }
  if (nnames > 1) {
    fprintf(stderr,
            "testing: will not fuzz, -fuzz matches more than one fuzz test: [");
    for (size_t i = 0; i < nnames; i++)
      fprintf(stderr, "%s%s", i ? " " : "", names[i]);
    fprintf(stderr, "]\n");
    printf("FAIL\n");
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  cfg.target = names[0];
  if (cachedir) {
    cfg.cache_root = cachedir;
  } else {
    char *goenv[] = {"go", "env", "GOCACHE", NULL};
    char *golist[] = {"go", "list", NULL};
    if (cgofuzz_coord_cmd_line(goenv, &gocache) != 0 ||
        cgofuzz_coord_cmd_line(golist, &imp) != 0) {
      fprintf(stderr, "cgofuzz fuzz: cannot find the cache dir with `go env "
                      "GOCACHE` and `go list`; pass -fuzzcachedir\n");
      rc = CLI_EXIT_USAGE;
      goto done;
    }
    size_t l = strlen(gocache) + strlen(imp) + 8;
    if (!(cache_alloc = malloc(l)))
      goto done;
    snprintf(cache_alloc, l, "%s/fuzz/%s", gocache, imp);
    cfg.cache_root = cache_alloc;
  }
  if (run_re && run_tests_first(binpath, cfg.target, run_re, verbose,
                                cfg.extra_args, cfg.n_extra) != 0) {
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  if (cgofuzz_coord_discover(&cfg, self, &err) != 0) {
    printf("--- FAIL: %s (0.00s)\n", cfg.target);
    fflush(stdout);
    fprintf(stderr, "%s\n", err.msg);
    printf("FAIL\n");
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  rc = cgofuzz_coord_run(&cfg);
  cgofuzz_coord_free_discovery(&cfg);
done:
  cgofuzz_coord_free_names(names, nnames);
  free(cache_alloc);
  free(gocache);
  free(imp);
  return rc;
}
