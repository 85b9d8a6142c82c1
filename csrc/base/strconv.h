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

/* time.ParseDuration: 0 and *ns (negative durations included), or -1 on
 * a syntax error or overflow. */
int cgofuzz_parse_go_duration(const char *s, int64_t *ns);

/* A -fuzztime style value (testing's durationOrCountFlag without its zero
 * rule): "Nx" (strconv.ParseInt(N, 10, 64), N >= 0) into *count, else a
 * duration >= 0 into *ns; the other is set to 0. Returns 0 or -1. */
int cgofuzz_parse_duration(const char *s, int64_t *ns, int64_t *count);

#ifdef __cplusplus
}
#endif
#endif
