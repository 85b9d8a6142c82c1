/*
 * mutator.c: Go's mutator.mutate: pick one value, mutate it by its type.
 *
 * Invariants that replays depend on:
 *  - draws happen in Go's order: the value index first, then the type's
 *    own draws (see mutator_bytes.c for []byte and string);
 *  - integer results are converted back to the value's width the way Go
 *    converts, float32 results are float64 arithmetic rounded once;
 *  - []byte and string values are mutated inside the shared scratch buffer
 *    whose capacity is Go's: max_bytes/n - 100 when first needed (or when a
 *    larger one is needed), and unchanged otherwise. A mutated []byte value
 *    keeps pointing into the scratch (borrowed, not OWNED), so later
 *    mutations in the same chain change its bytes exactly as in Go.
 *
 * Scratch buffers are never freed or moved while the mutator lives: when a
 * bigger one is needed the old one is chained behind the new one (Go's old
 * backing array likewise lives on in the values that reference it) and all
 * are freed by cgofuzz_mutator_free.
 *
 * Ownership: a BYTES or STRING value flagged OWNED owns its bytes, which
 * this module frees (BYTES, once copied into the scratch) or reallocates
 * (STRING, to hold the result). Borrowed bytes are never freed here.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

/* Header placed before each scratch buffer, linking to the previous one.
 * The union keeps the buffer maximally aligned. */
typedef union scratch_hdr {
  void *prev; /* previous header, or NULL */
  max_align_t align;
} scratch_hdr;

static inline scratch_hdr *hdr_of(uint8_t *scratch) {
  return (scratch_hdr *)(void *)scratch - 1;
}

void cgofuzz_mutator_init(cgofuzz_mutator *m, uint64_t state, uint64_t inc) {
  cgofuzz_pcg_restore(&m->r, state, inc);
  m->scratch = NULL;
  m->scratch_cap = 0;
}

void cgofuzz_mutator_free(cgofuzz_mutator *m) {
  scratch_hdr *h = m->scratch ? hdr_of(m->scratch) : NULL;
  while (h) {
    scratch_hdr *prev = h->prev;
    free(h);
    h = prev;
  }
  m->scratch = NULL;
  m->scratch_cap = 0;
}

/* Go: if cap(scratch) < maxPerVal, a new scratch of exactly maxPerVal.
 * Plain malloc: a 100 MiB buffer is then mapped lazily and never touched
 * beyond what mutations write (no mutator reads a byte it did not write
 * first, so the contents need no clearing). */
static int ensure_scratch(cgofuzz_mutator *m, int64_t max_per_val) {
  if ((int64_t)m->scratch_cap >= max_per_val)
    return 0;
  size_t cap = (size_t)max_per_val;
  if (cap > SIZE_MAX - sizeof(scratch_hdr))
    return -1;
  scratch_hdr *h = malloc(sizeof *h + cap);
  if (!h)
    return -1;
  h->prev = m->scratch ? (void *)hdr_of(m->scratch) : NULL;
  m->scratch = (uint8_t *)(h + 1);
  m->scratch_cap = cap;
  return 0;
}

static inline int64_t rnd(cgofuzz_mutator *m, int64_t n) {
  return (int64_t)cgofuzz_pcg_u32n(&m->r, (uint32_t)n);
}

/* Go's float64 -> int conversion for the bounds used below, which are
 * always in [0, 100]; out of range Go on amd64 yields the minimum int. */
