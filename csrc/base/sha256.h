/* sha256.h: SHA-256 of a whole in-memory buffer (Go names corpus entries
 * after it). */
#ifndef CGOFUZZ_SHA256_H
#define CGOFUZZ_SHA256_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void cgofuzz_sha256(const uint8_t *p, size_t n, uint8_t out[32]);

#ifdef __cplusplus
}
#endif
#endif
