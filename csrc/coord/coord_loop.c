/*
 * coord_loop.c: the coordinator's event loop over N Go worker processes.
 *
 * Protocol invariants (docs/go-coordinator.md §2-3):
 *  - each worker has at most one call in flight; before a fuzz call the
 *    coordinator writes the input to shm and sets count to 0, and after the
 *    reply the execs done are read from shm, not from the reply;
 *  - warm-up sends every corpus entry once (Warmup, Limit 1) and nothing
 *    else is handed out until all warm-up replies are in;
 *  - a fuzz call carries the coverage mask only when the worker process
 *    does not have its current version (slot.sent_gen != mask_gen): a Go
 *    worker keeps the last mask it was sent when CoverageData is null, so
 *    resending an unchanged mask (and base64-encoding it) is pure waste;
 *  - at most one minimization job (coord_min.c) runs at a time, on one
 *    worker, while the others keep fuzzing; only a crasher without
 *    -fuzzcontinue stops the hand-out of fuzz calls (Go drops other
 *    crashers meanwhile);
 *  - after the warm-up, inputs are chosen by energy (coord_sched.c), not
 *    Go's round robin, and the calls the registered feedback asks for
 *    (coord_feedback.h) start from a value it built, kept in the slot;
 *  - workers are started and sent calls by coord_proc.c, replies and
 *    deaths are handled in coord_resp.c, minimization jobs run in
 *    coord_min.c; none of them calls back into this file (the run's shared
 *    services are coord_svc.c's), and a call that could not be written
 *    (s->lost) is handed to coord_resp.c as the death it is here;
 *  - every WATCH_MS the busy workers are watched (coord_resp.c): one whose
 *    exec count stands still for -fuzztimeout (the release's hang timer)
 *    or whose resident set is over -fuzzrsslimitmb is stopped and its input
 *    recorded; every worker's stderr is drained here into a tail that
 *    explains its death (coord_death.c).
 * The loop is single-threaded: it waits on every live worker's response
 * pipe and stderr (an idle one that closes it has died between calls),
 * with a time-out at the next 3 s progress line or the -fuzztime
 * deadline. The pipes stay in a waitset (os.h: epoll on Linux) from turn
 * to turn, so a turn costs what is ready, not the number of workers.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"
#include "coord.h"
#include "coord_internal.h"
#include "coord_worker.h"
#include "exact.h"
#include "godebug.h"
#include "mutator.h"
#include "os.h"
#include "wire.h"

/* Prints the progress line (or tells the observer). */
static void log_line(coord *c) {
  cgofuzz_buf b = {0};
  int64_t now = cgofuzz_mono_ms();
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (ob->pulse && c->warmup_left == 0)
      ob->pulse(ob->ctx, &st);
    c->count_last_log = c->count;
    c->last_log_ms = now;
    return;
  }
  if (c->cfg->campaign) /* several targets: say whose line it is */
    cgofuzz_buf_printf(&b, "fuzz: %s: elapsed: ", c->cfg->target);
  else
    cgofuzz_buf_puts(&b, "fuzz: elapsed: ");
  cgofuzz_coord_put_elapsed(c, &b);
  if (c->warmup_left > 0) {
    cgofuzz_buf_printf(&b, ", %s: %zu/%zu completed\n",
                       c->mask_len || c->cov_expected
                           ? "gathering baseline coverage"
                           : "testing seed corpus",
                       c->warmup_count - c->warmup_left, c->warmup_count);
  } else if (c->minimizing) {
    cgofuzz_buf_puts(&b, ", minimizing\n");
  } else {
    double secs = (double)(now - c->last_log_ms) / 1000.0;
    double rate = secs > 0 ? (double)(c->count - c->count_last_log) / secs : 0;
    cgofuzz_buf_printf(&b, ", execs: %" PRId64 " (%.0f/sec)", c->count, rate);
    if (c->mask_len)
      cgofuzz_buf_printf(&b, ", new interesting: %zu (total: %zu)",
                         c->interesting, c->warmup_count + c->interesting);
    cgofuzz_buf_putc(&b, '\n');
  }
  fwrite(b.data, 1, b.len, stderr);
  fflush(stderr);
  cgofuzz_buf_free(&b);
  c->count_last_log = c->count;
  c->last_log_ms = now;
}

