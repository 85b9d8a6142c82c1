/*
 * worker.c: the -test.fuzzworker side of Go's fuzzing protocol, the serve
 * loop: it reads calls from the coordinator, runs the fuzz and minimize
 * handlers and writes the replies. One exec is worker_exec.c's, the
 * exact-input slot and the bursts are in worker_exact.c, the per-exec
 * timeout and RSS limit in worker_watchdog.c (see worker_internal.h).
 *
 * Invariants a Go coordinator relies on (docs/go-coordinator.md §1-§3):
 *  - one JSON call per line on fd 3, one response per line on fd 4, strictly
 *    alternating; EOF on fd 3 means "exit 0";
 *  - the shm value (an encoded corpus file) is never written by a Fuzz
 *    call: the coordinator compares it afterwards and rebuilds our inputs by
 *    replaying Go's mutator from (randState, randInc), which is saved before
 *    every chain of 5 mutations, and from count, incremented before every
 *    exec. So the mutator here is Go's, its generator persists across calls
 *    like Go's, and values are reset from the originals exactly when
 *    count % 5 == 0;
 *  - snapshots have the size of the coordinator's mask (see coverage.c);
 *  - a hang or a runaway allocation is the worker's business: the
 *    watchdog (worker_watchdog.c) exits the process with status 2 during
 *    the exec, which any coordinator records as a crasher with that exec's
 *    input.
 * Crashes need no handling: the process dies and the coordinator replays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "exact.h"
#include "file.h"
#include "godebug.h"
#include "lines.h"
#include "minimize.h"
#include "sha256.h"
#include "worker_internal.h"

/* ---- coverage bookkeeping ---- */

/* Makes the snapshot len bytes long (zeroed). */
static int snap_resize(cgofuzz_worker_ *w, size_t len) {
  if (len == w->snap_len && w->snap)
    return 0;
  if (w->snap)
    cgofuzz_cov_snap_reset_(w->snap);
  free(w->snap);
  w->snap = calloc(len ? len : 1, 1);
  w->snap_len = w->snap ? len : 0;
  return w->snap ? 0 : -1;
}

/* Decodes the shm value and checks it against the target's kinds. */
static int load_values(cgofuzz_worker_ *w, cgofuzz_values *vals,
                       cgofuzz_err *err) {
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&w->shm);
  size_t len = (size_t)h->value_len;
  if (h->value_len < 0 || len > cgofuzz_shm_value_cap(&w->shm))
    return cgofuzz_errf(err, 0, "bad value length %lld in shared memory",
                        (long long)h->value_len);
  if (cgofuzz_codec_decode(cgofuzz_shm_value(&w->shm), len, vals, err) != 0)
    return -1;
  return cgofuzz_target_check_(w->f, vals, err);
}

/* ---- Fuzz ---- */

/* Points vals at the originals' bytes (borrowed), freeing what mutation
 * allocated; see the ownership contract in mutator.h. */
static void reset_values(cgofuzz_values *vals, const cgofuzz_values *orig) {
  for (size_t i = 0; i < vals->n; i++) {
    cgofuzz_value_release(&vals->v[i]);
    vals->v[i] = orig->v[i];
    vals->v[i].flags &= (uint8_t)~CGOFUZZ_VAL_OWNED;
  }
}

