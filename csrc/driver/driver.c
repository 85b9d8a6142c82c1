/*
 * driver.c: the test-binary behaviour of a C fuzz target binary.
 *
 * Mirrors a Go test binary built with `go test -c -fuzz`: Go's -test.* flags
 * with Go's types and flag-package rules and messages (base/flags.c, the
 * parser the CLI uses too); no mode flag runs every target's seeds and
 * files in testdata/fuzz/<Target>/ (relative to the cwd) as regression
 * subtests named seed#N and <file name>; output
 * follows go test: failures as "--- FAIL: FuzzX (0.00s)" with the subtest's
 * report indented below, then PASS or FAIL, exit 0 or 1; bad flags exit 2.
 * -test.fuzzworker serves a coordinator (runtime/worker.c); the worker gets
 * the coordinator's argv verbatim, so every flag a coordinator may pass is
 * accepted here even when it means nothing to a worker.
 */
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "coord.h"
#include "dir.h"
#include "driver_internal.h"
#include "file.h"
#include "flags.h"
#include "lf.h"

typedef struct {
  const char *run, *list, *fuzz;
  cgofuzz_worker_opts_ wk;
  bool verbose, worker;
  cgofuzz_flag_dur timeout, fuzztimeout, fuzztime, mintime;
  int64_t parallel;
  cgofuzz_fuzz_opts_ fz;
  /* Where the flags that mean nothing here land: Go's checks of their
   * values still apply, as in a Go test binary. */
  const char *unused_str;
  bool unused_bool;
  int64_t unused_int;
  uint64_t unused_uint;
  cgofuzz_flag_dur unused_dur;
} opts;

/* -test.v is not a plain bool in Go (testing's chattyFlag): true, false
 * and test2json (go test -json) only, so -test.v=1 is an error. */
static int set_chatty(void *dst, const char *v, cgofuzz_err *why) {
  if (strcmp(v, "true") == 0 || strcmp(v, "test2json") == 0)
    *(bool *)dst = true;
  else if (strcmp(v, "false") == 0)
    *(bool *)dst = false;
  else
    return cgofuzz_errf(why, 0, "invalid flag -test.v=%s", v);
  return 0;
}

/* -test.fuzzrsslimitmb: a count of megabytes (negative values are the
 * worker's "default" marker, not something to pass). */
static int set_rss_limit(void *dst, const char *v, cgofuzz_err *why) {
  uint64_t u;
  const char *reason;
  if (cgofuzz_flag_parse_uint(v, &u, &reason) != 0)
    return cgofuzz_errf(why, 0, "%s", reason);
  if (u > INT64_MAX)
    return cgofuzz_errf(why, 0, "value out of range");
  *(int64_t *)dst = (int64_t)u;
  return 0;
}

#define STR(n, d, u)                                                           \
  { .name = n, .type = CGOFUZZ_FLAG_STRING, .dst = d, .usage = u }
#define BOOL(n, d, u)                                                          \
  { .name = n, .type = CGOFUZZ_FLAG_BOOL, .dst = d, .usage = u }
#define INT(n, d, u)                                                           \
  { .name = n, .type = CGOFUZZ_FLAG_INT, .dst = d, .usage = u }
#define DUR(n, t, d, z, u)                                                     \
  { .name = n, .type = t, .dst = d, .usage = u, .allow_zero = z }

/* parse_flags's "stop here with status 0" (after -h printed the usage). */
#define FLAGS_HELP_SHOWN (-1)

/* Parses the flags as a Go test binary does. Returns 0 to go on, 2 for a
 * usage error (Go's message printed), or FLAGS_HELP_SHOWN. */
