/*
 * cgofuzz_lf_fuzz.c: fuzzing under libFuzzer's command line: cgofuzz's
 * coordinator (coord.h) with an observer that speaks libFuzzer's lines and
 * files.
 *
 * What the engines read, and where it comes from:
 *  - "INFO: Loaded 1 modules (N inline 8-bit counters)": N is the
 *    binary's coverage counters (ClusterFuzz's edges_total);
 *  - "#N INITED", then "#N NEW" per new corpus input and "#N pulse" every
 *    3 s, each with cov: (counters hit) ft: (counter buckets hit) corp:
 *    (entries/bytes) exec/s: and rss:; "#N DONE" and "Done N runs in S
 *    second(s)" at the end;
 *  - a new input is written, raw, to the first corpus directory under its
 *    SHA-1 (what ClusterFuzz merges back);
 *  - a failure: the worker's report, then the artifact lines
 *    (cgofuzz_lf_write_artifact) and the exit status cgofuzz_lf_report_failure
 * gives;
 *  - "Slowest unit: N s:" and a slow-unit-<sha1> file for an input that ran
 *    -report_slow_units seconds (10) or more, each 10% slower than the last
 *    (a C worker ends its call to hand it over: CGOFUZZ_LF_SLOW_ENV; a Go
 *    target's are the last input of a call that ran past its deadline,
 *    coord_resp.c);
 *  - "stat::..." lines with -print_final_stats=1, whatever ended the run,
 *    slowest_unit_time_sec being the last slow unit's seconds (0: none).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "coord.h"
#include "coord_report.h"
#include "exact.h"
#include "fb.h"
#include "file.h"
#include "gobin.h"
#include "godebug.h"
#include "lf_internal.h"
#include "mutator.h"

typedef struct lf_run {
  const cgofuzz_lf_target *t;
  const lf_opts *o;
  const char *out_dir; /* first corpus directory, or NULL */
  size_t corpus_bytes;
  size_t new_units;
  int exit_status;
  bool failed;
  int64_t slowest; /* seconds of the slowest unit reported, 0: none */
} lf_run;

int64_t cgofuzz_lf_peak_rss_mb(void) {
  struct rusage self, kids;
  int64_t a = 0, b = 0;
  if (getrusage(RUSAGE_SELF, &self) == 0)
    a = self.ru_maxrss;
  if (getrusage(RUSAGE_CHILDREN, &kids) == 0)
    b = kids.ru_maxrss;
  return (a > b ? a : b) / 1024;
}

static void line(lf_run *r, const char *what, const cgofuzz_coord_stats *st) {
  double secs = (double)st->elapsed_ms / 1000.0;
  int64_t rate = secs > 0 ? (int64_t)((double)st->execs / secs) : 0;
  fprintf(stderr,
          "#%" PRId64 "\t%-6s cov: %zu ft: %zu corp: %zu/%zub exec/s: %" PRId64
          " rss: %" PRId64 "Mb\n",
          st->execs, what, st->cov_bytes, st->cov_bits, st->corpus,
          r->corpus_bytes, rate, cgofuzz_lf_peak_rss_mb());
  fflush(stderr);
}

/* The engines count the log from "#N INITED" on; the coordinator says it
 * once every starting input has run, or at once when there is none. */
static void on_inited(void *ctx, const cgofuzz_coord_stats *st) {
  line(ctx, "INITED", st);
}

static void on_pulse(void *ctx, const cgofuzz_coord_stats *st) {
  line(ctx, "pulse", st);
}

static void on_new(void *ctx, const uint8_t *data, size_t len,
                   const cgofuzz_coord_stats *st) {
  lf_run *r = ctx;
  cgofuzz_buf raw = {0};
  r->new_units++;
  if (cgofuzz_lf_raw(r->t, data, len, &raw) == 0) {
    r->corpus_bytes += raw.len;
    /* A failed write is said (cgofuzz_lf_write_file) and fuzzing goes on:
     * the input stays in the in-memory corpus. After a failure the
     * directory is not tried again (a full disk would flood the log). */
    if (r->out_dir && cgofuzz_lf_write_named(r->out_dir, raw.data, raw.len,
                                             CGOFUZZ_FILE_NO_SYNC, NULL) != 0) {
      fprintf(stderr,
              "WARNING: new inputs are no longer written to %s; fuzzing "
              "goes on\n",
              r->out_dir);
      r->out_dir = NULL;
    }
  }
  line(r, "NEW", st);
  cgofuzz_buf_free(&raw);
}

