/*
 * target_main.c: the test-binary behaviour of a C fuzz target binary.
 *
 * Mirrors a Go test binary built with `go test -c -fuzz`: Go's -test.* flags
 * (a single or double dash, "-flag=value" or "-flag value"); no mode flag
 * runs every target's seeds and files in testdata/fuzz/<Target>/ (relative to
 * the cwd) as regression subtests named seed#N and <file name>; output
 * follows go test: failures as "--- FAIL: FuzzX (0.00s)" with the subtest's
 * report indented below, then PASS or FAIL, exit 0 or 1; bad flags exit 2.
 * -test.fuzzworker serves a coordinator (worker_server.c); the worker gets
 * the coordinator's argv verbatim, so every flag a coordinator may pass is
 * accepted here even when it means nothing to a worker.
 */
#include <dirent.h>
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
#include "runtime.h"

typedef struct {
  const char *run, *list, *fuzz;
  cgofuzz_worker_opts_ wk;
  bool verbose, worker;
  const char *timeout; /* -test.timeout */
  cgofuzz_fuzz_opts_ fz;
} opts;

/* Flags that take a value; the coordinator's own flags must be accepted
 * because a worker is started with them. */
static const char *const value_flags[] = {"test.run",
                                          "test.list",
                                          "test.fuzz",
                                          "test.fuzztime",
                                          "test.fuzzminimizetime",
                                          "test.fuzzcachedir",
                                          "test.parallel",
                                          "test.timeout",
                                          "test.count",
                                          "test.cpu",
                                          "test.skip",
                                          "test.shuffle",
                                          "test.outputdir",
                                          "test.testlogfile",
                                          "test.gocoverdir",
                                          "test.coverprofile",
                                          "test.fuzzdict",
                                          "test.fuzztimeout",
                                          "test.fuzzrsslimitmb",
                                          NULL};
static const char *const bool_flags[] = {
    "test.v",     "test.fuzzworker", "test.paniconexit0",
    "test.short", "test.failfast",   "test.fullpath",
    NULL};

static bool in_list(const char *const *l, const char *s, size_t n) {
  for (; *l; l++)
    if (strlen(*l) == n && strncmp(*l, s, n) == 0)
      return true;
  return false;
}

/* Exact match of the flag name a[0..n) (strncmp alone would take
 * "test.fuzztime" for a prefix of "test.fuzztimeout"). */
static bool flag_is(const char *a, size_t n, const char *name) {
  return strlen(name) == n && strncmp(a, name, n) == 0;
}

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "%s%s\n", msg, arg);
  return 2;
}

static int parse_flags(int argc, char **argv, opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == 0)
      return usage_error("unexpected argument: ", a);
    a += a[1] == '-' ? 2 : 1;
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const char *val = eq ? eq + 1 : NULL;
    if (in_list(bool_flags, a, n)) {
      bool on = !val || strcmp(val, "true") == 0 || strcmp(val, "1") == 0 ||
                strcmp(val, "test2json") == 0;
      if (flag_is(a, n, "test.v"))
        o->verbose = on;
      else if (flag_is(a, n, "test.fuzzworker"))
        o->worker = on;
      continue;
    }
    if (!in_list(value_flags, a, n))
      return usage_error("flag provided but not defined: ", argv[i]);
    if (!val) {
      if (i + 1 >= argc)
        return usage_error("flag needs an argument: ", argv[i]);
      val = argv[++i];
    }
    if (flag_is(a, n, "test.run"))
      o->run = val;
    else if (flag_is(a, n, "test.list"))
      o->list = val;
    else if (flag_is(a, n, "test.fuzz"))
      o->fuzz = val;
    else if (flag_is(a, n, "test.timeout"))
      o->timeout = val;
    else if (flag_is(a, n, "test.fuzzdict"))
      o->wk.dict = val;
    else if (flag_is(a, n, "test.fuzztimeout")) {
      int64_t cnt;
      if (cgofuzz_parse_duration(val, &o->wk.timeout_ns, &cnt) != 0 || cnt)
        return usage_error("invalid value for -test.fuzztimeout: ", val);
    } else if (flag_is(a, n, "test.fuzzrsslimitmb")) {
      char *end;
      o->wk.rss_limit_mb = strtoll(val, &end, 10);
      if (*end || o->wk.rss_limit_mb < 0)
        return usage_error("invalid value for -test.fuzzrsslimitmb: ", val);
    } else if (flag_is(a, n, "test.fuzztime"))
      o->fz.fuzztime = val;
    else if (flag_is(a, n, "test.fuzzminimizetime"))
      o->fz.mintime = val;
    else if (flag_is(a, n, "test.fuzzcachedir"))
      o->fz.cachedir = val;
    else if (flag_is(a, n, "test.parallel")) {
      char *end;
      long p = strtol(val, &end, 10);
      if (*end || p < 1)
        return usage_error("invalid value for -test.parallel: ", val);
      o->fz.parallel = (int)p;
    }
  }
  return 0;
}

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

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Regular files of dir, sorted like Go's os.ReadDir. */
static char **list_dir(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.' &&
        (de->d_name[1] == 0 || (de->d_name[1] == '.' && de->d_name[2] == 0)))
      continue;
    char path[PATH_MAX + 258];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      char **nn = realloc(names, cap * sizeof *nn);
      if (!nn)
        break;
      names = nn;
    }
    names[(*n)++] = strdup(de->d_name);
  }
  closedir(d);
  if (*n)
    qsort(names, *n, sizeof *names, cmp_str);
  return names;
}

static int read_file(const char *path, cgofuzz_buf *out) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return -1;
  uint8_t tmp[65536];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, fp)) > 0)
    cgofuzz_buf_append(out, tmp, k);
  int bad = ferror(fp);
  fclose(fp);
  return bad ? -1 : 0;
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
    if (read_file(path, &data) != 0) {
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

static int arm_timeout(const char *val) {
  int64_t ns, cnt;
  if (cgofuzz_parse_duration(val, &ns, &cnt) != 0 || cnt)
    return usage_error("invalid value for -test.timeout: ", val);
  if (ns <= 0)
    return 0;
  snprintf(timeout_msg, sizeof timeout_msg, "panic: test timed out after %s\n",
           val);
  signal(SIGALRM, on_alarm);
  int64_t s = (ns + 999999999) / 1000000000;
  alarm((unsigned)(s > 0x7fffffff ? 0x7fffffff : s));
  return 0;
}

int cgofuzz_test_main(int argc, char **argv) {
  opts o = {.wk = {.timeout_ns = -1, .rss_limit_mb = -1}};
  int rc = parse_flags(argc, argv, &o);
  if (rc != 0)
    return rc;
  if (!o.worker && o.timeout && (rc = arm_timeout(o.timeout)) != 0)
    return rc;

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
    return cgofuzz_target_fuzz_(f, argc, argv, &o.fz);
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
