/*
 * coord_resp.c: what the coordinator does with a worker's fuzz reply or
 * its death mid-call (the loop, coord_loop.c, reads them; coord_proc.c
 * sends the calls).
 *
 *  - a reply of new coverage or Err names no input: the input is the exact
 *    one a C worker left in the slot (coord_exact.c), else it is rebuilt by
 *    replaying ((count-1)%5)+1 mutations from the PCG state the worker left
 *    in shm, starting from the input that was sent;
 *  - the mask grows as soon as new coverage is seen, even while the input
 *    is still being minimized, so other workers do not report it again;
 *  - a worker that dies mid-call is classified from its wait status, the
 *    tail of its stderr and what the watch saw (coord_death.c): crash
 *    signals, reports and exit statuses make a crasher, signals from
 *    outside do not, unless the kernel's OOM killer sent them;
 *  - the watch (cgofuzz_coord_watch) stops a busy worker whose exec count
 *    stands still for the exec timeout or whose resident set is over the
 *    limit: its input is rebuilt and recorded like a crasher's.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coord_internal.h"
#include "coord_worker.h"
#include "gobin_obj.h"
#include "godebug.h"
#include "os.h"

/* A fuzz call of s ended after count execs (found: new coverage or a
 * failure): the registered feedback is told (coord_feedback.h). */
static void feedback_done(coord *c, slot *s, int64_t count, bool found) {
  const cgofuzz_coord_feedback *fb = c->cfg->feedback;
  if (fb && fb->done)
    fb->done(fb->ctx, c, (size_t)(s - c->slots), &s->call, count, found);
}

/* crash's second half, for an input already rebuilt: queued for
 * minimizing, or recorded. */
static void crash_input(coord *c, slot *s, const cgofuzz_buf *data,
                        const char *msg, size_t msg_len, bool minimizable) {
  cgofuzz_buf text = {0};
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (s->call.kind && cgofuzz_coord_says(c))
    fprintf(stderr, "cgofuzz: the failing input came from %s\n",
            s->call.what ? s->call.what : "a built input");
  cgofuzz_buf_append(&text, msg, msg_len);
  /* A front end gets crashers as found (libFuzzer minimizes on request). */
  if (minimizable && !ob && cgofuzz_coord_can_minimize(c) &&
      cgofuzz_coord_mjob_queue(c, true, data, &text, NULL, NULL) == 0) {
    c->minimizing = !c->cfg->fuzz_continue;
    fprintf(stderr, "fuzz: minimizing %zu-byte failing input file\n",
            data->len);
    fflush(stderr);
  } else {
    cgofuzz_coord_record_failure(c, data, &text);
  }
  cgofuzz_buf_free(&text);
}

/* A crasher: msg is the worker's Err, or the wait status of a dead one. */
static void crash(coord *c, slot *s, int64_t count, const char *msg,
                  size_t msg_len, bool minimizable) {
  cgofuzz_buf data = {0};
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (s->warmup && !s->call.kind && e->is_seed && !ob) {
    fprintf(stderr, "failure while testing seed corpus entry: %s/%s\n",
            c->cfg->target, e->name);
    cgofuzz_buf note = {0};
    if (cgofuzz_coord_trap_note(c, msg, msg_len, &note))
      cgofuzz_coord_fail(c, (const char *)note.data, note.len);
    else
      cgofuzz_coord_fail(c, msg, msg_len);
    cgofuzz_buf_free(&note);
    return;
  }
  if (c->minimizing)
    return; /* Go drops crashers found while one is minimized */
  if (c->cfg->fuzz_continue && cgofuzz_coord_seen_failure(c, msg, msg_len))
    return;
  if (cgofuzz_coord_rebuild(c, s, count, &data) != 0)
    goto done;
  crash_input(c, s, &data, msg, msg_len, minimizable);
done:
  cgofuzz_buf_free(&data);
}

