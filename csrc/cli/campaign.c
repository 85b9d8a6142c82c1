/*
 * campaign.c: `cgofuzz fuzz` over every matching target of one or more
 * test binaries (Go or C) in one run, where `go test -fuzz` fuzzes one
 * target per run (golang/go#46312) and projects loop over targets in shell
 * scripts. docs/campaigns.md is the user's reference.
 *
 * The coordinator (coord.h) fuzzes one target per cgofuzz_coord_run and
 * resumes from its cache directory, so a target is fuzzed in *slices*, one
 * after the other, each with all the workers. The scheduler picks the next
 * slice's target:
 *  - targets not run yet go first, in order (so each is fuzzed early);
 *  - floor: a target whose share of the budget used so far (plus the next
 *    slice) would fall under a quarter of an even share goes next (the
 *    least fuzzed first), so a stalled target is never starved;
 *  - otherwise energy: new interesting inputs per budget unit (ms or exec)
 *    of its slices, decayed by half at each of its slices; the highest
 *    goes, ties to the least fuzzed.
 * Slices are long enough to repay the warm-up each one starts with (the
 * baseline coverage of the corpus is gathered again): a third of an even
 * share of the budget, at least 10 s (or the whole even share when that is
 * less), at most 60 s.
 *
 * Invariants: a target that failed is not fuzzed again (its failing input
 * is in testdata now, where its next warm-up would stop at it); without
 * -fuzzcontinue the first failure ends the run after that slice, as go
 * test would; each failure is in its target's report once (coord.h); the
 * -fuzzstats rows are written and flushed as they come, elapsed never
 * decreases.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "clock.h"
#include "coord.h"

#define SLICE_MIN_MS 10000
#define SLICE_MAX_MS 60000
#define SLICE_UNBOUNDED_MS 20000
#define MIN_LEFT_MS 1000 /* a shorter remainder is not worth a warm-up */

/* ^C between two slices (each slice's coordinator handles its own). */
static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static double since_start(const cli_campaign *cp) {
  return (double)(cgofuzz_mono_ms() - cp->start_ms) / 1000.0;
}

int cli_stats_open(cli_campaign *cp, const char *path) {
  cp->stats = fopen(path, "w");
  if (!cp->stats) {
    fprintf(stderr, "cgofuzz fuzz: -fuzzstats %s: %s\n", path, strerror(errno));
    return -1;
  }
  fputs("elapsed_s,target,execs,execs_per_s,coverage,corpus,new_inputs,"
        "failures,c_coverage\n",
        cp->stats);
  fflush(cp->stats);
  return 0;
}

/* One -fuzzstats row, flushed at once (a killed run keeps its rows).
 * coverage counts every bit; c_coverage those of a cgo package's C code
 * (0 without any, coord.h). */
static void stats_row(cli_ctarget *t, double at, int64_t execs, double rate,
                      size_t cov, size_t c_cov, size_t corpus,
                      size_t new_inputs) {
  cli_campaign *cp = t->cp;
  if (!cp->stats)
    return;
  fprintf(cp->stats, "%.3f,%s,%" PRId64 ",%.1f,%zu,%zu,%zu,%zu,%zu\n", at,
          t->label, execs, rate, cov, corpus, new_inputs, t->report.n_failures,
          c_cov);
  fflush(cp->stats);
}

/* The coordinator's progress tick (cfg.on_stats): a row of cumulative
 * figures. The end of a slice of several targets' run is one too (its
 * last progress line); the final rows are written when the run ends. */
static void on_stats(void *ctx, const cgofuzz_coord_stats *st, bool final) {
  cli_ctarget *t = ctx;
  if (final && t->cp->single)
    return; /* the final row follows at once */
  double at = since_start(t->cp);
  int64_t execs = t->base_execs + st->execs;
  double dt = at - t->last_row_s;
  double rate = dt > 0 ? (double)(execs - t->last_row_execs) / dt : 0;
  /* Before a slice's warm-up has gathered its coverage again, the
   * target's coverage is what its last slice ended with. */
  bool now = st->cov_bits > t->cov_bits;
  stats_row(t, at, execs, rate, now ? st->cov_bits : t->cov_bits,
            now ? st->c_cov_bits : t->c_cov_bits, st->corpus,
            t->base_new + st->new_inputs);
  t->last_row_s = at;
  t->last_row_execs = execs;
}

/* Runs one slice of t with the given -fuzztime (ns or count; both 0: no
 * limit) and adds its figures to t. */
