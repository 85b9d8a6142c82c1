/*
 * json.c: tokenizer, string unquoting, value skipping and string/number
 * writing for the worker-protocol messages (see json_internal.h).
 *
 * Everything here is linear in the input and bounds-checked against the
 * message length; nothing recurses.
 */
#include <stdio.h>
#include <string.h>

#include "json_internal.h"
#include "text.h"

int cgofuzz_json_fail(cgofuzz_json_rd *r, const char *what) {
  return cgofuzz_errf(r->err, 0, "offset %zu: %s", r->pos, what);
}

int cgofuzz_json_expect(cgofuzz_json_rd *r, uint8_t c) {
  int got = cgofuzz_json_peek(r);
  if (got != c) {
    char msg[64];
    if (got < 0)
      snprintf(msg, sizeof msg, "unexpected end of input, want '%c'", c);
    else
      snprintf(msg, sizeof msg, "invalid character 0x%02x, want '%c'", got, c);
    return cgofuzz_json_fail(r, msg);
  }
  r->pos++;
  return 0;
}

/* Byte classes inside a string: plain ASCII, high (>= 0x80), or something
 * the scanner has to look at ('"', '\\', control characters). */
enum { C_PLAIN = 0, C_HI = 1, C_STOP = 2 };
static const uint8_t str_class[256] = {
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* 1 + the value of a hex digit, 0 for anything else. */
static const uint8_t hex_val[256] = {
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  1,  2,  3,  4, 5, 6, 7, 8, 9, 10, 0,  0,
    0,  0,  0,  0, 0, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 11, 12, 13,
    14, 15, 16, 0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0, 0, 0,  0,  0,
    0,  0,  0,  0, 0, 0,  0,  0,  0,  0,  0,  0, 0, 0, 0, 0};

int cgofuzz_json_scan_string(cgofuzz_json_rd *r, size_t *start, size_t *end,
                             unsigned *flags) {
  if (cgofuzz_json_peek(r) != '"')
    return cgofuzz_json_fail(r, "want a string");
  const uint8_t *p = r->p;
  size_t i = r->pos + 1, n = r->n;
  unsigned fl = 0;
  *start = i;
  for (;;) {
    /* Eight bytes at a time while none is '"', '\\', a control character
     * or >= 0x80: this is the whole of a base64 coverage mask. */
    while (n - i >= 8) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
      uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
      uint64_t hit = ((w - ones * 0x20) | (q - ones) | (bs - ones) | w) & highs;
      if (hit)
        break;
      i += 8;
    }
    uint8_t cls;
    while (i < n && (cls = str_class[p[i]]) != C_STOP) {
      fl |= cls; /* remembers C_HI */
      i++;
    }
    if (i == n) {
      r->pos = i;
      return cgofuzz_json_fail(r, "unexpected end of input in string");
    }
    uint8_t c = p[i];
    if (c == '"')
      break;
    if (c < 0x20) {
      r->pos = i;
      return cgofuzz_json_fail(r, "control character in string");
    }
    /* Backslash. */
    fl |= 4; /* remembers an escape */
    if (i + 1 >= n) {
      r->pos = n;
      return cgofuzz_json_fail(r, "unexpected end of input in string escape");
    }
    uint8_t e = p[i + 1];
    if (e == 'u') {
      if (i + 6 > n || !hex_val[p[i + 2]] || !hex_val[p[i + 3]] ||
          !hex_val[p[i + 4]] || !hex_val[p[i + 5]]) {
        r->pos = i;
        return cgofuzz_json_fail(r, "invalid \\u escape in string");
      }
      i += 6;
    } else if (e != 0 && strchr("\"\\/bfnrt", e)) {
      i += 2;
    } else {
      r->pos = i;
      return cgofuzz_json_fail(r, "invalid escape in string");
    }
  }
  *end = i;
  *flags = ((fl & 4) ? CGOFUZZ_JSON_STR_ESC : 0) |
           ((fl & C_HI) ? CGOFUZZ_JSON_STR_HI : 0);
  r->pos = i + 1;
  return 0;
}

static unsigned hex4(const uint8_t *s) {
  return (unsigned)(hex_val[s[0]] - 1) << 12 |
         (unsigned)(hex_val[s[1]] - 1) << 8 |
         (unsigned)(hex_val[s[2]] - 1) << 4 | (unsigned)(hex_val[s[3]] - 1);
}

