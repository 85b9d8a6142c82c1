/* covdrive.c: the common yardstick for edge coverage. Linked with a
 * harness and its library built with -fsanitize-coverage=
 * inline-8bit-counters,pc-table (no fuzzer runtime), it runs every file
 * named on stdin (one path a line) through LLVMFuzzerTestOneInput once and
 * prints "edges N of M": the number of distinct instrumented edges (8-bit
 * counters, one per edge with clang's default edge coverage) that any of
 * the inputs reached. Inputs that crash are not excluded: run the corpus
 * without crashers (fuzzers keep crashers out of their corpora).
 *
 * With COVDRIVE_PCS=FILE set it also writes, for every instrumented edge,
 * its address and whether an input reached it ("<hex> 0|1" a line): two
 * such files name the functions one corpus reached and the other did not,
 * and one tells how many edges lie in functions no input entered. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static uint8_t *cstart[64], *cstop[64];
static const uintptr_t *pstart[64];
static int nmod, npcs;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  if (nmod < 64 && start < stop) {
    cstart[nmod] = start;
    cstop[nmod++] = stop;
  }
}
/* The pc table has one (address, flags) pair per counter, registered in
 * the same order as the counters. */
void __sanitizer_cov_pcs_init(const uintptr_t *b, const uintptr_t *e) {
  (void)e;
  if (npcs < 64)
    pstart[npcs++] = b;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  size_t total = 0;
  for (int m = 0; m < nmod; m++)
    total += (size_t)(cstop[m] - cstart[m]);
  uint8_t *seen = calloc(total ? total : 1, 1);
  /* Edges hit before any input (none expected for a libFuzzer harness)
   * are cleared so that only the inputs count. */
  for (int m = 0; m < nmod; m++)
    memset(cstart[m], 0, (size_t)(cstop[m] - cstart[m]));
  char path[4096];
  size_t files = 0, cap = 1 << 16;
  uint8_t *buf = malloc(cap);
  while (fgets(path, sizeof path, stdin)) {
    path[strcspn(path, "\n")] = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
      continue;
    size_t n = 0, r;
    while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
      n += r;
      if (n == cap)
        buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    uint8_t *copy = malloc(n ? n : 1); /* exact size, like the fuzzers */
    memcpy(copy, buf, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    files++;
    size_t k = 0;
    for (int m = 0; m < nmod; m++)
      for (uint8_t *p = cstart[m]; p < cstop[m]; p++, k++)
        if (*p) {
          seen[k] = 1;
          *p = 0;
        }
  }
  size_t edges = 0;
  for (size_t k = 0; k < total; k++)
    edges += seen[k];
  const char *pcs = getenv("COVDRIVE_PCS");
  if (pcs && *pcs && npcs == nmod) {
    FILE *out = fopen(pcs, "w");
    size_t k = 0;
    for (int m = 0; out && m < nmod; m++)
      for (size_t i = 0; i < (size_t)(cstop[m] - cstart[m]); i++, k++)
        fprintf(out, "%lx %d\n", (unsigned long)pstart[m][2 * i], seen[k]);
    if (out)
      fclose(out);
  }
  printf("edges %zu of %zu files %zu\n", edges, total, files);
  return 0;
}
