/*
 * mutator_bytes.c: Go's 18 byte-slice mutators, in Go's table order.
 *
 * Each mutator works on b[0..*len) with room for cap bytes at b. It either
 * applies (returns true, *len updated) or declines (returns false) after
 * having consumed exactly the random draws Go's version consumes before it
 * declines; cgofuzz_mutate_bytes keeps drawing a mutator until one applies.
 *
 * Invariants that replays depend on:
 *  - the capacity checks are Go's `len(b)+n >= cap(b)`: a mutation never
 *    fills the buffer to its last byte;
 *  - duplicate and swap use the bytes just past the end of the slice as
 *    temporary space and leave them there (earlier []byte values sharing the
 *    mutator's scratch buffer can see them);
 *  - all copies may overlap and behave like Go's copy (memmove), moving
 *    min(len(dst), len(src)) bytes.
 */
#include <string.h>

#include "mutator.h"

/* Go's m.rand(n): all n here are far below 2^32 because the buffer is at
 * most the shared-memory value area (100 MiB). */
static inline size_t rnd(cgofuzz_mutator *m, size_t n) {
  return cgofuzz_pcg_u32n(&m->r, (uint32_t)n);
}

static inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* A length in [1, n] favouring short ranges; n == 0 still yields 1 (the
 * inner draw of rand(0) returns 0). */
static size_t choose_len(cgofuzz_mutator *m, size_t n) {
  size_t x = rnd(m, 100);
  if (x < 90)
    return rnd(m, min_sz(8, n)) + 1;
  if (x < 99)
    return rnd(m, min_sz(32, n)) + 1;
  return rnd(m, n) + 1;
}

/* Two distinct positions in [0, l), l >= 2, redrawing the second as Go
 * does. */
static void two_positions(cgofuzz_mutator *m, size_t l, size_t *src,
                          size_t *dst) {
  *src = rnd(m, l);
  *dst = rnd(m, l);
  while (*dst == *src)
    *dst = rnd(m, l);
}

/* Interesting values; the 16- and 32-bit tables end with the smaller
 * tables' values, in that order, exactly as Go extends them at init. */
static const int8_t interesting8[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
static const int16_t interesting16[] = {
    -32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767,
    -128,   -1,   0,   1,   16,  32,  64,   100,  127};
static const int32_t interesting32[] = {-2147483647 - 1,
                                        -100663046,
                                        -32769,
                                        32768,
                                        65535,
                                        65536,
                                        100663045,
                                        2147483647,
                                        -32768,
                                        -129,
                                        128,
                                        255,
                                        256,
                                        512,
                                        1000,
                                        1024,
                                        4096,
                                        32767,
                                        -128,
                                        -1,
                                        0,
                                        1,
                                        16,
                                        32,
                                        64,
                                        100,
                                        127};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Fixed-width loads and stores in either byte order (little when le). */
static uint64_t load(const uint8_t *p, int width, bool le) {
  uint64_t v = 0;
  for (int i = 0; i < width; i++)
    v |= (uint64_t)p[le ? i : width - 1 - i] << (8 * i);
  return v;
}

static void store(uint8_t *p, int width, bool le, uint64_t v) {
  for (int i = 0; i < width; i++)
    p[le ? i : width - 1 - i] = (uint8_t)(v >> (8 * i));
}

static bool remove_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                         size_t cap) {
  (void)cap;
  size_t l = *len;
  if (l <= 1)
    return false;
  size_t p0 = rnd(m, l);
  size_t p1 = p0 + choose_len(m, l - p0);
  memmove(b + p0, b + p1, l - p1);
  *len = l - (p1 - p0);
  return true;
}

static bool insert_random_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                                size_t cap) {
  size_t l = *len;
  size_t pos = rnd(m, l + 1);
  size_t n = choose_len(m, 1024);
  if (l + n >= cap)
    return false;
  memmove(b + pos + n, b + pos, l - pos);
  for (size_t i = 0; i < n; i++)
    b[pos + i] = (uint8_t)rnd(m, 256);
  *len = l + n;
  return true;
}

static bool duplicate_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                            size_t cap) {
  size_t l = *len, src, dst;
  if (l <= 1)
    return false;
  two_positions(m, l, &src, &dst);
  size_t n = choose_len(m, l - src);
  if (l + 2 * n >= cap)
    return false;
  /* Park the block at [l+n, l+2n), open a gap at dst, then fill it. */
  memmove(b + l + n, b + src, n);
  memmove(b + dst + n, b + dst, l - dst);
  memmove(b + dst, b + l + n, n);
  *len = l + n;
  return true;
}

static bool overwrite_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                            size_t cap) {
  (void)cap;
  size_t l = *len, src, dst;
  if (l <= 1)
    return false;
  two_positions(m, l, &src, &dst);
  size_t n = choose_len(m, l - src - 1);
  memmove(b + dst, b + src, min_sz(l - dst, n));
  return true;
}

static bool bit_flip(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  if (*len == 0)
    return false;
  size_t pos = rnd(m, *len);
  b[pos] ^= (uint8_t)(1u << rnd(m, 8));
  return true;
}

static bool xor_byte(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  if (*len == 0)
    return false;
  size_t pos = rnd(m, *len);
  b[pos] ^= (uint8_t)(1 + rnd(m, 255)); /* never XOR with 0 */
  return true;
}

static bool swap_byte(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  size_t src, dst;
  if (*len <= 1)
    return false;
  two_positions(m, *len, &src, &dst);
  uint8_t t = b[src];
  b[src] = b[dst];
  b[dst] = t;
  return true;
}

