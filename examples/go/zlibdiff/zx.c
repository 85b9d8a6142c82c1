/* Thin wrappers around zlib for the Go side: size_t lengths, raw deflate
 * streams (no zlib header, as Go's compress/flate writes them) and malloc'd
 * output buffers that the caller frees.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "zx.h"

/* zlib treats a NULL buffer as a request for the initial value, whatever the
 * running value is; an empty Go slice arrives as NULL, so keep crc instead. */
uint32_t zx_crc32(uint32_t crc, const uint8_t *p, size_t n) {
  if (p == NULL)
    return crc;
  return (uint32_t)crc32_z(crc, p, n);
}

uint32_t zx_adler32(uint32_t adler, const uint8_t *p, size_t n) {
  if (p == NULL)
    return adler;
  return (uint32_t)adler32_z(adler, p, n);
}

int zx_deflate_raw(const uint8_t *in, size_t n, int level, uint8_t **out,
                   size_t *out_len) {
  z_stream s;
  memset(&s, 0, sizeof s);
  *out = NULL;
  *out_len = 0;
  if (n > UINT_MAX)
    return ZX_TOO_BIG;
  if (deflateInit2(&s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return ZX_ERROR;
  uLong bound = deflateBound(&s, (uLong)n);
  uint8_t *buf = malloc(bound ? bound : 1);
  if (buf == NULL) {
    deflateEnd(&s);
    return ZX_NOMEM;
  }
  s.next_in = (Bytef *)(uintptr_t)in;
  s.avail_in = (uInt)n;
  s.next_out = buf;
  s.avail_out = (uInt)bound;
  int rc = deflate(&s, Z_FINISH);
  size_t got = (size_t)s.total_out;
  deflateEnd(&s);
  if (rc != Z_STREAM_END) {
    free(buf);
    return ZX_ERROR;
  }
  *out = buf;
  *out_len = got;
  return ZX_OK;
}

int zx_inflate_raw(const uint8_t *in, size_t n, size_t max_out, uint8_t **out,
                   size_t *out_len) {
  z_stream s;
  memset(&s, 0, sizeof s);
  *out = NULL;
  *out_len = 0;
  if (n > UINT_MAX)
    return ZX_TOO_BIG;
  if (inflateInit2(&s, -15) != Z_OK)
    return ZX_ERROR;
  size_t cap = 256, len = 0;
  uint8_t *buf = malloc(cap);
  if (buf == NULL) {
    inflateEnd(&s);
    return ZX_NOMEM;
  }
  s.next_in = (Bytef *)(uintptr_t)in;
  s.avail_in = (uInt)n;
  int rc;
  for (;;) {
    if (len == cap) {
      if (cap > max_out) {
        rc = ZX_TOO_BIG;
        break;
      }
      uint8_t *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        rc = ZX_NOMEM;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    s.next_out = buf + len;
    s.avail_out = (uInt)(cap - len);
    int zrc = inflate(&s, Z_NO_FLUSH);
    len = cap - s.avail_out;
    if (zrc == Z_STREAM_END) {
      rc = len > max_out ? ZX_TOO_BIG : ZX_OK;
      break;
    }
    if (zrc == Z_BUF_ERROR && s.avail_out != 0) {
      rc = ZX_ERROR; /* input ended before the final block */
      break;
    }
    if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
      rc = ZX_ERROR;
      break;
    }
  }
  inflateEnd(&s);
  if (rc != ZX_OK) {
    free(buf);
    return rc;
  }
  *out = buf;
  *out_len = len;
  return ZX_OK;
}
