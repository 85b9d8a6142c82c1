/* strconv.h: Go's strconv.ParseInt and ParseUint with base 0. */
#ifndef CGOFUZZ_STRCONV_H
#define CGOFUZZ_STRCONV_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CGOFUZZ_NUM_OK = 0, CGOFUZZ_NUM_SYNTAX = -1, CGOFUZZ_NUM_RANGE = -2 };

/* strconv.ParseInt(s, 0, bits) / strconv.ParseUint(s, 0, bits) of s[0:n]:
 * CGOFUZZ_NUM_OK, _SYNTAX, or _RANGE (then *out is the clamped value for
 * ParseUint, 0 for ParseInt). */
int cgofuzz_parse_int(const char *s, size_t n, int bits, int64_t *out);
int cgofuzz_parse_uint(const char *s, size_t n, int bits, uint64_t *out);

/* strconv's underscoreOK: '_' may only separate digits (a base prefix
 * counts as a digit); s[0:n] may start with a sign. */
bool cgofuzz_underscore_ok(const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