static void do_fuzz(cgofuzz_worker_ *w, const cgofuzz_fuzz_args *a,
                    cgofuzz_fuzz_resp *resp) {
  int64_t start = cgofuzz_mono_ns();
  cgofuzz_err err = {0};
  cgofuzz_values orig = {0}, vals = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&w->shm);
  w->rec = 0; /* the warm-up exec records nothing */
  w->warmup = a->warmup;

  if (a->coverage_data.has) {
    if (w->mask && a->coverage_data.len != w->mask_len) {
      cgofuzz_errf(&err, 0,
                   "unexpected size for CoverageData: got %zu, expected %zu",
                   a->coverage_data.len, w->mask_len);
      goto internal;
    }
    free(w->mask);
    w->mask = malloc(a->coverage_data.len ? a->coverage_data.len : 1);
    if (!w->mask || snap_resize(w, a->coverage_data.len) != 0) {
      cgofuzz_errf(&err, 0, "out of memory");
      goto internal;
    }
    memcpy(w->mask, a->coverage_data.data, a->coverage_data.len);
    w->mask_len = a->coverage_data.len;
  }
  h->rand_state = w->m.r.state;
  h->rand_inc = w->m.r.inc;
  if (a->limit > 0 && h->count >= a->limit) {
    cgofuzz_errf(&err, 0,
                 "mem.header().count %lld already exceeds args.Limit %lld",
                 (long long)h->count, (long long)a->limit);
    goto internal;
  }
  if (load_values(w, &orig, &err) != 0)
    goto internal;
  if (w->exact)
    cgofuzz_worker_slot_clear_(w);
  if (cgofuzz_values_copy(&vals, &orig) != 0) {
    cgofuzz_errf(&err, 0, "out of memory");
    goto internal;
  }
  reset_values(&vals, &orig);

  int64_t dur;
  if (a->warmup) {
    h->count++;
    if (cgofuzz_worker_exec_(w, vals.v, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = cgofuzz_worker_errmsg_(w);
      goto out;
    }
    resp->interesting_duration_ns = dur;
    resp->slow_unit_sec = cgofuzz_worker_slow_unit_(w, dur); /* the one sent */
    if (w->snap_len)
      cgofuzz_worker_set_bytes_(&resp->coverage_data, w->snap, w->snap_len);
    goto out;
  }

  int64_t deadline = a->timeout_ns ? start + a->timeout_ns : INT64_MAX;
  size_t cap = cgofuzz_shm_value_cap(&w->shm);
  for (;;) {
    if (cgofuzz_mono_ns() >= deadline)
      break;
    if (h->count % CGOFUZZ_CHAINED_MUTATIONS == 0) {
      reset_values(&vals, &orig);
      h->rand_state = w->m.r.state;
      h->rand_inc = w->m.r.inc;
    }
    if (cgofuzz_mutate(&w->m, vals.v, vals.n, cap, &err) != 0)
      goto internal;
    h->count++;
    /* In exact mode some execs record comparisons for a burst to follow
     * (worker_exact.c); under Go's coordinator none. */
    bool burst = cgofuzz_worker_burst_due_(w);
    if (cgofuzz_worker_exec_(w, vals.v, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = cgofuzz_worker_errmsg_(w);
      if (w->exact)
        cgofuzz_worker_slot_publish_(w, vals.v, vals.n);
      break;
    }
    /* A new slowest unit ends the call as new coverage does: the
     * coordinator reads it from the slot (the libFuzzer front end writes
     * it as a slow-unit- file). */
    bool cov = w->mask && cgofuzz_cov_has_new_(w->snap, w->mask);
    resp->slow_unit_sec = w->exact ? cgofuzz_worker_slow_unit_(w, dur) : 0;
    if (cov) {
      cgofuzz_worker_set_bytes_(&resp->coverage_data, w->snap, w->snap_len);
      resp->interesting_duration_ns = dur;
    }
    if (cov || resp->slow_unit_sec) {
      if (w->exact)
        cgofuzz_worker_slot_publish_(w, vals.v, vals.n);
      break;
    }
    if (w->vp && cgofuzz_vp_new_)
      cgofuzz_worker_vp_keep_(w, &vals);
    if (burst && cgofuzz_worker_burst_(w, &vals, resp))
      break;
    if (a->limit > 0 && h->count >= a->limit)
      break;
  }
  goto out;

internal:
  resp->internal_err = strdup(err.msg);
out:
  w->rec = 0;                 /* minimization and warm-up record nothing */
  reset_values(&vals, &orig); /* frees mutated strings; vals now borrow */
  free(vals.v);
  cgofuzz_values_free(&orig);
  resp->count = h->count;
  resp->total_duration_ns = cgofuzz_mono_ns() - start;
}

/* ---- Minimize ---- */

typedef struct {
  cgofuzz_worker_ *w;
  cgofuzz_values *vals;
  size_t index;
  const uint8_t *keep; /* NULL once a crash was found */
  size_t keep_len;
  bool failed; /* some exec failed; w->errmsg has its report */
  int64_t deadline, limit;
  int64_t budget; /* candidate execs left, -1: unbounded (Go's rule) */
} min_ctx;

static bool min_stop(void *p) {
  min_ctx *c = p;
  return c->budget == 0 || cgofuzz_mono_ns() >= c->deadline ||
         (c->limit > 0 && cgofuzz_shm_hdr(&c->w->shm)->count >= c->limit);
}

static bool subset(const uint8_t *base, const uint8_t *snap, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((base[i] & snap[i]) != base[i])
      return false;
  return true;
}

static bool min_try(void *p, const uint8_t *cand, size_t len) {
  min_ctx *c = p;
  cgofuzz_worker_ *w = c->w;
  if (c->budget > 0)
    c->budget--;
  cgofuzz_value *v = &c->vals->v[c->index];
  cgofuzz_value saved = *v;
  v->s.data = (uint8_t *)cand;
  v->s.len = len;
  v->flags = 0;
  /* Raw bytes in shm let the coordinator keep the best candidate so far if
   * this exec kills us. */
  cgofuzz_shm_set_value(&w->shm, cand, len, NULL);
  cgofuzz_shm_hdr(&w->shm)->count++;
  int64_t dur;
  cgofuzz_run r = cgofuzz_worker_exec_(w, c->vals->v, &dur);
  *v = saved;
  if (r == CGOFUZZ_RUN_FAIL) {
    c->failed = true;
    c->keep = NULL; /* a crash matters more than the coverage */
    return true;
  }
  return c->keep && subset(c->keep, w->snap, c->keep_len);
}

static void do_minimize(cgofuzz_worker_ *w, const cgofuzz_minimize_args *a,
                        cgofuzz_minimize_resp *resp) {
  int64_t start = cgofuzz_mono_ns();
  cgofuzz_values vals = {0};
  cgofuzz_err err;
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&w->shm);
  uint8_t in_hash[32], out_hash[32];
  uint8_t *v = NULL;
  min_ctx c = {.w = w, .vals = &vals, .limit = a->limit, .budget = -1};
  c.deadline = a->timeout_ns ? start + a->timeout_ns : INT64_MAX;

  if (load_values(w, &vals, &err) != 0) {
    /* Go's worker panics here; exiting lets the coordinator report it. */
    _exit(2);
  }
  cgofuzz_sha256(cgofuzz_shm_value(&w->shm), (size_t)h->value_len, in_hash);
  if (a->index < 0 || (size_t)a->index >= vals.n ||
      (vals.v[a->index].kind != CGOFUZZ_BYTES &&
       vals.v[a->index].kind != CGOFUZZ_STRING))
    _exit(2);
  c.index = (size_t)a->index;
  /* An interesting input under a cgofuzz coordinator (exact mode): Go's
   * minimizer is quadratic in the length (its range-removal pass), and on a
   * single worker every minimizing exec is a fuzzing exec lost: with the
   * coordinator's 2 s cap it took 60-90 % of the worker's time on libpng,
   * zlib and cJSON (8-10 s runs), and the inputs it cuts down to the bytes
   * the new bits need make poorer parents than whole ones. 64 candidates
   * keep the cheap win (the tail cut drops what the mutator appended) at
   * under 5 % of the time. Under Go's coordinator the rule stays Go's. */
  if (w->exact && a->keep_coverage.has)
    c.budget = 64;
  if (a->keep_coverage.has) {
    c.keep = a->keep_coverage.data;
    c.keep_len = a->keep_coverage.len;
    if (snap_resize(w, c.keep_len) != 0)
      goto out;
  }
  if (min_stop(&c))
    goto out;

  /* Is the input still interesting? If not, it was a flake: give up. */
  h->count++;
  int64_t dur;
  cgofuzz_run r = cgofuzz_worker_exec_(w, vals.v, &dur);
  if (c.keep) {
    bool any = false;
    for (size_t i = 0; i < c.keep_len && !any; i++)
      any = (c.keep[i] & w->snap[i]) != 0;
    if (!any || r == CGOFUZZ_RUN_FAIL)
      goto out;
  } else if (r != CGOFUZZ_RUN_FAIL) {
    goto out;
  }
  c.failed = r == CGOFUZZ_RUN_FAIL;
  h->raw_in_mem = 1;

  cgofuzz_value *mv = &vals.v[c.index];
  size_t len = mv->s.len;
  v = malloc(len ? len : 1);
  if (!v)
    goto out;
  if (len)
    memcpy(v, mv->s.data, len);
  size_t n = cgofuzz_minimize_bytes(v, len, min_try, min_stop, &c);
  if (n == (size_t)-1)
    goto out;
  cgofuzz_value_release(mv);
  mv->s.data = v;
  mv->s.len = n;
  mv->flags = CGOFUZZ_VAL_OWNED;
  v = NULL;

  cgofuzz_buf enc = {0};
  if (cgofuzz_codec_encode(vals.v, vals.n, &enc, &err) != 0 ||
      cgofuzz_shm_set_value(&w->shm, enc.data, enc.len, &err) != 0) {
    cgofuzz_buf_free(&enc);
    goto out;
  }
  cgofuzz_sha256(enc.data, enc.len, out_hash);
  cgofuzz_buf_free(&enc);
  h->raw_in_mem = 0;
  resp->wrote_to_mem = true;
  if (c.failed) {
    resp->err = cgofuzz_worker_errmsg_(w);
  } else if (memcmp(in_hash, out_hash, 32) != 0) {
    cgofuzz_worker_set_bytes_(&resp->coverage_data, w->snap, w->snap_len);
  } else {
    /* Unchanged input: the last snapshot belongs to a rejected candidate,
     * so hand back the coverage we were asked to keep. */
    cgofuzz_worker_set_bytes_(&resp->coverage_data, a->keep_coverage.data,
                              a->keep_coverage.len);
  }
out:
  free(v);
  cgofuzz_values_free(&vals);
  resp->duration_ns = cgofuzz_mono_ns() - start;
}

