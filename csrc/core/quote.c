/*
 * quote.c: white space, and Go string/rune literal (un)quoting.
 *
 * Everything here follows the observable behaviour of Go's unicode/utf8,
 * unicode.IsSpace, bytes.TrimSpace and strconv (Quote, QuoteRune, Unquote,
 * UnquoteChar):
 *  - an invalid UTF-8 sequence decodes as U+FFFD with width 1, so quoting
 *    writes each bad byte as \xNN;
 *  - printability comes from isprint_table.c, generated from each Go
 *    release's strconv.IsPrint (gover.h: the newest unless told);
 *  - hex digits in escapes are lower case, \u for runes below 0x10000.
 */
#include "codec.h"
#include "codec_internal.h"
#include "isprint_table.h"
#include "text.h"

#include <string.h>

static bool valid_rune(int32_t r) {
  return r >= 0 && r <= CGOFUZZ_MAX_RUNE && !(r >= 0xD800 && r < 0xE000);
}

bool cgofuzz_is_space(int32_t r) {
  switch (r) {
  case '\t':
  case '\n':
  case '\v':
  case '\f':
  case '\r':
  case ' ':
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  }
  return r >= 0x2000 && r <= 0x200A;
}

/* Width of the white-space rune ending at s[n-1], or 0. Every white-space
 * rune is valid UTF-8, so matching its encoding as a suffix is the same as
 * Go's DecodeLastRune finding it. */
static int trailing_space(const uint8_t *s, size_t n) {
  for (int w = 1; w <= 3 && (size_t)w <= n; w++) {
    int32_t r;
    if (cgofuzz_utf8_decode(s + n - w, (size_t)w, &r) == w &&
        cgofuzz_is_space(r) && (w == 1) == (r < 0x80))
      return w;
  }
  return 0;
}

void cgofuzz_trim_space(const uint8_t **sp, size_t *np) {
  const uint8_t *s = *sp;
  size_t n = *np;
  while (n > 0) {
    int32_t r;
    int w = cgofuzz_utf8_decode(s, n, &r);
    if (!cgofuzz_is_space(r))
      break;
    s += w, n -= (size_t)w;
  }
  int w;
  while (n > 0 && (w = trailing_space(s, n)) > 0)
    n -= (size_t)w;
  *sp = s, *np = n;
}

/* Whether r lies in one of the sorted, disjoint ranges t[0..n). */
static bool in_ranges(const uint32_t (*t)[2], size_t n, uint32_t r) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r < t[mid][0])
      hi = mid;
    else if (r > t[mid][1])
      lo = mid + 1;
    else
      return true;
  }
  return false;
}

int cgofuzz_is_print_v(int32_t r, cgofuzz_gover g) {
  if (r < 0)
    return 0;
  bool p =
      in_ranges(cgofuzz_isprint_ranges, cgofuzz_isprint_nranges, (uint32_t)r);
  g = cgofuzz_gover_clamp(g);
  if (g >= cgofuzz_isprint_minor_lo && g <= cgofuzz_isprint_minor_hi) {
    const cgofuzz_isprint_release *rel =
        &cgofuzz_isprint_releases[g - cgofuzz_isprint_minor_lo];
    if (rel->n > 0 &&
        in_ranges(cgofuzz_isprint_delta + rel->off, rel->n, (uint32_t)r))
      p = !p;
  }
  return p;
}

int cgofuzz_is_print(int32_t r) {
  return cgofuzz_is_print_v(r, CGOFUZZ_GOVER_DEFAULT);
}

static const char hexd[] = "0123456789abcdef";

static int put_hex(cgofuzz_buf *out, const char *pfx, uint32_t v, int digits) {
  char tmp[16];
  size_t k = strlen(pfx);
  memcpy(tmp, pfx, k);
  for (int i = digits - 1; i >= 0; i--)
    tmp[k++] = hexd[(v >> (4 * i)) & 0xF];
  return cgofuzz_buf_append(out, tmp, k);
}

/* Appends rune r (valid, or U+FFFD stand-in) escaped as in a literal
 * delimited by quote. */
static int escape_rune(cgofuzz_buf *out, int32_t r, char quote,
                       cgofuzz_gover g) {
  uint8_t enc[4];
  if (r == quote || r == '\\') {
    char e[2] = {'\\', (char)r};
    return cgofuzz_buf_append(out, e, 2);
  }
  if (cgofuzz_is_print_v(r, g))
    return cgofuzz_buf_append(out, enc, (size_t)cgofuzz_utf8_encode(r, enc));
  switch (r) {
  case '\a':
    return cgofuzz_buf_puts(out, "\\a");
  case '\b':
    return cgofuzz_buf_puts(out, "\\b");
  case '\f':
    return cgofuzz_buf_puts(out, "\\f");
  case '\n':
    return cgofuzz_buf_puts(out, "\\n");
  case '\r':
    return cgofuzz_buf_puts(out, "\\r");
  case '\t':
    return cgofuzz_buf_puts(out, "\\t");
  case '\v':
    return cgofuzz_buf_puts(out, "\\v");
  }
  if (r < ' ' || (r == 0x7F && cgofuzz_gover_quote_del_x(g)))
    return put_hex(out, "\\x", (uint32_t)r, 2);
  if (!valid_rune(r))
    r = CGOFUZZ_RUNE_ERROR;
  if (r < 0x10000)
    return put_hex(out, "\\u", (uint32_t)r, 4);
  return put_hex(out, "\\U", (uint32_t)r, 8);
}

