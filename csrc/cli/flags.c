/*
 * flags.c: the CLI's side of flag parsing. The parsing itself is the one
 * shared with C target binaries (base/flags.c, Go's flag package rules);
 * the CLI only words its messages as "cgofuzz CMD: ..." so that a usage
 * error names the subcommand it came from.
 */
#include <stdio.h>

#include "cli.h"

int cli_parse_flags(const char *cmd, cgofuzz_flag *flags, size_t nflags,
                    int argc, char **argv) {
  cgofuzz_err err = {0};
  int first = cgofuzz_flags_parse(flags, nflags, argc, argv, &err);
  if (first == -1)
    fprintf(stderr, "cgofuzz %s: %s\n", cmd, err.msg);
  return first;
}

void cli_print_flags(const cgofuzz_flag *flags, size_t nflags) {
  cgofuzz_buf b = {0};
  if (cgofuzz_flags_usage(&b, flags, nflags) == 0 && b.len)
    fwrite(b.data, 1, b.len, stderr);
  cgofuzz_buf_free(&b);
}
