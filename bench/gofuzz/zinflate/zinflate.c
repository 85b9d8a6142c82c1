/* FuzzInflate: raw-deflate and zlib-wrapped inflate of the input, up to
 * 64 KiB of output; the harness is instrumented, zlib (a shared library)
 * is not. */
#include <string.h>
#include <zlib.h>

#include "cgofuzz/target.h"

static void seeds(cgofuzz_f *f) {
  static const unsigned char z[] = {0x78, 0x9c, 0x4b, 0x4c, 0x4a, 0x06,
                                    0x00, 0x02, 0x4d, 0x01, 0x27};
  cgofuzz_add(f, z, sizeof z, 0);
}

static void inflate_all(cgofuzz_t *t, const cgofuzz_value *v) {
  static unsigned char out[1 << 16];
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, v[1].b ? -15 : 15) != Z_OK)
    cgofuzz_fatalf(t, "inflateInit2 failed");
  s.next_in = (unsigned char *)v[0].s.data;
  s.avail_in = (uInt)v[0].s.len;
  int r;
  do {
    s.next_out = out;
    s.avail_out = sizeof out;
    r = inflate(&s, Z_NO_FLUSH);
  } while (r == Z_OK && s.avail_in > 0 && s.total_out < sizeof out);
  inflateEnd(&s);
}
CGOFUZZ_TARGET(FuzzInflate, seeds, inflate_all, CGOFUZZ_BYTES, CGOFUZZ_BOOL)