static void run_slice(cli_campaign *cp, cli_ctarget *t, int64_t ns,
                      int64_t count) {
  t->cfg.fuzz_ns = ns;
  t->cfg.fuzz_count = count;
  t->cfg.campaign = !cp->single;
  t->cfg.report = &t->report;
  t->cfg.on_stats = on_stats;
  t->cfg.stats_ctx = t;
  t->cp = cp;
  if (cp->verbose && !cp->single) {
    printf("=== %s %s\n", t->slices ? "CONT " : "RUN  ", t->cfg.target);
    fflush(stdout);
  }
  t->last_row_s = since_start(cp);
  t->last_row_execs = t->base_execs;
  /* Package mode: in the package's directory, as go test runs it. */
  int home = cli_enter_dir(t->dir);
  char *testdata = NULL, *cache = NULL;
  /* -syncdir: others' finds in first, ours out after (sync.c). */
  bool sync =
      cp->syncdir && cgofuzz_coord_target_dirs(&t->cfg, &testdata, &cache) == 0;
  if (sync)
    cli_sync_in(cp->syncdir, t->cfg.target, cache);
  int64_t t0 = cgofuzz_mono_ms();
  int rc = cgofuzz_coord_run(&t->cfg);
  t->used_ms += cgofuzz_mono_ms() - t0;
  if (sync)
    cli_sync_out(cp->syncdir, t->cfg.target, cache, testdata);
  free(testdata);
  free(cache);
  cli_leave_dir(home);
  const cgofuzz_coord_stats *st = &t->report.stats;
  if (!t->slices)
    t->corpus_start = t->report.corpus_start;
  t->slices++;
  t->execs += st->execs;
  t->new_inputs += st->new_inputs;
  t->cov_bits = st->cov_bits;
  t->c_cov_bits = st->c_cov_bits;
  t->corpus_end = st->corpus;
  t->base_execs = t->execs;
  t->base_new = t->new_inputs;
  if (rc != 0 || t->report.failed)
    t->state = CLI_CT_FAIL;
}

/* Budget units a target used: execs in count mode, else milliseconds. */
static int64_t used(const cli_ctarget *t, bool count_mode) {
  return count_mode ? t->execs : t->used_ms;
}

/* The next slice's target among the active ones (see the top comment),
 * or NULL when none is left. */
static cli_ctarget *pick(cli_campaign *cp, bool count_mode, int64_t cap,
                         int64_t slice) {
  cli_ctarget *best = NULL;
  size_t active = 0;
  int64_t total = 0;
  for (size_t i = 0; i < cp->n; i++) {
    cli_ctarget *t = &cp->t[i];
    total += used(t, count_mode);
    if (t->state != CLI_CT_PENDING || (cap && used(t, count_mode) >= cap))
      continue;
    active++;
    if (!t->slices)
      return t;
  }
  if (!active)
    return NULL;
  /* The floor: a quarter of an even share of what will have been used. */
  double floor = (double)(total + slice) / (4.0 * (double)cp->n);
  for (size_t i = 0; i < cp->n; i++) {
    cli_ctarget *t = &cp->t[i];
    if (t->state != CLI_CT_PENDING || (cap && used(t, count_mode) >= cap))
      continue;
    if ((double)used(t, count_mode) < floor &&
        (!best || used(t, count_mode) < used(best, count_mode)))
      best = t;
  }
  if (best)
    return best;
  for (size_t i = 0; i < cp->n; i++) {
    cli_ctarget *t = &cp->t[i];
    if (t->state != CLI_CT_PENDING || (cap && used(t, count_mode) >= cap))
      continue;
    if (!best || t->energy > best->energy ||
        (t->energy == best->energy &&
         used(t, count_mode) < used(best, count_mode)))
      best = t;
  }
  return best;
}

const char *cli_failure_headline(const char *msg, size_t *len) {
  const char *p = msg;
  while (*p) {
    size_t l = strcspn(p, "\n");
    const char *q = p;
    while (q < p + l && (*q == ' ' || *q == '\t'))
      q++;
    if (q < p + l && strncmp(q, "--- FAIL: ", 10) != 0) {
      *len = l - (size_t)(q - p);
      return q;
    }
    p += l + (p[l] == '\n');
  }
  *len = strcspn(msg, "\n");
  return msg;
}

/* The summary on stderr: one line per target, then each failure with its
 * file and the command that reproduces it. */