/* cfg->on_stats, with the report's figures up to date. */
static void tell_stats(coord *c, bool final) {
  const cgofuzz_coord_config *cfg = c->cfg;
  cgofuzz_coord_stats st;
  if (!cfg->on_stats && !cfg->report)
    return;
  cgofuzz_coord_stats_get(c, &st);
  if (cfg->report) {
    cfg->report->stats = st;
    cfg->report->failed = c->failed;
  }
  if (cfg->on_stats)
    cfg->on_stats(cfg->stats_ctx, &st, final);
}

/* A progress tick: the line, then cfg->on_stats. */
static void log_stats(coord *c) {
  log_line(c);
  tell_stats(c, false);
}

/* Hands the next input to an idle worker, if there is one to hand out. */
static void dispatch(coord *c, slot *s) {
  const cgofuzz_coord_config *cfg = c->cfg;
  bool warmup = c->warmup_left > 0;
  if (c->done)
    return;
  if (s->deaths >= MAX_DEATHS_IN_ROW) {
    char tmp[160];
    snprintf(tmp, sizeof tmp,
             "fuzzing process terminated %d times in a row; giving up",
             s->deaths);
    cgofuzz_coord_fail(c, tmp, strlen(tmp));
    return;
  }
  /* Interesting inputs wait for the end of the warm-up (the baseline mask
   * is not complete before); a crasher from a cache entry does not. */
  if (c->n_jobs && !c->job_running && (!warmup || c->jobs[0].crash)) {
    cgofuzz_coord_mjob_step(c, s);
    /* A job with nothing left to do (its budget or share spent) ends
     * without a call: the worker fuzzes instead. */
    if ((s->state != W_IDLE && s->state != W_DOWN) || c->done)
      return;
  }
  if (c->minimizing)
    return;
  if (warmup && !s->warmup_redo && c->warmup_next >= c->warmup_count)
    return; /* wait for the rest of the warm-up */
  int64_t limit = warmup ? 1 : 0;
  if (cfg->fuzz_count) {
    int64_t left = cfg->fuzz_count - c->count - c->outstanding;
    if (left <= 0)
      return;
    if (!warmup) {
      limit = (cfg->fuzz_count + (int64_t)c->np - 1) / (int64_t)c->np;
      if (limit > left)
        limit = left;
    }
  }
  if (s->state == W_DOWN && cgofuzz_coord_start_worker(c, s) != 0)
    return;
  size_t idx;
  cgofuzz_coord_fbcall *fc = &s->call;
  fc->kind = 0;
  fc->exact = false;
  fc->limit = 0;
  fc->what = NULL;
  if (warmup) {
    idx = s->warmup_redo ? s->warmup_redo - 1 : c->warmup_next++;
    s->warmup_redo = 0;
  } else {
    if (cgofuzz_coord_sched_grow(&c->sched, c->corpus.n, cgofuzz_mono_ms()) !=
        0) {
      cgofuzz_coord_failf(c, "%s", "out of memory");
      return;
    }
    /* A strategy's call starts from a value it built from an entry; the
     * slot keeps it, since replies are rebuilt from what was sent. Only
     * a plain call the scheduler picked counts as a call of its entry
     * (cgofuzz_coord_sched_pick: the fatigue the weights use). */
    const cgofuzz_coord_feedback *fb = cfg->feedback;
    int r = fb && fb->next ? fb->next(fb->ctx, c, (size_t)(s - c->slots),
                                      s->deaths > 0, fc)
                           : 0;
    if (r < 0) {
      cgofuzz_coord_failf(c, "%s", "out of memory");
      return;
    }
    idx = r > 0 ? fc->entry
                : cgofuzz_coord_sched_pick(&c->sched, cgofuzz_mono_ms());
    if (fc->exact) {
      limit = 1; /* run once as it is: a warm-up call, with coverage */
    } else if (fc->kind && fc->limit > 0) {
      if (!limit || limit > fc->limit)
        limit = fc->limit;
    }
  }
  const cgofuzz_centry *e = &c->corpus.e[idx];
  const uint8_t *val = fc->kind ? fc->value.data : e->data;
  size_t val_len = fc->kind ? fc->value.len : e->len;
  cgofuzz_err err = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  h->count = 0;
  if (cgofuzz_coord_set_value(&s->w.mem, val, val_len, &err) != 0) {
    cgofuzz_coord_fail(c, err.msg, strlen(err.msg));
    return;
  }
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_FUZZ};
  call.fuzz.timeout_ns = warmup ? FUZZ_CALL_NS : FUZZ_SLICE_NS;
  call.fuzz.limit = limit;
  call.fuzz.warmup = warmup || fc->exact;
  if (c->mask_len && s->sent_gen != c->mask_gen) {
    call.fuzz.coverage_data.has = true;
    call.fuzz.coverage_data.data = c->mask; /* borrowed: not freed */
    call.fuzz.coverage_data.len = c->mask_len;
    s->sent_gen = c->mask_gen;
  }
  s->entry = idx;
  s->warmup = call.fuzz.warmup;
  cgofuzz_coord_send_call(c, s, &call, W_BUSY, limit);
}