/* Whether fork mode goes on after a failure of this kind. */
static bool ignored(const lf_opts *o, lf_outcome oc) {
  if (o->fork <= 0)
    return false;
  return oc == LF_TIMEOUT ? o->ignore_timeouts > 0
         : oc == LF_OOM   ? o->ignore_ooms > 0
                          : o->ignore_crashes > 0;
}

static bool on_failure(void *ctx, const uint8_t *data, size_t len,
                       const char *msg, size_t msg_len, int status,
                       const cgofuzz_coord_stats *st) {
  lf_run *r = ctx;
  (void)st;
  lf_outcome oc =
      status == -1 ? LF_CRASH : cgofuzz_lf_outcome_of_status(status);
  r->exit_status = cgofuzz_lf_report_failure(r->o, oc, msg, msg_len, status);
  r->failed = true;
  cgofuzz_buf raw = {0};
  if (cgofuzz_lf_raw(r->t, data, len, &raw) == 0)
    cgofuzz_lf_write_artifact(r->o, cgofuzz_lf_outcome_kind(oc), raw.data,
                              raw.len);
  else /* cannot happen for an input of the target's own types */
    fprintf(stderr, "The input, as a Go corpus file:\n%.*s\n", (int)len,
            (const char *)data);
  cgofuzz_buf_free(&raw);
  fflush(stderr);
  return ignored(r->o, oc);
}

/* A worker's new slowest unit: reported when it is one for the whole run
 * too (libFuzzer's rule: 10% slower than the last one reported), as
 * libFuzzer reports it, and written as slow-unit-<sha1>. */
static void on_slow(void *ctx, const uint8_t *data, size_t len, int64_t secs) {
  lf_run *r = ctx;
  if (secs < r->o->report_slow_units ||
      (double)secs <= (double)r->slowest * 1.1)
    return;
  r->slowest = secs;
  fprintf(stderr, "Slowest unit: %" PRId64 " s:\n", secs);
  cgofuzz_buf raw = {0};
  if (cgofuzz_lf_raw(r->t, data, len, &raw) == 0)
    cgofuzz_lf_write_unit(r->o, "slow-unit", raw.data, raw.len);
  cgofuzz_buf_free(&raw);
  fflush(stderr);
}

static void print_stats(lf_run *r, const cgofuzz_coord_stats *st) {
  double secs = (double)st->elapsed_ms / 1000.0;
  fprintf(stderr,
          "stat::number_of_executed_units: %" PRId64 "\n"
          "stat::average_exec_per_sec:     %" PRId64 "\n"
          "stat::new_units_added:          %zu\n"
          "stat::slowest_unit_time_sec:    %" PRId64 "\n"
          "stat::peak_rss_mb:              %" PRId64 "\n",
          st->execs, secs > 0 ? (int64_t)((double)st->execs / secs) : 0,
          r->new_units, r->slowest, cgofuzz_lf_peak_rss_mb());
}

static void on_finished(void *ctx, const cgofuzz_coord_stats *st,
                        const char *fatal, size_t fatal_len) {
  lf_run *r = ctx;
  if (fatal && (!r->failed || r->o->fork > 0)) {
    fprintf(stderr, "ERROR: %.*s\n", (int)fatal_len, fatal);
    r->exit_status = LF_EXIT_USAGE;
  }
  if (!r->failed && !fatal) {
    if (cgofuzz_coord_interrupted()) {
      fprintf(stderr, "==%d== libFuzzer: run interrupted; exiting\n",
              (int)getpid());
      r->exit_status = LF_EXIT_INTERRUPT;
    } else {
      line(r, "DONE", st);
      fprintf(stderr, "Done %" PRId64 " runs in %" PRId64 " second(s)\n",
              st->execs, st->elapsed_ms / 1000);
    }
  }
  /* Fork mode's last line, whatever ended it (an ignored failure leaves
   * its exit status: libFuzzer exits with the last failed job's). */
  if (r->o->fork > 0)
    fprintf(stderr, "INFO: exiting: %d time: %" PRId64 "s\n", r->exit_status,
            st->elapsed_ms / 1000);
  if (r->o->print_final_stats)
    print_stats(r, st);
  fflush(stderr);
}

