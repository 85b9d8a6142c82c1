/*
 * worker_exact.c: the worker's side of the exact-input slot
 * (csrc/core/exact.h, which defines the layout for both sides) and the
 * trace-cmp/dictionary bursts it makes possible.
 *
 * Go's coordinator rebuilds a worker's inputs by replaying Go's mutator, so
 * a mutation it cannot replay (from the comparison log or a dictionary) may
 * only run when the coordinator reads the slot instead: CGOFUZZ_EXACT_SLOT=1
 * in the environment says so (w->exact). Invariants kept here:
 *  - without exact mode nothing here runs: no slot writes, no draws from the
 *    private generator, no comparison recording;
 *  - the slot is cleared at the start of every fuzz call (by the serve
 *    loop) and before a non-replayable exec runs its input is published
 *    (raw form: one argument's bytes); if the exec passes uninteresting the
 *    slot is cleared again, so a valid slot at the end of a call (a reply,
 *    or the worker's death) always holds the input that ended it;
 *  - burst execs do not advance the shm count and draw from w->dr, never
 *    from Go's generator, so the Go chain around them replays exactly as
 *    without them; the raw form names that count and is relative to the
 *    chain's current values.
 * Bursts back off (one Go exec in 4, up to 1 in burst_max, is followed by
 * one) while they find nothing: recording comparisons costs up to 3.6x an
 * exec on comparison-heavy code, so targets whose comparisons teach nothing
 * should run at nearly full speed.
 * A burst's mutations come from the comparison log and the TORC of the
 * exec before (dict.c), the user's dictionary and the auto-dictionary: the
 * tokens comparison-guided mutations wrote into an input that then found
 * coverage. With the value profile on (-test.fuzzvalueprofile), inputs
 * that set a new feature without new coverage are kept in a local pool
 * and half the bursts start from one of them, mixing Go's byte mutations
 * (on a private mutator) with the comparison-guided ones: the coordinator
 * never sees those inputs unless one of their descendants finds coverage,
 * so Go's protocol is unchanged (docs/comparisons.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "exact.h"
#include "worker_internal.h"

/* The cap of the burst back-off (see cgofuzz_worker_.burst_period). */
#define CGOFUZZ_BURST_MAX_DEFAULT 256

/* Execs of a burst, and of one from a value-profile input (those climb by
 * small steps: random byte mutations, each kept when it gets closer). */
#define BURST 8
#define BURST_POOLED 16

/* Value-profile inputs kept, and the longest kept. */
#define VP_POOL 16
#define VP_INPUT_MAX ((size_t)1 << 20)

int cgofuzz_worker_exact_init_(cgofuzz_worker_ *w,
                               const cgofuzz_worker_opts_ *o) {
  const char *dict_path = o->dict;
  const char *ex = getenv(CGOFUZZ_EXACT_ENV);
  w->exact = ex && strcmp(ex, "1") == 0;
  if (dict_path && cgofuzz_dict_load_(&w->dict, dict_path) != 0)
    return -1;
  if (dict_path && !w->exact)
    fprintf(stderr, "cgofuzz worker: the coordinator does not read exact "
                    "inputs; -test.fuzzdict is ignored\n");
  /* Recording costs a few stores per comparison: only when it is used
   * (cgofuzz_worker_burst_due_ turns it on for the execs whose log a burst
   * reads). */
  w->cmp = w->exact && !getenv("CGOFUZZ_NO_TRACE_CMP");
  const char *vp = getenv("CGOFUZZ_VALUE_PROFILE");
  bool want_vp = o->value_profile || (vp && strcmp(vp, "1") == 0);
  if (want_vp && !w->exact)
    fprintf(stderr, "cgofuzz worker: the coordinator does not read exact "
                    "inputs; the value profile is ignored\n");
  w->vp = want_vp && w->exact;
  if (w->exact && !(w->autod = calloc(1, sizeof *w->autod))) {
    fprintf(stderr, "cgofuzz worker: out of memory\n");
    return -1;
  }
  if (w->vp && !(w->pool = calloc(VP_POOL, sizeof *w->pool))) {
    fprintf(stderr, "cgofuzz worker: out of memory\n");
    return -1;
  }
  w->burst_period = 4;
  /* CGOFUZZ_BURST_MAX (a power of two >= 4) overrides the back-off cap, for
   * benchmarks (bench/c/c_bench.py). */
  w->burst_max = CGOFUZZ_BURST_MAX_DEFAULT;
  const char *bm = getenv("CGOFUZZ_BURST_MAX");
  if (bm) {
    unsigned long v = strtoul(bm, NULL, 10);
    if (v >= 4 && v <= (1u << 20) && (v & (v - 1)) == 0)
      w->burst_max = (uint32_t)v;
  }
  return 0;
}

