/*
 * rawargs.c: raw bytes <-> fuzz target arguments, by the rules of
 * rawargs.h (and docs/raw-inputs.md).
 *
 * The mapping is a format that corpora and crash files outlive cgofuzz
 * versions in, so it must never change: decoding is total (no raw input is
 * rejected, so a mutator that knows nothing of the arguments only ever
 * makes valid inputs) and encoding is its exact inverse on values. The
 * layout keeps the common cases natural: a lone []byte or string is the
 * file itself, and the last variable-length argument needs no length
 * prefix because it simply takes what the others leave.
 */
#include "rawargs.h"
#include "codec.h"

#include <stdlib.h>
#include <string.h>

/* Go's binary.MaxVarintLen64: a uint64 never needs more varint bytes. */
#define MAX_VARINT_LEN 10

static bool is_var(cgofuzz_kind k) {
  return k == CGOFUZZ_BYTES || k == CGOFUZZ_STRING;
}

/* The width in bytes of a fixed-size kind; 0 for []byte and string. */
static size_t width(cgofuzz_kind k) {
  switch (k) {
  case CGOFUZZ_BOOL:
  case CGOFUZZ_INT8:
  case CGOFUZZ_UINT8:
    return 1;
  case CGOFUZZ_INT16:
  case CGOFUZZ_UINT16:
    return 2;
  case CGOFUZZ_INT32:
  case CGOFUZZ_UINT32:
  case CGOFUZZ_FLOAT32:
    return 4;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT64:
  case CGOFUZZ_UINT:
  case CGOFUZZ_UINT64:
  case CGOFUZZ_FLOAT64:
    return 8;
  default:
    return 0;
  }
}

/* The index of the last []byte/string kind, or n when there is none. */
static size_t last_var(const cgofuzz_kind *kinds, size_t n) {
  for (size_t i = n; i-- > 0;) {
    if (is_var(kinds[i]))
      return i;
  }
  return n;
}

/* Reads a w-byte little-endian integer at data[*pos..len), the missing
 * high bytes reading as zero, and advances *pos past what it read. */
static uint64_t read_le(const uint8_t *data, size_t len, size_t *pos,
                        size_t w) {
  uint64_t u = 0;
  for (size_t j = 0; j < w && *pos < len; j++, (*pos)++)
    u |= (uint64_t)data[*pos] << (8 * j);
  return u;
}

/* binary.Uvarint, made total: a truncated varint consumes the rest of the
 * input, an over-long one stops after MAX_VARINT_LEN bytes, and in both
 * cases and on overflow the value is what was accumulated (bits shifted
 * past 64 are simply lost, as unsigned shifts lose them). */
static uint64_t read_uvarint(const uint8_t *data, size_t len, size_t *pos) {
  uint64_t x = 0;
  for (unsigned i = 0; i < MAX_VARINT_LEN && *pos < len; i++) {
    uint8_t b = data[(*pos)++];
    x |= (uint64_t)(b & 0x7F) << (7 * i);
    if (b < 0x80)
      break;
  }
  return x;
}

static cgofuzz_value fixed_value(cgofuzz_kind k, uint64_t u) {
  cgofuzz_value v;
  memset(&v, 0, sizeof v);
  v.kind = k;
  switch (k) {
  case CGOFUZZ_BOOL:
    v.b = (u & 1) != 0;
    break;
  /* Sign-extend through the Go type's width, as int8(b) does in Go. */
  case CGOFUZZ_INT8:
    v.i = (int8_t)(uint8_t)u;
    break;
  case CGOFUZZ_INT16:
    v.i = (int16_t)(uint16_t)u;
    break;
  case CGOFUZZ_INT32:
    v.i = (int32_t)(uint32_t)u;
    break;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT64:
    v.i = (int64_t)u;
    break;
  case CGOFUZZ_FLOAT32: {
    /* memcpy, never a conversion, so every NaN payload survives. */
    uint32_t b = (uint32_t)u;
    memcpy(&v.f32, &b, sizeof b);
    break;
  }
  case CGOFUZZ_FLOAT64:
    memcpy(&v.f64, &u, sizeof u);
    break;
  default: /* the unsigned kinds, read at their own width already */
    v.u = u;
    break;
  }
  return v;
}

int cgofuzz_rawargs_decode(const cgofuzz_kind *kinds, size_t n,
                           const uint8_t *data, size_t len,
                           cgofuzz_values *out) {
  cgofuzz_values_clear(out);
  if (n > out->cap) {
    cgofuzz_value *p = realloc(out->v, n * sizeof *p);
    if (!p)
      return -1;
    out->v = p;
    out->cap = n;
  }
  size_t last = last_var(kinds, n);
  size_t tail = 0; /* bytes the fixed-size arguments after `last` need */
  for (size_t i = last + 1; i < n; i++)
    tail += width(kinds[i]);
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    cgofuzz_kind k = kinds[i];
    if (!is_var(k)) {
      out->v[i] = fixed_value(k, read_le(data, len, &pos, width(k)));
      continue;
    }
    size_t rem = len - pos, take;
    if (i == last) {
      take = rem > tail ? rem - tail : 0;
    } else {
      uint64_t l = read_uvarint(data, len, &pos);
      rem = len - pos;
      take = l < rem ? (size_t)l : rem;
    }
    cgofuzz_value *v = &out->v[i];
    memset(v, 0, sizeof *v);
    v->kind = k;
    /* Borrowed: the caller's data outlives the values (see rawargs.h). */
    v->s.data = data ? (uint8_t *)(uintptr_t)(data + pos) : NULL;
    v->s.len = take;
    pos += take;
  }
  out->n = n;
  return 0;
}