static void warmup_done(coord *c, bool with_cov) {
  if (--c->warmup_left > 0)
    return;
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (ob->inited)
      ob->inited(ob->ctx, &st);
    return;
  }
  cgofuzz_buf b = {0};
  if (c->cfg->campaign) /* as log_stats: say whose line it is */
    cgofuzz_buf_printf(&b, "fuzz: %s: elapsed: ", c->cfg->target);
  else
    cgofuzz_buf_puts(&b, "fuzz: elapsed: ");
  cgofuzz_coord_put_elapsed(c, &b);
  cgofuzz_buf_printf(&b,
                     ", %s: %zu/%zu completed, now fuzzing with %zu "
                     "workers\n",
                     with_cov ? "gathering baseline coverage"
                              : "testing seed corpus",
                     c->warmup_count, c->warmup_count, c->np);
  fwrite(b.data, 1, b.len, stderr);
  fflush(stderr);
  cgofuzz_buf_free(&b);
  /* GODEBUG=fuzzdebug=1: the one of Go's DEBUG lines cgofuzz prints. */
  if (cgofuzz_godebug_fuzzdebug(getenv("GODEBUG"))) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (with_cov)
      cgofuzz_coord_debugf(c,
                           "finished processing input corpus, entries: %zu, "
                           "initial coverage bits: %zu",
                           st.corpus, st.cov_bits);
    else
      cgofuzz_coord_debugf(c, "finished testing-only phase, entries: %zu",
                           st.corpus);
  }
}

static void new_coverage(coord *c, slot *s, int64_t count,
                         const cgofuzz_wire_bytes *cov) {
  if (cgofuzz_coord_cov_new_bits(c->mask, cov->data, c->mask_len) == 0)
    return;
  cgofuzz_buf data = {0};
  uint8_t *keep = malloc(c->mask_len);
  if (!keep || cgofuzz_coord_rebuild(c, s, count, &data) != 0)
    goto done;
  for (size_t i = 0; i < c->mask_len; i++)
    keep[i] = (uint8_t)(cov->data[i] & ~c->mask[i]);
  cgofuzz_coord_cov_merge(c->mask, cov->data, c->mask_len);
  c->mask_gen++;
  cgofuzz_coord_sched_found(&c->sched, s->entry, cgofuzz_mono_ms());
  /* A find of the cgo loop joins as the loop found it, as libFuzzer keeps
   * its inputs: minimized, zstd's corpus stayed at a median of 39 bytes
   * (libFuzzer's 57, a tenth of it past 250), and the decoders behind
   * large literal sections need bytes no single find needs yet. */
  bool looped = cgofuzz_coord_exact_looped(s);
  c->looped += looped;
  if (looped || !cgofuzz_coord_can_minimize(c) ||
      cgofuzz_coord_min_allowance(c, cgofuzz_mono_ms()) <= 0 ||
      cgofuzz_coord_mjob_queue(c, false, &data, NULL, keep, cov->data) != 0)
    cgofuzz_coord_add_interesting(c, &data, cov->data);
done:
  free(keep);
  cgofuzz_buf_free(&data);
}

/* A new slowest unit under libFuzzer's command line: a C worker ended its
 * call after it (core/wire.h), or a Go worker's call ran long
 * (go_slow_unit_sec). The observer gets the input. */
static void slow_unit(coord *c, slot *s, int64_t count, int64_t secs) {
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  cgofuzz_buf data = {0};
  if (ob && ob->slow_unit && cgofuzz_coord_rebuild(c, s, count, &data) == 0)
    ob->slow_unit(ob->ctx, data.data, data.len, secs);
  cgofuzz_buf_free(&data);
}

/* A Go worker cannot say how long one exec took, but its reply says how
 * long the call took, and a Go worker looks at the call's deadline only
 * between execs: an exec that outlasts the deadline is the call's last,
 * the count-th, and took at least the call's time less the deadline
 * (FUZZ_CALL_NS bounds every call's; a call of one exec is that exec).
 * That lower bound, in whole seconds, is the unit's time: it is short of
 * the real one by at most 0.1 s. 0 when under a second. */
static int64_t go_slow_unit_sec(const slot *s, int64_t total_ns) {
  int64_t ns = s->limit == 1 ? total_ns : total_ns - FUZZ_CALL_NS;
  return ns > 0 ? ns / 1000000000 : 0;
}

/* A starting input that failed, in a run that goes on after failures
 * (-fuzzcontinue, libFuzzer's fork mode): it has run, so the warm-up
 * counts it; else the run would wait for it forever. */
static void continued_warmup(coord *c, slot *s) {
  if (s->warmup && !s->call.kind && c->cfg->fuzz_continue && !c->done) {
    cgofuzz_coord_sched_failing(&c->sched, s->entry);
    warmup_done(c, c->mask_len > 0);
  }
}

/* The fuzzing workers' copy (gobin_copy.c) cuts a fuzz call's coverage
 * after its last non-zero counter: zeros put the rest back. Only then is
 * a shorter coverage taken as the worker meant it. -1: out of memory. */