/* ---- the call loop ---- */

/* The worker is usually killed rather than told to exit, so the counts
 * are rewritten as they go. Diagnostics only (CGOFUZZ_WORKER_STATS=path). */
static void write_stats(cgofuzz_worker_ *w) {
  w->st_last = cgofuzz_mono_ns();
  char line[1024];
  int n = snprintf(
      line, sizeof line,
      "execs %lld; fuzz calls %lld %.2fs finds %lld; burst execs %lld "
      "finds %lld; minimize calls %lld %.2fs execs %lld; mask %zu "
      "counters %zu; torc %llu; autodict %zu; vp inputs %lld "
      "bursts %lld\n",
      (long long)w->st_execs, (long long)w->st_fuzz_calls,
      (double)w->st_fuzz_ns / 1e9, (long long)w->st_finds,
      (long long)w->st_burst_execs, (long long)w->st_burst_finds,
      (long long)w->st_min_calls, (double)w->st_min_ns / 1e9,
      (long long)w->st_min_execs, w->mask_len, cgofuzz_cov_ncounters_(),
      (unsigned long long)cgofuzz_torc_table_.nrec, w->autod ? w->autod->n : 0,
      (long long)w->st_vp_inputs, (long long)w->st_pool_bursts);
  /* Replaced whole: a reader never sees it empty or cut. */
  if (n > 0 && (size_t)n < sizeof line)
    cgofuzz_file_write_atomic(w->stats, line, (size_t)n, 0666,
                              CGOFUZZ_FILE_KEEP_MODE, NULL);
}

