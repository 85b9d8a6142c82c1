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
 *  - the mask grows as soon as new coverage is seen, even while the input
 *    is still being minimized, so other workers do not report it again;
 *  - at most one minimization job (coord_min.c) runs at a time, on one
 *    worker, while the others keep fuzzing; only a crasher without
 *    -fuzzcontinue stops the hand-out of fuzz calls (Go drops other
 *    crashers meanwhile);
 *  - after the warm-up, inputs are chosen by energy (coord_sched.c), not
 *    Go's round robin;
 *  - a worker's reply of new coverage or Err names no input: the input is
 *    rebuilt by replaying ((count-1)%5)+1 mutations from the PCG state the
 *    worker left in shm, starting from the input that was sent;
 *  - a worker that dies mid-call is classified from its wait status: crash
 *    signals and exit statuses make a crasher, other signals do not;
 *  - there is no per-call timeout here: hang detection is the worker's
 *    (Go panics after 10 s in one exec and exits with status 2).
 * The loop is single-threaded: poll() on every live worker's response pipe
 * (an idle one that closes it has died between calls), with a time-out at
 * the next 3 s progress line or the -fuzztime deadline.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgofuzz/codec.h"
#include "cgofuzz/coord.h"
#include "cgofuzz/mutator.h"
#include "cgofuzz/worker_client.h"
#include "coord_internal.h"

static volatile sig_atomic_t got_signal;

void cgofuzz_coord_on_death(coord *c, slot *s);

static void on_signal(int sig) { got_signal = sig; }

int64_t cgofuzz_coord_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void put_elapsed(coord *c, cgofuzz_buf *b) {
  /* Go rounds half away from zero. */
  cgofuzz_fmt_secs(b, (cgofuzz_coord_now_ms() - c->start_ms + 500) / 1000);
}