static int pad_coverage(const coord *c, cgofuzz_wire_bytes *cov) {
  if (!c->fast.path || !cov->has || cov->len >= c->mask_len)
    return 0;
  uint8_t *p = realloc(cov->data, c->mask_len);
  if (!p)
    return -1;
  memset(p + cov->len, 0, c->mask_len - cov->len);
  cov->data = p;
  cov->len = c->mask_len;
  return 0;
}

void cgofuzz_coord_on_reply(coord *c, slot *s, const uint8_t *l, size_t n) {
  if (s->state == W_MIN) {
    cgofuzz_coord_mjob_on_reply(c, s, l, n);
    return;
  }
  cgofuzz_fuzz_resp r;
  cgofuzz_err err = {0};
  memset(&r, 0, sizeof r);
  s->state = W_IDLE;
  c->outstanding -= s->limit;
  if (cgofuzz_wire_decode_fuzz_resp(l, n, &r, &err) != 0) {
    cgofuzz_coord_failf(c, "communicating with fuzzing process: %s", err.msg);
    return;
  }
  s->deaths = 0;
  if (pad_coverage(c, &r.coverage_data) != 0) {
    cgofuzz_fuzz_resp_free(&r);
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return;
  }
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  int64_t count = h->count;
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  const uint8_t *sent = s->call.kind ? s->call.value.data : e->data;
  size_t sent_len = s->call.kind ? s->call.value.len : e->len;
  if (!c->mask_len && r.coverage_data.has && r.coverage_data.len &&
      !r.internal_err) {
    /* A C target's worker tells its counters' size in its replies. */
    if ((c->mask = calloc(r.coverage_data.len, 1))) {
      c->mask_len = r.coverage_data.len;
      c->mask_gen++;
    }
  }
  if (r.internal_err) {
    cgofuzz_coord_fail(c, r.internal_err, r.internal_err_len);
  } else if ((size_t)h->value_len != sent_len ||
             memcmp(cgofuzz_shm_value(&s->w.mem), sent, sent_len) != 0) {
    cgofuzz_coord_failf(c, "%s", "workerServer.fuzz modified input");
  } else {
    c->count += count;
    int64_t slow = r.slow_unit_sec;
    if (!slow && c->cfg->observer && c->cfg->observer->slow_unit &&
        cgofuzz_coord_go_workers(c))
      slow = go_slow_unit_sec(s, r.total_duration_ns);
    if (slow > 0)
      slow_unit(c, s, count, slow);
    bool cov = r.coverage_data.has && c->mask_len &&
               r.coverage_data.len == c->mask_len;
    if (!s->warmup || s->call.kind) /* the feedback's share follows finds */
      feedback_done(
          c, s, count,
          r.err || (cov && cgofuzz_coord_cov_new_bits(
                               c->mask, r.coverage_data.data, c->mask_len)));
    if (r.err) {
      crash(c, s, count, r.err, r.err_len, true);
      continued_warmup(c, s);
    } else if (s->warmup && !s->call.kind) {
      if (cov) {
        if (cgofuzz_coord_cov_new_bits(c->mask, r.coverage_data.data,
                                       c->mask_len)) {
          cgofuzz_coord_cov_merge(c->mask, r.coverage_data.data, c->mask_len);
          c->mask_gen++;
        } else {
          cgofuzz_coord_sched_redundant(&c->sched, s->entry);
        }
        cgofuzz_coord_sched_set_cov(&c->sched, s->entry, r.coverage_data.data,
                                    c->mask_len);
      }
      warmup_done(c, r.coverage_data.has);
    } else {
      if (!s->warmup && !s->call.kind)
        cgofuzz_coord_sched_timed(&c->sched, s->entry, count,
                                  r.total_duration_ns);
      if (cov)
        new_coverage(c, s, count, &r.coverage_data);
    }
  }
  cgofuzz_fuzz_resp_free(&r);
}

/* The resident set of pid in MiB, -1 when unknown. */
static int64_t resident_mb(pid_t pid) {
  int64_t b = cgofuzz_os_rss_bytes(pid);
  return b < 0 ? -1 : b >> 20;
}

/* Stops a hung or bloated worker and handles its death. A Go worker gets
 * SIGQUIT first: the runtime then prints every goroutine's stack (where
 * the input hangs or allocates) and exits with status 2; SIGKILL if it has
 * not ended within STOP_GRACE_MS * 3. A C worker's input is in the exact
 * slot: SIGKILL at once. */
static void stop_for(coord *c, slot *s, int why) {
  s->stopped_for = why;
  if (cgofuzz_coord_go_workers(c)) {
    kill(s->w.pid, SIGQUIT);
    if (!cgofuzz_coord_worker_reap(&s->w, STOP_GRACE_MS * 3))
      kill(s->w.pid, SIGKILL);
  } else {
    kill(s->w.pid, SIGKILL);
  }
  cgofuzz_coord_on_death(c, s);
}

