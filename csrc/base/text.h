/* text.h: UTF-8 runes (as Go's unicode/utf8) and hex digits. */
#ifndef CGOFUZZ_TEXT_H
#define CGOFUZZ_TEXT_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGOFUZZ_RUNE_ERROR 0xFFFD
#define CGOFUZZ_MAX_RUNE 0x10FFFF

/* Decodes the rune at s[0..n) (n > 0) the way Go's utf8.DecodeRune does:
 * an invalid or truncated sequence yields U+FFFD with width 1. Returns the
 * width. */
int cgofuzz_utf8_decode(const uint8_t *s, size_t n, int32_t *r);

/* Encodes a valid rune (0..0x10FFFF, no surrogate); returns its length
 * (1..4). */
int cgofuzz_utf8_encode(int32_t r, uint8_t out[4]);

/* The value of the hexadecimal digit c (either case), or -1. */
int cgofuzz_hexval(int c);

/* The first k-byte s in p[0, n), NULL when there is none (or k is 0). */
const uint8_t *cgofuzz_text_find(const uint8_t *p, size_t n, const char *s,
                                 size_t k);

#ifdef __cplusplus
}
#endif
#endif
