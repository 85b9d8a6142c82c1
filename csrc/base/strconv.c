/*
 * strconv.c: integers as Go's strconv.ParseInt/ParseUint read them with
 * base 0: 0x/0o/0b and leading-0 octal prefixes, '_' separators checked
 * as strconv's underscoreOK checks them, range errors after syntax errors.
 * The corpus codec reads integer literals with it and the flag table reads
 * flag values with it, so both take exactly what Go takes. Durations are
 * time.ParseDuration's, and "-fuzztime" values the testing package's.
 */
#include "strconv.h"

#include <stdbool.h>
#include <string.h>

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

/* Go's time.ParseDuration, in integers as Go does it (a double would
 * round 2562047h47m16.854775807s and overflow silently): a sign, then one
 * or more decimal numbers with an optional fraction, each followed by a
 * unit. Returns 0 and the value's magnitude in *mag (up to 2^63) and its
 * sign in *neg, or -1. */
static int go_duration(const char *s, uint64_t *mag, bool *neg) {
  static const struct {
    const char *u;
    uint64_t mult;
  } units[] = {{"ns", 1},           {"us", 1000},
               {"\xc2\xb5s", 1000}, /* U+00B5 MICRO SIGN */
               {"\xce\xbcs", 1000}, /* U+03BC GREEK SMALL LETTER MU */
               {"ms", 1000000},     {"s", 1000000000},
               {"m", 60000000000},  {"h", 3600000000000}};
  const uint64_t lim = (uint64_t)1 << 63;
  uint64_t d = 0;
  *neg = false;
  if (*s == '-' || *s == '+')
    *neg = *s++ == '-';
  if (strcmp(s, "0") == 0) {
    *mag = 0;
    return 0;
  }
  if (!*s)
    return -1;
  while (*s) {
    if (*s != '.' && !(*s >= '0' && *s <= '9'))
      return -1;
    uint64_t v = 0, f = 0;
    double scale = 1;
    const char *p = s;
    for (; *s >= '0' && *s <= '9'; s++) { /* leadingInt */
      if (v > lim / 10)
        return -1;
      v = v * 10 + (uint64_t)(*s - '0');
      if (v > lim)
        return -1;
    }
    bool pre = s != p, post = false;
    if (*s == '.') { /* leadingFraction: extra digits are dropped */
      p = ++s;
      bool over = false;
      for (; *s >= '0' && *s <= '9'; s++) {
        if (over || f > (lim - 1) / 10) {
          over = true;
          continue;
        }
        uint64_t y = f * 10 + (uint64_t)(*s - '0');
        if (y > lim) {
          over = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = s != p;
    }
    if (!pre && !post)
      return -1;
    size_t ul = 0;
    while (s[ul] && s[ul] != '.' && !(s[ul] >= '0' && s[ul] <= '9'))
      ul++;
    if (ul == 0)
      return -1; /* missing unit */
    uint64_t unit = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
      if (strlen(units[i].u) == ul && memcmp(s, units[i].u, ul) == 0)
        unit = units[i].mult;
    if (!unit)
      return -1; /* unknown unit */
    s += ul;
    if (v > lim / unit)
      return -1;
    v *= unit;
    if (f > 0) {
      v += (uint64_t)((double)f * ((double)unit / scale));
      if (v > lim)
        return -1;
    }
    d += v;
    if (d > lim)
      return -1;
  }
  *mag = d;
  return 0;
}

int cgofuzz_parse_go_duration(const char *s, int64_t *ns) {
  uint64_t mag;
  bool neg;
  *ns = 0;
  if (go_duration(s, &mag, &neg) != 0 || (!neg && mag > (uint64_t)INT64_MAX))
    return -1;
  *ns = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  return 0;
}

int cgofuzz_parse_duration(const char *s, int64_t *ns, int64_t *count) {
  *ns = 0;
  *count = 0;
  size_t l = strlen(s);
  if (l > 0 && s[l - 1] == 'x') {
    /* strconv.ParseInt(s[:len(s)-1], 10, 64): an optional sign, then
     * decimal digits only; overflow is an error. */
    const char *p = s;
    bool neg = false;
    if (*p == '+' || *p == '-')
      neg = *p++ == '-';
    if (p == s + l - 1)
      return -1;
    uint64_t v = 0;
    for (; p < s + l - 1; p++) {
      if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
        return -1;
      v = v * 10 + (uint64_t)(*p - '0');
      if (v > (uint64_t)INT64_MAX)
        return -1;
    }
    if (neg && v != 0)
      return -1; /* -fuzztime refuses a negative count */
    *count = (int64_t)v;
    return 0;
  }
  uint64_t mag;
  bool neg;
  if (go_duration(s, &mag, &neg) != 0)
    return -1;
  if (neg ? mag != 0 : mag > (uint64_t)INT64_MAX)
    return -1; /* negative (refused by -fuzztime) or over Go's maximum */
  *ns = (int64_t)mag;
  return 0;
}
