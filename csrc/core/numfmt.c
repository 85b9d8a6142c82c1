/*
 * numfmt.c: numbers as Go's strconv and fmt read and write them.
 *
 * Parsing integers is base/strconv.c's (flags parse them too); parsing here
 * is strconv.ParseFloat (decimal and hexadecimal syntax, '_' separators,
 * exponent accumulation that saturates as Go's does, overflow an error and
 * underflow not). The final decimal-or-hex to binary rounding is delegated
 * to glibc's strtod/strtof, which round correctly, as Go does; we hand them
 * a normalised string built from the digits Go would use.
 *
 * Formatting is fmt's %v: strconv 'g' with the shortest digits that read
 * back to the same value (closest to the exact value among those), %e
 * style when the decimal exponent is < -4 or >= 6 (Go's rule for the
 * shortest precision), "+Inf", "-Inf", "NaN", "-0".
 */
#include "codec.h"
#include "codec_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t lower(uint8_t c) { return c | 0x20; }
static bool is_dec(uint8_t c) { return c >= '0' && c <= '9'; }

/* ---- ParseFloat ---- */

/* Reads s as strconv's readFloat does and, if the whole string is a valid
 * number, writes to norm a string strtod reads as the same value:
 * "-0.<digits>e<dp>" or "-0x0.<hexdigits>p<dp>". norm must hold n + 32
 * bytes. Returns false on syntax error. */
static bool normalize_float(const char *s, size_t n, char *norm) {
  size_t i = 0, k = 0;
  bool underscores = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) {
    if (s[i] == '-')
      norm[k++] = '-';
    i++;
  }
  bool hex = false;
  if (i + 2 < n && s[i] == '0' && lower((uint8_t)s[i + 1]) == 'x') {
    hex = true;
    i += 2;
  }
  memcpy(norm + k, hex ? "0x0." : "0.", hex ? 4 : 2);
  k += hex ? 4 : 2;
  bool sawdot = false, sawdigits = false;
  long nd = 0, dp = 0;
  for (; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    if (c == '_') {
      underscores = true;
    } else if (c == '.') {
      if (sawdot)
        break;
      sawdot = true;
      dp = nd;
    } else if (is_dec(c) || (hex && lower(c) >= 'a' && lower(c) <= 'f')) {
      sawdigits = true;
      if (c == '0' && nd == 0) { /* leading zeros only move the point */
        dp--;
        continue;
      }
      nd++;
      norm[k++] = (char)c;
    } else {
      break;
    }
  }
  if (!sawdigits)
    return false;
  if (!sawdot)
    dp = nd;
  if (hex)
    dp *= 4;
  if (nd == 0)
    norm[k++] = '0';
  char exp_char = hex ? 'p' : 'e';
  if (i < n && lower((uint8_t)s[i]) == exp_char) {
    i++;
    if (i >= n)
      return false;
    int esign = 1;
    if (s[i] == '+' || s[i] == '-') {
      esign = s[i] == '-' ? -1 : 1;
      i++;
    }
    if (i >= n || !is_dec((uint8_t)s[i]))
      return false;
    long e = 0;
    for (; i < n && (is_dec((uint8_t)s[i]) || s[i] == '_'); i++) {
      if (s[i] == '_') {
        underscores = true;
        continue;
      }
      if (e < 10000) /* Go stops accumulating here; so must we */
        e = e * 10 + (s[i] - '0');
    }
    dp += e * esign;
  } else if (hex) {
    return false; /* a hex mantissa needs a 'p' exponent */
  }
  if (i != n || (underscores && !cgofuzz_underscore_ok(s, i)))
    return false;
  snprintf(norm + k, 32, "%c%ld", exp_char, dp);
  return true;
}

/* Handles "+Inf", "-Inf", "NaN", the only non-numeric strings the decoder
 * passes (Go's ParseFloat accepts more spellings; they cannot reach it). */
static int special(const char *s, size_t n, double *out) {
  uint64_t bits;
  if (n == 3 && memcmp(s, "NaN", 3) == 0)
    bits = UINT64_C(0x7FF8000000000001);
  else if (n == 4 && memcmp(s, "+Inf", 4) == 0)
    bits = UINT64_C(0x7FF0000000000000);
  else if (n == 4 && memcmp(s, "-Inf", 4) == 0)
    bits = UINT64_C(0xFFF0000000000000);
  else
    return 0;
  memcpy(out, &bits, 8);
  return 1;
}

