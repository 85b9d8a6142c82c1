/*
 * codec_scan.c: go/scanner's rules for one line of Go source.
 *
 * The decoder needs to know whether Go's parser would see an error-free
 * token stream and, if so, what the tokens are. A corpus value is only
 * accepted when its tokens form T ( [op] operand [...] [,] ), so tokens
 * that can never be part of that shape (most operators, non-ASCII
 * identifiers, keywords) need not be told apart: they become T_OTHER and
 * the line is rejected later. What must be exact is every error go/scanner
 * reports, since any one of them makes Go reject the line:
 *  - NUL, invalid UTF-8 and a byte order mark past offset 0, anywhere in
 *    the line (Go checks each character it reads, in comments too; since a
 *    line is only accepted if it is read to the end, checking the whole
 *    line up front is equivalent);
 *  - number literal syntax (digits per base, '_' placement, exponents);
 *  - rune and string literal syntax (escapes, one character per rune,
 *    termination), unterminated comments.
 * Messages are "1:<column>: <go/scanner's message>".
 */
#include "codec_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct scanner {
  const uint8_t *s;
  size_t n, pos;
  char *msg;
  size_t msgsize;
} scanner;

static int fail(scanner *sc, size_t off, const char *what) {
  snprintf(sc->msg, sc->msgsize, "1:%zu: %s", off + 1, what);
  return -1;
}

static int peek(const scanner *sc, size_t k) {
  return sc->pos + k < sc->n ? sc->s[sc->pos + k] : -1;
}

