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
 * binaries only) the binary's constants; the corpus's tokens are added by
 * the coordinator once it has loaded the corpus. Returns 0 (*out NULL when
 * there is no dictionary), or the exit status when a -dict file is bad or
 * memory runs out. */
static int build_dict(cgofuzz_coord_config *cfg, const dict_files *files,
                      bool autodict, bool dictout, cgofuzz_coord_dict **out) {
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
    cgofuzz_err err = {0};
    size_t added = 0;
    if (cgofuzz_coord_dict_from_binary(d, cfg->binary, cfg->target, &added,
                                       &err) != 0 &&
        cfg->verbose)
      fprintf(stderr, "cgofuzz: %s\n", err.msg);
    cfg->dict_corpus = true;
  }
  *out = d;
  return 0;
}

static void usage_fuzz(const cgofuzz_flag *flags, size_t n) {
  fprintf(stderr, "usage: cgofuzz fuzz [flags] BINARY [ARGS...]\n"
                  "Fuzzes the target of a Go test binary (go test -c "
                  "-fuzz=.) matching -fuzz, from the package directory.\n");
  cli_print_flags(flags, n);
}

int cli_cmd_fuzz(int argc, char **argv) {
  const char *fuzz_re = NULL, *run_re = NULL, *cachedir = NULL;
  /* -fuzztime and -fuzzminimizetime are go test's duration-or-count
   * flags: "Nx" or a duration; only the latter may be zero (off). */
  cgofuzz_flag_dur fuzztime = {0}, mintime = {0};
  int64_t parallel = 0;
  bool verbose = false, cont = false, autodict = true;
  const char *dictout = NULL;
  dict_files dicts = {0};
  cgofuzz_coord_dict *dict = NULL;
  cgofuzz_flag flags[] = {
      {.name = "fuzz",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &fuzz_re,
       .usage = "`regexp` selecting the fuzz target"},
      {.name = "run",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &run_re,
       .usage = "first run the tests and seed corpora matching this `regexp`"},
      {.name = "fuzztime",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &fuzztime,
       .usage = "time (e.g. 10s) or Nx execs"},
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
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &verbose,
       .usage = "verbose: === RUN and --- PASS lines"},
      {.name = "fuzzcontinue",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &cont,
       .usage = "keep fuzzing after a failure; write every distinct failure"},
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
      {.name = "dictout",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &dictout,
       .usage = "write the dictionary used to `file` (libFuzzer format)"},
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("fuzz", flags, nflags, argc, argv);
  if (first < 0) {
    usage_fuzz(flags, nflags);
    free(dicts.path);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (first >= argc) {
    fprintf(stderr, "cgofuzz fuzz: BINARY expected\n");
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
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cfg.parallel = parallel ? (int)(parallel > INT_MAX ? INT_MAX : parallel)
                          : (int)(cpus > 0 ? cpus : 1);
  cfg.verbose = verbose;
  cfg.fuzz_continue = cont;
  cfg.extra_args = argv + first + 1;
  cfg.n_extra = (size_t)(argc - first - 1);

  char binpath[PATH_MAX], self[PATH_MAX];
  if (!realpath(argv[first], binpath)) {
    fprintf(stderr, "cgofuzz fuzz: %s: not found\n", argv[first]);
    free(dicts.path);
    return CLI_EXIT_USAGE;
  }
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    fprintf(stderr, "cgofuzz fuzz: cannot find our own executable\n");
    free(dicts.path);
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
  if ((rc = build_dict(&cfg, &dicts, autodict, dictout != NULL, &dict)) != 0)
    goto done;
  rc = CLI_EXIT_FAIL;
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
  cfg.dict = dict;
  cfg.dict_out = dictout;
  rc = cgofuzz_coord_run(&cfg);
  cgofuzz_coord_free_discovery(&cfg);
done:
  cgofuzz_coord_dict_free(dict);
  free(dicts.path);
  cgofuzz_coord_free_names(names, nnames);
  free(cache_alloc);
  free(gocache);
  free(imp);
  return rc;
}