int cgofuzz_quote(const uint8_t *s, size_t len, cgofuzz_buf *out) {
  return cgofuzz_quote_v(s, len, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_quote_v(const uint8_t *s, size_t len, cgofuzz_gover g,
                    cgofuzz_buf *out) {
  if (cgofuzz_buf_reserve(out, len + 2) < 0 || cgofuzz_buf_putc(out, '"') < 0)
    return -1;
  size_t i = 0;
  while (i < len) {
    int32_t r;
    int w = cgofuzz_utf8_decode(s + i, len - i, &r);
    int rc = (w == 1 && r == CGOFUZZ_RUNE_ERROR) ? put_hex(out, "\\x", s[i], 2)
                                                 : escape_rune(out, r, '"', g);
    if (rc < 0)
      return -1;
    i += (size_t)w;
  }
  return cgofuzz_buf_putc(out, '"');
}

int cgofuzz_quote_rune(int32_t r, cgofuzz_buf *out) {
  return cgofuzz_quote_rune_v(r, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_quote_rune_v(int32_t r, cgofuzz_gover g, cgofuzz_buf *out) {
  if (!valid_rune(r))
    r = CGOFUZZ_RUNE_ERROR;
  if (cgofuzz_buf_putc(out, '\'') < 0 || escape_rune(out, r, '\'', g) < 0)
    return -1;
  return cgofuzz_buf_putc(out, '\'');
}

/* Decodes one character or escape at s[0..n) of a literal quoted by
 * quote. On success sets *r, *raw_byte (true for \x and octal escapes,
 * whose value is a byte rather than a rune) and returns the bytes used;
 * returns -1 on a syntax error. */
static int unquote_one(const uint8_t *s, size_t n, char quote, int32_t *r,
                       bool *raw_byte) {
  *raw_byte = false;
  if (n == 0)
    return -1;
  uint8_t c = s[0];
  if (c == quote || c == '\n')
    return -1;
  if (c >= 0x80)
    return cgofuzz_utf8_decode(s, n, r);
  if (c != '\\') {
    *r = c;
    return 1;
  }
  if (n < 2)
    return -1;
  c = s[1];
  int digits, base = 16;
  switch (c) {
  case 'a':
    *r = '\a';
    return 2;
  case 'b':
    *r = '\b';
    return 2;
  case 'f':
    *r = '\f';
    return 2;
  case 'n':
    *r = '\n';
    return 2;
  case 'r':
    *r = '\r';
    return 2;
  case 't':
    *r = '\t';
    return 2;
  case 'v':
    *r = '\v';
    return 2;
  case '\\':
    *r = '\\';
    return 2;
  case '\'':
  case '"':
    if (c != quote)
      return -1;
    *r = c;
    return 2;
  case 'x':
    digits = 2;
    break;
  case 'u':
    digits = 4;
    break;
  case 'U':
    digits = 8;
    break;
  default:
    if (c < '0' || c > '7')
      return -1;
    base = 8;
    digits = 3;
    break;
  }
  size_t start = base == 8 ? 1 : 2;
  if (n < start + (size_t)digits)
    return -1;
  uint32_t v = 0;
  for (int i = 0; i < digits; i++) {
    int d = cgofuzz_hexval(s[start + (size_t)i]);
    if (d < 0 || d >= base)
      return -1;
    v = v * (uint32_t)base + (uint32_t)d;
  }
  if (c == 'x' || base == 8) {
    if (v > 255)
      return -1;
    *raw_byte = true;
  } else if (!valid_rune((int32_t)v)) {
    return -1;
  }
  *r = (int32_t)v;
  return (int)start + digits;
}

int cgofuzz_unquote_char(const uint8_t *s, size_t n, int32_t *r) {
  bool raw;
  return unquote_one(s, n, '\'', r, &raw) < 0 ? -1 : 0;
}

int cgofuzz_unquote(const uint8_t *s, size_t n, cgofuzz_buf *out) {
  if (n < 2 || s[0] != s[n - 1])
    return -1;
  char quote = (char)s[0];
  const uint8_t *p = s + 1, *end = s + n - 1;
  if (quote == '`') {
    /* Raw strings keep their bytes, less carriage returns. */
    for (; p < end; p++) {
      if (*p == '`')
        return -1;
      if (*p != '\r' && cgofuzz_buf_putc(out, *p) < 0)
        return -2;
    }
    return 0;
  }
  if (quote != '"')
    return -1; /* rune literals are handled by cgofuzz_unquote_char */
  while (p < end) {
    int32_t r;
    bool raw;
    int w = unquote_one(p, (size_t)(end - p), '"', &r, &raw);
    if (w < 0)
      return -1;
    uint8_t enc[4];
    int rc;
    if (raw || r < 0x80) {
      rc = cgofuzz_buf_putc(out, (uint8_t)r);
    } else if (*p >= 0x80) {
      /* Copy source bytes verbatim (the scanner has checked they are
       * valid UTF-8; this also keeps a literal U+FFFD intact). */
      rc = cgofuzz_buf_append(out, p, (size_t)w);
    } else {
      rc = cgofuzz_buf_append(out, enc, (size_t)cgofuzz_utf8_encode(r, enc));
    }
    if (rc < 0)
      return -2;
    p += w;
  }
  return 0;
}