/* A worker that began a reply and then sent nothing for the hang timer:
 * its input ran (a reply is only written after it), the reply did not
 * come. That is the worker's fault, not the input's: the run fails saying
 * so and what it sent, and nothing is recorded as a failing input. */
static void stalled_mid_reply(coord *c, slot *s, int64_t timeout_ms) {
  cgofuzz_buf msg = {0};
  cgofuzz_buf_printf(&msg,
                     "communicating with fuzzing process (pid %d): it sent "
                     "part of a reply and then nothing for %lld s: ",
                     (int)s->w.pid, (long long)(timeout_ms / 1000));
  cgofuzz_coord_put_pending(&msg, &s->w);
  kill(s->w.pid, SIGKILL);
  cgofuzz_coord_fail_buf(c, &msg);
}

/* How long the worker of s has had to run its input since its count last
 * moved, once that may be limit or more: the wall time, less what it
 * waited for a CPU (a loaded machine's run queue) from its first look
 * without progress on. The delay is read at a worker's first look without
 * progress and then only once its wall time reaches limit (reading /proc
 * for every busy worker at every look would cost 256 workers dearly), so
 * at most one look's wait (WATCH_MS) is counted as running. */
static int64_t ran_ms(slot *s, int64_t now, int64_t limit) {
  int64_t wall = now - s->watch_ms;
  if (!s->watch_delay_at) {
    s->watch_delay = cgofuzz_os_run_delay_ms(s->w.pid);
    s->watch_delay_at = now;
    return wall;
  }
  if (wall < limit || s->watch_delay < 0)
    return wall;
  int64_t d = cgofuzz_os_run_delay_ms(s->w.pid);
  if (d < 0)
    return wall;
  d -= s->watch_delay;
  return d <= 0 ? wall : d >= wall ? 0 : wall - d;
}

void cgofuzz_coord_watch(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  int64_t now = cgofuzz_mono_ms();
  /* 0: the release's hang timer; negative: no limit (timeout_ms 0). */
  int64_t timeout_ms =
      cfg->exec_timeout_ns < 0 ? 0 : coord_hang_ns(cfg) / 1000000;
  /* /proc/vmstat once per look, not per worker or call (256 workers read
   * it 2,500 times a second: bench/results/coord/2026-11-28-coord_scale.md):
   * a call's OOM base is this look's count (cgofuzz_coord_send_call). */
  c->oom_seen = cgofuzz_coord_oom_kills();
  /* A C worker was given the same limits (coord_loop.c) and its watchdog
   * reports them in the words its front end expects (libFuzzer's under
   * csrc/lf): the watch is only its backstop, GRACE_MS later. */
  int64_t grace = cgofuzz_coord_go_workers(c) ? 0 : C_WATCHDOG_GRACE_MS;
  for (size_t i = 0; i < c->np && !c->done; i++) {
    slot *s = &c->slots[i];
    if ((s->state != W_BUSY && s->state != W_MIN) || s->w.pid == 0 ||
        s->w.exited) {
      s->watch_ms = 0;
      s->rss_over_ms = 0;
      continue;
    }
    int64_t count = cgofuzz_shm_hdr(&s->w.mem)->count;
    if (s->sus) { /* its worker is stopped: the early re-run decides */
      if (cgofuzz_coord_suspect_poll(s, now, timeout_ms) == SUSPECT_HUNG)
        stop_for(c, s, CGOFUZZ_COORD_DEATH_HANG);
      continue;
    }
    if (s->watch_ms == 0) { /* a call began since the last look */
      s->watch_ms = now;
      s->watch_count = count;
      s->watch_delay_at = 0;
    } else if (count != s->watch_count) {
      s->watch_ms = now;
      s->watch_count = count;
      s->watch_delay_at = 0;
    } else if (cgofuzz_coord_suspect_due(c, s, now, timeout_ms)) {
      cgofuzz_coord_suspect_begin(c, s, count);
      continue;
    } else if (timeout_ms > 0 &&
               ran_ms(s, now, timeout_ms + grace) >= timeout_ms + grace) {
      if (cgofuzz_lines_pending(&s->w.in))
        stalled_mid_reply(c, s, timeout_ms);
      else
        stop_for(c, s, CGOFUZZ_COORD_DEATH_HANG);
      continue;
    }
    if (cfg->rss_limit_mb > 0) {
      int64_t mb = resident_mb(s->w.pid);
      if (mb <= cfg->rss_limit_mb) {
        s->rss_over_ms = 0;
      } else if (!s->rss_over_ms) {
        s->rss_over_ms = now;
      }
      if (s->rss_over_ms && now - s->rss_over_ms >= grace) {
        s->rss_mb = mb;
        s->rss_over_ms = 0;
        stop_for(c, s, CGOFUZZ_COORD_DEATH_OOM);
      }
    }
  }
}

