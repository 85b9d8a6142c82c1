/*
 * keywords.c: a libFuzzer target that never fails, with keywords behind
 * strstr, strcmp and memcmp, each its own branch. Fuzzing it must find
 * them through the table of recent compares and keep the tokens that
 * found coverage in the worker's auto-dictionary
 * (CGOFUZZ_WORKER_STATS: "autodict N").
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);

static volatile int sink;

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  char s[65];
  size_t k = n < 64 ? n : 64;
  memcpy(s, p, k);
  s[k] = 0;
  if (strstr(s, "alpha"))
    sink++;
  if (strstr(s, "bravo"))
    sink++;
  if (strcmp(s, "charlie-delta") == 0)
    sink++;
  if (n >= 8 && memcmp(p + n - 8, "echo-fox", 8) == 0)
    sink++;
  return 0;
}