/* Rounds a normalised hex string "[-]0x0.<digits>p<exp>" (as built above)
 * to the nearest float of precision prec bits (24 or 53) with minimum
 * normal exponent emin, ties to even, returning its bits. glibc 2.36's
 * strtof misrounds some hex subnormals, so this one is done by hand. Sets
 * *overflow when the result is infinite. */
static uint64_t hex_round(const char *s, int prec, int emin, bool *overflow) {
  bool neg = *s == '-';
  s += neg ? 5 : 4; /* past "0x0." */
  uint64_t mant = 0;
  int taken = 0;
  bool sticky = false;
  for (; *s != 'p'; s++) {
    int d = is_dec((uint8_t)*s) ? *s - '0' : lower((uint8_t)*s) - 'a' + 10;
    if (taken < 15) { /* 60 bits: room to shift without overflow */
      mant = mant << 4 | (uint64_t)d;
      taken++;
    } else if (d) {
      sticky = true;
    }
  }
  long e2 = strtol(s + 1, NULL, 10) - 4L * taken; /* value ~ mant * 2^e2 */
  int mbits = prec - 1, maxe = prec == 24 ? 255 : 2047;
  uint64_t sign = neg ? UINT64_C(1) << (prec == 24 ? 31 : 63) : 0;
  *overflow = false;
  if (mant == 0)
    return sign;
  int top = 63 - __builtin_clzll(mant);
  long e = top + e2; /* value in [2^e, 2^(e+1)) */
  bool denorm = e < emin;
  long qexp = (denorm ? emin : e) - mbits; /* weight of the last kept bit */
  long shift = qexp - e2;
  uint64_t q;
  if (shift <= 0) {
    q = mant << -shift; /* exact: at most prec bits */
  } else if (shift > 61) {
    q = 0; /* below a quarter of the smallest step */
  } else {
    q = mant >> shift;
    uint64_t rem = mant & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    if (rem > half || (rem == half && (sticky || (q & 1))))
      q++;
  }
  if (denorm) /* a carry into bit mbits makes it the smallest normal */
    return sign | q;
  long biased = e - emin + 1;
  if (q >> prec) {
    q >>= 1;
    biased++;
  }
  if (biased >= maxe) {
    *overflow = true;
    return sign | (uint64_t)maxe << mbits;
  }
  return sign | (uint64_t)biased << mbits | (q & ((UINT64_C(1) << mbits) - 1));
}

/* ParseFloat for a finite literal, to float64 (prec 53) or float32 (24)
 * bits. */
static int parse_bits(const char *s, size_t n, int prec, uint64_t *bits) {
  char stack[256];
  char *norm = n + 32 <= sizeof stack ? stack : malloc(n + 32);
  *bits = 0;
  if (!norm)
    return CGOFUZZ_NUM_SYNTAX;
  int rc = CGOFUZZ_NUM_SYNTAX;
  if (normalize_float(s, n, norm)) {
    bool ovf;
    if (strchr(norm, 'x')) {
      *bits = hex_round(norm, prec, prec == 24 ? -126 : -1022, &ovf);
    } else if (prec == 24) {
      float f = strtof(norm, NULL);
      uint32_t b;
      memcpy(&b, &f, 4);
      *bits = b;
      ovf = (b & 0x7FFFFFFFu) == 0x7F800000u;
    } else {
      double d = strtod(norm, NULL);
      memcpy(bits, &d, 8);
      ovf = (*bits & UINT64_C(0x7FFFFFFFFFFFFFFF)) ==
            UINT64_C(0x7FF0000000000000);
    }
    rc = ovf ? CGOFUZZ_NUM_RANGE : CGOFUZZ_NUM_OK;
  }
  if (norm != stack)
    free(norm);
  return rc;
}

int cgofuzz_numfmt_parse_float64(const char *s, size_t n, double *out) {
  uint64_t b;
  if (special(s, n, out))
    return CGOFUZZ_NUM_OK;
  int rc = parse_bits(s, n, 53, &b);
  memcpy(out, &b, 8);
  return rc;
}