static void log_stats(coord *c) {
  cgofuzz_buf b = {0};
  int64_t now = cgofuzz_coord_now_ms();
  cgofuzz_buf_puts(&b, "fuzz: elapsed: ");
  put_elapsed(c, &b);
  if (c->warmup_left > 0) {
    cgofuzz_buf_printf(&b, ", %s: %zu/%zu completed\n",
                       c->mask_len ? "gathering baseline coverage"
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

/* Ends the run with a failure whose text is msg (printed indented). */
void cgofuzz_coord_fail(coord *c, const char *msg, size_t len) {
  if (c->fatal)
    return;
  c->fatal = true;
  c->failed = true;
  c->done = true;
  cgofuzz_buf_append(&c->fail_msg, msg, len);
}

void cgofuzz_coord_failf(coord *c, const char *fmt, const char *arg) {
  char tmp[1024];
  snprintf(tmp, sizeof tmp, fmt, arg);
  cgofuzz_coord_fail(c, tmp, strlen(tmp));
}

int cgofuzz_coord_start_worker(coord *c, slot *s) {
  cgofuzz_err err = {0};
  const uint8_t *l;
  size_t n;
  if (cgofuzz_worker_start(&s->w, c->cfg->binary, c->wargv, NULL, NULL, -1, -1,
                           &err) != 0) {
    cgofuzz_coord_failf(c, "fuzzing process terminated without fuzzing: %s",
                        err.msg);
    return -1;
  }
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_PING};
  c->line.len = 0;
  cgofuzz_wire_encode_call(&call, &c->line);
  if (cgofuzz_worker_send(&s->w, &c->line, &err) != 0 ||
      cgofuzz_worker_recv(&s->w, PING_TIMEOUT_MS, MAX_LINE, &l, &n, &err) !=
          1 ||
      cgofuzz_wire_decode_ping_resp(l, n, &err) != 0) {
    cgofuzz_worker_stop(&s->w, STOP_GRACE_MS);
    s->state = W_DOWN;
    cgofuzz_coord_fail(
        c, "fuzzing process terminated without fuzzing: EOF",
        strlen("fuzzing process terminated without fuzzing: EOF"));
    return -1;
  }
  s->state = W_IDLE;
  s->sent_gen = 0; /* a new process has no mask yet */
  return 0;
}

/* Rebuilds the input a worker ran: the sent entry, mutated as the worker
 * did from the PCG state it saved in shm (none for a warm-up call). */
static int rebuild(coord *c, slot *s, int64_t count, cgofuzz_buf *out) {
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, h->rand_state, h->rand_inc);
  int rc = -1;
  if (cgofuzz_corpus_decode(e->data, e->len, &vals, &err) != 0)
    goto done;
  if (!s->warmup) {
    int64_t k = ((count - 1) % CGOFUZZ_CHAINED_MUTATIONS) + 1;
    for (int64_t i = 0; i < k; i++)
      if (cgofuzz_mutate(&m, vals.v, vals.n, cgofuzz_shm_value_cap(&s->w.mem),
                         &err) != 0)
        goto done;
  }
  out->len = 0;
  if (cgofuzz_corpus_encode(vals.v, vals.n, out, &err) != 0)
    goto done;
  rc = 0;
done:
  if (rc != 0)
    cgofuzz_coord_failf(c, "rebuilding the fuzzed input: %s", err.msg);
  cgofuzz_values_free(&vals); /* before the mutator: values borrow scratch */
  cgofuzz_mutator_free(&m);
  return rc;
}

/* A crasher: msg is the worker's Err, or the wait status of a dead one. */
static void crash(coord *c, slot *s, int64_t count, const char *msg,
                  size_t msg_len, bool minimizable) {
  cgofuzz_buf data = {0}, text = {0};
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  if (s->warmup && e->is_seed) {
    fprintf(stderr, "failure while testing seed corpus entry: %s/%s\n",
            c->cfg->target, e->name);
    cgofuzz_coord_fail(c, msg, msg_len);
    return;
  }
  if (c->minimizing)
    return; /* Go drops crashers found while one is minimized */
  if (c->cfg->fuzz_continue && cgofuzz_coord_seen_failure(c, msg, msg_len))
    return;
  if (rebuild(c, s, count, &data) != 0)
    goto done;
  cgofuzz_buf_append(&text, msg, msg_len);
  if (minimizable && cgofuzz_coord_can_minimize(c) &&
      cgofuzz_mjob_queue(c, true, &data, &text, NULL, NULL) == 0) {
    c->minimizing = !c->cfg->fuzz_continue;
    fprintf(stderr, "fuzz: minimizing %zu-byte failing input file\n", data.len);
    fflush(stderr);
  } else {
    cgofuzz_coord_record_failure(c, &data, &text);
  }
done:
  cgofuzz_buf_free(&data);
  cgofuzz_buf_free(&text);
}

static void warmup_done(coord *c, bool with_cov) {
  if (--c->warmup_left > 0)
    return;
  cgofuzz_buf b = {0};
  cgofuzz_buf_puts(&b, "fuzz: elapsed: ");
  put_elapsed(c, &b);
  cgofuzz_buf_printf(&b,
                     ", %s: %zu/%zu completed, now fuzzing with %zu "
                     "workers\n",
                     with_cov ? "gathering baseline coverage"
                              : "testing seed corpus",
                     c->warmup_count, c->warmup_count, c->np);
  fwrite(b.data, 1, b.len, stderr);
  fflush(stderr);
  cgofuzz_buf_free(&b);
}

static void new_coverage(coord *c, slot *s, int64_t count,
                         const cgofuzz_wire_bytes *cov) {
  if (cgofuzz_cov_new_bits(c->mask, cov->data, c->mask_len) == 0)
    return;
  cgofuzz_buf data = {0};
  uint8_t *keep = malloc(c->mask_len);
  if (!keep || rebuild(c, s, count, &data) != 0)
    goto done;
  for (size_t i = 0; i < c->mask_len; i++)
    keep[i] = (uint8_t)(cov->data[i] & ~c->mask[i]);
  cgofuzz_cov_merge(c->mask, cov->data, c->mask_len);
  c->mask_gen++;
  cgofuzz_sched_found(&c->sched, s->entry, cgofuzz_coord_now_ms());
  if (!cgofuzz_coord_can_minimize(c) ||
      cgofuzz_mjob_queue(c, false, &data, NULL, keep, cov->data) != 0)
    cgofuzz_coord_add_interesting(c, &data, cov->data);
done:
  free(keep);
  cgofuzz_buf_free(&data);
}

static void on_reply(coord *c, slot *s, const uint8_t *l, size_t n) {
  if (s->state == W_MIN) {
    cgofuzz_mjob_on_reply(c, s, l, n);
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
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  int64_t count = h->count;
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
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
  } else if ((size_t)h->value_len != e->len ||
             memcmp(cgofuzz_shm_value(&s->w.mem), e->data, e->len) != 0) {
    cgofuzz_coord_failf(c, "%s", "workerServer.fuzz modified input");
  } else {
    c->count += count;
    bool cov = r.coverage_data.has && c->mask_len &&
               r.coverage_data.len == c->mask_len;
    if (r.err) {
      crash(c, s, count, r.err, r.err_len, true);
    } else if (s->warmup) {
      if (cov) {
        if (cgofuzz_cov_new_bits(c->mask, r.coverage_data.data, c->mask_len)) {
          cgofuzz_cov_merge(c->mask, r.coverage_data.data, c->mask_len);
          c->mask_gen++;
        }
        cgofuzz_sched_set_cov(&c->sched, s->entry, r.coverage_data.data,
                              c->mask_len);
      }
      warmup_done(c, r.coverage_data.has);
    } else if (cov) {
      new_coverage(c, s, count, &r.coverage_data);
    }
  }
  cgofuzz_fuzz_resp_free(&r);
}

/* The worker closed its pipe: it died. Classify it by wait status. */
void cgofuzz_coord_on_death(coord *c, slot *s) {
  int state = s->state;
  bool busy = state == W_BUSY;
  if (!cgofuzz_worker_reap(&s->w, 5000))
    cgofuzz_worker_stop(&s->w, STOP_GRACE_MS);
  int st = s->w.wait_status;
  cgofuzz_worker_stop(&s->w, STOP_GRACE_MS);
  s->state = W_DOWN;
  s->deaths++;
  if (busy || state == W_MIN)
    c->outstanding -= s->limit;
  char sts[160];
  cgofuzz_wait_status_string(st, sts, sizeof sts);
  if (state == W_MIN) {
    /* Keep the last value the job was known to hold. */
    mjob *j = &c->jobs[0];
    c->count += cgofuzz_shm_hdr(&s->w.mem)->count;
    if (j->crash) {
      j->msg.len = 0;
      cgofuzz_buf_printf(&j->msg,
                         "fuzzing process hung or terminated unexpectedly "
                         "while minimizing: %s",
                         sts);
    }
    cgofuzz_mjob_finish(c);
    return;
  }
  if (got_signal)
    return; /* ^C reached the workers too: not a crash */
  if (WIFSIGNALED(st) && !cgofuzz_is_crash_signal(WTERMSIG(st))) {
    cgofuzz_coord_failf(
        c,
        "fuzzing process terminated by unexpected signal; no crash will be "
        "recorded: %s",
        sts);
    return;
  }
  if (!busy) {
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
      return;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 70)
      cgofuzz_coord_failf(
          c,
          "fuzzing process exited unexpectedly due to an internal failure: "
          "%s",
          sts);
    else
      cgofuzz_coord_failf(
          c, "fuzzing process hung or terminated unexpectedly: %s", sts);
    return;
  }
  int64_t count = cgofuzz_shm_hdr(&s->w.mem)->count;
  c->count += count;
  char msg[256];
  snprintf(msg, sizeof msg,
           "fuzzing process hung or terminated unexpectedly: %s", sts);
  crash(c, s, count, msg, strlen(msg), false);
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
    cgofuzz_mjob_step(c, s);
    return;
  }
  if (c->minimizing)
    return;
  if (warmup && c->warmup_next >= c->warmup_count)
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
  if (warmup) {
    idx = c->warmup_next++;
  } else {
    if (cgofuzz_sched_grow(&c->sched, c->corpus.n, cgofuzz_coord_now_ms()) !=
        0) {
      cgofuzz_coord_failf(c, "%s", "out of memory");
      return;
    }
    idx = cgofuzz_sched_pick(&c->sched, cgofuzz_coord_now_ms());
  }
  const cgofuzz_centry *e = &c->corpus.e[idx];
  cgofuzz_err err = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  h->count = 0;
  if (cgofuzz_shm_set_value(&s->w.mem, e->data, e->len, &err) != 0) {
    cgofuzz_coord_fail(c, err.msg, strlen(err.msg));
    return;
  }
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_FUZZ};
  call.fuzz.timeout_ns = FUZZ_CALL_NS;
  call.fuzz.limit = limit;
  call.fuzz.warmup = warmup;
  if (c->mask_len && s->sent_gen != c->mask_gen) {
    call.fuzz.coverage_data.has = true;
    call.fuzz.coverage_data.data = c->mask; /* borrowed: not freed */
    call.fuzz.coverage_data.len = c->mask_len;
    s->sent_gen = c->mask_gen;
  }
  c->line.len = 0;
  cgofuzz_wire_encode_call(&call, &c->line);
  s->entry = idx;
  s->warmup = warmup;
  s->limit = limit;
  s->state = W_BUSY;
  c->outstanding += limit;
  if (cgofuzz_worker_send(&s->w, &c->line, &err) != 0)
    cgofuzz_coord_on_death(c, s);
}