/* What cgofuzz_lf_fuzz hands the coordinator, alive until its run
 * returns. What it owns is NULL or zero until made, so lf_fuzz_free
 * releases whatever was made. */
typedef struct lf_fuzz {
  lf_inputs in;
  cgofuzz_buf *bufs; /* in's encodings and paths, as the coordinator */
  char **names;      /* takes them */
  char **extra;      /* the workers' flags */
  size_t n_extra;
  char *env_seed; /* GODEBUG with fuzzseed */
  cgofuzz_fb_dict *dict;
  cgofuzz_fb *fb; /* the coordinator's feedback (csrc/feedback) */
  char slow_env[64];
  char *wenv[2];
  cgofuzz_coord_observer ob;
  cgofuzz_coord_config cfg;
} lf_fuzz;

static int lf_oom(void) {
  fprintf(stderr, "ERROR: out of memory\n");
  return -1;
}

/* libFuzzer's first lines: the seed (-seed, or one of the clock's) and
 * the counters. Returns the seed. */
static uint64_t say_start(const cgofuzz_lf_target *t, const lf_opts *o) {
  uint64_t seed = o->seed > 0 ? (uint64_t)o->seed : 0;
  if (!seed) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = ((uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 20) & 0x7fffffff;
  }
  fprintf(stderr, "INFO: Seed: %" PRIu64 "\n", seed);
  size_t counters = cgofuzz_gobin_counters(t->binary);
  fprintf(stderr,
          "INFO: Loaded 1 modules   (%zu inline 8-bit counters): %zu "
          "[0x0, 0x%zx), \n",
          counters, counters, counters);
  if (!counters)
    fprintf(stderr,
            "WARNING: %s has no coverage instrumentation; fuzzing "
            "is blind\n",
            t->binary);
  return seed;
}

/* The corpus directories' inputs, as the coordinator takes them, and
 * libFuzzer's lines about them. 0, or -1 after printing why. */
static int read_corpus(lf_run *r, lf_fuzz *f) {
  const lf_opts *o = r->o;
  lf_inputs *in = &f->in;
  for (size_t i = 0; i < o->n_inputs; i++) {
    size_t before = in->n;
    if (cgofuzz_lf_read_dir(r->t, o->inputs[i], o->max_len, in) != 0)
      return -1;
    fprintf(stderr, "INFO: %zu files found in %s\n", in->n - before,
            o->inputs[i]);
  }
  r->out_dir = o->n_inputs ? o->inputs[0] : NULL;
  if (o->n_inputs == 0)
    fprintf(stderr,
            "INFO: A corpus is not provided, starting from an empty corpus\n");
  size_t total = 0, mn = SIZE_MAX, mx = 0;
  f->bufs = calloc(in->n ? in->n : 1, sizeof *f->bufs);
  f->names = calloc(in->n ? in->n : 1, sizeof *f->names);
  if (!f->bufs || !f->names)
    return lf_oom();
  for (size_t i = 0; i < in->n; i++) {
    f->bufs[i] = in->v[i].enc;
    f->names[i] = in->v[i].path;
    total += in->v[i].raw_len;
    mn = in->v[i].raw_len < mn ? in->v[i].raw_len : mn;
    mx = in->v[i].raw_len > mx ? in->v[i].raw_len : mx;
  }
  if (in->n)
    fprintf(stderr,
            "INFO: seed corpus: files: %zu min: %zub max: %zub total: %zub "
            "rss: %" PRId64 "Mb\n",
            in->n, mn, mx, total, cgofuzz_lf_peak_rss_mb());
  r->corpus_bytes = total;
  return 0;
}