int cgofuzz_serve_worker_(cgofuzz_f *f, const cgofuzz_worker_opts_ *o) {
  cgofuzz_worker_ w = {.f = f, .name = o->name ? o->name : f->name};
  const char *lf = getenv(CGOFUZZ_LF_ENV), *slow = getenv(CGOFUZZ_LF_SLOW_ENV);
  w.slow_units = lf && strcmp(lf, "1") == 0 && slow ? atoll(slow) : -1;
  w.stats = getenv("CGOFUZZ_WORKER_STATS");
  if (cgofuzz_worker_exact_init_(&w, o) != 0)
    return 2;
  cgofuzz_cmp_on_ = 0;
  cgofuzz_err err;
  if (cgofuzz_shm_map_fd(&w.shm, CGOFUZZ_SHM_FD, &err) != 0) {
    fprintf(stderr, "cgofuzz worker: %s\n", err.msg);
    return 1;
  }
  /* Seeded as Go seeds a worker's first generator: time (or
   * GODEBUG=fuzzseed), stream 1. */
  uint64_t seed;
  if (!cgofuzz_godebug_fuzzseed(getenv("GODEBUG"), &seed)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, seed, 1);
  cgofuzz_mutator_init(&w.m, r.state, r.inc);
  cgofuzz_pcg_seed(&w.dr, seed, 2); /* another stream than Go's */
  cgofuzz_pcg pr;
  cgofuzz_pcg_seed(&pr, seed, 3); /* value-profile bursts' byte mutations */
  cgofuzz_mutator_init(&w.pm, pr.state, pr.inc);
  if (cgofuzz_cov_ncounters_() == 0)
    fprintf(stderr, "warning: the test binary was not built with coverage "
                    "instrumentation, so fuzzing will run without coverage "
                    "guidance and may be inefficient\n");
  snap_resize(&w, o->wait_for_mask ? 0 : cgofuzz_cov_ncounters_());
  cgofuzz_cov_clear_();
  cgofuzz_watchdog_start_(o);
  cgofuzz_leak_init_(o->detect_leaks);

  /* Calls are read blocking, with the reader the coordinator uses too
   * (lines.h): EOF between calls means the coordinator is done (exit 0),
   * EOF in the middle of a line is an error, as in Go's serve. */
  cgofuzz_lines in = {0};
  cgofuzz_buf out = {0};
  int status = 0;
  for (;;) {
    const uint8_t *line;
    size_t line_len;
    int got = cgofuzz_lines_read(&in, CGOFUZZ_FUZZ_IN_FD, &line, &line_len);
    if (got == 0)
      break;
    cgofuzz_call call;
    if (got < 0 || cgofuzz_wire_decode_call(line, line_len, &call, &err) != 0 ||
        call.kind == CGOFUZZ_CALL_NONE) {
      status = 1; /* Go's serve returns an error: the worker fails */
      break;
    }
    out.len = 0;
    int64_t t0 = cgofuzz_mono_ns(), e0 = w.st_execs;
    if (call.kind == CGOFUZZ_CALL_PING) {
      cgofuzz_wire_encode_ping_resp(&out);
    } else if (call.kind == CGOFUZZ_CALL_FUZZ) {
      cgofuzz_fuzz_resp resp = {0};
      do_fuzz(&w, &call.fuzz, &resp);
      w.st_fuzz_calls++;
      w.st_fuzz_ns += cgofuzz_mono_ns() - t0;
      w.st_finds += resp.coverage_data.has && !call.fuzz.warmup;
      cgofuzz_wire_encode_fuzz_resp(&resp, &out);
      cgofuzz_fuzz_resp_free(&resp);
    } else {
      cgofuzz_minimize_resp resp = {0};
      do_minimize(&w, &call.minimize, &resp);
      w.st_min_calls++;
      w.st_min_ns += cgofuzz_mono_ns() - t0;
      w.st_min_execs += w.st_execs - e0;
      cgofuzz_wire_encode_minimize_resp(&resp, &out);
      cgofuzz_minimize_resp_free(&resp);
    }
    cgofuzz_call_free(&call);
    if (w.stats && cgofuzz_mono_ns() - w.st_last > 500000000)
      write_stats(&w);
    if (cgofuzz_write_all(CGOFUZZ_FUZZ_OUT_FD, out.data, out.len) != 0) {
      status = 1;
      break;
    }
  }
  if (w.stats) /* the last counts, when the coordinator lets us exit */
    write_stats(&w);
  cgofuzz_lines_free(&in);
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&w.errmsg);
  cgofuzz_buf_free(&w.t.log);
  cgofuzz_mutator_free(&w.m);
  free(w.mask);
  free(w.snap);
  cgofuzz_worker_exact_free_(&w);
  cgofuzz_shm_close(&w.shm);
  return status;
}
