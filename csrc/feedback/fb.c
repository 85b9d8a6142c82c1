/*
 * fb.c: the feedback strategies as the one table the coordinator calls
 * (coord_feedback.h): dictionary calls (fb_dict.c), run-time comparison
 * feedback (fb_cmp.c), the race replay (fb_race.c) and the goroutine-leak
 * probes (fb_goleak.c), asked in a fixed order.
 *
 * Invariants:
 *  - start: the dictionary first (it may fail the run: -dictout cannot be
 *    written), then the comparison feedback (which never fails it);
 *  - next: a queued comparison-feedback candidate goes first, as an exact
 *    run; else, unless the slot's worker just died, a dictionary call when
 *    its credit allows, built from the shorter of two entries picked by
 *    weight, or a plain call of that entry when no token applies to it;
 *    else the coordinator chooses. (A worker that just died gets a plain
 *    call: in a run that goes on after failures, tokens of a failing seed
 *    would kill it again and again, and the coordinator gives up after ten
 *    deaths in a row. Of two picks the shorter: a token or another
 *    entry's part does more in a short value, AFL favours small inputs
 *    too, and built values would otherwise grow with every find.)
 *  - done: a candidate's run is the comparison feedback's, outside the
 *    dictionary's accounting; every other call, plain ones too, is the
 *    dictionary's (its share follows what plain calls find);
 *  - step: the code's tokens when objdump is done, then a slice of
 *    tracing once the run is fuzzing, then a race replay (-racereplay),
 *    then a goroutine-leak probe (-goleaks);
 *  - stop: all, in start's order; the run's state goes with it.
 */
#include <stdlib.h>
#include <string.h>

#include "fb_internal.h"

/* What each kind of call is, for the coordinator's -v line about a
 * failing input ("the failing input came from ..."). */
static const char *const call_what[] = {
    [FB_CALL_NONE] = NULL,
    [FB_CALL_EXACT] = "a dictionary call (an exact run)",
    [FB_CALL_BASE] = "a dictionary call (Go's mutations of a built input)",
    [FB_CALL_CMP] = "a dictionary call (an exact run of a comparison-feedback "
                    "candidate)",
};

static void fb_stop(void *ctx, cgofuzz_coord_host *h) {
  cgofuzz_fb *fb = ctx;
  fb_run *r = fb->run;
  (void)h;
  if (!r)
    return;
  cgofuzz_fb_dsched_stop(r);
  cgofuzz_fb_cmp_stop(r);
  cgofuzz_fb_race_stop(r);
  cgofuzz_fb_goleak_stop(r);
  free(r->slots);
  free(r);
  fb->run = NULL;
}

static int fb_start(void *ctx, cgofuzz_coord_host *h, cgofuzz_err *err) {
  cgofuzz_fb *fb = ctx;
  size_t n = cgofuzz_coord_host_workers(h);
  fb_run *r = calloc(1, sizeof *r);
  if (r && !(r->slots = calloc(n ? n : 1, sizeof *r->slots))) {
    free(r);
    r = NULL;
  }
  if (!r)
    return cgofuzz_errf(err, 0, "out of memory");
  r->fb = fb;
  r->h = h;
  r->nslots = n;
  fb->run = r;
  if (cgofuzz_fb_dsched_start(r, err) != 0)
    return -1;
  cgofuzz_fb_cmp_start(r);
  cgofuzz_fb_race_start(r);
  cgofuzz_fb_goleak_start(r);
  return 0;
}

static bool fb_step(void *ctx, cgofuzz_coord_host *h) {
  fb_run *r = ((cgofuzz_fb *)ctx)->run;
  (void)h;
  if (!r)
    return false;
  cgofuzz_fb_dsched_step(r);
  bool more = cgofuzz_fb_cmp_step(r);
  more = cgofuzz_fb_race_step(r) || more;
  return cgofuzz_fb_goleak_step(r) || more;
}

static int fb_next(void *ctx, cgofuzz_coord_host *h, size_t slot, bool died,
                   cgofuzz_coord_fbcall *call) {
  fb_run *r = ((cgofuzz_fb *)ctx)->run;
  if (!r || slot >= r->nslots)
    return 0;
  fb_slot *fs = &r->slots[slot];
  size_t idx;
  int k = FB_CALL_CMP;
  if (cgofuzz_fb_cmp_next(r, fs, &call->value, &idx) != 1) {
    if (died || (k = cgofuzz_fb_dsched_next(r)) == FB_CALL_NONE)
      return 0;
    idx = cgofuzz_coord_host_pick(h);
    size_t other = cgofuzz_coord_host_pick(h), a, b;
    cgofuzz_coord_host_entry(h, idx, &a);
    cgofuzz_coord_host_entry(h, other, &b);
    if (b < a)
      idx = other;
    int built = cgofuzz_fb_dsched_build(r, fs, idx, &call->value);
    if (built < 0)
      return -1;
    if (built > 0) /* no token applies: a plain call of that entry */
      k = FB_CALL_NONE;
  }
  call->kind = k;
  call->entry = idx;
  call->exact = k == FB_CALL_EXACT || k == FB_CALL_CMP;
  call->limit = k == FB_CALL_BASE ? cgofuzz_fb_dsched_base_limit() : 0;
  call->what = call_what[k];
  return 1;
}

static void fb_done(void *ctx, cgofuzz_coord_host *h, size_t slot,
                    const cgofuzz_coord_fbcall *call, int64_t count,
                    bool found) {
  fb_run *r = ((cgofuzz_fb *)ctx)->run;
  (void)h;
  if (!r || slot >= r->nslots)
    return;
  if (call->kind == FB_CALL_CMP)
    cgofuzz_fb_cmp_done(r, &r->slots[slot], found);
  else
    cgofuzz_fb_dsched_done(r, &r->slots[slot], call->kind, count, found);
}

cgofuzz_fb *cgofuzz_fb_new(void) {
  cgofuzz_fb *fb = calloc(1, sizeof *fb);
  if (!fb)
    return NULL;
  fb->table = (cgofuzz_coord_feedback){.ctx = fb,
                                       .start = fb_start,
                                       .step = fb_step,
                                       .next = fb_next,
                                       .done = fb_done,
                                       .stop = fb_stop};
  return fb;
}

const cgofuzz_coord_feedback *cgofuzz_fb_table(cgofuzz_fb *fb) {
  return fb ? &fb->table : NULL;
}

void cgofuzz_fb_free(cgofuzz_fb *fb) {
  if (!fb)
    return;
  fb_stop(fb, NULL);
  free(fb);
}
