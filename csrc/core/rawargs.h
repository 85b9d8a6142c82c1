/*
 * rawargs.h: the documented, stable mapping between a raw byte string (a
 * libFuzzer testcase) and the argument values of a Go fuzz target with the
 * argument kinds kinds[0..n). docs/raw-inputs.md has a worked example.
 *
 * The rules:
 *
 *  - Every raw input decodes to valid values (never an error), so any
 *    mutated raw file is a valid input.
 *  - If the target has exactly one argument and it is []byte or string, the
 *    raw bytes ARE the value.
 *  - Otherwise arguments are read in order from the front. A fixed-size
 *    argument takes its natural width in little-endian order: bool 1 byte
 *    (value = byte & 1), int8/uint8 1, int16/uint16 2, int32/uint32/float32
 *    4, int/uint/int64/uint64/float64 8 (a float is its IEEE bits, as Go's
 *    math.Float32frombits / math.Float64frombits); bytes missing at the end
 *    read as zero.
 *  - A []byte or string argument that is NOT the last variable-length
 *    argument takes a length L as an unsigned LEB128 varint (Go's
 *    binary.Uvarint encoding) followed by L bytes. A truncated varint (the
 *    input ends while the continuation bit is set) consumes the rest of the
 *    input; an over-long one stops after its 10th byte (Go's
 *    binary.MaxVarintLen64); either way, and on overflow, L is what the
 *    bytes read accumulated, bits beyond 64 dropped. L is then clamped to
 *    the bytes remaining.
 *  - The LAST []byte/string argument takes all remaining bytes except those
 *    needed by the fixed-size arguments after it (the sum of their widths;
 *    it gets 0 bytes when fewer remain), then those later fixed-size
 *    arguments read from what is left.
 *  - Encoding is the inverse: encode(values) gives bytes that decode to
 *    exactly those values (every value, including the NaN payloads of
 *    floats), with minimal varints and bool written as 0 or 1. Decoding is
 *    not injective (bool 2 reads as false, trailing bytes may be ignored),
 *    so encode(decode(raw)) need not be raw.
 */
#ifndef CGOFUZZ_RAWARGS_H
#define CGOFUZZ_RAWARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "gover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes data[0..len) into n values of kinds[0..n) by the rules above.
 * out is cleared first. The []byte and string values BORROW their bytes
 * from data (not CGOFUZZ_VAL_OWNED), so data must outlive them; call
 * cgofuzz_value_own to keep one. Returns 0, or -1 only when out of memory. */
int cgofuzz_rawargs_decode(const cgofuzz_kind *kinds, size_t n,
                           const uint8_t *data, size_t len,
                           cgofuzz_values *out);

/* Appends the raw encoding of v[0..n) to out. Returns 0, or -1 when out of
 * memory. */
int cgofuzz_rawargs_encode(const cgofuzz_value *v, size_t n, cgofuzz_buf *out);

/* Decodes the raw input raw[0..len) for kinds[0..n) and appends it to out
 * as a "go test fuzz v1" corpus file (cgofuzz_codec_encode). Returns 0, or
 * -1 with err set (n == 0, which Go cannot encode, or out of memory). */
int cgofuzz_rawargs_to_corpus(const cgofuzz_kind *kinds, size_t n,
                              const uint8_t *raw, size_t len, cgofuzz_buf *out,
                              cgofuzz_err *err);
/* The same, encoding as Go release g does (gover.h). */
int cgofuzz_rawargs_to_corpus_v(const cgofuzz_kind *kinds, size_t n,
                                const uint8_t *raw, size_t len, cgofuzz_gover g,
                                cgofuzz_buf *out, cgofuzz_err *err);

/* Decodes the corpus file file[0..len) (cgofuzz_codec_decode), checks that
 * it holds exactly n values of kinds[0..n) (int32/rune and uint8/byte are
 * the same kinds), and appends their raw encoding to raw. Returns 0, or -1
 * with err set: the codec's error, the count or the first kind that does
 * not match, or out of memory. */
int cgofuzz_rawargs_from_corpus(const cgofuzz_kind *kinds, size_t n,
                                const uint8_t *file, size_t len,
                                cgofuzz_buf *raw, cgofuzz_err *err);
/* The same, decoding as Go release g does (gover.h). */
int cgofuzz_rawargs_from_corpus_v(const cgofuzz_kind *kinds, size_t n,
                                  const uint8_t *file, size_t len,
                                  cgofuzz_gover g, cgofuzz_buf *raw,
                                  cgofuzz_err *err);

/* Whether data is meant as a corpus file rather than raw bytes: it has a
 * '\n' and the line before it, less one trailing '\r', is exactly
 * "go test fuzz v1" (the version check of Go's unmarshalCorpusFile). It
 * may still fail to decode. */
bool cgofuzz_rawargs_is_corpus_file(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