size_t cgofuzz_json_unquote(const uint8_t *s, size_t n, uint8_t *out) {
  uint8_t *o = out;
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c >= 0x80) {
      size_t l = cgofuzz_json_utf8_len(s + i, n - i);
      if (l == 0) { /* each bad byte becomes one U+FFFD, as in Go */
        o += cgofuzz_utf8_encode(CGOFUZZ_RUNE_ERROR, o);
        i++;
      } else {
        memcpy(o, s + i, l);
        o += l;
        i += l;
      }
      continue;
    }
    if (c != '\\') {
      *o++ = c;
      i++;
      continue;
    }
    uint8_t e = s[i + 1]; /* scan_string guarantees a complete escape */
    i += 2;
    switch (e) {
    case 'b':
      *o++ = '\b';
      break;
    case 'f':
      *o++ = '\f';
      break;
    case 'n':
      *o++ = '\n';
      break;
    case 'r':
      *o++ = '\r';
      break;
    case 't':
      *o++ = '\t';
      break;
    case 'u': {
      unsigned r = hex4(s + i);
      i += 4;
      if (r >= 0xD800 && r < 0xE000) {
        /* A surrogate is only kept as half of a high+low pair; anything
         * else is U+FFFD and the following escape is read on its own. */
        unsigned r2;
        if (r < 0xDC00 && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u' &&
            (r2 = hex4(s + i + 2)) >= 0xDC00 && r2 < 0xE000) {
          r = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
          i += 6;
        } else {
          r = 0xFFFD;
        }
      }
      o += cgofuzz_utf8_encode((int32_t)r, o);
      break;
    }
    default: /* '"', '\\', '/' */
      *o++ = e;
    }
  }
  return (size_t)(o - out);
}

