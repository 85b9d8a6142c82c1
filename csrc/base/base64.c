/*
 * base64.c: standard base64 with padding, as Go's base64.StdEncoding.
 *
 * The coordinator encodes and decodes the coverage mask (tens of KB) in every
 * fuzz call, so both directions run a branch-light fast loop over whole
 * quanta and only fall back to a careful byte-at-a-time loop for the tail.
 *
 * Decoding follows StdEncoding.Decode, which encoding/json uses for []byte:
 *   - '\r' and '\n' are ignored anywhere in the input;
 *   - a final partial quantum must be padded ("QQ==", "QUE="), a single
 *     leftover character or missing padding is an error;
 *   - "=" in the first two positions of a quantum, a lone "=" where "=="
 *     is needed, and anything but newlines after the padding are errors;
 *   - unused low bits of the last character are not checked (Go's
 *     StdEncoding is not Strict), so "QR==" decodes like "QQ==".
 */
#include <stdint.h>
#include <string.h>

#include "base64.h"

static const char enc_tab[64] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

#define BAD 0xFF
/* 1 + the 6-bit value of each base64 character; 0 (the default) marks
 * everything else, so that dec6 maps it to BAD with one subtraction. */
static const uint8_t dec_tab[256] = {
    ['A'] = 1,  ['B'] = 2,  ['C'] = 3,  ['D'] = 4,  ['E'] = 5,  ['F'] = 6,
    ['G'] = 7,  ['H'] = 8,  ['I'] = 9,  ['J'] = 10, ['K'] = 11, ['L'] = 12,
    ['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16, ['Q'] = 17, ['R'] = 18,
    ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22, ['W'] = 23, ['X'] = 24,
    ['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29, ['d'] = 30,
    ['e'] = 31, ['f'] = 32, ['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36,
    ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42,
    ['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48,
    ['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54,
    ['2'] = 55, ['3'] = 56, ['4'] = 57, ['5'] = 58, ['6'] = 59, ['7'] = 60,
    ['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64};

static inline uint8_t dec6(uint8_t c) { return (uint8_t)(dec_tab[c] - 1); }

int cgofuzz_base64_encode(const uint8_t *p, size_t n, cgofuzz_buf *out) {
  if (n == 0)
    return 0; /* out->data may still be NULL */
  size_t olen = (n + 2) / 3 * 4;
  if (n > (SIZE_MAX / 4) * 3 - 3 || cgofuzz_buf_reserve(out, olen) != 0)
    return -1;
  uint8_t *o = out->data + out->len;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    o[0] = (uint8_t)enc_tab[v >> 18];
    o[1] = (uint8_t)enc_tab[(v >> 12) & 63];
    o[2] = (uint8_t)enc_tab[(v >> 6) & 63];
    o[3] = (uint8_t)enc_tab[v & 63];
    o += 4;
  }
  if (n - i == 1) {
    uint32_t v = (uint32_t)p[i] << 16;
    o[0] = (uint8_t)enc_tab[v >> 18];
    o[1] = (uint8_t)enc_tab[(v >> 12) & 63];
    o[2] = '=';
    o[3] = '=';
  } else if (n - i == 2) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
    o[0] = (uint8_t)enc_tab[v >> 18];
    o[1] = (uint8_t)enc_tab[(v >> 12) & 63];
    o[2] = (uint8_t)enc_tab[(v >> 6) & 63];
    o[3] = '=';
  }
  out->len += olen;
  return 0;
}

static int is_nl(uint8_t c) { return c == '\n' || c == '\r'; }

int cgofuzz_base64_decode(const char *str, size_t n, cgofuzz_buf *out) {
  const uint8_t *s = (const uint8_t *)str;
  /* Output never exceeds 3 bytes per 4 input characters. */
  if (cgofuzz_buf_reserve(out, n / 4 * 3 + 3) != 0)
    return -1;
  uint8_t *o = out->data + out->len;
  size_t i = 0;

  /* Fast loop: whole quanta of four plain characters. */
  while (i + 4 <= n) {
    uint8_t a = dec6(s[i]), b = dec6(s[i + 1]), c = dec6(s[i + 2]),
            d = dec6(s[i + 3]);
    if ((a | b | c | d) & 0xC0)
      break; /* newline, padding or garbage: let the slow loop decide */
    uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
    o[0] = (uint8_t)(v >> 16);
    o[1] = (uint8_t)(v >> 8);
    o[2] = (uint8_t)v;
    o += 3;
    i += 4;
  }

  /* Slow loop: one quantum at a time, skipping newlines. */
  for (;;) {
    uint8_t q[4];
    int j = 0;
    while (j < 4) {
      if (i == n) {
        if (j == 0)
          goto done;
        return -1; /* partial quantum without padding */
      }
      uint8_t ch = s[i++];
      if (is_nl(ch))
        continue;
      uint8_t v = dec6(ch);
      if (v != BAD) {
        q[j++] = v;
        continue;
      }
      if (ch != '=' || j < 2)
        return -1;
      if (j == 2) { /* "==" needed; newlines may sit between the two */
        while (i < n && is_nl(s[i]))
          i++;
        if (i == n || s[i] != '=')
          return -1;
        i++;
      }
      while (i < n && is_nl(s[i]))
        i++;
      if (i < n)
        return -1; /* nothing but newlines may follow the padding */
      o[0] = (uint8_t)(q[0] << 2 | q[1] >> 4);
      if (j == 3)
        o[1] = (uint8_t)(q[1] << 4 | q[2] >> 2);
      o += j - 1;
      goto done;
    }
    o[0] = (uint8_t)(q[0] << 2 | q[1] >> 4);
    o[1] = (uint8_t)(q[1] << 4 | q[2] >> 2);
    o[2] = (uint8_t)(q[2] << 6 | q[3]);
    o += 3;
  }
done:
  out->len = (size_t)(o - out->data);
  return 0;
}