/* What libFuzzer says of its limits, and the workers' flags and
 * environment. 0, or -1 after printing why. */
static int prepare_workers(lf_fuzz *f, const cgofuzz_lf_target *t,
                           const lf_opts *o, uint64_t seed) {
  if (o->max_len <= 0) /* Go's mutator bound: the shared value's capacity */
    fprintf(stderr,
            "INFO: -max_len is not provided; libFuzzer will not generate "
            "inputs larger than %zu bytes\n",
            CGOFUZZ_SHM_VALUE_CAP / (t->n_kinds ? t->n_kinds : 1) - 100);
  if (o->fork > 0)
    fprintf(stderr, "INFO: -fork=%" PRId64 ": fuzzing in separate process(s)\n",
            o->fork);
  if (cgofuzz_lf_worker_flags(o, t, &f->extra, &f->n_extra) != 0)
    return lf_oom();
  /* -seed seeds Go's mutator in every worker and the scheduler here, the
   * way GODEBUG=fuzzseed does for `go test -fuzz`. */
  /* Other GODEBUG settings are kept, any fuzzseed replaced. */
  if (!(f->env_seed = cgofuzz_godebug_with_fuzzseed(getenv("GODEBUG"), seed)))
    return lf_oom();
  setenv("GODEBUG", f->env_seed, 1);
  snprintf(f->slow_env, sizeof f->slow_env, "%s=%" PRId64, CGOFUZZ_LF_SLOW_ENV,
           o->report_slow_units);
  f->wenv[0] = (char *)CGOFUZZ_LF_ENV "=1";
  f->wenv[1] = f->slow_env;
  return 0;
}

/* The coordinator's dictionary and comparison feedback. 0, or -1 after
 * printing why. */
static int attach_dict(lf_fuzz *f, const cgofuzz_lf_target *t,
                       const lf_opts *o) {
  cgofuzz_coord_config *cfg = &f->cfg;
  if (!(f->fb = cgofuzz_fb_new()))
    return lf_oom();
  cfg->feedback = cgofuzz_fb_table(f->fb);
  if (t->go) {
    /* A Go test binary's workers take no -dict (a C worker's does:
     * -test.fuzzdict): the coordinator's dictionary takes it, with the
     * constants of the binary's code, and the comparison feedback traces
     * the target's comparisons, as under cgofuzz fuzz. */
    if (!(f->dict = cgofuzz_fb_dict_new()))
      return lf_oom();
    cgofuzz_err err = {0};
    if (o->dict && *o->dict &&
        cgofuzz_fb_dict_load(f->dict, o->dict, &err) != 0) {
      fprintf(stderr, "ParseDictionaryFile: %s\n", err.msg);
      return -1;
    }
    /* A run of -runs=N is to be the same every time: it waits for the
     * code's constants (go tool objdump); a timed one takes them as they
     * come. Without them the run goes on (the comparison feedback sees the
     * code's comparisons anyway). */
    f->fb->dict = f->dict;
    cgofuzz_fb_godict_attach(f->fb, t->binary, t->name, f->dict, o->runs >= 0,
                             &err);
    f->fb->cmp_feedback = true;
  } else {
    /* A C worker has its dictionary (-dict, -test.fuzzdict) and
     * comparison feedback in itself; the coordinator adds what a worker
     * cannot do alone, once its calls stall: crossovers of corpus entries
     * and the seeds' parts (fb_dict.c). */
    if (!(f->dict = cgofuzz_fb_dict_new()))
      return lf_oom();
    f->fb->dict = f->dict;
    f->fb->dict_corpus = true;
    f->fb->dict_when_stalled = true;
  }
  return 0;
}

/* The coordinator's configuration, from libFuzzer's flags. 0, or -1 after
 * printing why. */
