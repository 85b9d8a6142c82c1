/*
 * fuzz_go118.c: self-fuzzing harness (libFuzzer form, built with `cgofuzz
 * cc`) for the decoder of go-118-fuzz-build reproducers (csrc/cli/go118.c,
 * cli_go118_decode), which `cgofuzz corpus convert -from go118` runs on
 * OSS-Fuzz's corpora and crash files: bytes from outside.
 *
 * Input: a byte N (mod 17: 0 to 16 arguments), N bytes naming the target's
 * argument kinds (each mod CGOFUZZ_NKINDS, in cgofuzz_kind's order), then
 * the reproducer. Decoded values must be what the layout allows (no more
 * bytes than the file has, []byte and string values taken from it), and
 * the values written back in go-fuzz-headers' layout must decode to
 * themselves.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "go118.h"

#include "../libfuzzer/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes a value takes in go-fuzz-headers' layout, length included. */
static size_t width(const cgofuzz_value *v) {
  switch (v->kind) {
  case CGOFUZZ_BYTES:
  case CGOFUZZ_STRING:
    return 4 + v->s.len;
  case CGOFUZZ_BOOL:
  case CGOFUZZ_INT8:
  case CGOFUZZ_UINT8:
    return 1;
  case CGOFUZZ_INT16:
  case CGOFUZZ_UINT16:
    return 3; /* then the order byte */
  case CGOFUZZ_INT32:
  case CGOFUZZ_UINT32:
    return 4;
  case CGOFUZZ_FLOAT32:
    return 5;
  default:
    return 9; /* 64 bits and the order byte */
  }
}

static uint8_t *put_be(uint8_t *p, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> 8 * (n - 1 - i));
  return p + n;
}

/* vs in go-fuzz-headers' layout (big-endian, order bytes odd), plus one
 * byte so that an empty []byte has a rest to be taken modulo: its length
 * is written as twice what follows it (0 would mean 30). */
static uint8_t *encode(const cgofuzz_values *vs, size_t *len) {
  size_t total = 1;
  for (size_t i = 0; i < vs->n; i++)
    total += width(&vs->v[i]);
  uint8_t *buf = malloc(total), *p = buf;
  CHECK(buf);
  for (size_t i = 0; i < vs->n; i++) {
    const cgofuzz_value *v = &vs->v[i];
    uint32_t bits;
    switch (v->kind) {
    case CGOFUZZ_BYTES:
    case CGOFUZZ_STRING: {
      size_t l = v->s.len;
      if (l == 0 && v->kind == CGOFUZZ_BYTES)
        l = 2 * (total - (size_t)(p + 4 - buf));
      p = put_be(p, l, 4);
      if (v->s.len)
        memcpy(p, v->s.data, v->s.len);
      p += v->s.len;
      break;
    }
    case CGOFUZZ_BOOL:
      *p++ = !v->b; /* even: true */
      break;
    case CGOFUZZ_INT8:
    case CGOFUZZ_UINT8:
      *p++ = (uint8_t)v->u;
      break;
    case CGOFUZZ_INT16:
    case CGOFUZZ_UINT16:
      p = put_be(p, v->u, 2);
      *p++ = 1;
      break;
    case CGOFUZZ_INT32:
    case CGOFUZZ_UINT32:
      p = put_be(p, v->u, 4);
      break;
    case CGOFUZZ_FLOAT32:
      memcpy(&bits, &v->f32, sizeof bits);
      p = put_be(p, bits, 4);
      *p++ = 1;
      break;
    default: /* the 64-bit kinds: u aliases i and f64's bits */
      p = put_be(p, v->u, 8);
      *p++ = 1;
      break;
    }
  }
  *p++ = 0;
  CHECK((size_t)(p - buf) == total);
  *len = total;
  return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0 || size > 65536)
    return 0;
  size_t n = data[0] % 17;
  if (size < 1 + n)
    return 0;
  cgofuzz_kind kinds[16];
  for (size_t i = 0; i < n; i++)
    kinds[i] = (cgofuzz_kind)(data[1 + i] % CGOFUZZ_NKINDS);
  const uint8_t *in = data + 1 + n;
  size_t len = size - 1 - n;
  cgofuzz_values out = {0};
  cgofuzz_err err = {0};
  int rc = cli_go118_decode(kinds, n, in, len, &out, &err);
  CHECK(rc == 0 || rc == -1);
  CHECK(out.n <= n);
  size_t used = 0;
  for (size_t i = 0; i < out.n; i++) {
    const cgofuzz_value *v = &out.v[i];
    CHECK(v->kind == kinds[i]);
    used += width(v);
    if ((v->kind == CGOFUZZ_BYTES || v->kind == CGOFUZZ_STRING) && v->s.len)
      CHECK(v->s.len <= len && memmem(in, len, v->s.data, v->s.len));
  }
  if (rc == -1) {
    CHECK(out.n < n);
    CHECK(strstr(err.msg, "would not call the target"));
  } else {
    CHECK(out.n == n && used <= len);
    size_t elen;
    uint8_t *enc = encode(&out, &elen);
    cgofuzz_values back = {0};
    CHECK(cli_go118_decode(kinds, n, enc, elen, &back, &err) == 0);
    CHECK(cgofuzz_values_equal(&out, &back));
    cgofuzz_values_free(&back);
    free(enc);
  }
  cgofuzz_values_free(&out);
  return 0;
}
