/*
 * worker_server.c: the -test.fuzzworker side of Go's fuzzing protocol.
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
 *    watchdog below exits the process with status 2 during the exec, which
 *    any coordinator records as a crasher with that exec's input.
 * Crashes need no handling: the process dies and the coordinator replays.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "exact.h"
#include "minimize.h"
#include "mutator.h"
#include "runtime.h"
#include "sha256.h"
#include "shm.h"
#include "wire.h"

typedef struct {
  cgofuzz_f *f;
  const char *name; /* the test's name in failure reports */
  cgofuzz_t t;
  cgofuzz_shm shm;
  cgofuzz_mutator m;
  uint8_t *mask; /* the coordinator's coverage mask, NULL until sent */
  size_t mask_len;
  uint8_t *snap; /* last exec's snapshot, snap_len bytes */
  size_t snap_len;
  cgofuzz_buf errmsg; /* the last failing exec's Go-style report */
  /* Exact mode (cgofuzz/exact.h): non-Go mutations are allowed. */
  bool exact;
  cgofuzz_pcg dr; /* private generator of those mutations */
  bool cmp;       /* trace-cmp recording allowed */
  /* One Go exec in burst_period (a power of two, 4..burst_max) is recorded
   * and followed by a burst: back-off while bursts find nothing, so targets
   * whose comparisons teach nothing run at full speed. */
  uint32_t burst_period, burst_max;
  cgofuzz_dict_ dict; /* -test.fuzzdict entries */
  uint8_t *dbuf;      /* the mutated bytes, dcap long */
  size_t dcap;
  cgofuzz_value *dv; /* vals with one value pointing at dbuf */
  size_t dv_n;
  cgofuzz_buf enc; /* the published input, reused */
  /* CGOFUZZ_WORKER_STATS=1: counts printed on exit, to see where time and
   * new-coverage events go (fuzz vs minimize, finds per call). */
  const char *stats; /* file rewritten at most every 0.5 s */
  int64_t st_last;
  int64_t st_fuzz_calls, st_fuzz_ns, st_finds, st_burst_execs, st_burst_finds;
  int64_t st_min_calls, st_min_ns, st_min_execs, st_execs;
} worker;

/* The cap of the burst back-off (see worker.burst_period). */
#define CGOFUZZ_BURST_MAX_DEFAULT 256

/* ---- watchdog: per-exec timeout and memory limit ----
 *
 * A thread polls every 50 ms. An exec running longer than the timeout
 * (-test.fuzztimeout, default 10 s as Go's "deadlocked!" panic) or a
 * resident set above the limit (-test.fuzzrsslimitmb, default 2048 as
 * libFuzzer's -rss_limit_mb, 0: none) ends the process with status 2 and a
 * line on stderr while the guilty exec is still the current one, so the
 * count (or the exact-input slot) in shared memory names its input and the
 * coordinator records it as a crasher. The hot loop pays one relaxed store
 * of the start time per exec. */

static atomic_llong exec_start; /* ns of the running exec's start, 0: idle */
static int64_t timeout_ns = 10LL * 1000000000;
static int64_t rss_limit = 2048LL << 20;

static int64_t rss_bytes(void) {
  /* statm's second field is resident pages; read with plain syscalls as
   * the target may hold malloc's locks. */
  static int fd = -1;
  char buf[128];
  if (fd < 0 && (fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)) < 0)
    return 0;
  ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
  if (k <= 0)
    return 0;
  buf[k] = 0;
  const char *p = strchr(buf, ' ');
  return p ? strtoll(p + 1, NULL, 10) * (int64_t)sysconf(_SC_PAGESIZE) : 0;
}

static void die(const char *msg) {
  /* write(2) only: stdio may be locked by the interrupted target. */
  ssize_t k = write(2, msg, strlen(msg));
  (void)k;
  _exit(2);
}