/* Runs data once (a warm-up call: no mutation) in a fresh process of s,
 * while no other call is handed out (the coordinator waits here), and
 * waits up to the hang timer and 5 s more. 1: it answered (the worker is
 * then idle and well; *took_ms is how long it took); 0: no answer in time
 * or it died (*status its wait status, killed by us when it did not
 * answer). Used to tell what a death from outside or a hang seen under
 * load really was: an input that kills its own process, or one the
 * kernel's OOM killer stops, does it again, a kill from outside does not;
 * a hang that comes of a busy machine does not come again alone. */
static int rerun_alone(coord *c, slot *s, const cgofuzz_buf *data,
                       int64_t *took_ms, int *status) {
  cgofuzz_err err = {0};
  *status = 0;
  if (cgofuzz_coord_start_worker(c, s) != 0)
    return 0;
  if (cgofuzz_coord_exact_call(&s->w.mem, data->data, data->len, FUZZ_CALL_NS,
                               &c->line, &err) != 0)
    return 0;
  int64_t hang_ns = coord_hang_ns(c->cfg); /* negative: no limit */
  if (hang_ns <= 0)
    hang_ns = cgofuzz_gover_hang_timeout_ns(coord_gover(c->cfg));
  int64_t wait_ms = hang_ns / 1000000 + 5000, t0 = cgofuzz_mono_ms();
  const uint8_t *l;
  size_t n;
  int got = cgofuzz_coord_worker_send(&s->w, &c->line, &err) != 0
                ? -1
                : cgofuzz_coord_worker_recv(&s->w, (int)wait_ms, MAX_LINE, &l,
                                            &n, &err);
  *took_ms = cgofuzz_mono_ms() - t0;
  if (got == 1)
    return 1;
  if (got == 0 || !cgofuzz_coord_worker_reap(&s->w, 5000))
    kill(s->w.pid, SIGKILL);
  *status = cgofuzz_coord_worker_stop(&s->w, STOP_GRACE_MS);
  s->state = W_DOWN;
  return 0;
}

/* s's call ended with its worker's death, and its input is not to blame
 * (run again alone, it answered after a busy machine's hang or an OOM
 * kill; or the call never reached a worker the OOM killer took): a
 * warm-up entry is handed out again, as its coverage is still wanted; any
 * other call is closed with its feedback as one that found nothing. */
static void call_spared(coord *c, slot *s, int64_t count) {
  if (s->warmup && !s->call.kind && c->warmup_left > 0)
    s->warmup_redo = s->entry + 1;
  else
    feedback_done(c, s, count, false);
}

/* s's worker was judged hung (by the watch, or by a Go worker's own
 * timer when go_timer): whether its input, run again alone, still does not
 * finish in time (1), or did not in its early re-run (2: coord_suspect.c,
 * whose verdict, when there is one, is taken instead of a re-run). When it
 * does, the hang came of a machine too busy to run it in time, not of the
 * input: nothing is recorded, the run goes on (c->count has the execs), and the
 * user is told once per such input. */
static int hangs_again(coord *c, slot *s, const cgofuzz_buf *data,
                       int64_t count, bool go_timer) {
  int64_t took = s->sus_ran_ms;
  int st, early = s->sus_verdict;
  s->sus_verdict = 0;
  if (early == SUSPECT_HUNG)
    return 2;
  if (early != SUSPECT_ANSWERED && rerun_alone(c, s, data, &took, &st) == 0)
    return 1;
  c->count += count;
  c->false_hangs++;
  char timer[64];
  if (go_timer)
    snprintf(timer, sizeof timer,
             "Go's own per-input timer (panic: deadlocked!)");
  else
    snprintf(timer, sizeof timer, "the hang timer (%lld ms)",
             (long long)(coord_hang_ns(c->cfg) / 1000000));
  if (!c->cfg->observer)
    fprintf(stderr,
            "cgofuzz: an input ran past %s while the machine was busy, and "
            "in %lld ms alone: not a hang, not recorded; fuzzing goes on\n",
            timer, (long long)took);
  return 0;
}

