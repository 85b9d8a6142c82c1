/* tlv.h: a tiny type-length-value reader, cgofuzz's ClusterFuzzLite
 * example of a C library. */
#ifndef TLV_H
#define TLV_H

#include <stddef.h>
#include <stdint.h>

/* Sums the value bytes of the records in data[0..n): each record is a type
 * byte, a length byte L and L value bytes. Returns the number of records,
 * or -1 when a record runs past the end. */
int tlv_sum(const uint8_t *data, size_t n, unsigned *sum);

#endif