int cgofuzz_rawargs_encode(const cgofuzz_value *v, size_t n, cgofuzz_buf *out) {
  size_t last = n;
  for (size_t i = n; i-- > 0;) {
    if (is_var(v[i].kind)) {
      last = i;
      break;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const cgofuzz_value *x = &v[i];
    uint8_t tmp[MAX_VARINT_LEN];
    size_t m = 0;
    if (is_var(x->kind)) {
      if (i != last) {
        uint64_t l = x->s.len;
        for (; l >= 0x80; l >>= 7)
          tmp[m++] = (uint8_t)(l | 0x80);
        tmp[m++] = (uint8_t)l;
      }
      if (cgofuzz_buf_append(out, tmp, m) < 0 ||
          (x->s.len && cgofuzz_buf_append(out, x->s.data, x->s.len) < 0))
        return -1;
      continue;
    }
    uint64_t u;
    switch (x->kind) {
    case CGOFUZZ_BOOL:
      u = x->b ? 1 : 0;
      break;
    case CGOFUZZ_INT:
    case CGOFUZZ_INT8:
    case CGOFUZZ_INT16:
    case CGOFUZZ_INT32:
    case CGOFUZZ_INT64:
      u = (uint64_t)x->i; /* two's complement; only the low bytes are kept */
      break;
    case CGOFUZZ_FLOAT32: {
      uint32_t b;
      memcpy(&b, &x->f32, sizeof b);
      u = b;
      break;
    }
    case CGOFUZZ_FLOAT64:
      memcpy(&u, &x->f64, sizeof u);
      break;
    default:
      u = x->u;
      break;
    }
    for (size_t w = width(x->kind); m < w; m++, u >>= 8)
      tmp[m] = (uint8_t)u;
    if (cgofuzz_buf_append(out, tmp, m) < 0)
      return -1;
  }
  return 0;
}

int cgofuzz_rawargs_to_corpus(const cgofuzz_kind *kinds, size_t n,
                              const uint8_t *raw, size_t len, cgofuzz_buf *out,
                              cgofuzz_err *err) {
  return cgofuzz_rawargs_to_corpus_v(kinds, n, raw, len, CGOFUZZ_GOVER_DEFAULT,
                                     out, err);
}

int cgofuzz_rawargs_to_corpus_v(const cgofuzz_kind *kinds, size_t n,
                                const uint8_t *raw, size_t len, cgofuzz_gover g,
                                cgofuzz_buf *out, cgofuzz_err *err) {
  cgofuzz_values vals = {0};
  int rc;
  if (cgofuzz_rawargs_decode(kinds, n, raw, len, &vals) < 0)
    rc = cgofuzz_errf(err, 0, "out of memory");
  else
    rc = cgofuzz_codec_encode_v(vals.v, vals.n, g, out, err);
  cgofuzz_values_free(&vals); /* frees only the array: the bytes are raw's */
  return rc;
}

int cgofuzz_rawargs_from_corpus(const cgofuzz_kind *kinds, size_t n,
                                const uint8_t *file, size_t len,
                                cgofuzz_buf *raw, cgofuzz_err *err) {
  return cgofuzz_rawargs_from_corpus_v(kinds, n, file, len,
                                       CGOFUZZ_GOVER_DEFAULT, raw, err);
}

int cgofuzz_rawargs_from_corpus_v(const cgofuzz_kind *kinds, size_t n,
                                  const uint8_t *file, size_t len,
                                  cgofuzz_gover g, cgofuzz_buf *raw,
                                  cgofuzz_err *err) {
  cgofuzz_values vals = {0};
  int rc = cgofuzz_codec_decode_v(file, len, g, &vals, err);
  if (rc == 0 && vals.n != n)
    rc = cgofuzz_errf(err, 0,
                      "corpus file has %zu value%s, the target takes %zu",
                      vals.n, vals.n == 1 ? "" : "s", n);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    if (vals.v[i].kind != kinds[i])
      rc = cgofuzz_errf(err, 0,
                        "corpus file value %zu is %s, the target's "
                        "argument %zu is %s",
                        i + 1, cgofuzz_kind_name(vals.v[i].kind), i + 1,
                        cgofuzz_kind_name(kinds[i]));
  }
  if (rc == 0 && cgofuzz_rawargs_encode(vals.v, vals.n, raw) < 0)
    rc = cgofuzz_errf(err, 0, "out of memory");
  cgofuzz_values_free(&vals);
  return rc;
}

bool cgofuzz_rawargs_is_corpus_file(const uint8_t *data, size_t len) {
  /* unmarshalCorpusFile splits on '\n' and needs a second line, then
   * compares the first, less one trailing '\r', with the version. */
  const uint8_t *nl = len ? memchr(data, '\n', len) : NULL;
  if (!nl)
    return false;
  size_t hl = (size_t)(nl - data);
  if (hl > 0 && data[hl - 1] == '\r')
    hl--;
  size_t want = strlen(CGOFUZZ_CORPUS_HEADER);
  return hl == want && memcmp(data, CGOFUZZ_CORPUS_HEADER, want) == 0;
}