/* The C function a signal came in (cgofuzz_coord_death_cgo_pc), looked up in
 * binary's symbol table, as "name+0xOFF" in out; when the signal came in
 * a library (libc's memcpy), the first C frame of Go's report that is the
 * binary's, as "a library function called from name+0xOFF". NULL when the
 * report is not of a signal in C or no symbol is found. cgo's call
 * wrapper into which the C function was inlined, _cgo_<hash>_Cfunc_NAME,
 * is named as C.NAME too. */
static const char *c_frame(const char *binary, const uint8_t *tail, size_t n,
                           char *out, size_t outn) {
  uint64_t pcs[33], off = 0;
  cgofuzz_gobin_obj o;
  if (!cgofuzz_coord_death_cgo_pc(tail, n, &pcs[0]) ||
      cgofuzz_gobin_obj_open(&o, binary, true, NULL) != 0)
    return NULL;
  size_t npc = 1 + cgofuzz_coord_death_cgo_callers(tail, n, pcs + 1, 32), k = 0;
  const char *name = NULL, *f;
  while (k < npc && !(name = cgofuzz_gobin_obj_func_at(&o, pcs[k], &off)))
    k++;
  const char *from = k ? "a library function called from " : "";
  if (name && strncmp(name, "_cgo_", 5) == 0 &&
      (f = strstr(name, "_Cfunc_")) != NULL)
    snprintf(out, outn, "%sC.%s (cgo's wrapper %s+0x%llx)", from, f + 7, name,
             (unsigned long long)off);
  else if (name)
    snprintf(out, outn, "%s%s+0x%llx", from, name, (unsigned long long)off);
  cgofuzz_gobin_obj_close(&o);
  return name ? out : NULL;
}

/* A busy worker SIGKILLed from outside: Go records nothing, as the
 * kernel's OOM killer or a person may have sent it. Re-running the input
 * alone tells: killed again (when the OOM killer ran meanwhile, dead again
 * in any way: a Go runtime may fail its own allocation first), it is
 * recorded, explained anew into why. An input the OOM killer took while
 * the machine was short of memory and that runs alone is no finding: the
 * run goes on, as after a hang of a busy machine. true when the death is
 * dealt with. */
static bool killed_from_outside(coord *c, slot *s, cgofuzz_coord_death *d,
                                cgofuzz_buf *why, int st) {
  cgofuzz_buf data = {0};
  int64_t count = cgofuzz_shm_hdr(&s->w.mem)->count, took = 0;
  bool oom = d->oom_kills > 0;
  int rst = 0, ran = cgofuzz_coord_rebuild(c, s, count, &data) == 0
                         ? rerun_alone(c, s, &data, &took, &rst)
                         : -1;
  bool again =
      ran == 0 && (oom || (WIFSIGNALED(rst) && WTERMSIG(rst) == SIGKILL));
  bool spared = ran == 1 && oom; /* the machine's memory, not the input */
  if (again) {
    bool record;
    c->count += count;
    d->reproduced = true;
    if (d->oom_kills >= 0)
      d->oom_kills = cgofuzz_coord_oom_kills() - s->oom_base;
    cgofuzz_gobin_copy_unname(&c->fast, c->cfg->binary, s->w.tail,
                              &s->w.tail_len, CGOFUZZ_COORD_WORKER_TAIL);
    d->tail = s->w.tail;
    d->tail_len = s->w.tail_len;
    why->len = 0;
    cgofuzz_coord_death_explain(d, why, &record);
    c->death_status = st;
    cgofuzz_coord_record_failure(c, &data, why);
    c->death_status = -1;
  } else if (spared) {
    c->count += count;
    call_spared(c, s, count);
    if (!c->cfg->observer)
      fprintf(stderr,
              "cgofuzz: the kernel's OOM killer stopped a worker while the "
              "machine was short of memory; its input ran alone in %lld ms: "
              "not recorded, fuzzing goes on\n",
              (long long)took);
  }
  cgofuzz_buf_free(&data);
  return again || spared;
}

/* A hang the watch stopped, or a Go worker's own timer reported ("panic:
 * deadlocked!"), on a busy worker: the wall clock, which a loaded machine
 * stretches, had its say, so the input is run again alone before it is
 * blamed (a feedback call's value run as it is, a warm-up call but no seed,
 * too). Hung again, it is recorded with why. true when the death is dealt
 * with (recorded, or not a hang); false when the input could not be
 * rebuilt. */
