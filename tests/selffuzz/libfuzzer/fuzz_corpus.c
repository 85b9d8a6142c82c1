/*
 * fuzz_corpus.c: libFuzzer harness for the "go test fuzz v1" corpus codec.
 *
 * Whatever cgofuzz_codec_decode accepts must encode, decode again to equal
 * values (bit for bit, see cgofuzz_values_equal), and encode to the same
 * bytes a second time: encoding is a fixed point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgofuzz/value.h"
#include "codec.h"

#include "harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *d = malloc(size ? size : 1); /* exact size: ASan sees overreads */
  CHECK(d);
  if (size)
    memcpy(d, data, size);
  cgofuzz_values v1 = {0}, v2 = {0};
  cgofuzz_buf e1 = {0}, e2 = {0};
  cgofuzz_err err;
  if (cgofuzz_codec_decode(d, size, &v1, &err) == 0 && v1.n > 0) {
    if (cgofuzz_codec_encode(v1.v, v1.n, &e1, &err) != 0) {
      fprintf(stderr, "encode failed: %s\n", err.msg);
      abort();
    }
    if (cgofuzz_codec_decode(e1.data, e1.len, &v2, &err) != 0) {
      fprintf(stderr, "re-decode failed (line %d): %s\n%.*s\n", err.line,
              err.msg, (int)e1.len, (const char *)e1.data);
      abort();
    }
    CHECK(cgofuzz_values_equal(&v1, &v2));
    CHECK(cgofuzz_codec_encode(v2.v, v2.n, &e2, &err) == 0);
    if (e1.len != e2.len || memcmp(e1.data, e2.data, e1.len) != 0) {
      fprintf(stderr, "encoding is not a fixed point:\n%.*s\n---\n%.*s\n",
              (int)e1.len, (const char *)e1.data, (int)e2.len,
              (const char *)e2.data);
      abort();
    }
  }
  cgofuzz_values_free(&v1);
  cgofuzz_values_free(&v2);
  cgofuzz_buf_free(&e1);
  cgofuzz_buf_free(&e2);
  free(d);
  return 0;
}
