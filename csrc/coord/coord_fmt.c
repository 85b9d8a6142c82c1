/*
 * coord_fmt.c: Go's spellings of time: the elapsed time in progress lines
 * (time.Duration.String of a duration rounded to whole seconds), and the
 * -fuzztime style values the CLI and C targets' flags take.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"

int cgofuzz_coord_fmt_secs(cgofuzz_buf *b, int64_t secs) {
  if (secs < 60)
    return cgofuzz_buf_printf(b, "%" PRId64 "s", secs);
  if (secs < 3600)
    return cgofuzz_buf_printf(b, "%" PRId64 "m%" PRId64 "s", secs / 60,
                              secs % 60);
  return cgofuzz_buf_printf(b, "%" PRId64 "h%" PRId64 "m%" PRId64 "s",
                            secs / 3600, secs / 60 % 60, secs % 60);
}
