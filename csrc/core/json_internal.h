/*
 * json_internal.h: the small strict JSON reader and writer behind wire.c.
 *
 * The reader is a cursor over one message. It checks the same grammar as
 * encoding/json's scanner (RFC 8259, nesting at most 10000 deep) and
 * unquotes strings as Go does: invalid UTF-8 bytes and unpaired surrogate
 * escapes become U+FFFD. Callers pull tokens one by one and skip values
 * they don't care about; skipping is iterative, so depth never costs stack.
 *
 * The writer produces Go's json.Encoder bytes: strings are HTML-safe
 * (<, >, & and U+2028/U+2029 escaped as \u....), control characters use
 * \b \f \n \r \t or \u00XX, and invalid UTF-8 becomes \ufffd.
 */
#ifndef CGOFUZZ_JSON_INTERNAL_H
#define CGOFUZZ_JSON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* encoding/json's scanner limit on nested arrays and objects. */
#define CGOFUZZ_JSON_MAX_DEPTH 10000

typedef struct cgofuzz_json_rd {
  const uint8_t *p;
  size_t n, pos;
  cgofuzz_err *err;
} cgofuzz_json_rd;

/* Flags describing a scanned string's raw contents. */
#define CGOFUZZ_JSON_STR_ESC 1u /* contains a backslash escape */
#define CGOFUZZ_JSON_STR_HI 2u  /* contains bytes >= 0x80 */

/* Sets err to "offset N: what" and returns -1. */
int cgofuzz_json_fail(cgofuzz_json_rd *r, const char *what);

static inline void cgofuzz_json_ws(cgofuzz_json_rd *r) {
  while (r->pos < r->n) {
    uint8_t c = r->p[r->pos];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
      break;
    r->pos++;
  }
}

/* Next byte (after white space), or -1 at the end. */
static inline int cgofuzz_json_peek(cgofuzz_json_rd *r) {
  cgofuzz_json_ws(r);
  return r->pos < r->n ? r->p[r->pos] : -1;
}

/* Consumes byte c (after white space) or fails. */
int cgofuzz_json_expect(cgofuzz_json_rd *r, uint8_t c);

/* Scans a string token at the cursor, checking its syntax. On success the
 * raw contents (between the quotes) are p[*start, *end) and *flags says
 * whether they need unquoting. */
int cgofuzz_json_scan_string(cgofuzz_json_rd *r, size_t *start, size_t *end,
                             unsigned *flags);

/* Unquotes raw string contents already checked by scan_string into out,
 * which must have room for 3 * n bytes; returns the length written. */
size_t cgofuzz_json_unquote(const uint8_t *s, size_t n, uint8_t *out);

/* Appends the unquoted contents to b (copying directly when flags == 0). */
int cgofuzz_json_unquote_buf(const uint8_t *s, size_t n, unsigned flags,
                             cgofuzz_buf *b);

/* Scans a number token; its text is p[*start, *end). */
int cgofuzz_json_scan_number(cgofuzz_json_rd *r, size_t *start, size_t *end);

/* Consumes the literal word ("true", "false", "null") or fails. */
int cgofuzz_json_literal(cgofuzz_json_rd *r, const char *word);

/* Skips one value of any kind; depth is the number of arrays and objects
 * already open around it. */
int cgofuzz_json_skip(cgofuzz_json_rd *r, int depth);

/* strconv.ParseInt(s, 10, 64) / ParseUint(s, 10, 8) over a scanned number
 * token: 0, or -1 if it has a fraction or exponent or is out of range. */
int cgofuzz_json_parse_int64(const uint8_t *s, size_t n, int64_t *out);
int cgofuzz_json_parse_uint8(const uint8_t *s, size_t n, uint8_t *out);

/* Writers. */
int cgofuzz_json_put_string(cgofuzz_buf *b, const uint8_t *s, size_t n);
/* The same, as a given release's encoding/json writes strings:
 * CGOFUZZ_JSON_SHORT_BF writes '\b' and '\f' as "\b" / "\f" (go1.22 on)
 * rather than "\u0008" / "\u000c"; CGOFUZZ_JSON_RAW_FFFD writes each
 * invalid UTF-8 byte as a raw U+FFFD (go1.27's json v2 based encoder)
 * rather than "\ufffd". cgofuzz_json_put_string is SHORT_BF alone. */
#define CGOFUZZ_JSON_SHORT_BF 1u
#define CGOFUZZ_JSON_RAW_FFFD 2u
int cgofuzz_json_put_string_v(cgofuzz_buf *b, const uint8_t *s, size_t n,
                              unsigned flags);
int cgofuzz_json_put_int64(cgofuzz_buf *b, int64_t v);

/* Length of the valid UTF-8 sequence at s[0..n) by Go's rules (no
 * overlongs, surrogates or values above U+10FFFF), or 0 if invalid. */
static inline size_t cgofuzz_json_utf8_len(const uint8_t *s, size_t n) {
  uint8_t c = s[0];
  if (c < 0x80)
    return 1;
  if (c < 0xC2)
    return 0;
  if (c < 0xE0)
    return (n >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
  if (c < 0xF0) {
    uint8_t lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return (n >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80) ? 3
                                                                         : 0;
  }
  if (c < 0xF5) {
    uint8_t lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return (n >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 &&
            (s[3] & 0xC0) == 0x80)
               ? 4
               : 0;
  }
  return 0;
}

#endif