static int parse_flags(int argc, char **argv, opts *o) {
  /* Every flag a Go test binary defines (go1.26), with Go's types, because
   * go test and Go's coordinator pass them (a worker gets the coordinator's
   * argv verbatim), plus cgofuzz's worker flags -test.fuzzdetectleaks,
   * -test.fuzzdict, -test.fuzztimeout and -test.fuzzrsslimitmb. Sorted, as Go
   * lists them. */
  cgofuzz_flag flags[] = {
      BOOL("test.artifacts", &o->unused_bool, "store test artifacts"),
      STR("test.bench", &o->unused_str,
          "run only benchmarks matching `regexp`"),
      BOOL("test.benchmem", &o->unused_bool, "print memory allocations"),
      DUR("test.benchtime", CGOFUZZ_FLAG_DURATION_OR_COUNT, &o->unused_dur,
          false, "run each benchmark for duration `d` or N times if d is Nx"),
      STR("test.blockprofile", &o->unused_str,
          "write a blocking profile to `file`"),
      INT("test.blockprofilerate", &o->unused_int,
          "set blocking profile `rate`"),
      {.name = "test.count",
       .type = CGOFUZZ_FLAG_UINT,
       .dst = &o->unused_uint,
       .usage = "run tests `n` times"},
      STR("test.coverprofile", &o->unused_str,
          "write a coverage profile to `file`"),
      STR("test.cpu", &o->unused_str, "comma-separated `list` of cpu counts"),
      STR("test.cpuprofile", &o->unused_str, "write a cpu profile to `file`"),
      BOOL("test.failfast", &o->unused_bool, "stop after the first failure"),
      BOOL("test.fullpath", &o->unused_bool, "show full file names"),
      STR("test.fuzz", &o->fuzz, "run the fuzz test matching `regexp`"),
      STR("test.fuzzcachedir", &o->fz.cachedir,
          "directory where interesting fuzzing inputs are stored"),
      STR("test.fuzzdict", &o->wk.dict,
          "libFuzzer/AFL dictionary `file` (cgofuzz)"),
      BOOL("test.fuzzdetectleaks", &o->wk.detect_leaks,
           "an input that leaks memory is a failure, when the target has "
           "LeakSanitizer, as libFuzzer's -detect_leaks (cgofuzz; default "
           "true)"),
      {.name = "test.fuzzmalloclimitmb",
       .type = CGOFUZZ_FLAG_FUNC,
       .dst = &o->wk.malloc_limit_mb,
       .usage = "a single malloc of `MB` or more is out of memory, 0: none "
                "(cgofuzz; default -test.fuzzrsslimitmb)",
       .func = set_rss_limit},
      DUR("test.fuzzminimizetime", CGOFUZZ_FLAG_DURATION_OR_COUNT, &o->mintime,
          true, "time to spend minimizing a failing input (default 1m0s)"),
      {.name = "test.fuzzrsslimitmb",
       .type = CGOFUZZ_FLAG_FUNC,
       .dst = &o->wk.rss_limit_mb,
       .usage = "worker memory limit in `MB`, 0: none (cgofuzz; default 2048)",
       .func = set_rss_limit},
      DUR("test.fuzztime", CGOFUZZ_FLAG_DURATION_OR_COUNT, &o->fuzztime, false,
          "time to spend fuzzing; default is to run indefinitely"),
      DUR("test.fuzztimeout", CGOFUZZ_FLAG_DURATION, &o->fuzztimeout, true,
          "per-input time limit `d`, 0: none (cgofuzz; default 10s)"),
      BOOL("test.fuzzvalueprofile", &o->wk.value_profile,
           "count the distance between comparison operands as coverage, "
           "as libFuzzer's -use_value_profile (cgofuzz)"),
      BOOL(
          "test.fuzzworker", &o->worker,
          "coordinate with the parent process (for use only by a coordinator)"),
      STR("test.gocoverdir", &o->unused_str,
          "write coverage intermediate files to this directory"),
      STR("test.list", &o->list, "list tests matching `regexp` then exit"),
      STR("test.memprofile", &o->unused_str,
          "write an allocation profile to `file`"),
      INT("test.memprofilerate", &o->unused_int, "set memory profiling `rate`"),
      STR("test.mutexprofile", &o->unused_str,
          "write a mutex contention profile to the named file"),
      INT("test.mutexprofilefraction", &o->unused_int,
          "mutex profile fraction"),
      STR("test.outputdir", &o->unused_str, "write profiles to `dir`"),
      BOOL("test.paniconexit0", &o->unused_bool, "panic on call to os.Exit(0)"),
      INT("test.parallel", &o->parallel,
          "run at most `n` tests (fuzz workers) in parallel"),
      STR("test.run", &o->run, "run only tests matching `regexp`"),
      BOOL("test.short", &o->unused_bool, "run smaller test suite"),
      STR("test.shuffle", &o->unused_str, "randomize the execution order"),
      STR("test.skip", &o->unused_str,
          "do not list or run tests matching `regexp`"),
      STR("test.testlogfile", &o->unused_str,
          "write test action log to `file`"),
      DUR("test.timeout", CGOFUZZ_FLAG_DURATION, &o->timeout, true,
          "panic test binary after duration `d` (default 0, timeout disabled)"),
      STR("test.trace", &o->unused_str, "write an execution trace to `file`"),
      {.name = "test.v",
       .type = CGOFUZZ_FLAG_BOOL_FUNC,
       .dst = &o->verbose,
       .usage = "verbose: print additional output",
       .func = set_chatty},
  };
  size_t n = sizeof flags / sizeof flags[0];
  cgofuzz_err err = {0};
  int first = cgofuzz_flags_parse(flags, n, argc - 1, argv + 1, &err);
  if (first == CGOFUZZ_FLAGS_HELP) {
    cgofuzz_buf b = {0};
    fprintf(stderr, "Usage of %s:\n", argv[0]);
    if (cgofuzz_flags_usage(&b, flags, n) == 0 && b.len)
      fwrite(b.data, 1, b.len, stderr);
    cgofuzz_buf_free(&b);
    return FLAGS_HELP_SHOWN;
  }
  if (first < 0) {
    fprintf(stderr, "%s\n", err.msg);
    return 2;
  }
  /* Go ignores arguments after the flags; a C target has no use for them
   * either, and one here is almost always a mistyped flag. */
  if (first + 1 < argc) {
    fprintf(stderr, "unexpected argument: %s\n", argv[first + 1]);
    return 2;
  }
  if (o->parallel < 1) {
    fprintf(stderr, "testing: -parallel can only be given a positive "
                    "integer\n");
    return 2;
  }
  o->fz.parallel = o->parallel > INT_MAX ? INT_MAX : (int)o->parallel;
  o->fz.fuzztime = o->fuzztime.text;
  o->fz.mintime = o->mintime.text;
  if (o->fuzztimeout.text)
    o->wk.timeout_ns = o->fuzztimeout.ns;
  return 0;
}