static int build_worker_argv(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  c->wargv = calloc(8 + cfg->n_extra, sizeof *c->wargv);
  if (!c->wargv)
    return -1;
  cgofuzz_buf b = {0};
  size_t n = 0;
  c->wargv[n++] = strdup(cfg->binary);
  c->wargv[n++] = strdup("-test.fuzzworker");
  c->wargv[n++] = strdup("-test.paniconexit0");
  cgofuzz_buf_printf(&b, "-test.fuzzcachedir=%s", cfg->cache_root);
  c->wargv[n++] = strdup(coord_cstr(&b));
  b.len = 0;
  cgofuzz_buf_printf(&b, "-test.fuzz=^%s$", cfg->target);
  c->wargv[n++] = strdup(coord_cstr(&b));
  b.len = 0;
  cgofuzz_buf_printf(&b, "-test.run=^%s$", cfg->target);
  c->wargv[n++] = strdup(coord_cstr(&b));
  for (size_t i = 0; i < cfg->n_extra; i++)
    c->wargv[n++] = strdup(cfg->extra_args[i]);
  c->nwargv = n;
  cgofuzz_buf_free(&b);
  for (size_t i = 0; i < n; i++)
    if (!c->wargv[i])
      return -1;
  return 0;
}

/* Seeds, testdata and cache, in Go's order. -1 if testdata is malformed
 * (the message is in c->fail_msg). */
