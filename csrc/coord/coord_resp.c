/*
 * coord_resp.c: what the coordinator does with a worker's fuzz reply or
 * its death mid-call (split from coord_loop.c, which sends the calls).
 *
 *  - a reply of new coverage or Err names no input: the input is the exact
 *    one a C worker left in the slot (coord_exact.c), else it is rebuilt by
 *    replaying ((count-1)%5)+1 mutations from the PCG state the worker left
 *    in shm, starting from the input that was sent;
 *  - the mask grows as soon as new coverage is seen, even while the input
 *    is still being minimized, so other workers do not report it again;
 *  - a worker that dies mid-call is classified from its wait status: crash
 *    signals and exit statuses make a crasher, other signals do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "codec.h"
#include "coord_internal.h"
#include "coord_worker.h"
#include "mutator.h"

/* Rebuilds the input a worker ran: the exact input a C worker left in the
 * slot, else the value sent (the entry's, or a dictionary call's own),
 * mutated as the worker did from the PCG state it saved in shm (none for a
 * warm-up call or a dictionary call's exact run). */
static int rebuild(coord *c, slot *s, int64_t count, cgofuzz_buf *out) {
  int ex = cgofuzz_coord_exact_input(c, s, out);
  if (ex != 0) {
    if (ex < 0)
      cgofuzz_coord_failf(c, "%s", "out of memory");
    return ex > 0 ? 0 : -1;
  }
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  const uint8_t *base = s->dict ? s->sent.data : e->data;
  size_t base_len = s->dict ? s->sent.len : e->len;
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, h->rand_state, h->rand_inc);
  int rc = -1;
  if (cgofuzz_codec_decode(base, base_len, &vals, &err) != 0)
    goto done;
  if (!s->warmup) {
    int64_t k = ((count - 1) % CGOFUZZ_CHAINED_MUTATIONS) + 1;
    for (int64_t i = 0; i < k; i++)
      if (cgofuzz_mutate(&m, vals.v, vals.n, cgofuzz_shm_value_cap(&s->w.mem),
                         &err) != 0)
        goto done;
  }
  /* A raw slot: the replayed values with one argument replaced. */
  size_t idx, rlen;
  const uint8_t *raw;
  if (cgofuzz_coord_exact_raw(c, s, &idx, &raw, &rlen) == 1 && idx < vals.n) {
    cgofuzz_value v = vals.v[idx];
    v.flags = 0;
    v.s.data = (uint8_t *)raw;
    v.s.len = rlen;
    if (cgofuzz_value_own(&v) != 0) {
      snprintf(err.msg, sizeof err.msg, "out of memory");
      goto done;
    }
    cgofuzz_value_release(&vals.v[idx]);
    vals.v[idx] = v;
  }
  out->len = 0;
  if (cgofuzz_codec_encode(vals.v, vals.n, out, &err) != 0)
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
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (s->warmup && !s->dict && e->is_seed && !ob) {
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
  if (s->dict && c->cfg->verbose && !ob)
    fprintf(stderr,
            "cgofuzz: the failing input came from a dictionary call "
            "(%s)\n",
            s->dict == DICT_CALL_EXACT ? "an exact run"
                                       : "Go's mutations of a built input");
  cgofuzz_buf_append(&text, msg, msg_len);
  /* A front end gets crashers as found (libFuzzer minimizes on request). */
  if (minimizable && !ob && cgofuzz_coord_can_minimize(c) &&
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
  const cgofuzz_coord_observer *ob = c->cfg->observer;
  if (ob) {
    cgofuzz_coord_stats st;
    cgofuzz_coord_stats_get(c, &st);
    if (ob->inited)
      ob->inited(ob->ctx, &st);
    return;
  }
  cgofuzz_buf b = {0};
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
  cgofuzz_sched_found(&c->sched, s->entry, cgofuzz_mono_ms());
  if (!cgofuzz_coord_can_minimize(c) ||
      cgofuzz_mjob_queue(c, false, &data, NULL, keep, cov->data) != 0)
    cgofuzz_coord_add_interesting(c, &data, cov->data);
done:
  free(keep);
  cgofuzz_buf_free(&data);
}

void cgofuzz_coord_on_reply(coord *c, slot *s, const uint8_t *l, size_t n) {
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
  const uint8_t *sent = s->dict ? s->sent.data : e->data;
  size_t sent_len = s->dict ? s->sent.len : e->len;
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
    bool cov = r.coverage_data.has && c->mask_len &&
               r.coverage_data.len == c->mask_len;
    if (!s->warmup || s->dict) /* the dictionary's share follows finds */
      cgofuzz_dict_done(
          c, s, count,
          r.err || (cov && cgofuzz_cov_new_bits(c->mask, r.coverage_data.data,
                                                c->mask_len)));
    if (r.err) {
      crash(c, s, count, r.err, r.err_len, true);
    } else if (s->warmup && !s->dict) {
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
  if (cgofuzz_coord_interrupted())
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
  if (!s->warmup || s->dict)
    cgofuzz_dict_done(c, s, count, true);
  char msg[256];
  snprintf(msg, sizeof msg,
           "fuzzing process hung or terminated unexpectedly: %s", sts);
  c->death_status = st;
  crash(c, s, count, msg, strlen(msg), false);
  c->death_status = -1;
}