void cgofuzz_worker_exact_free_(cgofuzz_worker_ *w) {
  for (size_t i = 0; w->pool && i < VP_POOL; i++)
    free(w->pool[i].b);
  free(w->pool);
  free(w->autod);
  cgofuzz_mutator_free(&w->pm);
  free(w->dbuf);
  free(w->dv);
  cgofuzz_buf_free(&w->enc);
  cgofuzz_dict_free_(&w->dict);
}

/* ---- the slot ---- */

void cgofuzz_worker_slot_clear_(cgofuzz_worker_ *w) {
  cgofuzz_exact_clear(&w->shm);
}

bool cgofuzz_worker_slot_publish_(cgofuzz_worker_ *w, const cgofuzz_value *vals,
                                  size_t n) {
  size_t room;
  uint8_t *s = cgofuzz_exact_slot(&w->shm, CGOFUZZ_EXACT_HDR, &room);
  cgofuzz_err err;
  w->enc.len = 0;
  if (!s || cgofuzz_codec_encode(vals, n, &w->enc, &err) != 0)
    return false;
  if (w->enc.len > room)
    return false;
  cgofuzz_exact_hdr h = {.magic = CGOFUZZ_EXACT_MAGIC,
                         .count = cgofuzz_shm_hdr(&w->shm)->count,
                         .len = w->enc.len};
  cgofuzz_exact_publish(s, &h, w->enc.data);
  return true;
}

/* Publishes, in the slot's raw form, an input that equals the chain's
 * current values with argument k replaced by b[0..len): just a copy, no
 * encoding (this runs before every burst exec). */
static bool slot_publish_raw(cgofuzz_worker_ *w, size_t k, const uint8_t *b,
                             size_t len) {
  size_t room;
  uint8_t *s = cgofuzz_exact_slot(&w->shm, CGOFUZZ_EXACT_RAW_HDR, &room);
  if (!s || len > room)
    return false;
  cgofuzz_exact_hdr h = {.magic = CGOFUZZ_EXACT_RAW_MAGIC,
                         .count = cgofuzz_shm_hdr(&w->shm)->count,
                         .len = len,
                         .index = k};
  cgofuzz_exact_publish(s, &h, b);
  return true;
}

/* ---- value profile ---- */

static void pool_add(cgofuzz_worker_ *w, size_t k, const uint8_t *b,
                     size_t len) {
  if (len > VP_INPUT_MAX)
    return;
  struct cgofuzz_vp_input_ *e;
  if (w->pool_n < VP_POOL) {
    e = &w->pool[w->pool_n++];
  } else {
    e = &w->pool[w->pool_next];
    w->pool_next = (w->pool_next + 1) % VP_POOL;
  }
  if (e->cap < len || !e->b) {
    uint8_t *nb = realloc(e->b, len ? len : 1);
    if (!nb) {
      e->len = 0;
      return;
    }
    e->b = nb;
    e->cap = len ? len : 1;
  }
  if (len)
    memcpy(e->b, b, len);
  e->len = len;
  e->k = k;
  w->st_vp_inputs++;
}

/* One of vals's []byte/string arguments, uniformly; vals->n if none. */
static size_t pick_bytes(cgofuzz_worker_ *w, const cgofuzz_values *vals) {
  size_t k = vals->n, nb = 0;
  for (size_t i = 0; i < vals->n; i++)
    if ((vals->v[i].kind == CGOFUZZ_BYTES ||
         vals->v[i].kind == CGOFUZZ_STRING) &&
        cgofuzz_pcg_u32n(&w->dr, (uint32_t)++nb) == 0)
      k = i;
  return k;
}

void cgofuzz_worker_vp_keep_(cgofuzz_worker_ *w, const cgofuzz_values *vals) {
  size_t k = pick_bytes(w, vals);
  if (k < vals->n)
    pool_add(w, k, vals->v[k].s.data, vals->v[k].s.len);
}

/* ---- bursts ---- */

/* Up to BURST non-replayable execs derived from vals (the input that just ran,
 * whose comparison log is current) or, with the value profile, from a
 * kept input: each applies one mutation to one []byte/string value, on top
 * of the previous one, so a byte-by-byte check is solved one byte per
 * exec. Returns 1 (and fills resp) if one failed or found coverage, 2 if
 * it was only a new slowest unit (its input is in the slot). */