#undef STR
#undef BOOL
#undef INT
#undef DUR

/* Go matches -test.run level by level: the pattern is split at '/' and
 * element k is searched (unanchored) in name level k. POSIX ERE stands in
 * for Go's RE2 syntax; the two agree on the usual ^Name$ / a|b patterns. */
typedef struct {
  regex_t re[2];
  bool has[2];
} matcher;

static int matcher_init(matcher *m, const char *pat) {
  memset(m, 0, sizeof *m);
  if (!pat || !*pat)
    return 0;
  char *copy = strdup(pat);
  if (!copy)
    return -1;
  char *slash = strchr(copy, '/');
  if (slash)
    *slash = 0;
  const char *parts[2] = {copy, slash ? slash + 1 : NULL};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) {
    if (!parts[k] || !*parts[k])
      continue;
    if (regcomp(&m->re[k], parts[k], REG_EXTENDED | REG_NOSUB) != 0) {
      fprintf(stderr, "testing: invalid regexp for -test.run: %s\n", pat);
      rc = -1;
    } else {
      m->has[k] = true;
    }
  }
  free(copy);
  return rc;
}

static bool matches(const matcher *m, int level, const char *name) {
  return !m->has[level] || regexec(&m->re[level], name, 0, NULL, 0) == 0;
}

static void matcher_free(matcher *m) {
  for (int k = 0; k < 2; k++)
    if (m->has[k])
      regfree(&m->re[k]);
}