/* Seeds, testdata and cache, in Go's order. -1 if testdata is malformed
 * (the message is in c->fail_msg). */
static int load_corpus(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  cgofuzz_buf errs = {0}, msg = {0}, skipped = {0};
  int rc = 0;
  for (size_t i = 0; i < cfg->n_seeds; i++) {
    char name[32];
    snprintf(name, sizeof name, "seed#%zu", i);
    msg.len = 0;
    if (cgofuzz_coord_corpus_typecheck(cfg->seeds[i].data, cfg->seeds[i].len,
                                       cfg->kinds, cfg->n_kinds,
                                       coord_gover(cfg), &msg) != 0)
      continue;
    cgofuzz_coord_corpus_add(&c->corpus, cfg->seeds[i].data, cfg->seeds[i].len,
                             true, name);
  }
  if (cfg->observer) {
    /* A front end's own inputs instead of testdata and the cache. */
    for (size_t i = 0; i < cfg->n_inputs; i++) {
      const char *name = cfg->input_names ? cfg->input_names[i] : "input";
      msg.len = 0;
      if (cgofuzz_coord_corpus_typecheck(
              cfg->inputs[i].data, cfg->inputs[i].len, cfg->kinds, cfg->n_kinds,
              coord_gover(cfg), &msg) != 0) {
        fprintf(stderr, "WARNING: skipping %s: %s\n", name,
                cgofuzz_buf_cstr(&msg));
        continue;
      }
      cgofuzz_coord_corpus_add(&c->corpus, cfg->inputs[i].data,
                               cfg->inputs[i].len, false, name);
    }
    cgofuzz_buf_free(&msg);
    return 0;
  }
  if (cgofuzz_coord_corpus_load_dir(&c->corpus, c->testdata_dir, cfg->kinds,
                                    cfg->n_kinds, coord_gover(cfg), true, true,
                                    &errs, NULL) != 0) {
    cgofuzz_coord_fail(c, cgofuzz_buf_cstr(&errs), errs.len);
    rc = -1;
  } else if (cgofuzz_coord_corpus_load_dir(
                 &c->corpus, c->cache_dir, cfg->kinds, cfg->n_kinds,
                 coord_gover(cfg), false, false, &errs, &skipped) != 0) {
    cgofuzz_coord_fail(c, cgofuzz_buf_cstr(&errs), errs.len);
    rc = -1;
  } else if (skipped.len) {
    /* Go skips these silently (a TODO in its readCache says it should
     * warn); one warning naming each file says why inputs went missing. */
    fprintf(stderr,
            "warning: skipping malformed files in the fuzz cache %s:\n%.*s",
            c->cache_dir, (int)skipped.len, cgofuzz_buf_cstr(&skipped));
  }
  cgofuzz_buf_free(&skipped);
  cgofuzz_buf_free(&errs);
  cgofuzz_buf_free(&msg);
  return rc;
}

/* The corpus entry Go uses when there is nothing else: zero values. */
static int add_zero_entry(coord *c) {
  cgofuzz_value *v = calloc(c->cfg->n_kinds ? c->cfg->n_kinds : 1, sizeof *v);
  cgofuzz_buf b = {0};
  cgofuzz_err err = {0};
  int rc = -1;
  if (!v)
    return -1;
  for (size_t i = 0; i < c->cfg->n_kinds; i++)
    v[i].kind = c->cfg->kinds[i];
  if (cgofuzz_codec_encode_v(v, c->cfg->n_kinds, coord_gover(c->cfg), &b,
                             &err) == 0 &&
      cgofuzz_coord_corpus_add(&c->corpus, b.data, b.len, false, "zero") >= 0)
    rc = 0;
  free(v);
  cgofuzz_buf_free(&b);
  return rc;
}

/* The run's time ran out before any entry of the corpus had run (a worker
 * that never replied, half a reply): fuzzing did not happen, which is not a
 * pass. What each worker still owes is named. */
