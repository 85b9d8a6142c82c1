/* base64.h: standard base64 with padding (Go's base64.StdEncoding), as
 * encoding/json writes []byte fields of the wire messages. */
#ifndef CGOFUZZ_BASE64_H
#define CGOFUZZ_BASE64_H
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the encoding of p[0:n] to out; -1 when out cannot grow. */
int cgofuzz_base64_encode(const uint8_t *p, size_t n, cgofuzz_buf *out);
/* Appends the bytes s[0:n] encodes to out; -1 on malformed input. */
int cgofuzz_base64_decode(const char *s, size_t n, cgofuzz_buf *out);

#ifdef __cplusplus
}
#endif
#endif
