/* zlib_inflate.c: streaming inflate of arbitrary input (zlib or raw
 * deflate, chosen by the first byte), output discarded. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static unsigned char out[16384];
  if (size < 1)
    return 0;
  int wbits = (data[0] & 1) ? -15 : 15; /* raw deflate or zlib */
  if (data[0] & 2)
    wbits += 16 * (wbits > 0); /* gzip */
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, wbits) != Z_OK)
    return 0;
  s.next_in = (Bytef *)(data + 1);
  s.avail_in = (uInt)(size - 1);
  for (int rounds = 0; rounds < 64; rounds++) {
    s.next_out = out;
    s.avail_out = sizeof out;
    int r = inflate(&s, Z_NO_FLUSH);
    if (r != Z_OK)
      break;
  }
  inflateEnd(&s);
  return 0;
}