static int64_t go_f2i(double f) {
  if (!(f > -9223372036854775808.0 && f < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t)f;
}

/* Adds or subtracts 1..100, never leaving [-max_value, max_value]. */
static int64_t mutate_int(cgofuzz_mutator *m, int64_t v, int64_t max_value) {
  for (;;) {
    int64_t max = 100;
    if (rnd(m, 2) == 0) {
      if (v >= max_value)
        continue;
      if (v > 0 && max_value - v < max)
        max = max_value - v;
      return v + 1 + rnd(m, max);
    }
    if (v <= -max_value)
      continue;
    if (v < 0 && max_value + v < max)
      max = max_value + v;
    return v - 1 - rnd(m, max);
  }
}

/* Adds or subtracts 1..100, never leaving [0, max_value]. */
static uint64_t mutate_uint(cgofuzz_mutator *m, uint64_t v,
                            uint64_t max_value) {
  for (;;) {
    uint64_t max = 100;
    if (rnd(m, 2) == 0) {
      if (v >= max_value)
        continue;
      if (v > 0 && max_value - v < max)
        max = max_value - v;
      return v + 1 + (uint64_t)rnd(m, (int64_t)max);
    }
    if (v == 0)
      continue;
    if (v < max)
      max = v;
    return v - 1 - (uint64_t)rnd(m, (int64_t)max);
  }
}

/* Add, subtract, multiply or divide by a small integer. Comparisons with
 * NaN are false, so a NaN takes the add/subtract/multiply paths like Go. */
static double mutate_float(cgofuzz_mutator *m, double v, double max_value) {
  for (;;) {
    double max;
    switch (rnd(m, 4)) {
    case 0:
      if (v >= max_value)
        continue;
      max = 100;
      if (v > 0 && max_value - v < max)
        max = max_value - v;
      return v + (double)(1 + rnd(m, go_f2i(max)));
    case 1:
      if (v <= -max_value)
        continue;
      max = 100;
      if (v < 0 && max_value + v < max)
        max = max_value + v;
      return v - (double)(1 + rnd(m, go_f2i(max)));
    case 2: {
      double abs_v = v < 0 ? -v : v;
      if (v == 0 || abs_v >= max_value)
        continue;
      max = 10;
      if (max_value / abs_v < max)
        max = max_value / abs_v;
      return v * (double)(1 + rnd(m, go_f2i(max)));
    }
    default:
      if (v == 0)
        continue;
      return v / (double)(1 + rnd(m, 10));
    }
  }
}

/* Copies a []byte or string value into the scratch buffer and mutates it
 * there, following Go's sequence; on return the result is
 * m->scratch[0..*out_len). */
static int mutate_in_scratch(cgofuzz_mutator *m, const cgofuzz_value *v,
                             int64_t max_per_val, size_t *out_len,
                             cgofuzz_err *err) {
  size_t len = v->s.len;
  if ((int64_t)len > max_per_val)
    return cgofuzz_errf(err, 0, "cannot mutate bytes of length %zu", len);
  if (ensure_scratch(m, max_per_val) != 0)
    return cgofuzz_errf(err, 0, "out of memory for a %lld-byte scratch",
                        (long long)max_per_val);
  if (len == 0 && m->scratch_cap < 2)
    return cgofuzz_errf(err, 0,
                        "cannot mutate an empty value with capacity %zu "
                        "(Go would loop forever)",
                        m->scratch_cap);
  /* The value may already live in the scratch (a []byte mutated earlier in
   * the chain): memmove, like Go's copy, then copies nothing harmful. */
  if (len)
    memmove(m->scratch, v->s.data, len);
  cgofuzz_mutate_bytes(m, m->scratch, &len, m->scratch_cap);
  *out_len = len;
  return 0;
}

int cgofuzz_mutate(cgofuzz_mutator *m, cgofuzz_value *vals, size_t n,
                   size_t max_bytes, cgofuzz_err *err) {
  if (n == 0)
    return cgofuzz_errf(err, 0, "no values to mutate");
  if (n > UINT32_MAX)
    return cgofuzz_errf(err, 0, "large Intn");
  int64_t mb = max_bytes > (size_t)INT64_MAX ? INT64_MAX : (int64_t)max_bytes;
  int64_t max_per_val = mb / (int64_t)n - 100;

  cgofuzz_value *v = &vals[rnd(m, (int64_t)n)];
  switch (v->kind) {
  case CGOFUZZ_INT:
  case CGOFUZZ_INT64:
    v->i = mutate_int(m, v->i, INT64_MAX);
    break;
  case CGOFUZZ_INT8:
    v->i = (int8_t)(uint8_t)mutate_int(m, v->i, INT8_MAX);
    break;
  case CGOFUZZ_INT16:
    v->i = (int16_t)(uint16_t)mutate_int(m, v->i, INT16_MAX);
    break;
  case CGOFUZZ_INT32:
    v->i = (int32_t)(uint32_t)mutate_int(m, v->i, INT32_MAX);
    break;
  case CGOFUZZ_UINT:
  case CGOFUZZ_UINT64:
    v->u = mutate_uint(m, v->u, UINT64_MAX);
    break;
  case CGOFUZZ_UINT8:
    v->u = (uint8_t)mutate_uint(m, v->u, UINT8_MAX);
    break;
  case CGOFUZZ_UINT16:
    v->u = (uint16_t)mutate_uint(m, v->u, UINT16_MAX);
    break;
  case CGOFUZZ_UINT32:
    v->u = (uint32_t)mutate_uint(m, v->u, UINT32_MAX);
    break;
  case CGOFUZZ_FLOAT32:
    v->f32 = (float)mutate_float(m, (double)v->f32, (double)FLT_MAX);
    break;
  case CGOFUZZ_FLOAT64:
    v->f64 = mutate_float(m, v->f64, DBL_MAX);
    break;
  case CGOFUZZ_BOOL:
    if (rnd(m, 2) == 1)
      v->b = !v->b;
    break;
  case CGOFUZZ_BYTES: {
    size_t len;
    if (mutate_in_scratch(m, v, max_per_val, &len, err) != 0)
      return -1;
    /* Go leaves the []byte value pointing at the scratch. */
    if ((v->flags & CGOFUZZ_VAL_OWNED) && v->s.data != m->scratch)
      free(v->s.data);
    v->flags &= (uint8_t)~CGOFUZZ_VAL_OWNED;
    v->s.data = m->scratch;
    v->s.len = len;
    break;
  }
  case CGOFUZZ_STRING: {
    size_t len;
    if (mutate_in_scratch(m, v, max_per_val, &len, err) != 0)
      return -1;
    /* Go makes a new string from the scratch. Reuse an owned buffer: it
     * holds at least its current length, so only growth needs realloc. */
    uint8_t *p = (v->flags & CGOFUZZ_VAL_OWNED) ? v->s.data : NULL;
    if (!p || len > v->s.len) {
      p = realloc(p, len ? len : 1);
      if (!p)
        return cgofuzz_errf(err, 0, "out of memory");
    }
    memcpy(p, m->scratch, len);
    v->s.data = p;
    v->s.len = len;
    v->flags |= CGOFUZZ_VAL_OWNED;
    break;
  }
  default:
    return cgofuzz_errf(err, 0, "type not supported for mutating: %d",
                        (int)v->kind);
  }
  return 0;
}
