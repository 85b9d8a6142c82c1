/*
 * fuzz_flags.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the CLI's Go-style flag parser (csrc/cli/flags.c).
 *
 * The input is split at NUL bytes into an argument vector and parsed
 * against a table holding one flag of each type. The parser must return -1
 * or an index in [0, argc], and a U64 value it accepted must be one that
 * cli_parse_u64 accepts on its own.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#include "../fuzz/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0;
  char *copy = malloc(size + 1);
  char **argv = malloc((size + 2) * sizeof *argv);
  CHECK(copy && argv);
  memcpy(copy, data, size);
  copy[size] = '\0';
  int argc = 0;
  argv[argc++] = copy;
  for (size_t i = 0; i < size; i++)
    if (copy[i] == '\0')
      argv[argc++] = copy + i + 1;
  argv[argc] = NULL;

  bool b = false;
  const char *s = NULL;
  uint64_t u = 0;
  int64_t i64 = 0;
  cli_flag flags[] = {
      {"w", FLAG_BOOL, &b, "bool", false},
      {"o", FLAG_STRING, &s, "string", false},
      {"n", FLAG_U64, &u, "u64", false},
      {"parallel", FLAG_I64, &i64, "i64", false},
  };
  int r = cli_parse_flags("selffuzz", flags, 4, argc, argv);
  CHECK(r == -1 || (r >= 0 && r <= argc));
  if (r >= 0) {
    if (flags[1].set)
      CHECK(s != NULL);
    if (!flags[0].set)
      CHECK(!b);
  }
  uint64_t v;
  if (cli_parse_u64(copy, &v) == 0) {
    char back[32];
    snprintf(back, sizeof back, "%llu", (unsigned long long)v);
    uint64_t w;
    CHECK(cli_parse_u64(back, &w) == 0 && w == v);
  }
  free(argv);
  free(copy);
  return 0;
}