/* exit(0) inside the target would end the worker "successfully" in the
 * middle of a call; Go's worker runs with -test.paniconexit0 and panics
 * instead. Same here: status 2 and a message, so the input is a crasher
 * under any coordinator. (on_exit sees the status; atexit would not.) */
static void on_exit0(int status, void *arg) {
  (void)arg;
  if (status == 0 && atomic_load_explicit(&exec_start, memory_order_relaxed))
    die("panic: unexpected call to exit(0) during fuzzing\n");
}

static void *watchdog(void *arg) {
  (void)arg;
  struct timespec ts = {0, 50 * 1000000};
  for (;;) {
    nanosleep(&ts, NULL);
    int64_t st = atomic_load_explicit(&exec_start, memory_order_relaxed);
    if (st && timeout_ns > 0 && cgofuzz_mono_ns() - st > timeout_ns)
      die("cgofuzz: exec timed out (-test.fuzztimeout); the input is "
          "recorded as a crasher\n");
    if (rss_limit > 0 && rss_bytes() > rss_limit)
      die("cgofuzz: out of memory: resident set above -test.fuzzrsslimitmb; "
          "the input is recorded as a crasher\n");
  }
  return NULL;
}

/* ---- coverage bookkeeping ---- */

/* Makes the snapshot len bytes long (zeroed). */
static int snap_resize(worker *w, size_t len) {
  if (len == w->snap_len && w->snap)
    return 0;
  if (w->snap)
    cgofuzz_cov_snap_reset_(w->snap);
  free(w->snap);
  w->snap = calloc(len ? len : 1, 1);
  w->snap_len = w->snap ? len : 0;
  return w->snap ? 0 : -1;
}

/* One exec with coverage and timing; fills w->errmsg on failure. */
static cgofuzz_run run_one(worker *w, const cgofuzz_value *vals, int64_t *dur) {
  int64_t t0 = cgofuzz_mono_ns();
  w->st_execs++;
  atomic_store_explicit(&exec_start, t0, memory_order_relaxed);
  cgofuzz_run r = cgofuzz_target_exec_(w->f, &w->t, vals);
  *dur = cgofuzz_mono_ns() - t0;
  atomic_store_explicit(&exec_start, 0, memory_order_relaxed);
  cgofuzz_cov_snap_reset_(w->snap);
  cgofuzz_cov_collect_(w->snap, w->snap_len);
  if (r == CGOFUZZ_RUN_FAIL) {
    /* Go's Err is the failed test's captured report. */
    w->errmsg.len = 0;
    cgofuzz_buf_printf(&w->errmsg, "--- FAIL: %s (%.2fs)\n", w->name,
                       (double)*dur / 1e9);
    const uint8_t *p = w->t.log.data, *e = p + w->t.log.len;
    while (p < e) {
      const uint8_t *nl = memchr(p, '\n', (size_t)(e - p));
      size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);
      cgofuzz_buf_puts(&w->errmsg, "    ");
      cgofuzz_buf_append(&w->errmsg, p, n);
      p += n;
    }
    cgofuzz_buf_putc(&w->errmsg, 0);
    w->errmsg.len--;
  }
  return r;
}

static char *errmsg_dup(const worker *w) {
  return strndup(w->errmsg.len ? (char *)w->errmsg.data : "", w->errmsg.len);
}

static int set_bytes(cgofuzz_wire_bytes *b, const uint8_t *p, size_t n) {
  b->data = malloc(n ? n : 1);
  if (!b->data)
    return -1;
  memcpy(b->data, p, n);
  b->len = n;
  b->has = true;
  return 0;
}

/* Decodes the shm value and checks it against the target's kinds. */
static int load_values(worker *w, cgofuzz_values *vals, cgofuzz_err *err) {
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&w->shm);
  size_t len = (size_t)h->value_len;
  if (h->value_len < 0 || len > cgofuzz_shm_value_cap(&w->shm))
    return cgofuzz_errf(err, 0, "bad value length %lld in shared memory",
                        (long long)h->value_len);
  if (cgofuzz_codec_decode(cgofuzz_shm_value(&w->shm), len, vals, err) != 0)
    return -1;
  return cgofuzz_target_check_(w->f, vals, err);
}

