/*
 * goverflag.c: the `-go 1.N` flag of the commands that work on corpus files
 * alone (corpus fmt, mutate). Nothing in a file says which Go wrote it, so
 * the user names the release to follow (gover.h); without the flag the
 * newest release is followed. Commands that run a Go test binary read the
 * release from the binary instead (cgofuzz_coord_binary_gover).
 */
#include <string.h>

#include "cli.h"
#include "gover.h"

int cli_gover_flag_set(void *dst, const char *value, cgofuzz_err *why) {
  cgofuzz_gover g;
  if (cgofuzz_gover_parse(value, strlen(value), &g) != 0)
    return cgofuzz_errf(why, 0, "want a Go release such as 1.%d",
                        CGOFUZZ_GOVER_NEWEST);
  if (!cgofuzz_gover_known(g))
    return cgofuzz_errf(why, 0, "go1.%d is not supported (1.%d ... 1.%d)", g,
                        CGOFUZZ_GOVER_OLDEST, CGOFUZZ_GOVER_NEWEST);
  *(cgofuzz_gover *)dst = g;
  return 0;
}
