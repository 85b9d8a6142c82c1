/*
 * coord_fmt.c: Go's spellings of time: the elapsed time in progress lines
 * (time.Duration.String of a duration rounded to whole seconds), and the
 * -fuzztime style values the CLI and C targets' flags take.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"

int cgofuzz_fmt_secs(cgofuzz_buf *b, int64_t secs) {
  if (secs < 60)
    return cgofuzz_buf_printf(b, "%" PRId64 "s", secs);
  if (secs < 3600)
    return cgofuzz_buf_printf(b, "%" PRId64 "m%" PRId64 "s", secs / 60,
                              secs % 60);
  return cgofuzz_buf_printf(b, "%" PRId64 "h%" PRId64 "m%" PRId64 "s",
                            secs / 3600, secs / 60 % 60, secs % 60);
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