static bool is_dec(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) {
  return is_dec(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int lower(int c) { return c | 0x20; }

static const char *litname(int prefix) {
  switch (prefix) {
  case 'x':
    return "hexadecimal literal";
  case 'o':
  case '0':
    return "octal literal";
  case 'b':
    return "binary literal";
  }
  return "decimal literal";
}

/* Digits of the given base, and '_'. Returns bit 0 for a digit seen, bit 1
 * for '_'; records the first digit that is too large for the base. */
static int digits(scanner *sc, int base, long *invalid) {
  int ds = 0;
  for (;;) {
    int c = peek(sc, 0);
    if (c == '_') {
      ds |= 2;
    } else if (base <= 10 ? is_dec(c) : is_hex(c)) {
      ds |= 1;
      if (base < 10 && c >= '0' + base && invalid && *invalid < 0)
        *invalid = (long)sc->pos;
    } else {
      return ds;
    }
    sc->pos++;
  }
}

/* go/scanner's invalidSep: index of a misplaced '_' or -1. */
static long invalid_sep(const uint8_t *x, size_t n) {
  int x1 = ' ', d = '.';
  size_t i = 0;
  if (n >= 2 && x[0] == '0') {
    x1 = lower(x[1]);
    if (x1 == 'x' || x1 == 'o' || x1 == 'b') {
      d = '0';
      i = 2;
    }
  }
  for (; i < n; i++) {
    int p = d;
    d = x[i];
    if (d == '_') {
      if (p != '0')
        return (long)i;
    } else if (is_dec(d) || (x1 == 'x' && is_hex(d))) {
      d = '0';
    } else {
      if (p == '_')
        return (long)i - 1;
      d = '.';
    }
  }
  return d == '_' ? (long)n - 1 : -1;
}

static int scan_number(scanner *sc, cgofuzz_tok *tok) {
  size_t offs = sc->pos;
  int base = 10, prefix = 0, ds = 0;
  long invalid = -1;
  char m[96];
  *tok = CGOFUZZ_T_INT;
  if (peek(sc, 0) != '.') {
    if (peek(sc, 0) == '0') {
      sc->pos++;
      switch (lower(peek(sc, 0))) {
      case 'x':
        sc->pos++, base = 16, prefix = 'x';
        break;
      case 'o':
        sc->pos++, base = 8, prefix = 'o';
        break;
      case 'b':
        sc->pos++, base = 2, prefix = 'b';
        break;
      default:
        base = 8, prefix = '0', ds = 1; /* the leading 0 is a digit */
      }
    }
    ds |= digits(sc, base, &invalid);
  }
  if (peek(sc, 0) == '.') {
    *tok = CGOFUZZ_T_FLOAT;
    if (prefix == 'o' || prefix == 'b') {
      snprintf(m, sizeof m, "invalid radix point in %s", litname(prefix));
      return fail(sc, sc->pos, m);
    }
    sc->pos++;
    ds |= digits(sc, base, &invalid);
  }
  if (!(ds & 1)) {
    snprintf(m, sizeof m, "%s has no digits", litname(prefix));
    return fail(sc, sc->pos, m);
  }
  int e = lower(peek(sc, 0));
  if (e == 'e' || e == 'p') {
    if (e == 'e' && prefix != 0 && prefix != '0') {
      snprintf(m, sizeof m, "'%c' exponent requires decimal mantissa",
               peek(sc, 0));
      return fail(sc, sc->pos, m);
    }
    if (e == 'p' && prefix != 'x') {
      snprintf(m, sizeof m, "'%c' exponent requires hexadecimal mantissa",
               peek(sc, 0));
      return fail(sc, sc->pos, m);
    }
    sc->pos++;
    *tok = CGOFUZZ_T_FLOAT;
    if (peek(sc, 0) == '+' || peek(sc, 0) == '-')
      sc->pos++;
    int eds = digits(sc, 10, NULL);
    ds |= eds;
    if (!(eds & 1))
      return fail(sc, sc->pos, "exponent has no digits");
  } else if (prefix == 'x' && *tok == CGOFUZZ_T_FLOAT) {
    return fail(sc, sc->pos, "hexadecimal mantissa requires a 'p' exponent");
  }
  if (peek(sc, 0) == 'i') {
    *tok = CGOFUZZ_T_IMAG;
    sc->pos++;
  }
  if (*tok == CGOFUZZ_T_INT && invalid >= 0) {
    snprintf(m, sizeof m, "invalid digit '%c' in %s", sc->s[invalid],
             litname(prefix));
    return fail(sc, (size_t)invalid, m);
  }
  if (ds & 2) {
    long i = invalid_sep(sc->s + offs, sc->pos - offs);
    if (i >= 0)
      return fail(sc, offs + (size_t)i, "'_' must separate successive digits");
  }
  return 0;
}

/* After a backslash inside a literal quoted by quote. */
static int scan_escape(scanner *sc, int quote) {
  size_t offs = sc->pos - 1;
  int c = peek(sc, 0);
  int n, base;
  uint32_t max;
  switch (c) {
  case 'a':
  case 'b':
  case 'f':
  case 'n':
  case 'r':
  case 't':
  case 'v':
  case '\\':
    sc->pos++;
    return 0;
  case 'x':
    sc->pos++, n = 2, base = 16, max = 255;
    break;
  case 'u':
    sc->pos++, n = 4, base = 16, max = CGOFUZZ_MAX_RUNE;
    break;
  case 'U':
    sc->pos++, n = 8, base = 16, max = CGOFUZZ_MAX_RUNE;
    break;
  default:
    if (c == quote) {
      sc->pos++;
      return 0;
    }
    if (c >= '0' && c <= '7') {
      n = 3, base = 8, max = 255;
      break;
    }
    return fail(sc, offs,
                c < 0 ? "escape sequence not terminated"
                      : "unknown escape sequence");
  }
  uint32_t x = 0;
  for (; n > 0; n--) {
    c = peek(sc, 0);
    int d = is_dec(c)                            ? c - '0'
            : lower(c) >= 'a' && lower(c) <= 'f' ? lower(c) - 'a' + 10
                                                 : 16;
    if (c < 0)
      return fail(sc, sc->pos, "escape sequence not terminated");
    if (d >= base)
      return fail(sc, sc->pos, "illegal character in escape sequence");
    x = x * (uint32_t)base + (uint32_t)d;
    sc->pos++;
  }
  if (x > max || (x >= 0xD800 && x < 0xE000))
    return fail(sc, offs, "escape sequence is invalid Unicode code point");
  return 0;
}

/* Advances past one (valid, per the up-front check) UTF-8 character. */
static void skip_char(scanner *sc) {
  int32_t r;
  sc->pos += (size_t)cgofuzz_utf8_decode(sc->s + sc->pos, sc->n - sc->pos, &r);
}

static int scan_rune(scanner *sc) {
  size_t offs = sc->pos - 1;
  int n = 0;
  for (;;) {
    int c = peek(sc, 0);
    if (c < 0)
      return fail(sc, offs, "rune literal not terminated");
    if (c == '\'') {
      sc->pos++;
      break;
    }
    n++;
    if (c == '\\') {
      sc->pos++;
      if (scan_escape(sc, '\'') < 0)
        return -1;
    } else {
      skip_char(sc);
    }
  }
  if (n == 0)
    return fail(sc, offs, "empty rune literal or unescaped ' in rune literal");
  if (n != 1)
    return fail(sc, offs, "more than one character in rune literal");
  return 0;
}

static int scan_string(scanner *sc) {
  size_t offs = sc->pos - 1;
  for (;;) {
    int c = peek(sc, 0);
    if (c < 0)
      return fail(sc, offs, "string literal not terminated");
    sc->pos++;
    if (c == '"')
      return 0;
    if (c == '\\') {
      if (scan_escape(sc, '"') < 0)
        return -1;
    } else if (c >= 0x80) {
      sc->pos--;
      skip_char(sc);
    }
  }
}

static int scan_raw(scanner *sc) {
  size_t offs = sc->pos - 1;
  const uint8_t *q = memchr(sc->s + sc->pos, '`', sc->n - sc->pos);
  if (!q)
    return fail(sc, offs, "raw string literal not terminated");
  sc->pos = (size_t)(q - sc->s) + 1;
  return 0;
}

/* The whole-line checks go/scanner makes as it reads each character. */
static int check_chars(scanner *sc) {
  size_t i = 0;
  while (i < sc->n) {
    int32_t r;
    int w = cgofuzz_utf8_decode(sc->s + i, sc->n - i, &r);
    if (r == 0)
      return fail(sc, i, "illegal character NUL");
    if (r == CGOFUZZ_RUNE_ERROR && w == 1)
      return fail(sc, i, "illegal UTF-8 encoding");
    if (r == 0xFEFF && i > 0)
      return fail(sc, i, "illegal byte order mark");
    i += (size_t)w;
  }
  return 0;
}

static bool is_letter_ascii(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

int cgofuzz_scan_line(const uint8_t *s, size_t n, cgofuzz_scan *out, char *msg,
                      size_t msgsize) {
  scanner sc = {s, n, 0, msg, msgsize};
  out->n = 0;
  out->truncated = false;
  if (check_chars(&sc) < 0)
    return -1;
  if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
    sc.pos = 3; /* a BOM at the very start is skipped */
  for (;;) {
    int c;
    while ((c = peek(&sc, 0)) == ' ' || c == '\t' || c == '\r' || c == '\n')
      sc.pos++;
    size_t start = sc.pos;
    cgofuzz_tok tok;
    if (c < 0) {
      return 0;
    } else if (is_letter_ascii(c)) {
      while (is_letter_ascii(c = peek(&sc, 0)) || is_dec(c))
        sc.pos++;
      /* An identifier running into non-ASCII letters is not one the
       * decoder knows; treat the whole thing as foreign. */
      tok = c >= 0x80 ? CGOFUZZ_T_OTHER : CGOFUZZ_T_IDENT;
      while (peek(&sc, 0) >= 0x80)
        skip_char(&sc);
    } else if (is_dec(c) || (c == '.' && is_dec(peek(&sc, 1)))) {
      if (scan_number(&sc, &tok) < 0)
        return -1;
    } else if (c >= 0x80) {
      /* A Unicode letter (identifier) or an illegal character: either
       * way never part of an accepted line. */
      skip_char(&sc);
      tok = CGOFUZZ_T_OTHER;
    } else {
      sc.pos++;
      switch (c) {
      case '\'':
        if (scan_rune(&sc) < 0)
          return -1;
        tok = CGOFUZZ_T_CHAR;
        break;
      case '"':
        if (scan_string(&sc) < 0)
          return -1;
        tok = CGOFUZZ_T_STRING;
        break;
      case '`':
        if (scan_raw(&sc) < 0)
          return -1;
        tok = CGOFUZZ_T_STRING;
        break;
      case '/':
        if (peek(&sc, 0) == '/') {
          sc.pos = n; /* comment to end of line */
          continue;
        }
        if (peek(&sc, 0) == '*') {
          sc.pos++;
          const uint8_t *p = s + sc.pos;
          const uint8_t *e = NULL;
          for (; p + 1 < s + n; p++)
            if (p[0] == '*' && p[1] == '/') {
              e = p;
              break;
            }
          if (!e)
            return fail(&sc, start, "comment not terminated");
          sc.pos = (size_t)(e - s) + 2;
          continue;
        }
        tok = CGOFUZZ_T_OTHER;
        break;
      case '(':
        tok = CGOFUZZ_T_LPAREN;
        break;
      case ')':
        tok = CGOFUZZ_T_RPAREN;
        break;
      case '[':
        tok = CGOFUZZ_T_LBRACK;
        break;
      case ']':
        tok = CGOFUZZ_T_RBRACK;
        break;
      case ',':
        tok = CGOFUZZ_T_COMMA;
        break;
      case ';':
        tok = CGOFUZZ_T_SEMICOLON;
        break;
      case '.':
        tok = CGOFUZZ_T_PERIOD;
        if (peek(&sc, 0) == '.' && peek(&sc, 1) == '.') {
          sc.pos += 2;
          tok = CGOFUZZ_T_ELLIPSIS;
        }
        break;
      case '<':
        tok = CGOFUZZ_T_OTHER;
        if (peek(&sc, 0) == '-') {
          sc.pos++;
          tok = CGOFUZZ_T_UNARY;
        }
        break;
      case '+':
      case '-':
      case '!':
      case '^':
      case '&':
      case '~':
        /* Followed by '=' or a repeat they form another operator
         * (+=, ++, !=, &&, &^ ...), which is never accepted. */
        tok = CGOFUZZ_T_UNARY;
        if (peek(&sc, 0) == '=' || peek(&sc, 0) == c ||
            (c == '&' && peek(&sc, 0) == '^')) {
          sc.pos++;
          tok = CGOFUZZ_T_OTHER;
        }
        break;
      default:
        tok = CGOFUZZ_T_OTHER;
        break;
      }
    }
    if (out->n < CGOFUZZ_SCAN_MAX) {
      out->t[out->n++] = (cgofuzz_token){tok, start, sc.pos - start};
    } else {
      out->truncated = true;
    }
  }
}
