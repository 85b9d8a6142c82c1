/* Internal to package gofuzz: the recorded ranges of C coverage counters. */
#ifndef GOFUZZ_COV_H
#define GOFUZZ_COV_H

#include <stddef.h>

/* How many distinct counter ranges are kept (one per executable or shared
 * object). */
#define GOFUZZ_MAX_RANGES 64

int gofuzz_cov_nranges(void);
int gofuzz_cov_dropped(void);
void *gofuzz_cov_range(int i, size_t *len);

#endif
