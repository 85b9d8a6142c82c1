/*
 * planted.c: the harness of issue 13, a libFuzzer target whose crash sits
 * behind a 3-byte prefix, a 32-bit magic compared as one integer,
 * memcmp(p, "deadline", 8) and a relation between two bytes. Built -O2:
 * without -fno-builtin-memcmp clang expands the memcmp into one 64-bit
 * compare that carries no trace-cmp hook (FACTS.md 12), and cgofuzz did
 * not find it in 478M execs; libFuzzer finds it in about 0.35 s.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n) {
  if (n < 17)
    return 0;
  if (p[0] != 'C' || p[1] != 'G' || p[2] != 'F')
    return 0;
  uint32_t magic;
  memcpy(&magic, p + 3, 4);
  if (magic != 0x1badb002u)
    return 0;
  if (memcmp(p + 7, "deadline", 8) != 0)
    return 0;
  if (p[15] + 1 != p[16])
    return 0;
  abort();
}
