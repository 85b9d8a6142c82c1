/*
 * isprint_table.h: the layout of isprint_table.c, which tools/gen_isprint
 * generates from the real Go toolchains (go1.18 ... go1.27).
 *
 * cgofuzz_isprint_ranges is the newest release's strconv.IsPrint set as
 * sorted, disjoint, inclusive ranges. Release go1.N (minor_lo <= N <=
 * minor_hi) differs from it exactly on the ranges
 * cgofuzz_isprint_delta[off .. off + n) of its cgofuzz_isprint_releases
 * entry (sorted, disjoint; n == 0 for releases with the newest set).
 * Only quote.c reads these.
 */
#ifndef CGOFUZZ_ISPRINT_TABLE_H
#define CGOFUZZ_ISPRINT_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cgofuzz_isprint_release {
  uint32_t off, n;     /* its ranges in cgofuzz_isprint_delta */
  const char *unicode; /* unicode.Version of that release */
} cgofuzz_isprint_release;

extern const uint32_t cgofuzz_isprint_ranges[][2];
extern const size_t cgofuzz_isprint_nranges;
extern const uint32_t cgofuzz_isprint_delta[][2];
extern const int cgofuzz_isprint_minor_lo, cgofuzz_isprint_minor_hi;
extern const cgofuzz_isprint_release cgofuzz_isprint_releases[];

#endif
