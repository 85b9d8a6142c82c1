/*
 * gover.c: the per-release facts of gover.h, and parsing release names.
 *
 * Each fact was read from the release's own sources (internal/fuzz,
 * testing, encoding/json) and is exercised by the differential tests
 * (tests/core/diff, --goversion) against every release's real code.
 */
#include "gover.h"
#include "isprint_table.h"

#include <string.h>

static bool digits(const char *s, size_t n, size_t *i, long *v) {
  size_t start = *i;
  *v = 0;
  while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
    if (*v > 100000)
      return false;
    *v = *v * 10 + (s[*i] - '0');
    (*i)++;
  }
  return *i > start;
}

int cgofuzz_gover_parse(const char *s, size_t n, cgofuzz_gover *out) {
  size_t i = 0;
  long minor, patch;
  if (n >= 2 && s[0] == 'g' && s[1] == 'o')
    i = 2;
  if (n - i < 2 || s[i] != '1' || s[i + 1] != '.')
    return -1;
  i += 2;
  if (!digits(s, n, &i, &minor))
    return -1;
  if (i < n && s[i] == '.') {
    i++;
    if (!digits(s, n, &i, &patch))
      return -1;
  } else if (i < n) {
    /* a pre-release: rc1, beta2 */
    size_t k = i;
    while (k < n && s[k] >= 'a' && s[k] <= 'z')
      k++;
    bool rc = k - i == 2 && memcmp(s + i, "rc", 2) == 0;
    bool beta = k - i == 4 && memcmp(s + i, "beta", 4) == 0;
    if (!rc && !beta)
      return -1;
    i = k;
    if (!digits(s, n, &i, &patch))
      return -1;
  }
  if (i != n)
    return -1;
  *out = (cgofuzz_gover)minor;
  return 0;
}

bool cgofuzz_gover_known(cgofuzz_gover g) {
  return g >= CGOFUZZ_GOVER_OLDEST && g <= CGOFUZZ_GOVER_NEWEST;
}

cgofuzz_gover cgofuzz_gover_clamp(cgofuzz_gover g) {
  if (g < CGOFUZZ_GOVER_OLDEST)
    return CGOFUZZ_GOVER_OLDEST;
  if (g > CGOFUZZ_GOVER_NEWEST)
    return CGOFUZZ_GOVER_NEWEST;
  return g;
}

const char *cgofuzz_gover_unicode(cgofuzz_gover g) {
  g = cgofuzz_gover_clamp(g);
  if (g < cgofuzz_isprint_minor_lo)
    g = cgofuzz_isprint_minor_lo;
  if (g > cgofuzz_isprint_minor_hi)
    g = cgofuzz_isprint_minor_hi;
  return cgofuzz_isprint_releases[g - cgofuzz_isprint_minor_lo].unicode;
}

int cgofuzz_gover_name_digits(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) <= 19 ? 64 : 16;
}

bool cgofuzz_gover_header_cr_ok(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 19;
}

bool cgofuzz_gover_quote_del_x(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 19;
}

bool cgofuzz_gover_unary_tilde(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 19;
}

bool cgofuzz_gover_float_tie_up(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) == 26;
}

bool cgofuzz_gover_json_short_bf(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 22;
}

bool cgofuzz_gover_json_raw_fffd(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 27;
}

int64_t cgofuzz_gover_hang_timeout_ns(cgofuzz_gover g) {
  return (cgofuzz_gover_clamp(g) >= 27 ? 60 : 10) * INT64_C(1000000000);
}

bool cgofuzz_gover_limit_after_result(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) <= 20;
}

bool cgofuzz_gover_stop_checks_outer_ctx(cgofuzz_gover g) {
  return cgofuzz_gover_clamp(g) >= 27;
}

/* -test.* flags of go1.18's testing package, and later arrivals. */
static const struct {
  const char *name;
  cgofuzz_gover since;
} test_flags[] = {
    {"artifacts", 26},
    {"bench", 18},
    {"benchmem", 18},
    {"benchtime", 18},
    {"blockprofile", 18},
    {"blockprofilerate", 18},
    {"count", 18},
    {"coverprofile", 18},
    {"cpu", 18},
    {"cpuprofile", 18},
    {"failfast", 18},
    {"fullpath", 21},
    {"fuzz", 18},
    {"fuzzcachedir", 18},
    {"fuzzminimizetime", 18},
    {"fuzztime", 18},
    {"fuzzworker", 18},
    {"gocoverdir", 20},
    {"list", 18},
    {"memprofile", 18},
    {"memprofilerate", 18},
    {"mutexprofile", 18},
    {"mutexprofilefraction", 18},
    {"outputdir", 18},
    {"paniconexit0", 18},
    {"parallel", 18},
    {"run", 18},
    {"short", 18},
    {"shuffle", 18},
    {"skip", 20},
    {"testlogfile", 18},
    {"timeout", 18},
    {"trace", 18},
    {"v", 18},
};

bool cgofuzz_gover_has_test_flag(cgofuzz_gover g, const char *name) {
  g = cgofuzz_gover_clamp(g);
  for (size_t i = 0; i < sizeof test_flags / sizeof test_flags[0]; i++)
    if (strcmp(test_flags[i].name, name) == 0)
      return g >= test_flags[i].since;
  return false;
}