static int load_corpus(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  cgofuzz_buf errs = {0}, msg = {0};
  int rc = 0;
  for (size_t i = 0; i < cfg->n_seeds; i++) {
    char name[32];
    snprintf(name, sizeof name, "seed#%zu", i);
    msg.len = 0;
    if (cgofuzz_corpus_typecheck(cfg->seeds[i].data, cfg->seeds[i].len,
                                 cfg->kinds, cfg->n_kinds, &msg) != 0)
      continue;
    cgofuzz_corpus_add(&c->corpus, cfg->seeds[i].data, cfg->seeds[i].len, true,
                       name);
  }
  if (cgofuzz_corpus_load_dir(&c->corpus, c->testdata_dir, cfg->kinds,
                              cfg->n_kinds, true, true, &errs) != 0) {
    cgofuzz_coord_fail(c, coord_cstr(&errs), errs.len);
    rc = -1;
  } else if (cgofuzz_corpus_load_dir(&c->corpus, c->cache_dir, cfg->kinds,
                                     cfg->n_kinds, false, false, &errs) != 0) {
    cgofuzz_coord_fail(c, coord_cstr(&errs), errs.len);
    rc = -1;
  }
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
  if (cgofuzz_corpus_encode(v, c->cfg->n_kinds, &b, &err) == 0 &&
      cgofuzz_corpus_add(&c->corpus, b.data, b.len, false, "zero") >= 0)
    rc = 0;
  free(v);
  cgofuzz_buf_free(&b);
  return rc;
}

