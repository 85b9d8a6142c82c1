/*
 * flags.h: one flag parser for every cgofuzz command line, following Go's
 * flag package rule for rule, so that `cgofuzz fuzz -v=t` and a C target
 * binary's `-test.parallel=0x10` mean what they mean to go test:
 *
 *  - "-name", "--name", "-name=value", and "-name value" for every flag but
 *    booleans (a bool flag never consumes the next argument);
 *  - parsing stops at the first argument that is "-" or does not start with
 *    '-', and after "--" (which is consumed);
 *  - a flag given twice takes its last value;
 *  - booleans: exactly strconv.ParseBool's spellings, only as -name=value;
 *    integers: strconv.ParseInt/ParseUint(s, 0, 64) (0x, 0o, 0b, leading 0,
 *    '_' separators, an optional sign for signed flags);
 *  - errors carry Go's own messages ("flag provided but not defined: -x",
 *    "invalid value \"x\" for flag -n: parse error", ...), quoting the value
 *    as Go's %q does.
 *
 * Durations are time.ParseDuration's (strconv.h), with the rules of Go's
 * flag.Duration and of the testing package's duration-or-count flags.
 */
#ifndef CGOFUZZ_FLAGS_H
#define CGOFUZZ_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  CGOFUZZ_FLAG_BOOL,   /* dst: bool* */
  CGOFUZZ_FLAG_STRING, /* dst: const char** (points into argv) */
  CGOFUZZ_FLAG_INT,    /* dst: int64_t*, strconv.ParseInt(s, 0, 64) */
  CGOFUZZ_FLAG_UINT,   /* dst: uint64_t*, strconv.ParseUint(s, 0, 64) */
  /* dst: cgofuzz_flag_dur*. A duration (flag.Duration): "Nx" counts are
   * refused; a bad value is a "parse error", as Go says. */
  CGOFUZZ_FLAG_DURATION,
  /* dst: cgofuzz_flag_dur*. Go testing's durationOrCountFlag (-fuzztime,
   * -benchtime): "Nx" with N a decimal count, or a duration; zero (0, 0s,
   * 0x) only with allow_zero; errors "invalid count", "invalid duration". */
  CGOFUZZ_FLAG_DURATION_OR_COUNT,
  /* dst: anything; func sets it (Go's flag.Func). */
  CGOFUZZ_FLAG_FUNC,
  /* As FUNC, but like a bool: -name alone is -name=true and the next
   * argument is never consumed (a flag.Value with IsBoolFlag, such as
   * Go's -test.v). */
  CGOFUZZ_FLAG_BOOL_FUNC,
} cgofuzz_flag_type;

/* A value of the DURATION types. text is the value as given (for
 * messages that echo it); exactly one of ns and count is meaningful
 * (count is 0 unless the value was "Nx"). */
typedef struct cgofuzz_flag_dur {
  const char *text;
  int64_t ns, count;
} cgofuzz_flag_dur;

/* Sets *dst from value. Returns 0, or -1 with why->msg set to the reason
 * Go would print after the colon ("parse error", ...). */
typedef int (*cgofuzz_flag_func)(void *dst, const char *value,
                                 cgofuzz_err *why);

typedef struct cgofuzz_flag {
  const char *name; /* without the dash */
  cgofuzz_flag_type type;
  void *dst; /* untouched unless the flag appears */
  /* One line of help. As in Go, a `back-quoted` word names the value in
   * the listing ("-cap BYTES"); otherwise the type does. */
  const char *usage;
  cgofuzz_flag_func func; /* the FUNC types */
  bool allow_zero;        /* DURATION_OR_COUNT */
  bool seen;              /* filled in: whether the flag appeared */
} cgofuzz_flag;

/* Returned by cgofuzz_flags_parse for -h, -help, --h or --help when no such
 * flag is defined: Go's flag.ErrHelp (callers print the usage, exit 0). */
#define CGOFUZZ_FLAGS_HELP (-2)

/* Parses argv[0..argc) (argv[0] is the first argument, not the program
 * name) against flags[0..n), clearing each seen first. Returns the index of
 * the first argument that is not a flag (argc if none); -1 with err->msg
 * set to Go's message (no prefix, no newline); or CGOFUZZ_FLAGS_HELP. */
int cgofuzz_flags_parse(cgofuzz_flag *flags, size_t n, int argc, char **argv,
                        cgofuzz_err *err);

/* Appends the flags' help to out in the layout of Go's PrintDefaults, in
 * table order. Returns 0 or -1 (out of memory). */
int cgofuzz_flags_usage(cgofuzz_buf *out, const cgofuzz_flag *flags, size_t n);

/* The value parsers behind the table, for callbacks that add a check of
 * their own. Each returns 0, or -1 with *reason set to Go's flag-package
 * reason ("parse error" or "value out of range"). */
int cgofuzz_flag_parse_bool(const char *s, bool *out, const char **reason);
int cgofuzz_flag_parse_int(const char *s, int64_t *out, const char **reason);
int cgofuzz_flag_parse_uint(const char *s, uint64_t *out, const char **reason);
/* A DURATION_OR_COUNT value, for code that receives one as text. */
int cgofuzz_flag_parse_duration_or_count(const char *s, bool allow_zero,
                                         cgofuzz_flag_dur *out,
                                         const char **reason);

/* Appends s quoted as Go's strconv.Quote (%q) does, for messages. Runes
 * outside ASCII are kept as they are unless they are C1 controls;
 * invalid UTF-8 becomes \x escapes. Returns 0 or -1. */
int cgofuzz_flag_quote(cgofuzz_buf *out, const char *s);

#ifdef __cplusplus
}
#endif
#endif
