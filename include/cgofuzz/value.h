/*
 * value.h: the argument values of a fuzz target, as Go's fuzzing sees them.
 *
 * Go fuzz targets take any mix of []byte, string, bool and the fixed and
 * platform-sized integer and float types. In Go, rune is int32 and byte is
 * uint8: they are the same type, so they are the same kind here too. The
 * corpus encoder decides by value whether an int32 is written as rune('x')
 * or int32(n), and always writes a uint8 as byte('x'); a decoder accepts
 * either spelling.
 *
 * []byte and string values point at bytes that are either owned by the value
 * (CGOFUZZ_VAL_OWNED, freed by cgofuzz_values_clear) or borrowed, for example
 * from the mutator's scratch buffer, which several []byte values may share at
 * once exactly as they share it in Go (see mutator.h).
 */
#ifndef CGOFUZZ_VALUE_H
#define CGOFUZZ_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Go types a fuzz target argument may have. int and uint are 64 bits
 * wide, as on every platform cgofuzz supports (linux/amd64, linux/arm64). */
typedef enum cgofuzz_kind {
  CGOFUZZ_BYTES = 0, /* []byte */
  CGOFUZZ_STRING,
  CGOFUZZ_BOOL,
  CGOFUZZ_INT,
  CGOFUZZ_INT8,
  CGOFUZZ_INT16,
  CGOFUZZ_INT32, /* also rune */
  CGOFUZZ_INT64,
  CGOFUZZ_UINT,
  CGOFUZZ_UINT8, /* also byte */
  CGOFUZZ_UINT16,
  CGOFUZZ_UINT32,
  CGOFUZZ_UINT64,
  CGOFUZZ_FLOAT32,
  CGOFUZZ_FLOAT64,
  CGOFUZZ_NKINDS
} cgofuzz_kind;

#define CGOFUZZ_RUNE CGOFUZZ_INT32
#define CGOFUZZ_BYTE CGOFUZZ_UINT8

/* Set in cgofuzz_value.flags when s.data is heap memory owned by the value. */
#define CGOFUZZ_VAL_OWNED 0x01

typedef struct cgofuzz_value {
  cgofuzz_kind kind;
  uint8_t flags;
  union {
    int64_t i;  /* INT, INT8..INT64 (sign-extended) */
    uint64_t u; /* UINT, UINT8..UINT64 (zero-extended) */
    bool b;     /* BOOL */
    float f32;  /* FLOAT32 */
    double f64; /* FLOAT64 */
    struct {
      uint8_t *data; /* may be NULL when len == 0 */
      size_t len;
    } s; /* BYTES, STRING */
  };
} cgofuzz_value;

/* A growable list of values, e.g. the decoded contents of one corpus file. */
typedef struct cgofuzz_values {
  cgofuzz_value *v;
  size_t n, cap;
} cgofuzz_values;

/* Go's spelling of a kind ("[]byte", "string", "int8", ...). */
const char *cgofuzz_kind_name(cgofuzz_kind k);

/* Parses a Go type name ("[]byte", "rune", "byte", "uint16", ...) into *out.
 * Returns 0 on success, -1 if the name is not a supported type. */
int cgofuzz_kind_parse(const char *name, cgofuzz_kind *out);

/* Appends a value; for BYTES/STRING the bytes are copied and owned.
 * Returns 0, or -1 when out of memory. */
int cgofuzz_values_push(cgofuzz_values *vs, const cgofuzz_value *v);

/* Frees owned bytes and empties the list (keeps it usable). */
void cgofuzz_values_clear(cgofuzz_values *vs);

/* Frees everything; the list is left empty and may be reused. */
void cgofuzz_values_free(cgofuzz_values *vs);

/* Makes the bytes of vs->v[i] owned by the value (copies borrowed bytes).
 * Returns 0, or -1 when out of memory. */
int cgofuzz_value_own(cgofuzz_value *v);

/* Frees the owned bytes of one value, leaving it empty. */
void cgofuzz_value_release(cgofuzz_value *v);

/* Deep copy: dst gets owned copies of src's bytes. dst must be empty. */
int cgofuzz_values_copy(cgofuzz_values *dst, const cgofuzz_values *src);

/* True when a and b have the same kinds and the same values, bit for bit
 * (floats compare by their bits, so NaN payloads matter). */
bool cgofuzz_values_equal(const cgofuzz_values *a, const cgofuzz_values *b);

#ifdef __cplusplus
}
#endif
#endif