static void print_verdict(coord *c) {
  double secs = (double)(cgofuzz_coord_now_ms() - c->start_ms) / 1000.0;
  cgofuzz_buf b = {0};
  if (c->failed) {
    /* With -fuzzcontinue, failures were printed as they were found; a
     * block here is for the error that ended the run, if any. */
    if (c->fatal)
      cgofuzz_coord_fail_block(c, &b, (const char *)c->fail_msg.data,
                               c->fail_msg.len, c->crash_path);
    if (c->cfg->verbose)
      cgofuzz_buf_puts(&b, "=== NAME  \n");
    cgofuzz_buf_puts(&b, "FAIL\n");
  } else {
    if (c->cfg->verbose)
      cgofuzz_buf_printf(&b, "--- PASS: %s (%.2fs)\n=== NAME  \n",
                         c->cfg->target, secs);
    cgofuzz_buf_puts(&b, "PASS\n");
  }
  fflush(stderr);
  fwrite(b.data, 1, b.len, stdout);
  fflush(stdout);
  cgofuzz_buf_free(&b);
}

static void run_loop(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  struct pollfd *pfd = calloc(c->np, sizeof *pfd);
  slot **ps = calloc(c->np, sizeof *ps);
  if (!pfd || !ps) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    goto done;
  }
  int64_t next_log = c->start_ms + 3000;
  while (!c->done && !got_signal) {
    int64_t now = cgofuzz_coord_now_ms();
    if (cfg->fuzz_ns && now - c->start_ms >= cfg->fuzz_ns / 1000000)
      break;
    for (size_t i = 0; i < c->np && !c->done; i++)
      if (c->slots[i].state == W_IDLE || c->slots[i].state == W_DOWN)
        dispatch(c, &c->slots[i]);
    if (c->done)
      break;
    /* Idle workers are watched too, so that one dying between calls is
     * noticed (and reported as Go would) right away. */
    size_t nb = 0, busy = 0;
    for (size_t i = 0; i < c->np; i++) {
      slot *s = &c->slots[i];
      if (s->state == W_DOWN || s->w.out_r < 0)
        continue;
      busy += s->state == W_BUSY || s->state == W_MIN;
      pfd[nb].fd = s->w.out_r;
      pfd[nb].events = POLLIN;
      pfd[nb].revents = 0;
      ps[nb++] = s;
    }
    if (busy == 0)
      break; /* nothing in flight and nothing left to send */
    now = cgofuzz_coord_now_ms();
    int64_t wait = next_log - now;
    if (cfg->fuzz_ns) {
      int64_t left = c->start_ms + cfg->fuzz_ns / 1000000 - now;
      if (left < wait)
        wait = left;
    }
    if (wait < 0)
      wait = 0;
    int r = poll(pfd, nb, (int)wait);
    if (r < 0 && errno != EINTR) {
      cgofuzz_coord_failf(c, "poll: %s", strerror(errno));
      break;
    }
    if (cgofuzz_coord_now_ms() >= next_log) {
      log_stats(c);
      next_log += 3000;
    }
    for (size_t i = 0; r > 0 && i < nb && !c->done; i++) {
      if (!pfd[i].revents)
        continue;
      slot *s = ps[i];
      const uint8_t *l;
      size_t n;
      cgofuzz_err err = {0};
      int got = cgofuzz_worker_recv(&s->w, 0, MAX_LINE, &l, &n, &err);
      if (got == 1 && s->state == W_IDLE)
        cgofuzz_coord_failf(c, "%s",
                            "communicating with fuzzing process: unexpected "
                            "message from an idle worker");
      else if (got == 1)
        on_reply(c, s, l, n);
      else if (got < 0)
        cgofuzz_coord_on_death(c, s);
    }
  }
done:
  free(pfd);
  free(ps);
}