int cgofuzz_numfmt_parse_float32(const char *s, size_t n, float *out) {
  double d;
  uint64_t b;
  int rc = CGOFUZZ_NUM_OK;
  if (special(s, n, &d)) {
    memcpy(&b, &d, 8);
    /* float32(math.NaN()) and the infinities, by their bits. */
    b = (b >> 63 ? 0x80000000u : 0) |
        ((b & UINT64_C(0xFFFFFFFFFFFFF)) ? 0x7FC00000u : 0x7F800000u);
  } else {
    rc = parse_bits(s, n, 24, &b);
  }
  uint32_t b32 = (uint32_t)b;
  memcpy(out, &b32, 4);
  return rc;
}

/* ---- %v formatting ---- */

/* Does the decimal digits[0..nd) x 10^(e10 - nd + 1) read back as the
 * value with the given bits? */
static bool round_trips(const char *digits, int nd, int e10, bool is32,
                        uint64_t bits) {
  char s[64];
  snprintf(s, sizeof s, "%c.%.*se%d", digits[0], nd - 1, digits + 1, e10);
  if (is32) {
    float f = strtof(s, NULL);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b == bits;
  }
  double d = strtod(s, NULL);
  uint64_t b;
  memcpy(&b, &d, 8);
  return b == bits;
}

/* Adds delta (+1 or -1) to the last of nd digits, carrying; keeps the
 * same count of digits by moving e10 when the leading digit changes
 * magnitude (999+1 -> 100 e+1, 100-1 -> 999 e-1). */
static void step(char *d, int nd, int *e10, int delta) {
  int i = nd - 1;
  if (delta > 0) {
    while (i >= 0 && d[i] == '9')
      d[i--] = '0';
    if (i >= 0) {
      d[i]++;
    } else {
      d[0] = '1'; /* 10...0: shift, dropping a trailing zero */
      (*e10)++;
    }
  } else {
    while (i >= 0 && d[i] == '0')
      d[i--] = '9';
    d[i]--; /* d[0] >= '1', so i >= 0 */
    if (d[0] == '0') {
      memmove(d, d + 1, (size_t)nd - 1);
      d[nd - 1] = '9';
      (*e10)--;
    }
  }
}

/* go1.26's Dragonbox, for a power of two whose rounding interval is
 * lopsided, rounds an exact tie between two shortest candidates up, where
 * printf rounds to even; except at the one binary exponent (-77) where it
 * rounds to even too. Ryu (go1.18-go1.25) and go1.27's algorithm round to
 * even (gover.h: cgofuzz_gover_float_tie_up; only float32 2^-12 differs).
 * Returns the exact decimal digits of ax in exact (NUL terminated, no trailing
 * zeros) when those ties must go up, else NULL. */
static const char *tie_up_digits(double ax, bool is32, uint64_t bits,
                                 char *exact, size_t size) {
  int mbits = is32 ? 23 : 52;
  int e = (int)(bits >> mbits);
  if ((bits & ((UINT64_C(1) << mbits) - 1)) != 0 || e == 0)
    return NULL; /* not a normal power of two */
  if (e - (is32 ? 150 : 1075) == -77)
    return NULL;
  /* Large enough for every exact power of two in either format. */
  snprintf(exact, size, "%.*e", 800, ax);
  char *p = exact;
  for (char *q = exact; *q != 'e'; q++)
    if (*q != '.')
      *p++ = *q;
  while (p > exact + 1 && p[-1] == '0')
    p--;
  *p = 0;
  return exact;
}

/* Shortest digits of the finite nonzero |x|: out holds nd digits (no
 * trailing zeros), value = 0.out x 10^dp. */
