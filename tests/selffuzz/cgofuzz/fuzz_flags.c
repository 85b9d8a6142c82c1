/*
 * fuzz_flags.c: self-fuzzing harness (libFuzzer form, built with
 * `cgofuzz cc`) for the one flag parser of the CLI and of C target
 * binaries (csrc/base/flags.c). Needs csrc/base (flags.c, strconv.c, buf.c,
 * text.c).
 *
 * The input is split at NUL bytes into an argument vector and parsed
 * against a table holding one flag of each type. Properties:
 *  - the parser returns -1 (with a message), CGOFUZZ_FLAGS_HELP, or
 *    an index in [0, argc] at which no flag can start;
 *  - a flag not seen keeps its value; a string value points into argv;
 *  - a duration-or-count value obeys Go's zero rule;
 *  - the integer parsers agree with each other and round-trip through
 *    their decimal and hex forms;
 *  - %q quoting of any argument is one printable-ASCII-framed line;
 *  - the usage listing of the table builds.
 * Durations are the real time.ParseDuration (base/strconv.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flags.h"

#include "../libfuzzer/harness_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A bool-like callback in the style of Go's -test.v. */
static int chatty(void *dst, const char *v, cgofuzz_err *why) {
  if (strcmp(v, "true") == 0 || strcmp(v, "test2json") == 0)
    *(int *)dst = 1;
  else if (strcmp(v, "false") == 0)
    *(int *)dst = 0;
  else
    return cgofuzz_errf(why, 0, "invalid flag -v=%s", v);
  return 0;
}

static bool points_into(const char *p, char *const *argv, int argc) {
  for (int i = 0; i < argc; i++)
    if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
      return true;
  return false;
}

static void check_ints(const char *s) {
  const char *why;
  int64_t i;
  uint64_t u;
  bool iok = cgofuzz_flag_parse_int(s, &i, &why) == 0;
  if (!iok)
    CHECK(why != NULL);
  bool uok = cgofuzz_flag_parse_uint(s, &u, &why) == 0;
  if (uok) {
    char back[40];
    uint64_t w;
    snprintf(back, sizeof back, "%llu", (unsigned long long)u);
    CHECK(cgofuzz_flag_parse_uint(back, &w, &why) == 0 && w == u);
    snprintf(back, sizeof back, "0x%llx", (unsigned long long)u);
    CHECK(cgofuzz_flag_parse_uint(back, &w, &why) == 0 && w == u);
    /* Without a sign the two agree wherever int64 reaches. */
    if (u <= INT64_MAX)
      CHECK(iok && (uint64_t)i == u);
  }
  if (iok) {
    char back[40];
    int64_t j;
    snprintf(back, sizeof back, "%lld", (long long)i);
    CHECK(cgofuzz_flag_parse_int(back, &j, &why) == 0 && j == i);
    if (s[0] != '-' && s[0] != '+')
      CHECK(uok && u == (uint64_t)i);
  }
}

static void check_quote(const char *s) {
  cgofuzz_buf q = {0};
  CHECK(cgofuzz_flag_quote(&q, s) == 0);
  CHECK(q.len >= 2 && q.data[0] == '"' && q.data[q.len - 1] == '"');
  for (size_t k = 0; k < q.len; k++)
    CHECK(q.data[k] >= 0x20 && q.data[k] != 0x7f);
  cgofuzz_buf_free(&q);
}

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
  int64_t i64 = 0;
  uint64_t u = 0;
  cgofuzz_flag_dur dur = {0}, doc = {0};
  int v = -1;
  const char *fn = NULL;
  cgofuzz_flag flags[] = {
      {.name = "w", .type = CGOFUZZ_FLAG_BOOL, .dst = &b},
      {.name = "o", .type = CGOFUZZ_FLAG_STRING, .dst = &s},
      {.name = "parallel", .type = CGOFUZZ_FLAG_INT, .dst = &i64},
      {.name = "n", .type = CGOFUZZ_FLAG_UINT, .dst = &u},
      {.name = "timeout", .type = CGOFUZZ_FLAG_DURATION, .dst = &dur},
      {.name = "fuzztime",
       .type = CGOFUZZ_FLAG_DURATION_OR_COUNT,
       .dst = &doc,
       .allow_zero = (size & 1) != 0},
      {.name = "test.v",
       .type = CGOFUZZ_FLAG_BOOL_FUNC,
       .dst = &v,
       .func = chatty},
      {.name = "x", .type = CGOFUZZ_FLAG_FUNC, .dst = &fn, .func = chatty},
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  cgofuzz_err err = {0};
  int r = cgofuzz_flags_parse(flags, nflags, argc, argv, &err);
  CHECK(r == -1 || r == CGOFUZZ_FLAGS_HELP || (r >= 0 && r <= argc));
  if (r == -1) /* (a flag's name is echoed raw, newlines and all, as Go) */
    CHECK(err.msg[0] != '\0');
  if (r >= 0) {
    /* Parsing stopped at a non-flag, or just after "--". */
    if (r < argc)
      CHECK(strlen(argv[r]) < 2 || argv[r][0] != '-' ||
            (r > 0 && strcmp(argv[r - 1], "--") == 0));
    if (!flags[0].seen)
      CHECK(!b);
    if (flags[1].seen)
      CHECK(s != NULL && points_into(s, argv, argc));
    else
      CHECK(s == NULL);
    if (!flags[2].seen)
      CHECK(i64 == 0);
    if (flags[4].seen)
      CHECK(dur.count == 0 && dur.ns >= 0 && dur.text != NULL);
    if (flags[5].seen) {
      CHECK(doc.ns >= 0 && doc.count >= 0 && (doc.ns == 0 || doc.count == 0));
      if (!flags[5].allow_zero)
        CHECK(doc.ns > 0 || doc.count > 0);
    }
    if (!flags[6].seen)
      CHECK(v == -1);
  }
  cgofuzz_buf use = {0};
  CHECK(cgofuzz_flags_usage(&use, flags, nflags) == 0);
  cgofuzz_buf_free(&use);
  for (int k = 0; k < argc && k < 8; k++) {
    check_ints(argv[k]);
    check_quote(argv[k]);
  }
  free(argv);
  free(copy);
  return 0;
}