static bool confirmed_hang(coord *c, slot *s, const cgofuzz_coord_death *d,
                           cgofuzz_buf *why) {
  cgofuzz_buf data = {0};
  int64_t count = cgofuzz_shm_hdr(&s->w.mem)->count;
  if (cgofuzz_coord_rebuild(c, s, count, &data) != 0) {
    cgofuzz_buf_free(&data);
    return false;
  }
  int again = hangs_again(c, s, &data, count,
                          d->stopped_for != CGOFUZZ_COORD_DEATH_HANG);
  if (again) {
    /* The input, rebuilt before the re-run replaced the process. */
    c->count += count;
    if (!s->warmup || s->call.kind)
      feedback_done(c, s, count, true);
    c->death_status = 70 << 8;
    /* (the explanation before ends without its newline) */
    if (again == 2)
      cgofuzz_buf_printf(why,
                         "\nit hung again when run again in a process of its "
                         "own (%lld ms on a CPU, its worker stopped "
                         "meanwhile), so the machine's load is not the "
                         "cause\n",
                         (long long)s->sus_ran_ms);
    else
      cgofuzz_buf_puts(why, "\nit hung again when run alone, so the "
                            "machine's load is not the cause\n");
    if (!(c->cfg->fuzz_continue &&
          cgofuzz_coord_seen_failure(c, (const char *)why->data, why->len)))
      crash_input(c, s, &data, (const char *)why->data, why->len, false);
    c->death_status = -1;
    if (c->cfg->fuzz_continue && count > 0)
      s->deaths = 0; /* as in cgofuzz_coord_on_death */
  } else {
    call_spared(c, s, count);
  }
  cgofuzz_buf_free(&data);
  return true;
}

/* An idle worker SIGKILLed while the OOM killer ran: it held no input,
 * only the heap its last ones left, so there is nothing to re-run or
 * record. Go ends the run there; the slot is down, and the next dispatch
 * starts a new worker (MAX_DEATHS_IN_ROW still stops a machine that
 * takes every one). */
static void idle_oom_kill(coord *c, const char *sts) {
  if (!c->cfg->observer)
    fprintf(stderr,
            "cgofuzz: the kernel's OOM killer stopped an idle worker (%s) "
            "while the machine was short of memory; it held no input: a new "
            "worker is started, fuzzing goes on\n",
            sts);
}

/* The worker closed its pipe: it died (or the watch stopped it). The wait
 * status, the tail of its stderr and what the watch saw say why
 * (coord_death.c); a busy worker's input is recorded unless a signal from
 * outside killed it, as Go does. */
