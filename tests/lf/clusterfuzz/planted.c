/*
 * planted.c: the planted-bug libFuzzer harness of tests/lf/clusterfuzz (and of
 * bench/cf/cf_bench.py). Built unchanged by clang -fsanitize=address,fuzzer
 * (the libFuzzer control) and by `cgofuzz cc -fsanitize=address,fuzzer`.
 *
 * The bug: an input starting with "FUZZ" reads one byte past a heap copy of
 * the input (an ASan heap-buffer-overflow). The magic is checked one byte at
 * a time, so each byte found is a new edge and coverage-guided fuzzing walks
 * to it in well under a second.
 *
 *   -DPLANTED_NOBUG   the same branches without the bad read (fuzzing it
 *                     finds coverage but never a crash);
 *   -DPLANTED_HARD    an 8-byte magic "FUZZING!" (bench: time to the crash);
 *   -DPLANTED_LEAK    no bad read: the copy is never freed, a memory leak
 *                     (LeakSanitizer; libFuzzer's -detect_leaks).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef PLANTED_HARD
static const char magic[] = "FUZZING!";
#else
static const char magic[] = "FUZZ";
#endif
#define MAGIC_LEN (sizeof magic - 1)

static volatile int sink;
static uint8_t *volatile keep;

/* Small, input-dependent work so that inputs that are not the magic still
 * differ in coverage (the corpus grows under fuzzing and merging keeps
 * something). */
static void classify(const uint8_t *data, size_t size) {
  if (size > 16)
    sink++;
  for (size_t i = 0; i < size && i < 8; i++) {
    if (data[i] < 0x20)
      sink += 1;
    else if (data[i] < 0x80)
      sink += 2;
    else
      sink += 3;
  }
}

static void bug(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size);
  memcpy(copy, data, size);
#if defined(PLANTED_LEAK)
  sink += copy[size - 1];
  keep = copy; /* escapes, then is lost: a direct leak */
  keep = NULL;
  return;
#elif defined(PLANTED_NOBUG)
  sink += copy[size - 1];
#else
  sink += copy[size]; /* one past the end: heap-buffer-overflow */
#endif
  free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  classify(data, size);
  if (size < MAGIC_LEN)
    return 0;
  /* One comparison per byte: each a separate edge. */
  if (data[0] != (uint8_t)magic[0])
    return 0;
  if (data[1] != (uint8_t)magic[1])
    return 0;
  if (data[2] != (uint8_t)magic[2])
    return 0;
  if (data[3] != (uint8_t)magic[3])
    return 0;
#ifdef PLANTED_HARD
  if (data[4] != (uint8_t)magic[4])
    return 0;
  if (data[5] != (uint8_t)magic[5])
    return 0;
  if (data[6] != (uint8_t)magic[6])
    return 0;
  if (data[7] != (uint8_t)magic[7])
    return 0;
#endif
  bug(data, size);
  return 0;
}