static void ran_nothing(coord *c) {
  cgofuzz_buf msg = {0};
  cgofuzz_buf_puts(&msg, "fuzzing ran no input in ");
  cgofuzz_coord_put_elapsed(c, &msg);
  cgofuzz_buf_printf(&msg,
                     ": none of the %zu corpus entries of the warm-up "
                     "completed",
                     c->warmup_count);
  for (size_t i = 0; i < c->np; i++) {
    slot *s = &c->slots[i];
    if (s->w.pid == 0)
      continue;
    if (cgofuzz_lines_pending(&s->w.in)) {
      cgofuzz_buf_printf(&msg,
                         "; fuzzing process (pid %d) sent part of a reply "
                         "and then nothing: ",
                         (int)s->w.pid);
      cgofuzz_coord_put_pending(&msg, &s->w);
    } else if (s->state == W_BUSY) {
      cgofuzz_buf_printf(&msg,
                         "; fuzzing process (pid %d) did not answer its "
                         "call",
                         (int)s->w.pid);
    }
  }
  cgofuzz_coord_fail_buf(c, &msg);
}

static void print_verdict(coord *c) {
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (ob->finished)
      ob->finished(ob->ctx, &st,
                   c->fatal ? (const char *)c->fail_msg.data : NULL,
                   c->fatal ? c->fail_msg.len : 0);
    return;
  }
  double secs = (double)(cgofuzz_mono_ms() - c->start_ms) / 1000.0;
  const char *mark = c->cfg->json_marks ? "\x16" : "";
  cgofuzz_buf b = {0};
  if (c->fatal) /* the failure that ended the run, once */
    cgofuzz_coord_report_failure(
        c, c->crash_path, (const char *)c->fail_msg.data, c->fail_msg.len);
  if (c->cfg->campaign) { /* the campaign prints the rest */
    if (c->fatal)
      cgofuzz_coord_fail_block(c, &b, (const char *)c->fail_msg.data,
                               c->fail_msg.len, c->crash_path);
  } else if (c->failed) {
    /* With -fuzzcontinue, failures were printed as they were found; a
     * block here is for the error that ended the run, if any. */
    if (c->fatal)
      cgofuzz_coord_fail_block(c, &b, (const char *)c->fail_msg.data,
                               c->fail_msg.len, c->crash_path);
    if (c->cfg->verbose)
      cgofuzz_buf_printf(&b, "%s=== NAME  \n", mark);
    cgofuzz_buf_printf(&b, "%sFAIL\n", mark);
  } else {
    if (c->cfg->verbose)
      cgofuzz_buf_printf(&b, "%s--- PASS: %s (%.2fs)\n%s=== NAME  \n", mark,
                         c->cfg->target, secs, mark);
    cgofuzz_buf_printf(&b, "%sPASS\n", mark);
  }
  fflush(stderr);
  if (b.failed) { /* no memory for Go's block: what is at hand, plainly */
    b.len = 0;
    fprintf(stdout, "--- FAIL: %s\n", c->cfg->target);
    if (c->fatal)
      fprintf(stdout, "    %.*s\n", (int)c->fail_msg.len,
              c->fail_msg.data ? (const char *)c->fail_msg.data : "");
    if (c->crash_path)
      fprintf(stdout, "    Failing input written to %s\n", c->crash_path);
    fprintf(stdout, "    (cgofuzz ran out of memory: this report is cut "
                    "short)\nFAIL\n");
  }
  if (b.len) /* nothing in a campaign's slice that passed */
    fwrite(b.data, 1, b.len, stdout);
  fflush(stdout);
  cgofuzz_buf_free(&b);
}

/* The waitset's key for slot i's pipe (0: responses, 1: stderr) of the
 * worker now in it: with the pid, a number closed and reused by another
 * worker never passes for this one (os.h). */
static uint64_t watch_key(const coord *c, const slot *s, int pipe) {
  size_t i = (size_t)(s - c->slots);
  return (uint64_t)(uint32_t)s->w.pid << 32 | (uint64_t)i << 1 | (unsigned)pipe;
}

/* Keeps s's pipes in the waitset as they should be: its response pipe
 * and its stderr while it has a live worker, nothing otherwise. Compares
 * only (no system call) when nothing changed. 0, or -1 with errno set. */
static int sync_watch(coord *c, cgofuzz_os_waitset *ws, slot *s) {
  bool live = s->state != W_DOWN && s->w.out_r >= 0;
  int want[2] = {live ? s->w.out_r : -1, live ? s->w.err_r : -1};
  for (int p = 0; p < 2; p++) {
    uint64_t key = watch_key(c, s, p);
    if (want[p] == s->watch_fd[p] && (want[p] < 0 || key == s->watch_key[p]))
      continue;
    if (s->watch_fd[p] >= 0)
      cgofuzz_os_waitset_unwatch(ws, s->watch_fd[p], s->watch_key[p]);
    s->watch_fd[p] = -1;
    if (want[p] >= 0 && cgofuzz_os_waitset_watch(ws, want[p], key) != 0)
      return -1;
    s->watch_fd[p] = want[p];
    s->watch_key[p] = key;
  }
  return 0;
}