static int dict_burst(cgofuzz_worker_ *w, const cgofuzz_values *vals,
                      cgofuzz_fuzz_resp *resp) {
  const uint8_t *src = NULL;
  size_t k = vals->n, len = 0;
  bool pooled = false;
  if (w->pool_n && cgofuzz_pcg_bool(&w->dr)) {
    /* The newest kept input half the time: the closest yet, usually. */
    size_t newest = (w->pool_next + w->pool_n - 1) % w->pool_n;
    const struct cgofuzz_vp_input_ *e =
        &w->pool[cgofuzz_pcg_bool(&w->dr)
                     ? newest
                     : cgofuzz_pcg_u32n(&w->dr, (uint32_t)w->pool_n)];
    if (e->k < vals->n && e->b &&
        (vals->v[e->k].kind == CGOFUZZ_BYTES ||
         vals->v[e->k].kind == CGOFUZZ_STRING)) {
      k = e->k;
      src = e->b;
      len = e->len;
      pooled = true;
      w->st_pool_bursts++;
    }
  }
  if (!pooled) {
    k = pick_bytes(w, vals);
    if (k == vals->n)
      return 0;
    src = vals->v[k].s.data;
    len = vals->v[k].s.len;
  }
  if (w->dv_n < vals->n) {
    cgofuzz_value *nv = realloc(w->dv, vals->n * sizeof *nv);
    if (!nv)
      return 0;
    w->dv = nv;
    w->dv_n = vals->n;
  }
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
    memcpy(w->dbuf, src, len);
  w->dv[k].flags = 0;
  w->dv[k].s.data = w->dbuf;
  w->rec = (w->cmp ? CGOFUZZ_CMP_REC : 0) | (w->vp ? CGOFUZZ_CMP_VP : 0);
  /* The tokens comparison-guided mutations wrote, for the auto-dictionary
   * if the burst finds coverage. */
  cgofuzz_token_ toks[BURST_POOLED];
  size_t ntok = 0;
  for (int iter = 0; iter < (pooled ? BURST_POOLED : BURST); iter++) {
    cgofuzz_token_ *tk = &toks[ntok];
    tk->n = 0;
    bool done = false;
    if (!pooled || cgofuzz_pcg_bool(&w->dr))
      done = cgofuzz_cmp_mutate_(&w->dr, &w->dict, w->autod, w->dbuf, &len,
                                 w->dcap, tk);
    if (!done) { /* a kept input always gets one of Go's mutations */
      if (!pooled)
        return 0;
      tk->n = 0;
      cgofuzz_mutate_bytes(&w->pm, w->dbuf, &len, w->dcap);
    }
    if (tk->n)
      ntok++;
    w->dv[k].s.len = len;
    if (!slot_publish_raw(w, k, w->dbuf, len))
      return 0;
    int64_t dur;
    if (w->rec & CGOFUZZ_CMP_REC)
      cgofuzz_cmp_reset_();
    cgofuzz_vp_new_ = 0;
    w->st_burst_execs++;
    if (cgofuzz_worker_exec_(w, w->dv, &dur) == CGOFUZZ_RUN_FAIL) {
      resp->err = cgofuzz_worker_errmsg_(w);
      return 1;
    }
    resp->slow_unit_sec = cgofuzz_worker_slow_unit_(w, dur);
    if (w->mask && cgofuzz_cov_has_new_(w->snap, w->mask)) {
      w->st_burst_finds++;
      for (size_t i = 0; i < ntok; i++)
        cgofuzz_autodict_add_(w->autod, toks[i].b, toks[i].n);
      cgofuzz_worker_set_bytes_(&resp->coverage_data, w->snap, w->snap_len);
      resp->interesting_duration_ns = dur;
      return 1;
    }
    if (resp->slow_unit_sec)
      return 2;
    if (w->vp && cgofuzz_vp_new_)
      pool_add(w, k, w->dbuf, len);
    cgofuzz_worker_slot_clear_(w);
  }
  return 0;
}

int cgofuzz_worker_burst_(cgofuzz_worker_ *w, const cgofuzz_values *vals,
                          cgofuzz_fuzz_resp *resp) {
  int64_t kept = w->st_vp_inputs;
  int r = dict_burst(w, vals, resp);
  if (r == 1)
    w->burst_period = 4; /* it paid off: burst often again */
  if (r)
    return 1;
  /* New value-profile inputs are progress too, of a slower kind. */
  if (w->st_vp_inputs != kept)
    w->burst_period = 4;
  else if (w->burst_period < w->burst_max)
    w->burst_period *= 2;
  return 0;
}