static int configure(lf_fuzz *f, lf_run *r) {
  const cgofuzz_lf_target *t = r->t;
  const lf_opts *o = r->o;
  /* -fork=N: N workers sharing one corpus (-jobs runs whole processes,
   * lf_jobs.c; -workers alone does nothing, as in libFuzzer). */
  int64_t par = o->fork;
  f->ob = (cgofuzz_coord_observer){.ctx = r,
                                   .inited = on_inited,
                                   .new_input = on_new,
                                   .pulse = on_pulse,
                                   .failure = on_failure,
                                   .slow_unit = on_slow,
                                   .finished = on_finished};
  cgofuzz_coord_config *cfg = &f->cfg;
  cfg->binary = t->binary;
  cfg->extra_args = f->extra;
  cfg->n_extra = f->n_extra;
  cfg->target = t->name;
  cfg->cache_root = "/nonexistent/cgofuzz-lf"; /* workers do not use it */
  cfg->gover = t->gover;
  cfg->fuzz_ns = o->max_total_time > 0 ? o->max_total_time * 1000000000 : 0;
  /* -runs=N counts every exec, and the starting inputs all run whatever N
   * is (-runs=0 runs just them: OSS-Fuzz's coverage builds run a corpus
   * so). The coordinator counts its warm-up against the limit. */
  int64_t initial = (int64_t)f->in.n + (int64_t)t->n_seeds;
  cfg->fuzz_count = o->runs < 0         ? 0
                    : o->runs > initial ? o->runs
                    : initial           ? initial
                                        : 1;
  cfg->minimize_ns = 60LL * 1000000000;
  cfg->parallel = par > 0 ? (int)par : 1;
  cfg->kinds = (cgofuzz_kind *)t->kinds;
  cfg->n_kinds = t->n_kinds;
  cfg->seeds = (cgofuzz_buf *)t->seeds;
  cfg->n_seeds = t->n_seeds;
  cfg->observer = &f->ob;
  cfg->inputs = f->bufs;
  cfg->input_names = f->names;
  cfg->n_inputs = f->in.n;
  cfg->worker_output_fd = (o->close_fd_mask & 2) ? -1 : 2;
  cfg->worker_stdout_fd = (o->close_fd_mask & 1) ? -1 : 2;
  /* -timeout and -rss_limit_mb, also enforced by the coordinator (a Go
   * target's worker has no watchdog); -timeout=0: none. */
  cfg->exec_timeout_ns = o->timeout > 0 ? o->timeout * 1000000000 : -1;
  cfg->rss_limit_mb = o->rss_limit_mb > 0 ? o->rss_limit_mb : 0;
  cfg->worker_env = f->wenv;
  cfg->n_worker_env = 2;
  if (attach_dict(f, t, o) != 0)
    return -1;
  /* Fork mode goes on after the failures it ignores (on_failure says
   * which); the coordinator then writes each failure site once. */
  cfg->fuzz_continue =
      o->fork > 0 &&
      (o->ignore_crashes > 0 || o->ignore_timeouts > 0 || o->ignore_ooms > 0);
  return 0;
}

static void lf_fuzz_free(lf_fuzz *f) {
  cgofuzz_fb_free(f->fb);
  cgofuzz_fb_dict_free(f->dict);
  free(f->env_seed);
  free(f->bufs);
  free(f->names);
  cgofuzz_coord_free_names(f->extra, f->n_extra);
  cgofuzz_lf_inputs_free(&f->in);
}

int cgofuzz_lf_fuzz(const cgofuzz_lf_target *t, const lf_opts *o) {
  lf_run r = {.t = t, .o = o};
  lf_fuzz f;
  memset(&f, 0, sizeof f);
  int rc = LF_EXIT_USAGE;
  uint64_t seed = say_start(t, o);
  if (read_corpus(&r, &f) == 0 && prepare_workers(&f, t, o, seed) == 0 &&
      configure(&f, &r) == 0) {
    r.exit_status = 0;
    cgofuzz_coord_run(&f.cfg);
    rc = r.exit_status;
  }
  lf_fuzz_free(&f);
  return rc;
}
