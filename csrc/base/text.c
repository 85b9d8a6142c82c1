/*
 * text.c: UTF-8 runes and hex digits, the text primitives every layer
 * decodes with (the corpus codec, the wire's JSON, dictionaries).
 *
 * Decoding follows Go's unicode/utf8.DecodeRune: an invalid or truncated
 * sequence is U+FFFD with width 1, so callers that quote bytes write each
 * bad byte as \xNN exactly where Go does.
 */
#include "text.h"

#include <stdbool.h>
#include <string.h>

static bool is_cont(uint8_t c) { return (c & 0xC0) == 0x80; }

int cgofuzz_utf8_decode(const uint8_t *s, size_t n, int32_t *r) {
  uint8_t c = s[0];
  if (c < 0x80) {
    *r = c;
    return 1;
  }
  /* The second byte's allowed range excludes overlong forms, surrogates
   * and values above U+10FFFF, as in Go's accept ranges. */
  int need;
  uint8_t lo = 0x80, hi = 0xBF;
  int32_t v;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1, v = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2, v = c & 0x0F;
    if (c == 0xE0)
      lo = 0xA0;
    else if (c == 0xED)
      hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3, v = c & 0x07;
    if (c == 0xF0)
      lo = 0x90;
    else if (c == 0xF4)
      hi = 0x8F;
  } else {
    goto bad;
  }
  if (n < (size_t)need + 1 || s[1] < lo || s[1] > hi)
    goto bad;
  for (int i = 1; i <= need; i++) {
    if (!is_cont(s[i]))
      goto bad;
    v = (v << 6) | (s[i] & 0x3F);
  }
  *r = v;
  return need + 1;
bad:
  *r = CGOFUZZ_RUNE_ERROR;
  return 1;
}

int cgofuzz_utf8_encode(int32_t r, uint8_t out[4]) {
  uint32_t u = (uint32_t)r;
  if (u < 0x80) {
    out[0] = (uint8_t)u;
    return 1;
  }
  if (u < 0x800) {
    out[0] = (uint8_t)(0xC0 | (u >> 6));
    out[1] = (uint8_t)(0x80 | (u & 0x3F));
    return 2;
  }
  if (u < 0x10000) {
    out[0] = (uint8_t)(0xE0 | (u >> 12));
    out[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
    out[2] = (uint8_t)(0x80 | (u & 0x3F));
    return 3;
  }
  out[0] = (uint8_t)(0xF0 | (u >> 18));
  out[1] = (uint8_t)(0x80 | ((u >> 12) & 0x3F));
  out[2] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
  out[3] = (uint8_t)(0x80 | (u & 0x3F));
  return 4;
}

int cgofuzz_hexval(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

const uint8_t *cgofuzz_text_find(const uint8_t *p, size_t n, const char *s,
                                 size_t k) {
  const uint8_t *end = p + n, *q = p;
  while (k && (size_t)(end - q) >= k &&
         (q = memchr(q, s[0], (size_t)(end - q) - k + 1)) != NULL) {
    if (memcmp(q, s, k) == 0)
      return q;
    q++;
  }
  return NULL;
}