/* The slot a ready key names and which pipe, or NULL for a key no slot
 * watches now (a pipe since closed). */
static slot *key_slot(coord *c, uint64_t key, int *pipe) {
  size_t i = (size_t)(key & 0xffffffffu) >> 1;
  *pipe = (int)(key & 1);
  if (i >= c->np || c->slots[i].watch_fd[*pipe] < 0 ||
      c->slots[i].watch_key[*pipe] != key)
    return NULL;
  return &c->slots[i];
}

static void run_loop(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  /* Every live worker's response pipe and stderr (drained), watched; a
   * turn waits on what is ready only (os.h). */
  cgofuzz_os_waitset *ws = cgofuzz_os_waitset_new();
  uint64_t ready[64];
  if (!ws) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return;
  }
  for (size_t i = 0; i < c->np; i++)
    c->slots[i].watch_fd[0] = c->slots[i].watch_fd[1] = -1;
  int64_t next_log = c->start_ms + 3000;
  int64_t next_watch = c->start_ms + WATCH_MS;
  while (!c->done && !cgofuzz_coord_interrupted()) {
    int64_t now = cgofuzz_mono_ms();
    if (cfg->fuzz_ns && now - c->start_ms >= cfg->fuzz_ns / 1000000)
      break;
    for (size_t i = 0; i < c->np && !c->done; i++) {
      slot *s = &c->slots[i];
      if (s->state != W_IDLE && s->state != W_DOWN)
        continue;
      dispatch(c, s);
      /* The call could not be written: it died. A death that does not end
       * the run leaves the slot down, to be started again now: with
       * nothing in flight the loop would end below. */
      while (s->lost && !c->done) {
        cgofuzz_coord_on_death(c, s);
        if (s->state == W_DOWN && !c->done)
          dispatch(c, s);
      }
    }
    if (c->done)
      break;
    /* After the dispatch: the workers never wait for a strategy. */
    bool tracing = cfg->feedback && cfg->feedback->step &&
                   cfg->feedback->step(cfg->feedback->ctx, c);
    /* Idle workers are watched too, so that one dying between calls is
     * noticed (and reported as Go would) right away. */
    size_t busy = 0;
    for (size_t i = 0; i < c->np; i++) {
      slot *s = &c->slots[i];
      busy += s->state == W_BUSY || s->state == W_MIN;
      if (sync_watch(c, ws, s) != 0) {
        cgofuzz_coord_failf(c, "watching the workers' pipes: %s",
                            errno == ENOMEM ? "out of memory"
                                            : strerror(errno));
        goto done;
      }
    }
    if (busy == 0)
      break; /* nothing in flight and nothing left to send */
    now = cgofuzz_mono_ms();
    int64_t wait = next_log - now;
    if (cfg->fuzz_ns) {
      int64_t left = c->start_ms + cfg->fuzz_ns / 1000000 - now;
      if (left < wait)
        wait = left;
    }
    if (wait > next_watch - now) /* the watch on busy workers */
      wait = next_watch - now;
    if (wait < 0 || tracing)
      wait = 0;
    int r = cgofuzz_os_waitset_wait(
        ws, ready, (int)(sizeof ready / sizeof ready[0]), (int)wait);
    if (r < 0 && errno != EINTR) {
      cgofuzz_coord_failf(c, "waiting for the workers: %s", strerror(errno));
      break;
    }
    now = cgofuzz_mono_ms();
    if (now >= next_log) {
      /* At the deadline the final line (after the loop) says it all:
       * printing this one too would repeat it when -fuzztime is a
       * multiple of 3 s. */
      if (!cfg->fuzz_ns || now - c->start_ms < cfg->fuzz_ns / 1000000)
        log_stats(c);
      next_log += 3000;
    }
    int pipe;
    for (int i = 0; i < r; i++) { /* stderr first, as a death reads it */
      slot *s = key_slot(c, ready[i], &pipe);
      if (s && pipe == 1 && s->w.err_r >= 0)
        cgofuzz_coord_worker_drain_stderr(&s->w);
    }
    for (int i = 0; i < r && !c->done; i++) {
      slot *s = key_slot(c, ready[i], &pipe);
      if (!s || pipe != 0)
        continue;
      const uint8_t *l;
      size_t n;
      cgofuzz_err err = {0};
      int got = cgofuzz_coord_worker_recv(&s->w, 0, MAX_LINE, &l, &n, &err);
      /* As Go's decoder: bytes that cannot begin a response end the run at
       * once, whether or not their line is complete. */
      size_t npend = s->w.in.buf.len - s->w.in.consumed;
      if ((got == 1 && cgofuzz_wire_bad_start(l, n, &err) != 0) ||
          (got == 0 && npend &&
           cgofuzz_wire_bad_start(s->w.in.buf.data + s->w.in.consumed, npend,
                                  &err) != 0))
        got = -2;
      if (got == 1 && s->state == W_IDLE)
        cgofuzz_coord_failf(c, "%s",
                            "communicating with fuzzing process: unexpected "
                            "message from an idle worker");
      else if (got == 1) {
        cgofuzz_coord_on_reply(c, s, l, n);
        if (s->lost) /* a minimization's next call could not be written */
          cgofuzz_coord_on_death(c, s);
      } else if (got == -2 || got == -3) /* as Go's decoder fails, or we
                                          * had no memory: the run ends */
        cgofuzz_coord_failf(c, "communicating with fuzzing process: %s",
                            err.msg);
      else if (got < 0)
        cgofuzz_coord_on_death(c, s);
    }
    if (now >= next_watch && !c->done) {
      cgofuzz_coord_watch(c);
      next_watch = now + WATCH_MS;
    }
  }