void cgofuzz_coord_on_death(coord *c, slot *s) {
  cgofuzz_coord_suspect_end(s); /* its verdict, if it had one, is kept */
  int state = s->state;
  /* A call whose write failed never reached the worker: it died idle.
   * Go blames the input it was sending all the same (a goroutine an
   * earlier input left behind may have killed the worker), and so does
   * this file, except after an OOM kill. */
  bool lost = s->lost;
  s->lost = false;
  bool busy = state == W_BUSY;
  if (!cgofuzz_coord_worker_reap(&s->w, 5000))
    cgofuzz_coord_worker_stop(&s->w, STOP_GRACE_MS);
  int st = s->w.wait_status;
  cgofuzz_coord_worker_stop(&s->w, STOP_GRACE_MS);
  s->state = W_DOWN;
  s->deaths++;
  if (busy || state == W_MIN)
    c->outstanding -= s->limit;
  char sts[160];
  cgofuzz_coord_wait_status_string(st, sts, sizeof sts);
  int64_t ook = s->oom_base >= 0 ? cgofuzz_coord_oom_kills() : -1;
  cgofuzz_gobin_copy_unname(&c->fast, c->cfg->binary, s->w.tail, &s->w.tail_len,
                            CGOFUZZ_COORD_WORKER_TAIL);
  cgofuzz_coord_death d = {
      .status = st,
      .stopped_for = s->stopped_for,
      .timeout_ns = coord_hang_ns(c->cfg),
      .rss_mb = s->rss_mb,
      .rss_limit_mb = c->cfg->rss_limit_mb,
      .oom_kills = ook >= 0 && s->oom_base >= 0 ? ook - s->oom_base : -1,
      .tail = s->w.tail,
      .tail_len = s->w.tail_len,
  };
  char frame[256];
  d.c_frame = c_frame(c->cfg->binary, d.tail, d.tail_len, frame, sizeof frame);
  s->stopped_for = CGOFUZZ_COORD_DEATH_NONE;
  s->watch_ms = 0;
  cgofuzz_buf why = {0};
  bool record;
  int cls = cgofuzz_coord_death_explain(&d, &why, &record);
  if (cls == CGOFUZZ_COORD_DEATH_SANITIZER)
    cgofuzz_gobin_copy_note(&c->fast, s->w.tail, s->w.tail_len, &why);
  bool idle_oom = ((!busy && state != W_MIN) || lost) && d.oom_kills > 0 &&
                  WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL &&
                  !cgofuzz_coord_interrupted() && !c->done;
  if (idle_oom) {
    idle_oom_kill(c, sts);
    if (state != W_MIN) {
      if (lost)
        call_spared(c, s, 0); /* handed out again, or closed */
      cgofuzz_buf_free(&why);
      return;
    }
    /* A Minimize call that never reached it: the job ends below with
     * the value it holds, its failure's own message kept. */
  }
  if (!record && busy && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL &&
      !cgofuzz_coord_interrupted() && !c->minimizing && !c->done &&
      killed_from_outside(c, s, &d, &why, st)) {
    cgofuzz_buf_free(&why);
    return;
  }
  if (record && busy &&
      (d.stopped_for == CGOFUZZ_COORD_DEATH_HANG ||
       (cls == CGOFUZZ_COORD_DEATH_HANG && cgofuzz_coord_go_workers(c))) &&
      !cgofuzz_coord_interrupted() && !c->minimizing && !c->done &&
      (!s->warmup || s->call.kind) && confirmed_hang(c, s, &d, &why)) {
    cgofuzz_buf_free(&why);
    return;
  }
  if (state == W_MIN) {
    /* Keep the last value the job was known to hold. */
    mjob *j = &c->jobs[0];
    c->count += cgofuzz_shm_hdr(&s->w.mem)->count;
    if (j->crash && !idle_oom) {
      j->msg.len = 0;
      cgofuzz_buf_printf(&j->msg,
                         "fuzzing process hung or terminated unexpectedly "
                         "while minimizing: %s\n",
                         sts);
      cgofuzz_buf_append(&j->msg, why.data, why.len);
    }
    cgofuzz_buf_free(&why);
    cgofuzz_coord_mjob_finish(c);
    return;
  }
  if (cgofuzz_coord_interrupted() && !d.stopped_for) {
    cgofuzz_buf_free(&why);
    return; /* ^C reached the workers too: not a crash */
  }
  if (!record && c->minimizing) {
    /* A failure is being minimized, and the run ends with it: another
     * worker killed meanwhile from outside (or by the OOM killer, its
     * input not re-run) must not end the run instead, which would drop
     * the failure unwritten (cgofuzz_coord_mjob_flush). */
    if (!c->cfg->observer)
      fprintf(stderr,
              "cgofuzz: a worker was killed (%s) while the failing input "
              "was minimized; the failure stands\n",
              sts);
    cgofuzz_buf_free(&why);
    return;
  }
  if (!record || !busy) {
    if (record && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
      cgofuzz_buf_free(&why);
      return;
    }
    if (record && WIFEXITED(st) && WEXITSTATUS(st) == 70 &&
        cls == CGOFUZZ_COORD_DEATH_EXIT) {
      cgofuzz_buf_free(&why);
      cgofuzz_coord_failf(
          c,
          "fuzzing process exited unexpectedly due to an internal failure: "
          "%s",
          sts);
      return;
    }
    cgofuzz_coord_fail(c, (const char *)why.data, why.len);
    cgofuzz_buf_free(&why);
    return;
  }
  int64_t count = cgofuzz_shm_hdr(&s->w.mem)->count;
  c->count += count;
  if (!s->warmup || s->call.kind)
    feedback_done(c, s, count, true);
  /* A front end is told a hang or an OOM in libFuzzer's exit codes, as a C
   * worker's own watchdog would exit under it (coord.h). */
  c->death_status = cls == CGOFUZZ_COORD_DEATH_HANG  ? 70 << 8
                    : cls == CGOFUZZ_COORD_DEATH_OOM ? 71 << 8
                                                     : st;
  crash(c, s, count, (const char *)why.data, why.len, false);
  continued_warmup(c, s);
  c->death_status = -1;
  cgofuzz_buf_free(&why);
  /* In a run that goes on after failures, a worker that ran inputs and
   * died of one did its work: MAX_DEATHS_IN_ROW is for workers that die
   * before they run anything (a target that cannot start). A target that
   * crashes on most inputs would otherwise end such a run after ten
   * crashes in a row, where libFuzzer's fork mode goes on. */
  if (c->cfg->fuzz_continue && count > 0)
    s->deaths = 0;
}
