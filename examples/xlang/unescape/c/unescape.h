/*
 * unescape.h: the C half of the cross-language example (the Go half is
 * ../unescape.go): URL percent-decoding, "%XY" -> byte 0xXY, and with plus,
 * '+' -> ' '.
 */
#ifndef XLANG_UNESCAPE_H
#define XLANG_UNESCAPE_H

#include <stddef.h>
#include <stdint.h>

/* Decodes s[0..n) into out (room for n bytes). Returns the decoded length,
 * or -1 with *err_off set to the offset of a '%' not followed by two
 * hexadecimal digits. */
long xl_unescape(const char *s, size_t n, int plus, uint8_t *out,
                 size_t *err_off);

/* Encodes b[0..n) into out (room for 3n bytes): every byte but letters,
 * digits and "-._~" as "%XY" (upper case). Returns the length. */
size_t xl_escape(const uint8_t *b, size_t n, char *out);

/* Planted bugs for the runner's tests, chosen by xl_bug:
 * 0 none; 1 lower-case hex digits are rejected (a silent disagreement:
 * both sides pass, the results differ); 2 xl_escape leaves '%' as is (the
 * C target's round-trip check then fails on inputs that decode to '%'). */
extern int xl_bug;

#endif