done:
  cgofuzz_os_waitset_free(ws);
}

/* -v: the share of the coverage in a cgo package's C code. */
static void say_cgo_coverage(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  if (c->cgo_from >= c->mask_len || !cfg->verbose || cfg->quiet ||
      cfg->observer)
    return;
  cgofuzz_coord_stats st;
  cgofuzz_coord_stats_get(c, &st);
  fprintf(stderr,
          "cgofuzz: coverage: %zu bits, %zu of them in the cgo C code (%zu of "
          "its %zu counters hit), %zu in Go's\n",
          st.cov_bits, st.c_cov_bits, st.c_cov_bytes, st.c_counters,
          st.cov_bits - st.c_cov_bits);
}

/* -v: how much of the code changed since -focus's revision the run
 * reached. */
static void say_focus(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  if (!cfg->focus || !cgofuzz_coord_says(c))
    return;
  size_t n = 0, hit = 0;
  for (size_t i = 0; i < cfg->focus_len && i < c->mask_len; i++)
    if (cfg->focus[i]) {
      n++;
      hit += c->mask[i] != 0;
    }
  fprintf(stderr,
          "cgofuzz: -focus=%s: %zu of the %zu counters of code changed since "
          "it hit\n",
          cfg->focus_rev ? cfg->focus_rev : "", hit, n);
}

int cgofuzz_coord_target_dirs(const cgofuzz_coord_config *cfg, char **testdata,
                              char **cache) {
  cgofuzz_buf t = {0}, k = {0};
  cgofuzz_buf_printf(&t, "testdata/fuzz/%s", cfg->target);
  cgofuzz_buf_putc(&t, 0);
  cgofuzz_buf_printf(&k, "%s/%s", cfg->cache_root, cfg->target);
  cgofuzz_buf_putc(&k, 0);
  if (t.failed || k.failed) { /* a path cut short is no path */
    cgofuzz_buf_free(&t);
    cgofuzz_buf_free(&k);
    *testdata = *cache = NULL;
    return -1;
  }
  *testdata = (char *)t.data;
  *cache = (char *)k.data;
  return 0;
}

/* The signals a run stops on (INT, TERM, HUP) or ignores (PIPE, XFSZ),
 * and what they did before it, restored after it. */
typedef struct run_signals {
  struct sigaction old_int, old_term, old_hup, old_pipe, old_xfsz;
} run_signals;

static void signals_take(run_signals *s) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler =
      cgofuzz_coord_on_signal; /* no SA_RESTART: the wait must wake up */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &s->old_int);
  sigaction(SIGTERM, &sa, &s->old_term);
  sigaction(SIGHUP, &sa, &s->old_hup);
  /* A dead worker's pipe and a file-size limit must give write errors we
   * can report (and fall back from), not kill the coordinator. */
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, &s->old_pipe);
  sigaction(SIGXFSZ, &sa, &s->old_xfsz);
}

