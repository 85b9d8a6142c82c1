/*
 * coord_fmt.c: Go's spellings of time: the elapsed time in progress lines
 * (time.Duration.String of a duration rounded to whole seconds), and the
 * -fuzztime style values the CLI and C targets' flags take.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"

int cgofuzz_fmt_secs(cgofuzz_buf *b, int64_t secs) {
  if (secs < 60)
    return cgofuzz_buf_printf(b, "%" PRId64 "s", secs);
  if (secs < 3600)
    return cgofuzz_buf_printf(b, "%" PRId64 "m%" PRId64 "s", secs / 60,
                              secs % 60);
  return cgofuzz_buf_printf(b, "%" PRId64 "h%" PRId64 "m%" PRId64 "s",
                            secs / 3600, secs / 60 % 60, secs % 60);
}

int cgofuzz_parse_duration(const char *s, int64_t *ns, int64_t *count) {
  *ns = 0;
  *count = 0;
  size_t l = strlen(s);
  if (l > 1 && s[l - 1] == 'x') {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end != s + l - 1 || v < 0)
      return -1;
    *count = v;
    return 0;
  }
  if (strcmp(s, "0") == 0)
    return 0;
  static const struct {
    const char *u;
    double mult;
  } units[] = {{"ns", 1},  {"us", 1e3}, {"\xc2\xb5s", 1e3}, {"ms", 1e6},
               {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};
  double total = 0;
  const char *p = s;
  if (!*p)
    return -1;
  while (*p) {
    char *end;
    double v = strtod(p, &end);
    if (end == p || v < 0)
      return -1;
    p = end;
    size_t best = 0, bl = 0;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
      size_t ul = strlen(units[i].u);
      if (strncmp(p, units[i].u, ul) == 0 && ul > bl) {
        best = i;
        bl = ul;
      }
    }
    if (!bl)
      return -1;
    total += v * units[best].mult;
    p += bl;
  }
  *ns = (int64_t)total;
  return 0;
}
