/* png_read.c: libpng reads a PNG from memory (header, transforms, all
 * rows, end info), like libpng's contrib/oss-fuzz harness but in C. CRC
 * errors are ignored so that mutated chunks get parsed. */
#include <png.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
  const uint8_t *p;
  size_t left;
} src;

static void rd(png_structp png, png_bytep out, png_size_t n) {
  src *s = png_get_io_ptr(png);
  if (n > s->left)
    png_error(png, "EOF");
  memcpy(out, s->p, n);
  s->p += n;
  s->left -= n;
}

static void nowarn(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8))
    return 0;
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, nowarn);
  if (!png)
    return 0;
  png_infop info = png_create_info_struct(png);
  png_infop end = png_create_info_struct(png);
  png_bytep row = NULL;
  if (!info || !end) {
    png_destroy_read_struct(&png, &info, &end);
    return 0;
  }
  src s = {data, size};
  if (setjmp(png_jmpbuf(png))) {
    free(row);
    png_destroy_read_struct(&png, &info, &end);
    return 0;
  }
  png_set_user_limits(png, 4096, 4096);
  png_set_chunk_malloc_max(png, 1 << 20);
  png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  png_set_read_fn(png, &s, rd);
  png_read_info(png, info);
  png_uint_32 w, h;
  int depth, color, interlace;
  png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, NULL, NULL);
  if ((uint64_t)w * h > 1000000)
    png_error(png, "too big");
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  row = malloc(png_get_rowbytes(png, info));
  if (!row)
    png_error(png, "oom");
  for (int p = 0; p < passes; p++)
    for (png_uint_32 y = 0; y < h; y++)
      png_read_row(png, row, NULL);
  png_read_end(png, end);
  free(row);
  png_destroy_read_struct(&png, &info, &end);
  return 0;
}