static bool arith8(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  if (*len == 0)
    return false;
  size_t pos = rnd(m, *len);
  uint8_t v = (uint8_t)(rnd(m, 35) + 1);
  if (cgofuzz_pcg_bool(&m->r))
    b[pos] = (uint8_t)(b[pos] + v);
  else
    b[pos] = (uint8_t)(b[pos] - v);
  return true;
}

/* The 16/32/64-bit arithmetic mutators: Go draws the delta and its sign
 * first, then the position, then the byte order. */
static bool arith_wide(cgofuzz_mutator *m, uint8_t *b, size_t len, int width) {
  if (len < (size_t)width)
    return false;
  uint64_t v = rnd(m, 35) + 1;
  if (cgofuzz_pcg_bool(&m->r))
    v = 0 - v;
  size_t pos = rnd(m, len - (size_t)(width - 1));
  bool le = cgofuzz_pcg_bool(&m->r);
  /* Wrap-around at width bits happens in store(). */
  store(b + pos, width, le, load(b + pos, width, le) + v);
  return true;
}

static bool arith16(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  return arith_wide(m, b, *len, 2);
}

static bool arith32(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  return arith_wide(m, b, *len, 4);
}

static bool arith64(cgofuzz_mutator *m, uint8_t *b, size_t *len, size_t cap) {
  (void)cap;
  return arith_wide(m, b, *len, 8);
}

static bool interesting_8(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                          size_t cap) {
  (void)cap;
  if (*len == 0)
    return false;
  size_t pos = rnd(m, *len);
  b[pos] = (uint8_t)interesting8[rnd(m, NELEM(interesting8))];
  return true;
}

static bool interesting_16(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                           size_t cap) {
  (void)cap;
  if (*len < 2)
    return false;
  size_t pos = rnd(m, *len - 1);
  uint16_t v = (uint16_t)interesting16[rnd(m, NELEM(interesting16))];
  store(b + pos, 2, cgofuzz_pcg_bool(&m->r), v);
  return true;
}

static bool interesting_32(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                           size_t cap) {
  (void)cap;
  if (*len < 4)
    return false;
  size_t pos = rnd(m, *len - 3);
  uint32_t v = (uint32_t)interesting32[rnd(m, NELEM(interesting32))];
  store(b + pos, 4, cgofuzz_pcg_bool(&m->r), v);
  return true;
}

static bool insert_constant_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                                  size_t cap) {
  size_t l = *len;
  if (l <= 1)
    return false;
  size_t dst = rnd(m, l);
  size_t n = choose_len(m, 4096);
  if (l + n >= cap)
    return false;
  memmove(b + dst + n, b + dst, l - dst);
  memset(b + dst, (int)rnd(m, 256), n);
  *len = l + n;
  return true;
}

static bool overwrite_constant_bytes(cgofuzz_mutator *m, uint8_t *b,
                                     size_t *len, size_t cap) {
  (void)cap;
  size_t l = *len;
  if (l <= 1)
    return false;
  size_t dst = rnd(m, l);
  size_t n = choose_len(m, l - dst);
  memset(b + dst, (int)rnd(m, 256), n);
  return true;
}

static bool shuffle_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                          size_t cap) {
  (void)cap;
  size_t l = *len;
  if (l <= 1)
    return false;
  size_t dst = rnd(m, l);
  size_t n = choose_len(m, l - dst);
  if (n <= 2)
    return false;
  /* Fisher-Yates from the end of the range. */
  for (size_t i = n - 1; i > 0; i--) {
    size_t j = rnd(m, i + 1);
    uint8_t t = b[dst + i];
    b[dst + i] = b[dst + j];
    b[dst + j] = t;
  }
  return true;
}

static bool swap_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                       size_t cap) {
  size_t l = *len, src, dst;
  if (l <= 1)
    return false;
  two_positions(m, l, &src, &dst);
  size_t hi = src > dst ? src : dst;
  size_t n = choose_len(m, l - hi - 1);
  /* Go declines when the chunks touch, not only when they overlap. */
  if ((src > dst && dst + n >= src) || (dst > src && src + n >= dst))
    return false;
  if (l + n >= cap)
    return false;
  memmove(b + l, b + dst, n);
  memmove(b + dst, b + src, n);
  memmove(b + src, b + l, n);
  return true;
}

typedef bool (*byte_mutator)(cgofuzz_mutator *, uint8_t *, size_t *, size_t);

/* Go's byteSliceMutators table; the index drawn selects from it. */
static const byte_mutator byte_mutators[] = {
    remove_bytes,
    insert_random_bytes,
    duplicate_bytes,
    overwrite_bytes,
    bit_flip,
    xor_byte,
    swap_byte,
    arith8,
    arith16,
    arith32,
    arith64,
    interesting_8,
    interesting_16,
    interesting_32,
    insert_constant_bytes,
    overwrite_constant_bytes,
    shuffle_bytes,
    swap_bytes,
};

void cgofuzz_mutate_bytes(cgofuzz_mutator *m, uint8_t *b, size_t *len,
                          size_t cap) {
  /* With nothing to mutate and no room to insert, no mutator can ever
   * apply and Go would loop forever; leave the slice alone instead. */
  if (*len == 0 && cap < 2)
    return;
  for (;;) {
    byte_mutator f = byte_mutators[rnd(m, NELEM(byte_mutators))];
    if (f(m, b, len, cap))
      return;
  }
}
