/*
 * cmd_mutate.c: `cgofuzz mutate -rand-state S -rand-inc I -n K [-cap BYTES]
 * FILE`.
 *
 * Replays K chained mutations of the values in FILE from a PCG state, as a
 * coordinator does when a worker dies: restore (state, inc) read from the
 * worker's shared memory, decode the input it was given, mutate K times
 * with the shared-memory capacity as the size budget, and print the result
 * as a corpus file. With the state and count from a dead Go worker
 * (K = ((count-1) % 5) + 1) the output is the input that killed it.
 * -go 1.N decodes and prints as that Go release does (gover.h; the
 * mutations themselves are the same in every release); default the user's
 * release (cli_gover_default).
 */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "codec.h"
#include "mutator.h"

static void usage_mutate(const cgofuzz_flag *flags, size_t n) {
  fprintf(stderr,
          "usage: cgofuzz mutate -rand-state S -rand-inc I -n K [-cap BYTES] "
          "[-go 1.N] FILE\n"
          "Prints FILE after K chained mutations from the PCG state (S, I).\n");
  cli_print_flags(flags, n);
}

int cli_cmd_mutate(int argc, char **argv) {
  uint64_t state = 0, inc = 0, k = 0, cap = CGOFUZZ_SHM_VALUE_CAP;
  cgofuzz_gover gover = 0; /* -go, else cli_gover_default() */
  cgofuzz_flag flags[] = {
      {.name = "rand-state",
       .type = CGOFUZZ_FLAG_UINT,
       .dst = &state,
       .usage = "PCG state `S` (randState)"},
      {.name = "rand-inc",
       .type = CGOFUZZ_FLAG_UINT,
       .dst = &inc,
       .usage = "PCG increment `I` (randInc)"},
      {.name = "n",
       .type = CGOFUZZ_FLAG_UINT,
       .dst = &k,
       .usage = "number `K` of chained mutations"},
      {.name = "cap",
       .type = CGOFUZZ_FLAG_UINT,
       .dst = &cap,
       .usage = "shared-memory value capacity in `BYTES` (default 104857600)"},
      CLI_GOVER_FLAG(&gover),
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("mutate", flags, nflags, argc, argv);
  if (first < 0) {
    usage_mutate(flags, nflags);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  for (size_t i = 0; i < 3; i++) {
    if (!flags[i].seen) {
      fprintf(stderr, "cgofuzz mutate: -%s is required\n", flags[i].name);
      usage_mutate(flags, nflags);
      return CLI_EXIT_USAGE;
    }
  }
  if (argc - first != 1) {
    fprintf(stderr, "cgofuzz mutate: exactly one FILE expected\n");
    usage_mutate(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  if (!gover)
    gover = cli_gover_default();
  const char *path = argv[first];
  cgofuzz_buf in = {0}, out = {0};
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, state, inc);
  int rc = CLI_EXIT_USAGE;
  if (cli_load_corpus_file_v(path, &in, &vals, gover) != 0)
    goto done;
  rc = CLI_EXIT_FAIL;
  for (uint64_t i = 0; i < k; i++) {
    if (cgofuzz_mutate(&m, vals.v, vals.n, (size_t)cap, &err) != 0) {
      fprintf(stderr, "%s: mutation %" PRIu64 ": %s\n", path, i + 1, err.msg);
      goto done;
    }
  }
  if (cgofuzz_codec_encode_v(vals.v, vals.n, gover, &out, &err) != 0) {
    fprintf(stderr, "%s: %s\n", path, err.msg);
    goto done;
  }
  if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
    fprintf(stderr, "cgofuzz: writing to stdout failed\n");
    goto done;
  }
  rc = CLI_EXIT_OK;
done:
  /* Values may borrow the mutator's scratch: free them first. */
  cgofuzz_values_free(&vals);
  cgofuzz_mutator_free(&m);
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&out);
  return rc;
}