/* Appends text with every line indented by `indent` spaces. */
static void put_indented(cgofuzz_buf *out, const uint8_t *p, size_t n,
                         int indent) {
  const uint8_t *e = p + n;
  while (p < e) {
    const uint8_t *nl = memchr(p, '\n', (size_t)(e - p));
    size_t k = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);
    cgofuzz_buf_printf(out, "%*s", indent, "");
    cgofuzz_buf_append(out, p, k);
    p += k;
  }
}

/* Regular files of dir, sorted like Go's os.ReadDir; NULL (and *n 0)
 * when there are none or dir cannot be read. */
static char **list_dir(const char *dir, size_t *n) {
  char **names;
  size_t k;
  *n = 0;
  if (cgofuzz_dir_names(dir, false, &names, &k) != 0)
    return NULL;
  for (size_t i = 0; i < k; i++) {
    char path[PATH_MAX + 258];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
      free(names[i]);
    else
      names[(*n)++] = names[i];
  }
  return names;
}

typedef struct {
  cgofuzz_buf out; /* the report of the target, printed when it ends */
  bool failed;
} report;

static void run_entry(cgofuzz_f *f, cgofuzz_t *t, const char *name,
                      const cgofuzz_values *vals, const opts *o, report *r) {
  if (o->verbose)
    printf("=== RUN   %s/%s\n", f->name, name);
  double t0 = cgofuzz_mono_s();
  cgofuzz_run res = cgofuzz_target_exec_(f, t, vals->v);
  double dt = cgofuzz_mono_s() - t0;
  const char *verdict = res == CGOFUZZ_RUN_FAIL   ? "FAIL"
                        : res == CGOFUZZ_RUN_SKIP ? "SKIP"
                                                  : "PASS";
  if (res == CGOFUZZ_RUN_FAIL)
    r->failed = true;
  if (res == CGOFUZZ_RUN_FAIL || o->verbose) {
    cgofuzz_buf_printf(&r->out, "    --- %s: %s/%s (%.2fs)\n", verdict, f->name,
                       name, dt);
    put_indented(&r->out, t->log.data, t->log.len, 8);
  }
}

/* Runs one target's seed corpus; returns true if it passed. */
static bool run_target(cgofuzz_f *f, const matcher *m, const opts *o) {
  report r = {0};
  cgofuzz_t t = {0};
  double t0 = cgofuzz_mono_s();
  if (o->verbose)
    printf("=== RUN   %s\n", f->name);
  cgofuzz_target_seed_(f);

  /* Go loads (and type-checks) every testdata file before running any. */
  char dir[512];
  snprintf(dir, sizeof dir, "testdata/fuzz/%s", f->name);
  size_t nfiles;
  char **files = list_dir(dir, &nfiles);
  cgofuzz_values *fvals = calloc(nfiles ? nfiles : 1, sizeof *fvals);
  for (size_t i = 0; i < nfiles; i++) {
    char path[512 + 258];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    cgofuzz_buf data = {0};
    cgofuzz_err err = {0};
    if (cgofuzz_file_read(path, &data) != 0) {
      cgofuzz_errf(&err, 0, "cannot read file");
    } else if (cgofuzz_codec_decode(data.data, data.len, &fvals[i], &err) ==
               0) {
      cgofuzz_target_check_(f, &fvals[i], &err);
    }
    cgofuzz_buf_free(&data);
    if (err.msg[0]) {
      cgofuzz_buf_printf(&r.out, "    \"%s\": %s\n", path, err.msg);
      r.failed = true;
    }
  }
  if (!r.failed) {
    for (size_t i = 0; i < f->nseeds; i++) {
      char name[32];
      snprintf(name, sizeof name, "seed#%zu", i);
      if (matches(m, 1, name))
        run_entry(f, &t, name, &f->seeds[i], o, &r);
    }
    for (size_t i = 0; i < nfiles; i++)
      if (matches(m, 1, files[i]))
        run_entry(f, &t, files[i], &fvals[i], o, &r);
  }
  if (r.failed || o->verbose)
    printf("--- %s: %s (%.2fs)\n", r.failed ? "FAIL" : "PASS", f->name,
           cgofuzz_mono_s() - t0);
  if (r.out.len)
    fwrite(r.out.data, 1, r.out.len, stdout);
  fflush(stdout);
  for (size_t i = 0; i < nfiles; i++) {
    free(files[i]);
    cgofuzz_values_free(&fvals[i]);
  }
  free(files);
  free(fvals);
  cgofuzz_buf_free(&r.out);
  cgofuzz_buf_free(&t.log);
  return !r.failed;
}

