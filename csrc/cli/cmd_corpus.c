/*
 * cmd_corpus.c: `cgofuzz corpus fmt [-w] FILE...`, and the dispatch to
 * `cgofuzz corpus convert` (cmd_convert.c), `merge` and `prune`
 * (cmd_merge.c) and `stats` (cmd_stats.c); docs/corpus-tools.md.
 *
 * Prints, or with -w rewrites in place, the canonical form of each corpus
 * file: exactly the bytes Go's fuzzing writes for the same values. A file
 * Go would reject is reported as FILE:LINE: reason and makes the command
 * exit 2 after the other files have been processed.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "codec.h"

static void usage_fmt(const cgofuzz_flag *flags, size_t n) {
  fprintf(stderr, "usage: cgofuzz corpus fmt [-w] [-go 1.N] FILE...\n"
                  "Prints the canonical \"go test fuzz v1\" form of each "
                  "corpus file.\n");
  cli_print_flags(flags, n);
}

/* Decodes and re-encodes one file. Returns an exit status. */
static int fmt_one(const char *path, bool write, cgofuzz_gover gover) {
  cgofuzz_buf in = {0}, out = {0};
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  int rc = CLI_EXIT_OK;
  if (cli_load_corpus_file_v(path, &in, &vals, gover) != 0) {
    rc = CLI_EXIT_USAGE;
    goto done;
  }
  if (cgofuzz_codec_encode_v(vals.v, vals.n, gover, &out, &err) != 0) {
    fprintf(stderr, "%s: %s\n", path, err.msg);
    rc = CLI_EXIT_FAIL;
    goto done;
  }
  if (!write) {
    if (fwrite(out.data, 1, out.len, stdout) != out.len) {
      fprintf(stderr, "cgofuzz: writing to stdout failed\n");
      rc = CLI_EXIT_FAIL;
    }
  } else if (out.len != in.len || memcmp(out.data, in.data, in.len) != 0) {
    if (cli_write_file_atomic(path, out.data, out.len, 0644) != 0)
      rc = CLI_EXIT_FAIL;
  }
done:
  cgofuzz_values_free(&vals);
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&out);
  return rc;
}

int cli_cmd_corpus(int argc, char **argv) {
  if (argc >= 1 && strcmp(argv[0], "convert") == 0)
    return cli_cmd_convert(argc - 1, argv + 1);
  if (argc >= 1 && strcmp(argv[0], "merge") == 0)
    return cli_cmd_merge(argc - 1, argv + 1, false);
  if (argc >= 1 && strcmp(argv[0], "prune") == 0)
    return cli_cmd_merge(argc - 1, argv + 1, true);
  if (argc >= 1 && strcmp(argv[0], "stats") == 0)
    return cli_cmd_stats(argc - 1, argv + 1);
  if (argc < 1 || strcmp(argv[0], "fmt") != 0) {
    fprintf(stderr,
            "usage: cgofuzz corpus fmt [-w] [-go 1.N] FILE...\n"
            "       cgofuzz corpus convert [-to go|raw] [-from raw|go118] "
            "(-launcher FILE | -types LIST) [-o DIR] [-go 1.N] FILE...\n"
            "       cgofuzz corpus merge -o OUTDIR [flags] BINARY [-fuzz RE] "
            "DIR...\n"
            "       cgofuzz corpus prune [flags] BINARY [-fuzz RE] DIR...\n"
            "       cgofuzz corpus stats [-v] [-go 1.N] DIR...\n");
    return CLI_EXIT_USAGE;
  }
  bool write = false;
  cgofuzz_gover gover = 0; /* -go, else cli_gover_default() */
  cgofuzz_flag flags[] = {
      {.name = "w",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &write,
       .usage = "write the result to each file"},
      CLI_GOVER_FLAG(&gover),
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("corpus fmt", flags, nflags, argc - 1, argv + 1);
  if (first < 0) {
    usage_fmt(flags, nflags);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (first == argc - 1) {
    fprintf(stderr, "cgofuzz corpus fmt: no files given\n");
    usage_fmt(flags, nflags);
    return CLI_EXIT_USAGE;
  }
  if (!gover)
    gover = cli_gover_default();
  int rc = CLI_EXIT_OK;
  for (int i = 1 + first; i < argc; i++) {
    int r = fmt_one(argv[i], write, gover);
    if (r > rc)
      rc = r;
  }
  if (fflush(stdout) != 0) {
    fprintf(stderr, "cgofuzz: writing to stdout failed\n");
    rc = CLI_EXIT_FAIL;
  }
  return rc;
}