static void signals_restore(const run_signals *s) {
  sigaction(SIGINT, &s->old_int, NULL);
  sigaction(SIGTERM, &s->old_term, NULL);
  sigaction(SIGHUP, &s->old_hup, NULL);
  sigaction(SIGPIPE, &s->old_pipe, NULL);
  sigaction(SIGXFSZ, &s->old_xfsz, NULL);
}

/* The target's directories, the workers' command line, the corpus and the
 * coverage mask. 0, or -1 with the run failed. */
static int run_setup(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  cgofuzz_coord_target_dirs(cfg, &c->testdata_dir, &c->cache_dir);
  c->np = (size_t)(cfg->parallel > 0 ? cfg->parallel : 1);
  if (cfg->fuzz_count && (int64_t)c->np > cfg->fuzz_count)
    c->np = (size_t)cfg->fuzz_count;
  if (!c->testdata_dir || !c->cache_dir || cgofuzz_coord_worker_args(c) != 0) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return -1;
  }
  if (load_corpus(c) != 0)
    return -1;
  if (cfg->report)
    cfg->report->corpus_start = c->corpus.n;
  c->mask_len = cgofuzz_gobin_go_counters(cfg->binary);
  c->cgo_from =
      c->mask_len ? cgofuzz_gobin_cgo_from(cfg->binary, c->mask_len) : SIZE_MAX;
  if (c->mask_len && !(c->mask = calloc(c->mask_len, 1))) {
    c->mask_len = 0; /* the figures below read no mask */
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return -1;
  }
  c->mask_gen = 1;
  /* A C target tells its mask size in its first reply: no warning. */
  c->cov_expected =
      c->mask_len || cgofuzz_gobin_section_size(cfg->binary, "__sancov_cntrs");
  if (!c->cov_expected)
    fprintf(stderr, "warning: the test binary was not built with coverage "
                    "instrumentation, so fuzzing will run without coverage "
                    "guidance and may be inefficient\n");
  return 0;
}

/* The warm-up's entries (the zero value for an empty corpus), their
 * places in the schedule, and the workers' slots. 0, or -1 with the run
 * failed. */
static int run_slots(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  c->warmup_count = c->warmup_left = c->corpus.n;
  if (c->corpus.n == 0) {
    if (!cfg->observer)
      fprintf(stderr, "warning: starting with empty corpus\n");
    if (add_zero_entry(c) != 0) {
      cgofuzz_coord_failf(c, "%s",
                          "out of memory encoding the zero-value input");
      return -1;
    }
    /* Go does not warm the zero entry up: it knows the mask size from the
     * binary and sends the mask with the first fuzz call. A C target's
     * worker tells its size only in a warm-up reply, and never reports
     * coverage before it has a mask, so without this the run would be
     * unguided. */
    if (!c->mask_len && c->cov_expected)
      c->warmup_count = c->warmup_left = 1;
  }
  c->sched.focus = c->cfg->focus; /* before the warm-up's coverage */
  c->sched.focus_len = c->cfg->focus ? c->cfg->focus_len : 0;
  /* Entries for the warm-up's coverage (their rarity, and which of them
   * added nothing): without them it would be dropped, and every starting
   * entry would look alike to the schedule. */
  if (cgofuzz_coord_sched_grow(&c->sched, c->corpus.n, cgofuzz_mono_ms()) !=
      0) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return -1;
  }
  for (size_t i = 0; i < c->corpus.n; i++)
    if (c->corpus.e[i].is_seed)
      cgofuzz_coord_sched_first(&c->sched, i);
  c->slots = calloc(c->np, sizeof *c->slots);
  if (!c->slots) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return -1;
  }
  for (size_t i = 0; i < c->np; i++) {
    cgofuzz_err err = {0};
    c->slots[i].state = W_DOWN;
    c->n_init = i + 1; /* worker_init leaves a failed slot safe to free */
    if (cgofuzz_coord_worker_init(&c->slots[i].w, CGOFUZZ_SHM_VALUE_CAP,
                                  &err) != 0) {
      cgofuzz_coord_fail(c, err.msg, strlen(err.msg));
      return -1;
    }
  }
  return 0;
}

/* The workers start first: the feedback's set-up (reading the binary,
 * copying it to a memfd) then overlaps the 10-20 ms each worker takes to
 * start. 0, or -1 with the
 * run failed. */
