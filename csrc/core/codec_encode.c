/*
 * codec_encode.c: values -> corpus file, byte for byte as internal/fuzz's
 * marshalCorpusFile writes them.
 *
 * Per kind: T(%v) for integers and bool; byte('x') for every uint8 (the
 * byte quoted as a rune, so 0xff is 'ÿ'); rune('x') for an int32 that is a
 * valid rune and int32(n) otherwise; T(%v) for floats except NaNs whose
 * bits differ from Go's math.NaN() (float64 0x7FF8000000000001, float32
 * 0x7FC00000), which become math.FloatNNfrombits(0x<lower hex>);
 * string(%q) and []byte(%q).
 */
#include "codec.h"
#include "codec_internal.h"
#include "sha256.h"
#include "wire.h"

#include <inttypes.h>
#include <string.h>

static int wrap_quoted(cgofuzz_buf *out, const char *fn, const cgofuzz_value *v,
                       cgofuzz_gover g) {
  if (cgofuzz_buf_puts(out, fn) < 0 || cgofuzz_buf_putc(out, '(') < 0 ||
      cgofuzz_quote_v(v->s.data, v->s.len, g, out) < 0)
    return -1;
  return cgofuzz_buf_putc(out, ')');
}

int cgofuzz_codec_encode_value(const cgofuzz_value *v, cgofuzz_buf *out) {
  return cgofuzz_codec_encode_value_v(v, CGOFUZZ_GOVER_DEFAULT, out);
}

int cgofuzz_codec_encode_value_v(const cgofuzz_value *v, cgofuzz_gover g,
                                 cgofuzz_buf *out) {
  const char *name = cgofuzz_kind_name(v->kind);
  switch (v->kind) {
  case CGOFUZZ_BYTES:
  case CGOFUZZ_STRING:
    return wrap_quoted(out, name, v, g);
  case CGOFUZZ_BOOL:
    return cgofuzz_buf_puts(out, v->b ? "bool(true)" : "bool(false)");
  case CGOFUZZ_INT:
  case CGOFUZZ_INT8:
  case CGOFUZZ_INT16:
  case CGOFUZZ_INT64:
    return cgofuzz_buf_printf(out, "%s(%" PRId64 ")", name, v->i);
  case CGOFUZZ_INT32: {
    int64_t r = v->i;
    if (r < 0 || r > CGOFUZZ_MAX_RUNE || (r >= 0xD800 && r < 0xE000))
      return cgofuzz_buf_printf(out, "int32(%" PRId64 ")", r);
    if (cgofuzz_buf_puts(out, "rune(") < 0 ||
        cgofuzz_quote_rune_v((int32_t)r, g, out) < 0)
      return -1;
    return cgofuzz_buf_putc(out, ')');
  }
  case CGOFUZZ_UINT8:
    if (cgofuzz_buf_puts(out, "byte(") < 0 ||
        cgofuzz_quote_rune_v((int32_t)(v->u & 0xFF), g, out) < 0)
      return -1;
    return cgofuzz_buf_putc(out, ')');
  case CGOFUZZ_UINT:
  case CGOFUZZ_UINT16:
  case CGOFUZZ_UINT32:
  case CGOFUZZ_UINT64:
    return cgofuzz_buf_printf(out, "%s(%" PRIu64 ")", name, v->u);
  case CGOFUZZ_FLOAT32: {
    uint32_t b;
    memcpy(&b, &v->f32, 4);
    if ((b & 0x7FFFFFFFu) > 0x7F800000u && b != 0x7FC00000u)
      return cgofuzz_buf_printf(out, "math.Float32frombits(0x%" PRIx32 ")", b);
    if (cgofuzz_buf_puts(out, "float32(") < 0 ||
        cgofuzz_numfmt_format_float32_v(v->f32, g, out) < 0)
      return -1;
    return cgofuzz_buf_putc(out, ')');
  }
  case CGOFUZZ_FLOAT64: {
    uint64_t b;
    memcpy(&b, &v->f64, 8);
    if ((b & UINT64_C(0x7FFFFFFFFFFFFFFF)) > UINT64_C(0x7FF0000000000000) &&
        b != UINT64_C(0x7FF8000000000001))
      return cgofuzz_buf_printf(out, "math.Float64frombits(0x%" PRIx64 ")", b);
    if (cgofuzz_buf_puts(out, "float64(") < 0 ||
        cgofuzz_numfmt_format_float64_v(v->f64, g, out) < 0)
      return -1;
    return cgofuzz_buf_putc(out, ')');
  }
  default:
    return -1;
  }
}

int cgofuzz_codec_encode(const cgofuzz_value *vals, size_t n, cgofuzz_buf *out,
                         cgofuzz_err *err) {
  return cgofuzz_codec_encode_v(vals, n, CGOFUZZ_GOVER_DEFAULT, out, err);
}

int cgofuzz_codec_encode_v(const cgofuzz_value *vals, size_t n, cgofuzz_gover g,
                           cgofuzz_buf *out, cgofuzz_err *err) {
  if (n == 0)
    return cgofuzz_errf(err, 0, "must have at least one value to marshal");
  if (cgofuzz_buf_puts(out, CGOFUZZ_CORPUS_HEADER "\n") < 0)
    return cgofuzz_errf(err, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    if (cgofuzz_codec_encode_value_v(&vals[i], g, out) < 0 ||
        cgofuzz_buf_putc(out, '\n') < 0)
      return cgofuzz_errf(err, 0, "cannot encode value %zu (kind %d)", i,
                          (int)vals[i].kind);
  }
  return 0;
}

void cgofuzz_codec_name(const uint8_t *data, size_t len, char out[17]) {
  char full[CGOFUZZ_CODEC_NAME_MAX];
  cgofuzz_codec_name_v(data, len, CGOFUZZ_GOVER_DEFAULT, full);
  memcpy(out, full, 17);
}

void cgofuzz_codec_name_v(const uint8_t *data, size_t len, cgofuzz_gover g,
                          char out[CGOFUZZ_CODEC_NAME_MAX]) {
  static const char hex[] = "0123456789abcdef";
  uint8_t sum[32];
  int nbytes = cgofuzz_gover_name_digits(g) / 2;
  cgofuzz_sha256(data, len, sum);
  for (int i = 0; i < nbytes; i++) {
    out[2 * i] = hex[sum[i] >> 4];
    out[2 * i + 1] = hex[sum[i] & 0xF];
  }
  out[2 * nbytes] = 0;
}
