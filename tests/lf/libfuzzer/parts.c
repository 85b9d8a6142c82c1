/*
 * parts.c: a bug made of three seeds' parts (tests/lf/libfuzzer's crossover
 * case): abort() when the input opens the tags <svg, <head and <select in that
 * order with no other tag between them, each tag's name being in one seed
 * only. Names are compared by FNV-1a hash, so no comparison feedback or
 * dictionary names them: only a crossover of the seeds brings them
 * together (a worker's mutator never mixes two inputs; the coordinator's
 * built calls do, fb_dict.c). One branch per step, as an HTML parser's
 * insertion modes.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static uint32_t name_hash(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t chain[3] = {0xe7478ea1u, 0x32694bc3u, 0x11c2662du};
  int state = 0;
  for (size_t i = 0; i < size; i++) {
    if (data[i] != '<')
      continue;
    size_t j = i + 1;
    while (j < size && data[j] != '>' && data[j] != ' ' && data[j] != '<')
      j++;
    uint32_t h = name_hash(data + i + 1, j - i - 1);
    if (state == 0 && h == chain[0])
      state = 1;
    else if (state == 1 && h == chain[1])
      state = 2;
    else if (state == 2 && h == chain[2])
      abort();
    else
      state = 0;
    i = j - 1;
  }
  return 0;
}