static void summary(const cli_campaign *cp, size_t failed) {
  double secs = (double)(cp->stop_ms - cp->start_ms) / 1000.0;
  size_t w = 6, broken = cli_campaign_broken(cp);
  for (size_t i = 0; i < cp->n; i++)
    if (strlen(cp->t[i].label) > w)
      w = strlen(cp->t[i].label);
  fprintf(stderr, "cgofuzz: summary: %zu targets, %zu failed, ", cp->n, failed);
  if (broken)
    fprintf(stderr, "%zu package%s did not build, ", broken,
            broken == 1 ? "" : "s");
  fprintf(stderr, "%.1fs\n  %-*s %-6s %8s %7s %12s %5s %12s %6s %8s\n", secs,
          (int)w, "TARGET", "RESULT", "TIME", "SLICES", "EXECS", "COV",
          "CORPUS", "NEW", "FAILURES");
  static const char *const res[] = {"?", "PASS", "FAIL", "NOTRUN"};
  for (size_t i = 0; i < cp->n; i++) {
    const cli_ctarget *t = &cp->t[i];
    char corpus[48];
    snprintf(corpus, sizeof corpus, "%zu->%zu", t->corpus_start, t->corpus_end);
    fprintf(
        stderr, "  %-*s %-6s %7.1fs %7d %12" PRId64 " %5zu %12s %6zu %8zu\n",
        (int)w, t->label, res[t->state], (double)t->used_ms / 1000.0, t->slices,
        t->execs, t->cov_bits, corpus, t->new_inputs, t->report.n_failures);
  }
  for (size_t i = 0; i < cp->n; i++) {
    const cli_ctarget *t = &cp->t[i];
    for (size_t k = 0; k < t->report.n_failures; k++) {
      const cgofuzz_coord_failure *f = &t->report.failures[k];
      size_t ml;
      const char *m = cli_failure_headline(f->msg, &ml);
      fprintf(stderr, "  %s: failure %zu: %.*s\n", t->label, k + 1, (int)ml, m);
      if (f->path)
        fprintf(stderr, "    written to %s\n", f->path);
      for (const char *r = f->repro; *r;) {
        size_t l = strcspn(r, "\n");
        fprintf(stderr, "    %s %.*s\n",
                r == f->repro ? "re-run:" : "    or:", (int)l, r);
        r += l + (r[l] == '\n');
      }
    }
  }
  for (size_t i = 0; cp->pkgs && i < cp->pkgs->n; i++) {
    const cli_gopkg *p = &cp->pkgs->p[i];
    if (!p->error)
      continue;
    size_t hl;
    const char *h = cli_build_headline(p->error, &hl);
    fprintf(stderr, "  %s: build failed: %.*s\n", p->imp, (int)hl, h);
  }
  fflush(stderr);
}

size_t cli_campaign_broken(const cli_campaign *cp) {
  size_t n = 0;
  for (size_t i = 0; cp->pkgs && i < cp->pkgs->n; i++)
    n += cp->pkgs->p[i].error != NULL;
  return n;
}

const char *cli_build_headline(const char *out, size_t *len) {
  for (const char *p = out; *p;) {
    size_t l = strcspn(p, "\n");
    if (l && strncmp(p, "# ", 2) != 0 && strncmp(p, "FAIL", 4) != 0) {
      *len = l;
      return p;
    }
    p += l + (p[l] == '\n');
  }
  *len = strcspn(out, "\n");
  return out;
}

