/* sha1.h: SHA-1 (FIPS 180-1) of a whole in-memory buffer. libFuzzer names
 * corpus and crash files after the SHA-1 hex of their bytes (crash-<sha1>,
 * and every file it adds to a corpus directory), so the libFuzzer front end
 * must compute the same names. Not for anything security-related. */
#ifndef CGOFUZZ_SHA1_H
#define CGOFUZZ_SHA1_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void cgofuzz_sha1(const uint8_t *p, size_t n, uint8_t out[20]);

/* The SHA-1 of p[0..n) as 40 lower-case hex digits and a NUL, the way
 * libFuzzer spells a file name (its Hash() of the unit). */
void cgofuzz_sha1_hex(const uint8_t *p, size_t n, char out[41]);

#ifdef __cplusplus
}
#endif
#endif
