#ifndef ZX_H
#define ZX_H

#include <stddef.h>
#include <stdint.h>

/* Results of zx_deflate_raw and zx_inflate_raw. */
enum { ZX_OK = 0, ZX_ERROR = -1, ZX_TOO_BIG = -2, ZX_NOMEM = -3 };

uint32_t zx_crc32(uint32_t crc, const uint8_t *p, size_t n);
uint32_t zx_adler32(uint32_t adler, const uint8_t *p, size_t n);
int zx_deflate_raw(const uint8_t *in, size_t n, int level, uint8_t **out,
                   size_t *out_len);
int zx_inflate_raw(const uint8_t *in, size_t n, size_t max_out, uint8_t **out,
                   size_t *out_len);

#endif