int cli_campaign_run(cli_campaign *cp) {
  bool count_mode = cp->total_count || cp->per_count;
  int64_t total = count_mode ? cp->total_count : cp->total_ns / 1000000;
  int64_t cap = count_mode ? cp->per_count : cp->per_ns / 1000000;
  int64_t n = (int64_t)cp->n;
  bool stop = false;
  size_t failed = 0;
  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  got_signal = 0;
  cp->start_wall = (int64_t)time(NULL);
  if (!cp->start_ms)
    cp->start_ms = cgofuzz_mono_ms();
  for (size_t i = 0; i < cp->n; i++) {
    cli_ctarget *t = &cp->t[i];
    t->cp = cp;
    t->state = CLI_CT_PENDING;
    if (!t->error)
      continue;
    /* Not fuzzable (discovery failed): a failure, as go test's F.Fuzz. */
    printf("--- FAIL: %s (0.00s)\n", t->cfg.target);
    fflush(stdout);
    fprintf(stderr, "%s\n", t->error);
    fflush(stderr);
    t->report.failed = true;
    cgofuzz_coord_failure *f = calloc(1, sizeof *f);
    if (f && (f->msg = strdup(t->error)) && (f->repro = strdup(""))) {
      t->report.failures = f;
      t->report.n_failures = 1;
    } else if (f) {
      free(f->msg);
      free(f);
    }
    t->state = CLI_CT_FAIL;
    stop = !cp->cont;
  }
  if (cp->single) {
    /* One target: exactly go test's run (the coordinator prints it all). */
    cli_ctarget *t = &cp->t[0];
    if (t->error) {
      printf("FAIL\n");
      fflush(stdout);
    } else {
      run_slice(cp, t, cp->total_ns, cp->total_count);
      if (t->state == CLI_CT_PENDING)
        t->state = CLI_CT_PASS;
    }
  } else if (!stop && n > 0) {
    /* -fuzztimeper alone: each target has its own budget, and the run ends
     * when every target has used its own. (Not a total of cap * n: a slice
     * may run over its count, since Go's minimization tries up to 32
     * printable bytes in a row without looking at its limit, and one
     * target's overrun would then shorten the next target's budget.) */
    bool per_only = cap && !total;
    int64_t slice;
    if (count_mode) {
      slice = total / (3 * n);
      if (slice < 1)
        slice = 1;
    } else if (!total) {
      slice = SLICE_UNBOUNDED_MS;
    } else {
      slice = total / (3 * n);
      int64_t lo = total / n < SLICE_MIN_MS ? total / n : SLICE_MIN_MS;
      if (slice < lo)
        slice = lo;
      if (slice > SLICE_MAX_MS)
        slice = SLICE_MAX_MS;
    }
    if (per_only)
      slice = cap; /* one slice each */
    if (cp->sync_ms && !count_mode)
      slice = cp->sync_ms; /* -syncevery: a sync between slices */
    while (!stop) {
      int64_t spent = 0;
      for (size_t i = 0; i < cp->n; i++)
        spent += used(&cp->t[i], count_mode);
      int64_t left = total ? total - spent : slice;
      if (left < (count_mode ? 1 : MIN_LEFT_MS))
        break;
      cli_ctarget *t = pick(cp, count_mode, cap, slice);
      if (!t)
        break;
      int64_t len = slice < left ? slice : left;
      /* Don't leave a remainder too short for a slice of its own. */
      if (!count_mode && left - len < MIN_LEFT_MS)
        len = left;
      if (cap && cap - used(t, count_mode) < len)
        len = cap - used(t, count_mode);
      if (per_only && !count_mode && t->slices && len < MIN_LEFT_MS) {
        t->state = CLI_CT_PASS; /* its budget's remainder: not worth it */
        continue;
      }
      int64_t before = used(t, count_mode);
      size_t new_before = t->new_inputs;
      run_slice(cp, t, count_mode ? 0 : len * 1000000, count_mode ? len : 0);
      int64_t spent_now = used(t, count_mode) - before;
      double rate = (double)(t->new_inputs - new_before) /
                    (double)(spent_now > 0 ? spent_now : 1);
      t->energy = t->slices == 1 ? rate : 0.5 * t->energy + 0.5 * rate;
      if (t->state == CLI_CT_FAIL && !cp->cont)
        stop = true;
      if (cgofuzz_coord_interrupted() || got_signal)
        stop = true;
      /* A slice that ended at once without failing (no execs, or under
       * 0.1 s) would be picked forever: the target is done. */
      if (t->state == CLI_CT_PENDING &&
          (count_mode ? spent_now <= 0 : spent_now < 100))
        t->state = CLI_CT_PASS;
    }
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  cp->stop_ms = cgofuzz_mono_ms();
  double at = since_start(cp);
  for (size_t i = 0; i < cp->n; i++) {
    cli_ctarget *t = &cp->t[i];
    if (t->state == CLI_CT_PENDING)
      t->state = t->slices ? CLI_CT_PASS : CLI_CT_NOTRUN;
    failed += t->state == CLI_CT_FAIL;
    double s = (double)t->used_ms / 1000.0;
    stats_row(t, at, t->execs, s > 0 ? (double)t->execs / s : 0, t->cov_bits,
              t->c_cov_bits, t->corpus_end, t->new_inputs);
  }
  bool bad = failed || cli_campaign_broken(cp);
  if (cp->single)
    return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  for (size_t i = 0; i < cp->n && cp->verbose; i++) {
    const cli_ctarget *t = &cp->t[i];
    if (t->state == CLI_CT_PASS)
      printf("--- PASS: %s (%.2fs)\n", t->cfg.target,
             (double)t->used_ms / 1000.0);
    else if (t->state == CLI_CT_NOTRUN)
      printf("=== RUN   %s\n    not fuzzed: the run stopped at a failure "
             "(-fuzzcontinue goes on)\n--- SKIP: %s (0.00s)\n",
             t->cfg.target, t->cfg.target);
  }
  if (cp->verbose)
    printf("=== NAME  \n");
  printf("%s\n", bad ? "FAIL" : "PASS");
  fflush(stdout);
  summary(cp, failed);
  return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
