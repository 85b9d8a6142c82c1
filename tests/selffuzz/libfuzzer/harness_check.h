/*
 * harness_check.h: CHECK for the fuzz harnesses of cgofuzz's own code
 * (tests/selffuzz/libfuzzer, tests/selffuzz/cgofuzz): a broken property aborts
 * with its file, line and expression, so libFuzzer and cgofuzz both record it
 * as a crash.
 */
#ifndef CGOFUZZ_HARNESS_CHECK_H
#define CGOFUZZ_HARNESS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#endif
