/*
 * go118.c: go-118-fuzz-build's byte consumption (go118.h), written from
 * the behaviour of go-fuzz-headers' ConsumeFuzzer (module version pinned in
 * scripts/install-deps.sh) so that OSS-Fuzz reproducers of native Go fuzz
 * targets decode to the values their target saw.
 *
 * The reader keeps a position in the input; every read that needs a byte
 * past the end fails. Per argument kind (docs/corpus-tools.md):
 *   bool           1 byte, true when it is even
 *   int8, uint8    1 byte
 *   int16, uint16  2 bytes, then an order byte (even: little-endian)
 *   int32, uint32  4 bytes big-endian
 *   int64, uint64, int, uint, float64
 *                  8 bytes, then an order byte (even: little-endian)
 *   float32        4 bytes, then an order byte
 *   []byte         a uint32 length L (as int32 above; 0 means 30); with R
 *                  bytes left (none: fails), L is taken modulo R unless
 *                  L == R; the next L bytes
 *   string         fails with no byte left; a uint32 length L; fails if
 *                  the position passed 2000000 (MaxTotalLen), if no byte
 *                  is left, or if fewer than L remain; the next L bytes
 * Signed kinds are the unsigned value's bits. The "fails with no byte
 * left" before a multi-byte read (GetNBytes) also holds for reads of 0
 * bytes, which never occur here.
 */
#include "go118.h"

#include <stdio.h>
#include <string.h>

#define GO118_MAX_TOTAL_LEN 2000000u /* go-fuzz-headers' MaxTotalLen */

typedef struct reader {
  const uint8_t *p;
  uint32_t total, pos; /* ConsumeFuzzer counts in uint32 */
} reader;

static int get_byte(reader *r, uint8_t *out) {
  if (r->pos >= r->total)
    return -1;
  *out = r->p[r->pos++];
  return 0;
}

/* n bytes, as an unsigned number in the given order. */
static int get_n(reader *r, unsigned n, bool little, uint64_t *out) {
  if (r->pos >= r->total || r->total - r->pos < n)
    return -1;
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned b = little ? n - 1 - i : i;
    v = v << 8 | r->p[r->pos + b];
  }
  r->pos += n;
  *out = v;
  return 0;
}

/* n bytes followed by their byte-order byte (even: little-endian). */
static int get_ordered(reader *r, unsigned n, uint64_t *out) {
  uint32_t start = r->pos;
  if (r->pos >= r->total || r->total - r->pos < n)
    return -1;
  r->pos += n;
  uint8_t order;
  if (get_byte(r, &order) != 0)
    return -1;
  reader at = {r->p, r->total, start};
  return get_n(&at, n, order % 2 == 0, out);
}

static int get_bytes(reader *r, const uint8_t **data, size_t *len) {
  uint64_t l;
  if (get_n(r, 4, false, &l) != 0)
    return -1;
  uint32_t length = (uint32_t)l;
  if (length == 0)
    length = 30;
  uint32_t left = r->total - r->pos;
  if (left == 0)
    return -1;
  if (length != left)
    length %= left;
  *data = r->p + r->pos;
  *len = length;
  r->pos += length;
  return 0;
}

static int get_string(reader *r, const uint8_t **data, size_t *len) {
  if (r->pos >= r->total)
    return -1;
  uint64_t l;
  if (get_n(r, 4, false, &l) != 0)
    return -1;
  if (r->pos > GO118_MAX_TOTAL_LEN || r->pos >= r->total ||
      l > (uint64_t)(r->total - r->pos))
    return -1;
  *data = r->p + r->pos;
  *len = (size_t)l;
  r->pos += (uint32_t)l;
  return 0;
}

int cli_go118_decode(const cgofuzz_kind *kinds, size_t n, const uint8_t *data,
                     size_t len, cgofuzz_values *out, cgofuzz_err *err) {
  if (len > UINT32_MAX) {
    snprintf(err->msg, sizeof err->msg,
             "%zu bytes: more than go-fuzz-headers can count", len);
    return -1;
  }
  reader r = {data, (uint32_t)len, 0};
  for (size_t i = 0; i < n; i++) {
    cgofuzz_value v;
    memset(&v, 0, sizeof v);
    v.kind = kinds[i];
    uint64_t u = 0;
    uint8_t b = 0;
    int rc;
    switch (kinds[i]) {
    case CGOFUZZ_BYTES:
      rc = get_bytes(&r, (const uint8_t **)&v.s.data, &v.s.len);
      break;
    case CGOFUZZ_STRING:
      rc = get_string(&r, (const uint8_t **)&v.s.data, &v.s.len);
      break;
    case CGOFUZZ_BOOL:
      rc = get_byte(&r, &b);
      v.b = b % 2 == 0;
      break;
    case CGOFUZZ_INT8:
      rc = get_byte(&r, &b);
      v.i = (int8_t)b;
      break;
    case CGOFUZZ_UINT8:
      rc = get_byte(&r, &b);
      v.u = b;
      break;
    case CGOFUZZ_INT16:
      rc = get_ordered(&r, 2, &u);
      v.i = (int16_t)u;
      break;
    case CGOFUZZ_UINT16:
      rc = get_ordered(&r, 2, &u);
      v.u = (uint16_t)u;
      break;
    case CGOFUZZ_INT32:
      rc = get_n(&r, 4, false, &u);
      v.i = (int32_t)u;
      break;
    case CGOFUZZ_UINT32:
      rc = get_n(&r, 4, false, &u);
      v.u = (uint32_t)u;
      break;
    case CGOFUZZ_INT:
    case CGOFUZZ_INT64:
      rc = get_ordered(&r, 8, &u);
      v.i = (int64_t)u;
      break;
    case CGOFUZZ_UINT:
    case CGOFUZZ_UINT64:
      rc = get_ordered(&r, 8, &u);
      v.u = u;
      break;
    case CGOFUZZ_FLOAT32: {
      rc = get_ordered(&r, 4, &u);
      uint32_t bits = (uint32_t)u;
      memcpy(&v.f32, &bits, sizeof bits);
      break;
    }
    case CGOFUZZ_FLOAT64:
      rc = get_ordered(&r, 8, &u);
      memcpy(&v.f64, &u, sizeof u);
      break;
    default:
      rc = -1;
      break;
    }
    if (rc != 0) {
      snprintf(err->msg, sizeof err->msg,
               "go-118-fuzz-build would not call the target: argument %zu "
               "(%s) finds too few bytes at offset %u of %zu",
               i + 1, cgofuzz_kind_name(kinds[i]), (unsigned)r.pos, len);
      return -1;
    }
    if (cgofuzz_values_push(out, &v) != 0)
      return -2;
  }
  return 0;
}