/* ---- the exact-input slot (cgofuzz/exact.h) ---- */

static uint8_t *slot(worker *w) {
  uint64_t off = CGOFUZZ_EXACT_OFF(cgofuzz_shm_hdr(&w->shm)->value_len);
  if (off + CGOFUZZ_EXACT_HDR > cgofuzz_shm_value_cap(&w->shm))
    return NULL;
  return cgofuzz_shm_value(&w->shm) + off;
}

static void slot_clear(worker *w) {
  uint8_t *s = slot(w);
  if (s)
    memset(s, 0, 8);
}

/* Publishes vals; false if the slot has no room (then it stays clear). */
static bool slot_publish(worker *w, const cgofuzz_value *vals, size_t n) {
  uint8_t *s = slot(w);
  cgofuzz_err err;
  w->enc.len = 0;
  if (!s || cgofuzz_codec_encode(vals, n, &w->enc, &err) != 0)
    return false;
  size_t room = cgofuzz_shm_value_cap(&w->shm) -
                (size_t)(s - cgofuzz_shm_value(&w->shm)) - CGOFUZZ_EXACT_HDR;
  if (w->enc.len > room)
    return false;
  int64_t count = cgofuzz_shm_hdr(&w->shm)->count;
  uint64_t len = w->enc.len, magic = CGOFUZZ_EXACT_MAGIC;
  memset(s, 0, 8);
  memcpy(s + 8, &count, 8);
  memcpy(s + 16, &len, 8);
  memcpy(s + CGOFUZZ_EXACT_HDR, w->enc.data, w->enc.len);
  /* The magic last: a death mid-publication leaves the slot invalid. */
  __atomic_store_n((uint64_t *)(void *)s, magic, __ATOMIC_RELEASE);
  return true;
}

/* Publishes, in the slot's raw form, an input that equals the chain's
 * current values with argument k replaced by b[0..len): just a copy, no
 * encoding (this runs before every burst exec). */
static bool slot_publish_raw(worker *w, size_t k, const uint8_t *b,
                             size_t len) {
  uint8_t *s = slot(w);
  if (!s)
    return false;
  size_t room =
      cgofuzz_shm_value_cap(&w->shm) - (size_t)(s - cgofuzz_shm_value(&w->shm));
  if (room < CGOFUZZ_EXACT_RAW_HDR || len > room - CGOFUZZ_EXACT_RAW_HDR)
    return false;
  int64_t count = cgofuzz_shm_hdr(&w->shm)->count;
  uint64_t l = len, idx = k, magic = CGOFUZZ_EXACT_RAW_MAGIC;
  memset(s, 0, 8);
  memcpy(s + 8, &count, 8);
  memcpy(s + 16, &l, 8);
  memcpy(s + 24, &idx, 8);
  if (len)
    memcpy(s + CGOFUZZ_EXACT_RAW_HDR, b, len);
  __atomic_store_n((uint64_t *)(void *)s, magic, __ATOMIC_RELEASE);
  return true;
}

/* Up to 8 non-replayable execs derived from vals (the input that just ran,
 * whose comparison log is current): each applies one dictionary or
 * input-to-state mutation to one []byte/string value, on top of the
 * previous one, so a byte-by-byte check is solved one byte per exec.
 * Returns 1 (and fills resp) if one failed or found coverage. */
