/*
 * fb_race.c: -racereplay: every corpus entry, as the run finds it, is run
 * once more by a worker of a -race build of the same package (fb->
 * race_binary, built by the caller), and a data race it reports is the
 * run's failure: the input is written to testdata and `go test -race
 * -run=Target/NAME` re-runs it. The user's workers fuzz at full speed; only
 * inputs that add coverage pay the race detector's cost, once.
 *
 * Invariants:
 *  - entries are replayed in corpus order, each once (the corpus only
 *    grows), the warm-up's included, within the replays' share of the
 *    run's wall time (fb_replay), every entry as it comes in a run counted
 *    in execs;
 *  - the race worker is a Go fuzz worker like the user's (same arguments,
 *    its own shared memory), sent exact runs (Warmup, Limit 1); its
 *    coverage is ignored;
 *  - a failure is the run's only when the race detector said so ("race
 *    detected during execution of test"): a panic there is the user's
 *    workers' to find, and a worker that dies or hangs is started again
 *    at the next entry, the entry skipped;
 *  - the failure's message is the worker's report of the race (its
 *    "WARNING: DATA RACE" block, from its stderr) followed by testing's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "coord_worker.h"
#include "fb_internal.h"
#include "mutator.h"
#include "text.h"
#include "wire.h"

#define RACE_CALL_MS 30000 /* one replay, the race detector's 5-20x in */
#define RACE_DEATHS_MAX 10 /* deaths in a row before replays stop */

struct cgofuzz_fb_race {
  cgofuzz_coord_worker w;
  bool up;
  size_t next; /* the next corpus entry to replay */
  fb_replay budget;
  unsigned deaths; /* in a row */
  uint64_t replays, races;
  cgofuzz_buf line;
};
typedef struct cgofuzz_fb_race race;

static void stop_worker(race *x) {
  if (x->up)
    cgofuzz_coord_worker_stop(&x->w, CGOFUZZ_COORD_WORKER_GRACE_MS);
  x->up = false;
}

/* Starts the race worker and waits for its ping. 0, or -1. */
static int start_worker(fb_run *r, race *x) {
  cgofuzz_err err = {0};
  if (cgofuzz_coord_side_start(
          &x->w, r->fb->race_binary, cgofuzz_coord_host_argv(r->h),
          cgofuzz_coord_host_envp(r->h), &x->line, &err) != 0)
    return -1;
  x->up = true;
  return 0;
}

/* The race detector's report in the worker's stderr since the call began:
 * from its first "WARNING: DATA RACE" on, or all of it. */
static void race_report(race *x, cgofuzz_buf *out) {
  static const char warn[] = "WARNING: DATA RACE";
  const uint8_t *t = x->w.tail, *at = NULL;
  size_t n = x->w.tail_len;
  if (t && n)
    at = cgofuzz_text_find(t, n, warn, sizeof warn - 1);
  if (at)
    cgofuzz_buf_append(out, at, n - (size_t)(at - t));
}

/* Replays corpus entry i. 1: replayed, 0: the worker could not run it. */
static int replay(fb_run *r, race *x, size_t i) {
  cgofuzz_err err = {0};
  size_t len;
  const uint8_t *v = cgofuzz_coord_host_entry(r->h, i, &len);
  x->w.tail_len = 0; /* this call's output only */
  cgofuzz_fuzz_resp resp;
  if (cgofuzz_coord_side_run(&x->w, v, len, RACE_CALL_MS, &x->line, &resp,
                             &err) != 1) {
    x->up = false; /* stopped */
    x->deaths++;
    return 0;
  }
  x->deaths = 0;
  x->replays++;
  static const char said[] = "race detected during execution of test";
  if (resp.err && cgofuzz_text_find((const uint8_t *)resp.err, resp.err_len,
                                    said, sizeof said - 1)) {
    cgofuzz_buf msg = {0};
    race_report(x, &msg);
    if (msg.len)
      cgofuzz_buf_putc(&msg, '\n');
    cgofuzz_buf_append(&msg, resp.err, resp.err_len);
    x->races++;
    if (!msg.failed)
      cgofuzz_coord_host_failure(r->h, v, len, (const char *)msg.data, msg.len,
                                 "-race", NULL);
    cgofuzz_buf_free(&msg);
  }
  cgofuzz_fuzz_resp_free(&resp);
  return 1;
}

void cgofuzz_fb_race_start(fb_run *r) {
  const char *bin = r->fb->race_binary;
  if (!bin || !*bin)
    return;
  race *x = calloc(1, sizeof *x);
  cgofuzz_err err = {0};
  if (!x || cgofuzz_coord_worker_init(&x->w, CGOFUZZ_SHM_VALUE_CAP, &err)) {
    fprintf(stderr, "cgofuzz: -racereplay: no race worker (%s)\n",
            x ? err.msg : "out of memory");
    free(x);
    return;
  }
  fb_replay_start(&x->budget, r);
  r->race = x;
}

bool cgofuzz_fb_race_step(fb_run *r) {
  race *x = r->race;
  if (!x || x->deaths >= RACE_DEATHS_MAX || !cgofuzz_coord_host_fuzzing(r->h) ||
      x->next >= cgofuzz_coord_host_corpus(r->h))
    return false;
  int64_t t0 = cgofuzz_mono_ms();
  if (!fb_replay_may(&x->budget, t0))
    return false;
  if (x->up || start_worker(r, x) == 0)
    replay(r, x, x->next);
  else
    x->deaths++;
  x->next++; /* replayed, or skipped: its worker could not run it */
  x->budget.spent_ms += cgofuzz_mono_ms() - t0;
  return x->budget.counted && x->next < cgofuzz_coord_host_corpus(r->h);
}

void cgofuzz_fb_race_stop(fb_run *r) {
  race *x = r->race;
  if (!x)
    return;
  if (cgofuzz_coord_host_says(r->h))
    fprintf(stderr,
            "cgofuzz: -racereplay: %llu of %zu corpus entries replayed in %s, "
            "%llu data race%s%s\n",
            (unsigned long long)x->replays, cgofuzz_coord_host_corpus(r->h),
            r->fb->race_binary, (unsigned long long)x->races,
            x->races == 1 ? "" : "s",
            x->deaths >= RACE_DEATHS_MAX
                ? " (replays stopped: the race worker died or hung on each "
                  "of its last inputs)"
                : "");
  stop_worker(x);
  cgofuzz_coord_worker_free(&x->w);
  cgofuzz_buf_free(&x->line);
  free(x);
  r->race = NULL;
}
