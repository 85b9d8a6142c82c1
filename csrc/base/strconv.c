/*
 * strconv.c: integers as Go's strconv.ParseInt/ParseUint read them with
 * base 0: 0x/0o/0b and leading-0 octal prefixes, '_' separators checked
 * as strconv's underscoreOK checks them, range errors after syntax errors.
 * The corpus codec reads integer literals with it and the flag table reads
 * flag values with it, so both take exactly what Go takes.
 */
#include "strconv.h"

#include <stdbool.h>

static uint8_t lower(uint8_t c) { return c | 0x20; }
static bool is_dec(uint8_t c) { return c >= '0' && c <= '9'; }

/* strconv's underscoreOK: '_' may only separate digits (a base prefix
 * counts as a digit). */
bool cgofuzz_underscore_ok(const char *s, size_t n) {
  char saw = '^';
  size_t i = 0;
  if (n >= 1 && (s[0] == '-' || s[0] == '+'))
    s++, n--;
  bool hex = false;
  if (n >= 2 && s[0] == '0') {
    uint8_t c = lower((uint8_t)s[1]);
    if (c == 'b' || c == 'o' || c == 'x') {
      i = 2, saw = '0', hex = c == 'x';
    }
  }
  for (; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    if (is_dec(c) || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0')
        return false;
      saw = '_';
      continue;
    }
    if (saw == '_')
      return false;
    saw = '!';
  }
  return saw != '_';
}

int cgofuzz_parse_uint(const char *s0, size_t n0, int bits, uint64_t *out) {
  *out = 0;
  if (n0 == 0)
    return CGOFUZZ_NUM_SYNTAX;
  const char *s = s0;
  size_t n = n0;
  unsigned base = 10;
  if (s[0] == '0') {
    uint8_t c = n >= 3 ? lower((uint8_t)s[1]) : 0;
    base = c == 'b' ? 2 : c == 'o' ? 8 : c == 'x' ? 16 : 8;
    size_t skip = (c == 'b' || c == 'o' || c == 'x') ? 2 : 1;
    s += skip, n -= skip;
  }
  uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  uint64_t cutoff = UINT64_MAX / base + 1;
  bool underscores = false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    unsigned d;
    if (c == '_') {
      underscores = true;
      continue;
    } else if (is_dec(c)) {
      d = c - '0';
    } else if (lower(c) >= 'a' && lower(c) <= 'z') {
      d = lower(c) - 'a' + 10u;
    } else {
      return CGOFUZZ_NUM_SYNTAX;
    }
    if (d >= base)
      return CGOFUZZ_NUM_SYNTAX;
    if (v >= cutoff) {
      *out = max;
      return CGOFUZZ_NUM_RANGE;
    }
    v *= base;
    uint64_t v1 = v + d;
    if (v1 < v || v1 > max) {
      *out = max;
      return CGOFUZZ_NUM_RANGE;
    }
    v = v1;
  }
  if (underscores && !cgofuzz_underscore_ok(s0, n0))
    return CGOFUZZ_NUM_SYNTAX;
  *out = v;
  return CGOFUZZ_NUM_OK;
}

int cgofuzz_parse_int(const char *s, size_t n, int bits, int64_t *out) {
  *out = 0;
  if (n == 0)
    return CGOFUZZ_NUM_SYNTAX;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    s++, n--;
  }
  uint64_t u;
  int rc = cgofuzz_parse_uint(s, n, bits, &u);
  if (rc == CGOFUZZ_NUM_SYNTAX)
    return rc;
  uint64_t cutoff = UINT64_C(1) << (bits - 1);
  if (rc == CGOFUZZ_NUM_RANGE || (!neg && u >= cutoff) || (neg && u > cutoff))
    return CGOFUZZ_NUM_RANGE;
  *out = neg ? (int64_t)(0 - u) : (int64_t)u;
  return CGOFUZZ_NUM_OK;
}