int cgofuzz_json_unquote_buf(const uint8_t *s, size_t n, unsigned flags,
                             cgofuzz_buf *b) {
  if (flags == 0)
    return cgofuzz_buf_append(b, s, n);
  /* Worst case growth is 3x (a bad byte becomes the 3-byte U+FFFD). */
  if (n > SIZE_MAX / 3 || cgofuzz_buf_reserve(b, 3 * n) != 0)
    return -1;
  b->len += cgofuzz_json_unquote(s, n, b->data + b->len);
  return 0;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

int cgofuzz_json_scan_number(cgofuzz_json_rd *r, size_t *start, size_t *end) {
  cgofuzz_json_ws(r);
  const uint8_t *p = r->p;
  size_t i = r->pos, n = r->n;
  *start = i;
  if (i < n && p[i] == '-')
    i++;
  if (i < n && p[i] == '0') {
    i++;
  } else if (i < n && p[i] >= '1' && p[i] <= '9') {
    while (i < n && is_digit(p[i]))
      i++;
  } else {
    r->pos = i;
    return cgofuzz_json_fail(r, "invalid number");
  }
  if (i < n && p[i] == '.') {
    i++;
    if (i == n || !is_digit(p[i])) {
      r->pos = i;
      return cgofuzz_json_fail(r, "invalid number: no digits after '.'");
    }
    while (i < n && is_digit(p[i]))
      i++;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-'))
      i++;
    if (i == n || !is_digit(p[i])) {
      r->pos = i;
      return cgofuzz_json_fail(r, "invalid number: no digits in exponent");
    }
    while (i < n && is_digit(p[i]))
      i++;
  }
  *end = i;
  r->pos = i;
  return 0;
}

int cgofuzz_json_literal(cgofuzz_json_rd *r, const char *word) {
  size_t l = strlen(word);
  cgofuzz_json_ws(r);
  if (r->n - r->pos < l || memcmp(r->p + r->pos, word, l) != 0)
    return cgofuzz_json_fail(r, "invalid literal");
  r->pos += l;
  return 0;
}

/* Skips a scalar value (string, number, literal) at the cursor. */
static int skip_scalar(cgofuzz_json_rd *r, int c) {
  size_t a, b;
  unsigned fl;
  switch (c) {
  case '"':
    return cgofuzz_json_scan_string(r, &a, &b, &fl);
  case 't':
    return cgofuzz_json_literal(r, "true");
  case 'f':
    return cgofuzz_json_literal(r, "false");
  case 'n':
    return cgofuzz_json_literal(r, "null");
  default:
    if (c == '-' || is_digit(c))
      return cgofuzz_json_scan_number(r, &a, &b);
    if (c < 0)
      return cgofuzz_json_fail(r, "unexpected end of input, want a value");
    return cgofuzz_json_fail(r, "invalid character looking for a value");
  }
}

static int skip_key(cgofuzz_json_rd *r) {
  size_t a, b;
  unsigned fl;
  if (cgofuzz_json_scan_string(r, &a, &b, &fl) != 0)
    return -1;
  return cgofuzz_json_expect(r, ':');
}

int cgofuzz_json_skip(cgofuzz_json_rd *r, int depth) {
  /* One bit per open container: 1 for an object, 0 for an array. */
  uint8_t is_obj[CGOFUZZ_JSON_MAX_DEPTH / 8 + 1];
  int d = 0;
  for (;;) {
    /* Expecting a value. */
    int c = cgofuzz_json_peek(r);
    if (c == '{' || c == '[') {
      if (depth + d + 1 > CGOFUZZ_JSON_MAX_DEPTH)
        return cgofuzz_json_fail(r, "exceeded max depth");
      if (c == '{')
        is_obj[d / 8] |= (uint8_t)(1u << (d % 8));
      else
        is_obj[d / 8] &= (uint8_t) ~(1u << (d % 8));
      d++;
      r->pos++;
      int c2 = cgofuzz_json_peek(r);
      if (c2 != (c == '{' ? '}' : ']')) {
        if (c == '{' && skip_key(r) != 0)
          return -1;
        continue;
      }
      r->pos++;
      d--;
    } else if (skip_scalar(r, c) != 0) {
      return -1;
    }
    /* After a value: close containers until one continues. */
    for (;;) {
      if (d == 0)
        return 0;
      bool obj = is_obj[(d - 1) / 8] >> ((d - 1) % 8) & 1;
      c = cgofuzz_json_peek(r);
      if (c == ',') {
        r->pos++;
        if (obj && skip_key(r) != 0)
          return -1;
        break;
      }
      if (c == (obj ? '}' : ']')) {
        r->pos++;
        d--;
        continue;
      }
      return cgofuzz_json_fail(r, obj ? "want ',' or '}' in object"
                                      : "want ',' or ']' in array");
    }
  }
}

int cgofuzz_json_parse_int64(const uint8_t *s, size_t n, int64_t *out) {
  size_t i = 0;
  bool neg = n > 0 && s[0] == '-';
  if (neg)
    i++;
  if (i == n)
    return -1;
  uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, v = 0;
  for (; i < n; i++) {
    if (!is_digit(s[i]))
      return -1; /* fraction or exponent: not an integer for ParseInt */
    unsigned d = s[i] - '0';
    if (v > (lim - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

int cgofuzz_json_parse_uint8(const uint8_t *s, size_t n, uint8_t *out) {
  unsigned v = 0;
  if (n == 0)
    return -1;
  for (size_t i = 0; i < n; i++) {
    if (!is_digit(s[i])) /* includes '-': ParseUint takes no sign */
      return -1;
    v = v * 10 + (unsigned)(s[i] - '0');
    if (v > 255)
      return -1;
  }
  *out = (uint8_t)v;
  return 0;
}

/* How each ASCII byte is written inside a string: 0 as itself, a letter for
 * a two-character escape, 'u' for \u00XX. */
static const uint8_t esc_tab[128] = {
    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r',  ['\t'] = 't',
    [0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u',  [0x04] = 'u',
    [0x05] = 'u', [0x06] = 'u', [0x07] = 'u', [0x0b] = 'u',  [0x0e] = 'u',
    [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u',  [0x13] = 'u',
    [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u',  [0x18] = 'u',
    [0x19] = 'u', [0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u',  [0x1d] = 'u',
    [0x1e] = 'u', [0x1f] = 'u', ['"'] = '"',  ['\\'] = '\\', ['<'] = 'u',
    ['>'] = 'u',  ['&'] = 'u'};

int cgofuzz_json_put_string(cgofuzz_buf *b, const uint8_t *s, size_t n) {
  return cgofuzz_json_put_string_v(b, s, n, CGOFUZZ_JSON_SHORT_BF);
}

int cgofuzz_json_put_string_v(cgofuzz_buf *b, const uint8_t *s, size_t n,
                              unsigned flags) {
  bool short_bf = flags & CGOFUZZ_JSON_SHORT_BF;
  const char *bad =
      (flags & CGOFUZZ_JSON_RAW_FFFD) ? "\xEF\xBF\xBD" : "\\ufffd";
  size_t badlen = (flags & CGOFUZZ_JSON_RAW_FFFD) ? 3 : 6;
  static const char hex[] = "0123456789abcdef";
  /* Most strings need no escapes: reserve for that case up front. */
  if (n > SIZE_MAX - 2 || cgofuzz_buf_reserve(b, n + 2) != 0)
    return -1;
  b->data[b->len++] = '"';
  size_t i = 0, run = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c < 0x80) {
      uint8_t e = esc_tab[c];
      if (!short_bf && (c == '\b' || c == '\f'))
        e = 'u';
      if (!e) {
        i++;
        continue;
      }
      uint8_t tmp[6] = {
          '\\', e, '0', '0', (uint8_t)hex[c >> 4], (uint8_t)hex[c & 15]};
      if (cgofuzz_buf_append(b, s + run, i - run) != 0 ||
          cgofuzz_buf_append(b, tmp, e == 'u' ? 6 : 2) != 0)
        return -1;
      run = ++i;
      continue;
    }
    size_t l = cgofuzz_json_utf8_len(s + i, n - i);
    const char *rep = NULL;
    size_t replen = 6;
    if (l == 0)
      rep = bad, replen = badlen, l = 1;
    else if (l == 3 && c == 0xE2 && s[i + 1] == 0x80 &&
             (s[i + 2] == 0xA8 || s[i + 2] == 0xA9))
      rep = s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029";
    if (rep) {
      if (cgofuzz_buf_append(b, s + run, i - run) != 0 ||
          cgofuzz_buf_append(b, rep, replen) != 0)
        return -1;
      run = i + l;
    }
    i += l;
  }
  if (cgofuzz_buf_append(b, s + run, n - run) != 0)
    return -1;
  return cgofuzz_buf_putc(b, '"');
}

int cgofuzz_json_put_int64(cgofuzz_buf *b, int64_t v) {
  char tmp[24];
  char *e = tmp + sizeof tmp, *p = e;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0)
    *--p = '-';
  return cgofuzz_buf_append(b, p, (size_t)(e - p));
}