int cgofuzz_coord_run(const cgofuzz_coord_config *cfg) {
  coord c;
  memset(&c, 0, sizeof c);
  c.cfg = cfg;
  c.start_ms = c.last_log_ms = cgofuzz_coord_now_ms();
  got_signal = 0;
  struct sigaction sa, old_int, old_term, old_hup, old_pipe;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: poll must wake up */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  sigaction(SIGHUP, &sa, &old_hup);
  sa.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &sa, &old_pipe);

  if (cfg->verbose) {
    printf("=== RUN   %s\n", cfg->target);
    fflush(stdout);
  }
  cgofuzz_buf b = {0};
  cgofuzz_buf_printf(&b, "testdata/fuzz/%s", cfg->target);
  c.testdata_dir = strdup(coord_cstr(&b));
  b.len = 0;
  cgofuzz_buf_printf(&b, "%s/%s", cfg->cache_root, cfg->target);
  c.cache_dir = strdup(coord_cstr(&b));
  cgofuzz_buf_free(&b);
  c.np = (size_t)(cfg->parallel > 0 ? cfg->parallel : 1);
  if (cfg->fuzz_count && (int64_t)c.np > cfg->fuzz_count)
    c.np = (size_t)cfg->fuzz_count;
  if (!c.testdata_dir || !c.cache_dir || build_worker_argv(&c) != 0) {
    cgofuzz_coord_failf(&c, "%s", "out of memory");
    goto finish;
  }
  if (load_corpus(&c) != 0)
    goto finish;
  c.mask_len = cgofuzz_cov_counters_size(cfg->binary);
  if (c.mask_len && !(c.mask = calloc(c.mask_len, 1))) {
    cgofuzz_coord_failf(&c, "%s", "out of memory");
    goto finish;
  }
  c.mask_gen = 1;
  /* A C target tells its mask size in its first reply: no warning. */
  if (!c.mask_len && !cgofuzz_cov_section_size(cfg->binary, "__sancov_cntrs"))
    fprintf(stderr, "warning: the test binary was not built with coverage "
                    "instrumentation, so fuzzing will run without coverage "
                    "guidance and may be inefficient\n");
  c.warmup_count = c.warmup_left = c.corpus.n;
  if (c.corpus.n == 0) {
    fprintf(stderr, "warning: starting with empty corpus\n");
    if (add_zero_entry(&c) != 0) {
      cgofuzz_coord_failf(&c, "%s", "encoding the zero-value input failed");
      goto finish;
    }
  }
  c.slots = calloc(c.np, sizeof *c.slots);
  if (!c.slots) {
    cgofuzz_coord_failf(&c, "%s", "out of memory");
    goto finish;
  }
  for (size_t i = 0; i < c.np; i++) {
    cgofuzz_err err = {0};
    c.slots[i].state = W_DOWN;
    c.n_init = i + 1; /* worker_init leaves a failed slot safe to free */
    if (cgofuzz_worker_init(&c.slots[i].w, CGOFUZZ_SHM_VALUE_CAP, &err) != 0) {
      cgofuzz_coord_fail(&c, err.msg, strlen(err.msg));
      goto finish;
    }
  }
  for (size_t i = 0; i < c.np && !c.done; i++)
    cgofuzz_coord_start_worker(&c, &c.slots[i]);
  if (!c.done) {
    log_stats(&c);
    run_loop(&c);
    cgofuzz_mjob_flush(&c);
    log_stats(&c);
  }

finish:
  for (size_t i = 0; i < c.n_init; i++)
    if (c.slots[i].w.in_w >= 0) { /* ask them all to exit at once */
      close(c.slots[i].w.in_w);
      c.slots[i].w.in_w = -1;
    }
  for (size_t i = 0; i < c.n_init; i++)
    cgofuzz_worker_free(&c.slots[i].w);
  print_verdict(&c);
  int rc = c.failed ? 1 : 0;
  free(c.slots);
  for (size_t i = 0; i < c.nwargv; i++)
    free(c.wargv[i]);
  free(c.wargv);
  cgofuzz_corpus_free(&c.corpus);
  cgofuzz_sched_free(&c.sched);
  for (size_t i = 0; i < c.n_jobs; i++)
    cgofuzz_mjob_free(&c.jobs[i]);
  for (size_t i = 0; i < c.n_fail_keys; i++)
    free(c.fail_keys[i]);
  free(c.fail_keys);
  free(c.mask);
  free(c.cache_dir);
  free(c.testdata_dir);
  free(c.crash_path);
  cgofuzz_buf_free(&c.line);
  cgofuzz_buf_free(&c.fail_msg);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  sigaction(SIGHUP, &old_hup, NULL);
  sigaction(SIGPIPE, &old_pipe, NULL);
  return rc;
}
