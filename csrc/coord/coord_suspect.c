/*
 * coord_suspect.c: an input a Go worker has run for a fifth of the hang
 * timer without its count moving is run again at once, in a process of
 * its own, while its worker waits stopped; soon after the worker's hang
 * timer would run out, the re-run has said whether the input hangs again.
 * Without it, a hang was confirmed by a re-run alone begun only then:
 * twice the hang timer (20 s of Go's 10 s) to a hang's report, now 1.2
 * times it. Inputs slower than a fifth of the timer are run twice.
 *
 * Invariants:
 *  - only a Go worker's fuzz call (not the warm-up, whose hangs are
 *    recorded as they are, nor a minimization), only while no crasher is
 *    minimized, and only with a hang timer of SUSPECT_MIN_MS or more;
 *  - the worker is SIGSTOPped while the re-run runs, so that the re-run
 *    has its CPU while the run's other workers go on, and SIGCONTinued as
 *    soon as the re-run ends, however it ends (cgofuzz_coord_suspect_end
 *    on every path that leaves a slot: its death, the run's end);
 *  - the verdict (coord_internal.h SUSPECT_*): ANSWERED when the re-run
 *    replied (not a hang); HUNG when it ran the hang timer's length on a
 *    CPU (its wall time less the time it waited for one, as the watch
 *    counts a worker's) or died of Go's own per-input timer with as much;
 *    UNSURE otherwise (it waited for a CPU too long, or failed otherwise):
 *    the worker's death is then judged by a re-run alone, as without
 *    this. The verdict stays with the slot until its next call;
 *  - HUNG stops the worker at once (its stacks are the report), and the
 *    input is recorded without another re-run.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "coord_internal.h"
#include "coord_worker.h"
#include "mutator.h"
#include "os.h"

struct coord_suspect {
  cgofuzz_coord_worker w;
  cgofuzz_buf line;
  int64_t start_ms;      /* when its call was sent */
  int64_t delay0, delay; /* its run delay then, and at the last look */
};

bool cgofuzz_coord_suspect_due(coord *c, const slot *s, int64_t now,
                               int64_t timeout_ms) {
  return !s->sus && !s->sus_verdict && s->state == W_BUSY && !s->warmup &&
         !c->minimizing && !c->done && timeout_ms >= SUSPECT_MIN_MS &&
         now - s->watch_ms >= timeout_ms / SUSPECT_SHARE &&
         cgofuzz_coord_go_workers(c);
}

/* Frees s's re-run, resumes its worker and keeps verdict v. */
static void finish(slot *s, int v, int64_t ran_ms) {
  coord_suspect *x = s->sus;
  cgofuzz_coord_worker_free(&x->w); /* stops it */
  cgofuzz_buf_free(&x->line);
  free(x);
  s->sus = NULL;
  s->sus_verdict = v;
  s->sus_ran_ms = ran_ms;
  if (s->w.pid > 0 && !s->w.exited)
    kill(s->w.pid, SIGCONT);
}

void cgofuzz_coord_suspect_begin(coord *c, slot *s, int64_t count) {
  cgofuzz_buf data = {0};
  cgofuzz_err err = {0};
  coord_suspect *x = calloc(1, sizeof *x);
  s->sus_verdict = SUSPECT_UNSURE; /* unless the re-run starts */
  if (!x || cgofuzz_coord_rebuild(c, s, count, &data) != 0 ||
      cgofuzz_coord_worker_init(&x->w, CGOFUZZ_SHM_VALUE_CAP, &err) != 0) {
    free(x);
    cgofuzz_buf_free(&data);
    return;
  }
  kill(s->w.pid, SIGSTOP);
  s->sus = x;
  /* The user's binary, not the workers' copy: its own loop runs an exact
   * call, and no control page is needed. */
  if (cgofuzz_coord_side_start(&x->w, c->cfg->binary, c->wargv, c->wenv,
                               &x->line, &err) != 0 ||
      cgofuzz_coord_exact_call(&x->w.mem, data.data, data.len, FUZZ_CALL_NS,
                               &x->line, &err) != 0 ||
      cgofuzz_coord_worker_send(&x->w, &x->line, &err) != 0) {
    finish(s, SUSPECT_UNSURE, 0);
  } else {
    x->start_ms = cgofuzz_mono_ms();
    x->delay0 = x->delay = cgofuzz_os_run_delay_ms(x->w.pid);
  }
  cgofuzz_buf_free(&data);
}

int cgofuzz_coord_suspect_poll(slot *s, int64_t now, int64_t timeout_ms) {
  coord_suspect *x = s->sus;
  const uint8_t *l;
  size_t n;
  cgofuzz_err err = {0};
  int got = cgofuzz_coord_worker_recv(&x->w, 0, CGOFUZZ_COORD_WORKER_MAX_LINE,
                                      &l, &n, &err);
  int64_t d = cgofuzz_os_run_delay_ms(x->w.pid);
  if (d >= 0 && x->delay0 >= 0)
    x->delay = d; /* the last one read counts, once it has exited */
  int64_t wall = now - x->start_ms,
          waited = x->delay0 >= 0 ? x->delay - x->delay0 : 0,
          ran = waited <= 0      ? wall
                : waited >= wall ? 0
                                 : wall - waited;
  if (got == 1) {
    finish(s, SUSPECT_ANSWERED, ran);
  } else if (got < 0 || cgofuzz_coord_worker_reap(&x->w, 0)) {
    /* Died: of Go's own timer when it ran as long (a look's slack). */
    finish(s, ran + WATCH_MS >= timeout_ms ? SUSPECT_HUNG : SUSPECT_UNSURE,
           ran);
  } else if (ran >= timeout_ms) {
    finish(s, SUSPECT_HUNG, ran);
  }
  return s->sus ? 0 : s->sus_verdict;
}

void cgofuzz_coord_suspect_end(slot *s) {
  if (s->sus)
    finish(s, SUSPECT_UNSURE, 0);
}