/* The one target -test.fuzz selects, as a worker must serve. */
static cgofuzz_f *select_fuzz_target(const char *pat) {
  regex_t re;
  bool has = pat && *pat;
  if (has && regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0) {
    fprintf(stderr, "testing: invalid regexp for -test.fuzz: %s\n", pat);
    return NULL;
  }
  cgofuzz_f *found = NULL;
  int n = 0;
  for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next)
    if (!has || regexec(&re, f->name, 0, NULL, 0) == 0) {
      found = f;
      n++;
    }
  if (has)
    regfree(&re);
  if (n != 1) {
    fprintf(stderr,
            "testing: -test.fuzz must match exactly one target, "
            "matched %d\n",
            n);
    return NULL;
  }
  return found;
}

/* -test.timeout, as Go's: the whole run (not a worker) panics when it is
 * exceeded. An alarm, so nothing runs per exec; the handler uses only
 * async-signal-safe calls. */
static char timeout_msg[160];

static void on_alarm(int sig) {
  (void)sig;
  ssize_t k = write(2, timeout_msg, strlen(timeout_msg));
  (void)k;
  _exit(2);
}

static void arm_timeout(const cgofuzz_flag_dur *d) {
  if (d->ns <= 0)
    return;
  snprintf(timeout_msg, sizeof timeout_msg, "panic: test timed out after %s\n",
           d->text);
  signal(SIGALRM, on_alarm);
  int64_t s = (d->ns + 999999999) / 1000000000;
  alarm((unsigned)(s > 0x7fffffff ? 0x7fffffff : s));
}

int cgofuzz_test_main(int argc, char **argv) {
  /* libFuzzer's command line (a flag -name=value that is not -test.*, or a
   * corpus directory or file): the binary is a libFuzzer binary. */
  if (cgofuzz_lf_wanted(argc, argv))
    return cgofuzz_driver_libfuzzer_(argc, argv);
  /* -test.parallel defaults to the CPUs, as Go's to GOMAXPROCS. */
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  opts o = {.wk = {.timeout_ns = -1,
                   .rss_limit_mb = -1,
                   .malloc_limit_mb = -1,
                   .detect_leaks = true},
            .parallel = cpus > 0 ? cpus : 1};
  int rc = parse_flags(argc, argv, &o);
  if (rc != 0)
    return rc == FLAGS_HELP_SHOWN ? 0 : rc;
  if (!o.worker)
    arm_timeout(&o.timeout);

  if (o.worker) {
    cgofuzz_f *f = select_fuzz_target(o.fuzz);
    return f ? cgofuzz_serve_worker_(f, &o.wk) : 2;
  }
  if (o.list) {
    regex_t re;
    if (regcomp(&re, o.list, REG_EXTENDED | REG_NOSUB) != 0) {
      fprintf(stderr, "testing: invalid regexp for -test.list: %s\n", o.list);
      return 2;
    }
    for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next)
      if (regexec(&re, f->name, 0, NULL, 0) == 0)
        printf("%s\n", f->name);
    regfree(&re);
    return 0;
  }
  if (o.fuzz && *o.fuzz) {
    /* Like a Go test binary: this process becomes the coordinator. */
    cgofuzz_f *f = select_fuzz_target(o.fuzz);
    if (!f)
      return 2;
    o.fz.verbose = o.verbose;
    return cgofuzz_driver_fuzz_(f, argc, argv, &o.fz);
  }

  matcher m;
  if (matcher_init(&m, o.run) != 0)
    return 2;
  bool ok = true, any = false;
  for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next) {
    if (!matches(&m, 0, f->name))
      continue;
    any = true;
    ok = run_target(f, &m, &o) && ok;
  }
  matcher_free(&m);
  if (!any)
    fprintf(stderr, "testing: warning: no tests to run\n");
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
