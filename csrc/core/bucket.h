/*
 * bucket.h: Go's bucket of a coverage counter's hit count, as
 * internal/fuzz's pow2Table makes it: the count's highest set bit, so 1,
 * 2-3, 4-7, ... 128-255 are the eight buckets, and a mask bit k of byte i
 * means "counter i ran about 2^k times in one exec". A C target's snapshot
 * (runtime/coverage.c) and the cgo loop's finds (runtime/cgo/cgo_loop.c)
 * take it from here; the workers' snapshot stub (gobin/gobin_patch.c) does
 * the same in machine code.
 *
 * Header-only, static inline: the cgo loop's objects go into binaries that
 * may also hold the rest of the runtime (package gofuzz), and no symbol may
 * be defined twice.
 */
#ifndef CGOFUZZ_BUCKET_H
#define CGOFUZZ_BUCKET_H

#include <stdint.h>

/* The count's highest set bit; 0 for 0. */
static inline uint8_t cgofuzz_bucket(uint8_t c) {
  c |= c >> 1;
  c |= c >> 2;
  c |= c >> 4;
  return (uint8_t)(c - (c >> 1));
}

#endif