static int shortest(double ax, bool is32, uint64_t bits, bool tie_up, char *out,
                    int *dp) {
  int maxd = is32 ? 9 : 17;
  char exact[832];
  const char *tie =
      tie_up ? tie_up_digits(ax, is32, bits, exact, sizeof exact) : NULL;
  for (int nd = 1; nd <= maxd; nd++) {
    char s[64];
    snprintf(s, sizeof s, "%.*e", nd - 1, ax);
    char d[32];
    int k = 0;
    const char *p = s;
    for (; *p != 'e'; p++)
      if (*p != '.')
        d[k++] = *p;
    int e10 = atoi(p + 1);
    char cand[3][32];
    int ce[3] = {e10, e10, e10};
    /* An exact tie that printf rounded down (to even): take the upper. */
    if (tie && strlen(tie) == (size_t)nd + 1 && tie[nd] == '5' &&
        memcmp(d, tie, (size_t)nd) == 0)
      step(d, nd, &e10, +1);
    for (int c = 0; c < 3; c++)
      memcpy(cand[c], d, (size_t)nd);
    step(cand[1], nd, &ce[1], +1);
    step(cand[2], nd, &ce[2], -1);
    for (int c = 0; c < 3; c++) {
      if (round_trips(cand[c], nd, ce[c], is32, bits)) {
        int len = nd;
        while (len > 1 && cand[c][len - 1] == '0')
          len--;
        memcpy(out, cand[c], (size_t)len);
        *dp = ce[c] + 1;
        return len;
      }
    }
  }
  /* Unreachable: 17 (9) digits always round-trip. */
  snprintf(out, 32, "%.*e", maxd - 1, ax);
  *dp = 1;
  return 1;
}

static int format_finite(double x, bool is32, uint64_t bits, bool neg,
                         bool tie_up, cgofuzz_buf *out) {
  char d[32];
  int dp, nd = shortest(neg ? -x : x, is32, bits, tie_up, d, &dp);
  char s[64];
  int k = 0;
  if (neg)
    s[k++] = '-';
  int exp = dp - 1;
  if (exp < -4 || exp >= 6) {
    s[k++] = d[0];
    if (nd > 1) {
      s[k++] = '.';
      memcpy(s + k, d + 1, (size_t)nd - 1);
      k += nd - 1;
    }
    k += snprintf(s + k, sizeof s - (size_t)k, "e%c%02d", exp < 0 ? '-' : '+',
                  exp < 0 ? -exp : exp);
  } else {
    if (dp > 0) {
      for (int i = 0; i < dp; i++)
        s[k++] = i < nd ? d[i] : '0';
    } else {
      s[k++] = '0';
    }
    int prec = nd - dp > 0 ? nd - dp : 0;
    if (prec > 0) {
      s[k++] = '.';
      for (int i = 1; i <= prec; i++) {
        int j = dp + i - 1;
        s[k++] = j >= 0 && j < nd ? d[j] : '0';
      }
    }
  }
  return cgofuzz_buf_append(out, s, (size_t)k);
}

int cgofuzz_numfmt_format_float64(double f, cgofuzz_buf *out) {
  return cgofuzz_numfmt_format_float64_v(f, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_numfmt_format_float64_v(double f, cgofuzz_gover g,
                                    cgofuzz_buf *out) {
  uint64_t b;
  memcpy(&b, &f, 8);
  bool neg = b >> 63;
  uint64_t mag = b & UINT64_C(0x7FFFFFFFFFFFFFFF);
  if (mag > UINT64_C(0x7FF0000000000000))
    return cgofuzz_buf_puts(out, "NaN");
  if (mag == UINT64_C(0x7FF0000000000000))
    return cgofuzz_buf_puts(out, neg ? "-Inf" : "+Inf");
  if (mag == 0)
    return cgofuzz_buf_puts(out, neg ? "-0" : "0");
  return format_finite(f, false, mag, neg, cgofuzz_gover_float_tie_up(g), out);
}

int cgofuzz_numfmt_format_float32(float f, cgofuzz_buf *out) {
  return cgofuzz_numfmt_format_float32_v(f, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_numfmt_format_float32_v(float f, cgofuzz_gover g,
                                    cgofuzz_buf *out) {
  uint32_t b;
  memcpy(&b, &f, 4);
  bool neg = b >> 31;
  uint32_t mag = b & 0x7FFFFFFFu;
  if (mag > 0x7F800000u)
    return cgofuzz_buf_puts(out, "NaN");
  if (mag == 0x7F800000u)
    return cgofuzz_buf_puts(out, neg ? "-Inf" : "+Inf");
  if (mag == 0)
    return cgofuzz_buf_puts(out, neg ? "-0" : "0");
  return format_finite((double)f, true, mag, neg, cgofuzz_gover_float_tie_up(g),
                       out);
}
