/*
 * fuzz_wire.c: libFuzzer harness for the worker-protocol JSON decoders.
 *
 * Every input goes through all four decoders. Whatever decodes must
 * re-encode, decode again to an equal message, and re-encode to the same
 * bytes (encoding is a fixed point); a decoder that fails must leave
 * nothing allocated (ASan's leak check sees it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "base64.h"
#include "harness_check.h"

static int bytes_eq(const cgofuzz_wire_bytes *a, const cgofuzz_wire_bytes *b) {
  return a->has == b->has && a->len == b->len &&
         (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Decoded strings: NULL iff empty, len excludes the terminator. */
static int str_eq(const char *a, size_t an, const char *b, size_t bn) {
  if (!a || !b)
    return a == b && an == 0 && bn == 0;
  return an == bn && an > 0 && memcmp(a, b, an) == 0 && a[an] == 0 &&
         b[bn] == 0;
}

static void same_bytes(const cgofuzz_buf *a, const cgofuzz_buf *b) {
  CHECK(a->len == b->len && memcmp(a->data, b->data, a->len) == 0);
}

static void fuzz_call(const uint8_t *d, size_t n) {
  cgofuzz_call a, b;
  cgofuzz_err err;
  if (cgofuzz_wire_decode_call(d, n, &a, &err) != 0) {
    CHECK(a.kind == CGOFUZZ_CALL_NONE && !a.fuzz.coverage_data.data &&
          !a.minimize.keep_coverage.data);
    return;
  }
  cgofuzz_buf e1 = {0}, e2 = {0};
  CHECK(cgofuzz_wire_encode_call(&a, &e1) == 0);
  CHECK(e1.len && e1.data[e1.len - 1] == '\n');
  CHECK(cgofuzz_wire_decode_call(e1.data, e1.len, &b, &err) == 0);
  CHECK(a.kind == b.kind);
  if (a.kind == CGOFUZZ_CALL_FUZZ) {
    CHECK(a.fuzz.timeout_ns == b.fuzz.timeout_ns);
    CHECK(a.fuzz.limit == b.fuzz.limit);
    CHECK(a.fuzz.warmup == b.fuzz.warmup);
    CHECK(bytes_eq(&a.fuzz.coverage_data, &b.fuzz.coverage_data));
  } else if (a.kind == CGOFUZZ_CALL_MINIMIZE) {
    CHECK(a.minimize.timeout_ns == b.minimize.timeout_ns);
    CHECK(a.minimize.limit == b.minimize.limit);
    CHECK(a.minimize.index == b.minimize.index);
    CHECK(bytes_eq(&a.minimize.keep_coverage, &b.minimize.keep_coverage));
  }
  CHECK(cgofuzz_wire_encode_call(&b, &e2) == 0);
  same_bytes(&e1, &e2);
  cgofuzz_call_free(&a);
  cgofuzz_call_free(&b);
  cgofuzz_buf_free(&e1);
  cgofuzz_buf_free(&e2);
}

static void fuzz_fuzz_resp(const uint8_t *d, size_t n) {
  cgofuzz_fuzz_resp a, b;
  cgofuzz_err err;
  if (cgofuzz_wire_decode_fuzz_resp(d, n, &a, &err) != 0) {
    CHECK(!a.err && !a.internal_err && !a.coverage_data.data);
    return;
  }
  cgofuzz_buf e1 = {0}, e2 = {0};
  CHECK(cgofuzz_wire_encode_fuzz_resp(&a, &e1) == 0);
  CHECK(cgofuzz_wire_decode_fuzz_resp(e1.data, e1.len, &b, &err) == 0);
  CHECK(a.total_duration_ns == b.total_duration_ns);
  CHECK(a.interesting_duration_ns == b.interesting_duration_ns);
  CHECK(a.count == b.count);
  CHECK(bytes_eq(&a.coverage_data, &b.coverage_data));
  CHECK(str_eq(a.err, a.err_len, b.err, b.err_len));
  CHECK(str_eq(a.internal_err, a.internal_err_len, b.internal_err,
               b.internal_err_len));
  CHECK(cgofuzz_wire_encode_fuzz_resp(&b, &e2) == 0);
  same_bytes(&e1, &e2);
  cgofuzz_fuzz_resp_free(&a);
  cgofuzz_fuzz_resp_free(&b);
  cgofuzz_buf_free(&e1);
  cgofuzz_buf_free(&e2);
}

static void fuzz_min_resp(const uint8_t *d, size_t n) {
  cgofuzz_minimize_resp a, b;
  cgofuzz_err err;
  if (cgofuzz_wire_decode_minimize_resp(d, n, &a, &err) != 0) {
    CHECK(!a.err && !a.coverage_data.data);
    return;
  }
  cgofuzz_buf e1 = {0}, e2 = {0};
  CHECK(cgofuzz_wire_encode_minimize_resp(&a, &e1) == 0);
  CHECK(cgofuzz_wire_decode_minimize_resp(e1.data, e1.len, &b, &err) == 0);
  CHECK(a.wrote_to_mem == b.wrote_to_mem);
  CHECK(str_eq(a.err, a.err_len, b.err, b.err_len));
  CHECK(bytes_eq(&a.coverage_data, &b.coverage_data));
  CHECK(a.duration_ns == b.duration_ns);
  CHECK(a.count == b.count);
  CHECK(cgofuzz_wire_encode_minimize_resp(&b, &e2) == 0);
  same_bytes(&e1, &e2);
  cgofuzz_minimize_resp_free(&a);
  cgofuzz_minimize_resp_free(&b);
  cgofuzz_buf_free(&e1);
  cgofuzz_buf_free(&e2);
}

static void fuzz_ping_resp(const uint8_t *d, size_t n) {
  cgofuzz_err err;
  if (cgofuzz_wire_decode_ping_resp(d, n, &err) != 0)
    return;
  cgofuzz_buf e = {0};
  CHECK(cgofuzz_wire_encode_ping_resp(&e) == 0);
  CHECK(cgofuzz_wire_decode_ping_resp(e.data, e.len, &err) == 0);
  cgofuzz_buf_free(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* An exact-size copy, so any read past the message is caught by ASan
   * rather than landing in libFuzzer's larger buffer. */
  uint8_t *d = malloc(size ? size : 1);
  CHECK(d);
  if (size)
    memcpy(d, data, size);
  fuzz_call(d, size);
  fuzz_fuzz_resp(d, size);
  fuzz_min_resp(d, size);
  fuzz_ping_resp(d, size);
  /* The base64 decoder on raw input, too: decode, encode, decode. */
  cgofuzz_buf b1 = {0}, e = {0}, b2 = {0};
  if (cgofuzz_base64_decode((const char *)d, size, &b1) == 0) {
    CHECK(cgofuzz_base64_encode(b1.data, b1.len, &e) == 0);
    CHECK(cgofuzz_base64_decode((const char *)e.data, e.len, &b2) == 0);
    same_bytes(&b1, &b2);
  }
  cgofuzz_buf_free(&b1);
  cgofuzz_buf_free(&e);
  cgofuzz_buf_free(&b2);
  free(d);
  return 0;
}
