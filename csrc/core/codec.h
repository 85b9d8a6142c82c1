/*
 * codec.h: the "go test fuzz v1" corpus file format.
 *
 * A corpus file is the line "go test fuzz v1" followed by one Go call
 * expression per line, such as []byte("\x00") or float64(-Inf). Decoding
 * accepts exactly the files the installed Go's internal/fuzz accepts: each
 * value line is trimmed of Unicode white space and must then be a single Go
 * expression, by Go's own lexical rules, of one of the forms
 *
 *   T(lit)  T(-lit)  T(op Inf)  T(NaN)  bool(true|false)
 *   []byte(str)  math.Float32frombits(int)  math.Float64frombits(int)
 *
 * with optional comments, a trailing comma and the other quirks Go's
 * parser allows, and each value is range-checked for its type. Blank lines
 * are skipped.
 *
 * Encoding produces the bytes Go writes for the same values: strconv-style
 * %q quoting with the Go release's Unicode printability table, %v float
 * formatting (shortest round-trip digits), NaNs other than Go's math.NaN()
 * as math.FloatNNfrombits(0x...), and rune('x') for valid runes but
 * int32(n) for other int32 values.
 *
 * Go releases differ (gover.h): the _v functions follow release g; the
 * others behave like the newest release (CGOFUZZ_GOVER_DEFAULT).
 */
#ifndef CGOFUZZ_CODEC_H
#define CGOFUZZ_CODEC_H

#include "buf.h"
#include "cgofuzz/value.h"
#include "gover.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CGOFUZZ_CORPUS_HEADER "go test fuzz v1"

/* Decodes a corpus file into out (which is cleared first; values are owned).
 * On error returns -1 and sets err->line (1-based line in the file, 0 for
 * file-level errors) and err->msg. A file with a header and no values
 * decodes to zero values, as in Go. */
int cgofuzz_codec_decode(const uint8_t *data, size_t len, cgofuzz_values *out,
                         cgofuzz_err *err);

/* cgofuzz_codec_decode as release g: go1.18 rejects a '\r' ending the
 * version line, later releases drop it. */
int cgofuzz_codec_decode_v(const uint8_t *data, size_t len, cgofuzz_gover g,
                           cgofuzz_values *out, cgofuzz_err *err);

/* Decodes a single value line (without the header, not yet trimmed). */
int cgofuzz_codec_decode_line(const uint8_t *line, size_t len,
                              cgofuzz_value *out, cgofuzz_err *err);

/* Appends Go's encoding of vals (header line included) to out.
 * Returns 0, or -1 when n == 0 (Go refuses to marshal no values) or out of
 * memory. */
int cgofuzz_codec_encode(const cgofuzz_value *vals, size_t n, cgofuzz_buf *out,
                         cgofuzz_err *err);

/* cgofuzz_codec_encode as release g writes it (its %q tables). */
int cgofuzz_codec_encode_v(const cgofuzz_value *vals, size_t n, cgofuzz_gover g,
                           cgofuzz_buf *out, cgofuzz_err *err);

/* Appends Go's encoding of one value, without the trailing newline. */
int cgofuzz_codec_encode_value(const cgofuzz_value *v, cgofuzz_buf *out);
int cgofuzz_codec_encode_value_v(const cgofuzz_value *v, cgofuzz_gover g,
                                 cgofuzz_buf *out);

/* Appends s quoted as Go's strconv.Quote (and fmt's %q) quotes it. */
int cgofuzz_quote(const uint8_t *s, size_t len, cgofuzz_buf *out);
int cgofuzz_quote_v(const uint8_t *s, size_t len, cgofuzz_gover g,
                    cgofuzz_buf *out);

/* Appends r quoted as strconv.QuoteRune quotes it ('x', '\n', '\u00ad'). */
int cgofuzz_quote_rune(int32_t r, cgofuzz_buf *out);
int cgofuzz_quote_rune_v(int32_t r, cgofuzz_gover g, cgofuzz_buf *out);

/* strconv.IsPrint of the newest release / of release g (Unicode 13 up to
 * go1.20, 15 for go1.21-go1.26, 17 for go1.27). */
int cgofuzz_is_print(int32_t r);
int cgofuzz_is_print_v(int32_t r, cgofuzz_gover g);

/* Appends the %v formatting of a float64 / float32 ("1e+06", "+Inf",
 * "-0", "NaN", "0.1"). */
int cgofuzz_numfmt_format_float64(double f, cgofuzz_buf *out);
int cgofuzz_numfmt_format_float32(float f, cgofuzz_buf *out);
/* The same as release g writes them: only go1.26 differs, in one exact tie
 * (float32 2^-12 is "0.00024414063" there, "0.00024414062" elsewhere). */
int cgofuzz_numfmt_format_float64_v(double f, cgofuzz_gover g,
                                    cgofuzz_buf *out);
int cgofuzz_numfmt_format_float32_v(float f, cgofuzz_gover g, cgofuzz_buf *out);

/* The name Go gives a corpus entry (internal/fuzz writeToCorpus): the first
 * 8 bytes of the SHA-256 of its encoded data, as 16 lowercase hex digits
 * (plus the NUL). */
void cgofuzz_codec_name(const uint8_t *data, size_t len, char out[17]);

/* The name release g gives a corpus entry: the SHA-256 of data as
 * cgofuzz_gover_name_digits(g) lowercase hex digits (64 in go1.18 and
 * go1.19, 16 from go1.20), plus the NUL. */
#define CGOFUZZ_CODEC_NAME_MAX 65
void cgofuzz_codec_name_v(const uint8_t *data, size_t len, cgofuzz_gover g,
                          char out[CGOFUZZ_CODEC_NAME_MAX]);

#ifdef __cplusplus
}
#endif
#endif
