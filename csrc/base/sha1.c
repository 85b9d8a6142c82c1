/*
 * sha1.c: SHA-1 (FIPS 180-1) of a byte string.
 *
 * libFuzzer names corpus and artifact files after the SHA-1 of their bytes,
 * so this must be bit-exact. As with sha256.c the input is always a whole
 * in-memory buffer, hence the one-shot interface.
 */
#include <string.h>

#include "sha1.h"

static inline uint32_t rol(uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

static void block(uint32_t h[5], const uint8_t *p) {
  uint32_t w[80];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
           (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  /* The rotate by one is the FIPS 180-1 fix over the original SHA(-0). */
  for (int i = 16; i < 80; i++)
    w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int i = 0; i < 80; i++) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    uint32_t t = rol(a, 5) + f + e + k + w[i];
    e = d;
    d = c;
    c = rol(b, 30);
    b = a;
    a = t;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

void cgofuzz_sha1(const uint8_t *p, size_t n, uint8_t out[20]) {
  uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    block(h, p + i);
  /* Tail, the 0x80 marker and the 64-bit big-endian bit length fill one
   * block, or two when fewer than 9 bytes of the first are left. */
  uint8_t tail[128] = {0};
  size_t r = n - i;
  if (r)
    memcpy(tail, p + i, r);
  tail[r] = 0x80;
  size_t tlen = r < 56 ? 64 : 128;
  uint64_t bits = (uint64_t)n * 8;
  for (int j = 0; j < 8; j++)
    tail[tlen - 1 - j] = (uint8_t)(bits >> (8 * j));
  block(h, tail);
  if (tlen == 128)
    block(h, tail + 64);
  for (int j = 0; j < 5; j++) {
    out[4 * j] = (uint8_t)(h[j] >> 24);
    out[4 * j + 1] = (uint8_t)(h[j] >> 16);
    out[4 * j + 2] = (uint8_t)(h[j] >> 8);
    out[4 * j + 3] = (uint8_t)h[j];
  }
}

void cgofuzz_sha1_hex(const uint8_t *p, size_t n, char out[41]) {
  static const char hex[] = "0123456789abcdef";
  uint8_t sum[20];
  cgofuzz_sha1(p, n, sum);
  for (int i = 0; i < 20; i++) {
    out[2 * i] = hex[sum[i] >> 4];
    out[2 * i + 1] = hex[sum[i] & 0xF];
  }
  out[40] = 0;
}