static int dict_burst(worker *w, const cgofuzz_values *vals,
                      cgofuzz_fuzz_resp *resp) {
  size_t k = vals->n, nb = 0;
  for (size_t i = 0; i < vals->n; i++)
    if ((vals->v[i].kind == CGOFUZZ_BYTES ||
         vals->v[i].kind == CGOFUZZ_STRING) &&
        cgofuzz_pcg_u32n(&w->dr, (uint32_t)++nb) == 0)
      k = i;
  if (k == vals->n)
    return 0;
  if (w->dv_n < vals->n) {
    cgofuzz_value *nv = realloc(w->dv, vals->n * sizeof *nv);
    if (!nv)
      return 0;
    w->dv = nv;
    w->dv_n = vals->n;
  }
  size_t len = vals->v[k].s.len;
  if (w->dcap < len + 4096) { /* grows rarely: only for a longer input */
    free(w->dbuf);
    w->dcap = (len + 4096) * 2;
    if (!(w->dbuf = malloc(w->dcap))) {
      w->dcap = 0;
      return 0;
    }
  }
  memcpy(w->dv, vals->v, vals->n * sizeof *w->dv);
  if (len)
    memcpy(w->dbuf, vals->v[k].s.data, len);
  w->dv[k].flags = 0;
  w->dv[k].s.data = w->dbuf;
  for (int iter = 0; iter < 8; iter++) {
    if (!cgofuzz_dict_mutate_(&w->dr, &w->dict, w->dbuf, &len, w->dcap))
      return 0;
    w->dv[k].s.len = len;
    if (!slot_publish_raw(w, k, w->dbuf, len))
      return 0;
    int64_t dur;
    cgofuzz_cmp_reset_();
    w->st_burst_execs++;
    if (run_one(w, w->dv, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = errmsg_dup(w);
      return 1;
    }
    if (w->mask && cgofuzz_cov_has_new_(w->snap, w->mask)) {
      w->st_burst_finds++;
      set_bytes(&resp->coverage_data, w->snap, w->snap_len);
      resp->interesting_duration_ns = dur;
      return 1;
    }
    slot_clear(w);
  }
  return 0;
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

static void do_fuzz(worker *w, const cgofuzz_fuzz_args *a,
                    cgofuzz_fuzz_resp *resp) {
  int64_t start = cgofuzz_mono_ns();
  cgofuzz_err err = {0};
  cgofuzz_values orig = {0}, vals = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&w->shm);

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
    slot_clear(w);
  if (cgofuzz_values_copy(&vals, &orig) != 0) {
    cgofuzz_errf(&err, 0, "out of memory");
    goto internal;
  }
  reset_values(&vals, &orig);

  int64_t dur;
  if (a->warmup) {
    h->count++;
    if (run_one(w, vals.v, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = errmsg_dup(w);
      goto out;
    }
    resp->interesting_duration_ns = dur;
    if (w->snap_len)
      set_bytes(&resp->coverage_data, w->snap, w->snap_len);
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
    /* One exec in burst_period (4 while bursts pay off, up to 256 while
     * they do not) is followed by a burst of comparison-guided ones, and
     * only those need the comparison log: recording costs up to 3.6x the
     * exec on comparison-heavy code (cJSON: 52 us unrecorded, 189 us
     * recorded), so it is on just for them (and during the burst). */
    bool burst =
        w->exact && (cgofuzz_pcg_u32(&w->dr) & (w->burst_period - 1)) == 0;
    cgofuzz_cmp_on_ = burst && w->cmp;
    if (cgofuzz_cmp_on_)
      cgofuzz_cmp_reset_();
    if (run_one(w, vals.v, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = errmsg_dup(w);
      if (w->exact)
        slot_publish(w, vals.v, vals.n);
      break;
    }
    if (w->mask && cgofuzz_cov_has_new_(w->snap, w->mask)) {
      set_bytes(&resp->coverage_data, w->snap, w->snap_len);
      resp->interesting_duration_ns = dur;
      if (w->exact)
        slot_publish(w, vals.v, vals.n);
      break;
    }
    if (burst) {
      if (dict_burst(w, &vals, resp)) {
        w->burst_period = 4; /* it paid off: burst often again */
        break;
      }
      if (w->burst_period < w->burst_max)
        w->burst_period *= 2;
    }
    cgofuzz_cmp_on_ = 0;
    if (a->limit > 0 && h->count >= a->limit)
      break;
  }
  goto out;

internal:
  resp->internal_err = strdup(err.msg);
out:
  cgofuzz_cmp_on_ = 0;        /* minimization and warm-up never use the log */
  reset_values(&vals, &orig); /* frees mutated strings; vals now borrow */
  free(vals.v);
  cgofuzz_values_free(&orig);
  resp->count = h->count;
  resp->total_duration_ns = cgofuzz_mono_ns() - start;
}

/* ---- Minimize ---- */

typedef struct {
  worker *w;
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
  worker *w = c->w;
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
  cgofuzz_run r = run_one(w, c->vals->v, &dur);
  *v = saved;
  if (r == CGOFUZZ_RUN_FAIL) {
    c->failed = true;
    c->keep = NULL; /* a crash matters more than the coverage */
    return true;
  }
  return c->keep && subset(c->keep, w->snap, c->keep_len);
}

static void do_minimize(worker *w, const cgofuzz_minimize_args *a,
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
  cgofuzz_run r = run_one(w, vals.v, &dur);
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
    resp->err = errmsg_dup(w);
  } else if (memcmp(in_hash, out_hash, 32) != 0) {
    set_bytes(&resp->coverage_data, w->snap, w->snap_len);
  } else {
    /* Unchanged input: the last snapshot belongs to a rejected candidate,
     * so hand back the coverage we were asked to keep. */
    set_bytes(&resp->coverage_data, a->keep_coverage.data,
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
static void write_stats(worker *w) {
  w->st_last = cgofuzz_mono_ns();
  FILE *f = fopen(w->stats, "w");
  if (!f)
    return;
  fprintf(f,
          "execs %lld; fuzz calls %lld %.2fs finds %lld; burst execs %lld "
          "finds %lld; minimize calls %lld %.2fs execs %lld; mask %zu "
          "counters %zu\n",
          (long long)w->st_execs, (long long)w->st_fuzz_calls,
          (double)w->st_fuzz_ns / 1e9, (long long)w->st_finds,
          (long long)w->st_burst_execs, (long long)w->st_burst_finds,
          (long long)w->st_min_calls, (double)w->st_min_ns / 1e9,
          (long long)w->st_min_execs, w->mask_len, cgofuzz_cov_ncounters_());
  fclose(f);
}

/* Reads one line (without '\n') into line; 1 on success, 0 at EOF. */
static int read_line(cgofuzz_buf *in, size_t *consumed, cgofuzz_buf *line) {
  for (;;) {
    uint8_t *nl = in->len > *consumed
                      ? memchr(in->data + *consumed, '\n', in->len - *consumed)
                      : NULL;
    if (nl) {
      line->len = 0;
      cgofuzz_buf_append(line, in->data + *consumed,
                         (size_t)(nl - (in->data + *consumed)));
      *consumed = (size_t)(nl - in->data) + 1;
      return 1;
    }
    if (*consumed) {
      memmove(in->data, in->data + *consumed, in->len - *consumed);
      in->len -= *consumed;
      *consumed = 0;
    }
    if (cgofuzz_buf_reserve(in, 4096) != 0)
      return -1;
    ssize_t k = read(CGOFUZZ_FUZZ_IN_FD, in->data + in->len, 4096);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return k == 0 && in->len == 0 ? 0 : -1;
    in->len += (size_t)k;
  }
}

static uint64_t godebug_seed(bool *ok) {
  const char *g = getenv("GODEBUG");
  *ok = false;
  for (const char *p = g; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n > 9 && strncmp(p, "fuzzseed=", 9) == 0) {
      *ok = true;
      return strtoull(p + 9, NULL, 10);
    }
    p = e ? e + 1 : NULL;
  }
  return 0;
}

int cgofuzz_serve_worker_(cgofuzz_f *f, const cgofuzz_worker_opts_ *o) {
  worker w = {.f = f, .name = o->name ? o->name : f->name};
  const char *dict_path = o->dict;
  if (o->timeout_ns >= 0)
    timeout_ns = o->timeout_ns;
  if (o->rss_limit_mb >= 0)
    rss_limit = o->rss_limit_mb << 20;
  const char *ex = getenv(CGOFUZZ_EXACT_ENV);
  w.exact = ex && strcmp(ex, "1") == 0;
  w.stats = getenv("CGOFUZZ_WORKER_STATS");
  if (dict_path && cgofuzz_dict_load_(&w.dict, dict_path) != 0)
    return 2;
  if (dict_path && !w.exact)
    fprintf(stderr, "cgofuzz worker: the coordinator does not read exact "
                    "inputs; -test.fuzzdict is ignored\n");
  /* Recording costs a few stores per comparison: only when it is used
   * (do_fuzz turns it on for the execs whose log a burst reads). */
  w.cmp = w.exact && !getenv("CGOFUZZ_NO_TRACE_CMP");
  w.burst_period = 4;
  /* CGOFUZZ_BURST_MAX (a power of two >= 4) overrides the back-off cap, for
   * benchmarks (bench/c_bench.py). */
  w.burst_max = CGOFUZZ_BURST_MAX_DEFAULT;
  const char *bm = getenv("CGOFUZZ_BURST_MAX");
  if (bm) {
    unsigned long v = strtoul(bm, NULL, 10);
    if (v >= 4 && v <= (1u << 20) && (v & (v - 1)) == 0)
      w.burst_max = (uint32_t)v;
  }
  cgofuzz_cmp_on_ = 0;
  cgofuzz_err err;
  if (cgofuzz_shm_map_fd(&w.shm, CGOFUZZ_SHM_FD, &err) != 0) {
    fprintf(stderr, "cgofuzz worker: %s\n", err.msg);
    return 1;
  }
  /* Seeded as Go seeds a worker's first generator: time (or
   * GODEBUG=fuzzseed), stream 1. */
  bool seeded;
  uint64_t seed = godebug_seed(&seeded);
  if (!seeded) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  }
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, seed, 1);
  cgofuzz_mutator_init(&w.m, r.state, r.inc);
  cgofuzz_pcg_seed(&w.dr, seed, 2); /* another stream than Go's */
  if (cgofuzz_cov_ncounters_() == 0)
    fprintf(stderr, "warning: the test binary was not built with coverage "
                    "instrumentation, so fuzzing will run without coverage "
                    "guidance and may be inefficient\n");
  snap_resize(&w, o->wait_for_mask ? 0 : cgofuzz_cov_ncounters_());
  cgofuzz_cov_clear_();
  on_exit(on_exit0, NULL);
  pthread_t th;
  if (pthread_create(&th, NULL, watchdog, NULL) == 0)
    pthread_detach(th);

  cgofuzz_buf in = {0}, line = {0}, out = {0};
  size_t consumed = 0;
  int status = 0;
  for (;;) {
    int got = read_line(&in, &consumed, &line);
    if (got == 0)
      break;
    cgofuzz_call call;
    if (got < 0 ||
        cgofuzz_wire_decode_call(line.data, line.len, &call, &err) != 0 ||
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
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&line);
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&w.errmsg);
  cgofuzz_buf_free(&w.t.log);
  cgofuzz_mutator_free(&w.m);
  free(w.mask);
  free(w.snap);
  free(w.dbuf);
  free(w.dv);
  cgofuzz_buf_free(&w.enc);
  cgofuzz_dict_free_(&w.dict);
  cgofuzz_shm_close(&w.shm);
  return status;
}