static int run_start(coord *c) {
  if (cgofuzz_coord_fast_copy(c) != 0)
    return -1;
  for (size_t i = 0; i < c->np && !c->done; i++)
    cgofuzz_coord_spawn_worker(c, &c->slots[i]);
  const cgofuzz_coord_feedback *fb = c->cfg->feedback;
  cgofuzz_err err = {0};
  if (c->done)
    return -1;
  if (fb && fb->start && fb->start(fb->ctx, c, &err) != 0) {
    cgofuzz_coord_fail(c, err.msg, strlen(err.msg));
    return -1;
  }
  for (size_t i = 0; i < c->np && !c->done; i++)
    cgofuzz_coord_start_worker(c, &c->slots[i]);
  return 0;
}

/* The run proper, from the first progress line to the last. */
static void run_fuzz(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  log_stats(c);
  /* Nothing to warm up (a Go binary, whose counters are known from the
   * file, with an empty corpus): the run is inited now. */
  if (c->warmup_left == 0 && cfg->observer && cfg->observer->inited) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    cfg->observer->inited(cfg->observer->ctx, &st);
  }
  run_loop(c);
  /* A front end (libFuzzer's command line) keeps its own rules for a
   * run cut short, and is told the figures. */
  if (!c->failed && !cgofuzz_coord_interrupted() && !cfg->observer &&
      c->warmup_count > 0 && c->warmup_left == c->warmup_count)
    ran_nothing(c);
  cgofuzz_coord_mjob_flush(c);
  if (!cfg->observer) /* its finished callback has the last word */
    log_line(c);
}

/* The workers stopped, the run's verdict and figures told, and all it
 * holds freed, however far it got. Returns the run's result. */
static int run_finish(coord *c) {
  for (size_t i = 0; i < c->n_init; i++)
    cgofuzz_coord_suspect_end(&c->slots[i]); /* a stopped worker resumes */
  for (size_t i = 0; i < c->n_init; i++)
    if (c->slots[i].w.in_w >= 0) { /* ask them all to exit at once */
      close(c->slots[i].w.in_w);
      c->slots[i].w.in_w = -1;
    }
  cgofuzz_coord_fast_report(c);
  for (size_t i = 0; i < c->n_init; i++) {
    cgofuzz_coord_worker_free(&c->slots[i].w);
    cgofuzz_buf_free(&c->slots[i].call.value);
  }
  const cgofuzz_coord_feedback *fb = c->cfg->feedback;
  if (fb && fb->stop)
    fb->stop(fb->ctx, c);
  cgofuzz_gobin_copy_free(&c->fast);
  cgofuzz_gobin_traps_free(c->trap_names, c->n_traps);
  cgofuzz_gobin_patched_free(&c->trapped);
  say_cgo_coverage(c);
  say_focus(c);
  print_verdict(c);
  tell_stats(c, true);
  int rc = c->failed ? 1 : 0;
  free(c->slots);
  for (size_t i = 0; i < c->nwargv; i++)
    free(c->wargv[i]);
  free(c->wargv);
  free(c->wenv);
  cgofuzz_coord_corpus_free(&c->corpus);
  cgofuzz_coord_sched_free(&c->sched);
  for (size_t i = 0; i < c->n_jobs; i++)
    cgofuzz_coord_mjob_free(&c->jobs[i]);
  for (size_t i = 0; i < c->n_fail_keys; i++)
    free(c->fail_keys[i]);
  free(c->fail_keys);
  free(c->mask);
  free(c->cache_dir);
  free(c->testdata_dir);
  free(c->crash_path);
  cgofuzz_buf_free(&c->line);
  if (c->fail_msg.data != (uint8_t *)c->fail_short)
    cgofuzz_buf_free(&c->fail_msg);
  return rc;
}

int cgofuzz_coord_run(const cgofuzz_coord_config *cfg) {
  coord c;
  memset(&c, 0, sizeof c);
  c.fast.mfd = -1;
  c.cgo_from = SIZE_MAX;
  c.cfg = cfg;
  c.death_status = -1;
  c.start_ms = c.last_log_ms = cgofuzz_mono_ms();
  c.oom_seen = cgofuzz_coord_oom_kills(); /* until the watch's first look */
  cgofuzz_coord_signal_reset();
  run_signals sigs;
  signals_take(&sigs);
  if (cfg->verbose && !cfg->campaign && !cfg->run_line_printed) {
    printf("%s=== RUN   %s\n", cfg->json_marks ? "\x16" : "", cfg->target);
    fflush(stdout);
  }
  if (run_setup(&c) == 0 && run_slots(&c) == 0 && run_start(&c) == 0 && !c.done)
    run_fuzz(&c);
  int rc = run_finish(&c);
  signals_restore(&sigs);
  return rc;
}
