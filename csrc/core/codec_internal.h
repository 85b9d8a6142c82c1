/*
 * codec_internal.h: pieces shared by the corpus codec's source files.
 *
 * quote.c     UTF-8 as Go decodes it, Unicode white space, quoting and
 *             unquoting of Go string and rune literals.
 * numfmt.c    strconv-style number parsing and %v float formatting.
 * codec_scan.c  a scanner for one line of Go source, faithful to go/scanner
 *             in what it accepts and rejects.
 *
 * Nothing here is part of the public API; names still carry the cgofuzz_
 * prefix because they are linked into users' programs.
 */
#ifndef CGOFUZZ_CODEC_INTERNAL_H
#define CGOFUZZ_CODEC_INTERNAL_H

#include "buf.h"
#include "strconv.h"
#include "text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- quote.c ---- */

/* unicode.IsSpace. */
bool cgofuzz_is_space(int32_t r);

/* bytes.TrimSpace: narrows [*s, *s + *n) in place. */
void cgofuzz_trim_space(const uint8_t **s, size_t *n);

/* strconv.Unquote of a literal (with its quotes), appending the value to
 * out. Returns 0, -1 on syntax error, -2 when out of memory. */
int cgofuzz_unquote(const uint8_t *s, size_t n, cgofuzz_buf *out);

/* strconv.UnquoteChar(s, '\'') for the first character of s, ignoring any
 * tail (which the scanner guarantees is empty for a rune literal).
 * Returns 0 and sets *r, or -1 on syntax error. */
int cgofuzz_unquote_char(const uint8_t *s, size_t n, int32_t *r);

/* ---- numfmt.c ---- */

/* strconv.ParseFloat(s, 64) and ParseFloat(s, 32) (the latter already
 * rounded to float32). s may be "+Inf", "-Inf" or "NaN"; NaN is Go's
 * math.NaN() (bits 0x7FF8000000000001), or 0x7FC00000 as float32. */
int cgofuzz_numfmt_parse_float64(const char *s, size_t n, double *out);
int cgofuzz_numfmt_parse_float32(const char *s, size_t n, float *out);

/* ---- codec_scan.c ---- */

typedef enum cgofuzz_tok {
  CGOFUZZ_T_EOF = 0,
  CGOFUZZ_T_IDENT,
  CGOFUZZ_T_INT,
  CGOFUZZ_T_FLOAT,
  CGOFUZZ_T_IMAG,
  CGOFUZZ_T_CHAR,
  CGOFUZZ_T_STRING,
  CGOFUZZ_T_LPAREN,
  CGOFUZZ_T_RPAREN,
  CGOFUZZ_T_LBRACK,
  CGOFUZZ_T_RBRACK,
  CGOFUZZ_T_PERIOD,
  CGOFUZZ_T_ELLIPSIS,
  CGOFUZZ_T_COMMA,
  CGOFUZZ_T_SEMICOLON,
  CGOFUZZ_T_UNARY, /* + - ! ^ & ~ <- : the operators Go allows before Inf */
  CGOFUZZ_T_OTHER  /* any other operator, or a non-ASCII identifier */
} cgofuzz_tok;

typedef struct cgofuzz_token {
  cgofuzz_tok tok;
  size_t off, len; /* the token's bytes in the line */
} cgofuzz_token;

/* Enough for the longest line a corpus value can be: [ ] byte ( - x ... , )
 * plus room to see that a line is longer than that. */
#define CGOFUZZ_SCAN_MAX 16

typedef struct cgofuzz_scan {
  cgofuzz_token t[CGOFUZZ_SCAN_MAX];
  size_t n;       /* tokens stored, excluding comments and the final EOF */
  bool truncated; /* more tokens than fit in t */
} cgofuzz_scan;

/* Scans a whole (trimmed) line. Returns 0, or -1 with a go/scanner style
 * message ("1:5: illegal character NUL") in msg when Go's scanner would
 * report an error anywhere in the line. */
int cgofuzz_scan_line(const uint8_t *s, size_t n, cgofuzz_scan *out, char *msg,
                      size_t msgsize);

#endif
