/*
 * cli.h: shared pieces of the cgofuzz command-line tool.
 *
 * Exit statuses follow go test: 0 success, 1 a failure found or an
 * operation that failed at run time, 2 a usage error or bad input (flags,
 * unreadable or malformed corpus files).
 */
#ifndef CGOFUZZ_CLI_H
#define CGOFUZZ_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "flags.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* --- flags.c: the commands' flags, parsed by the one flag parser
 * (base/flags.h, Go's flag package rules); this adds the command's name to
 * its messages. */
/* Parses argv[0..argc) (argv[0] is the first argument, not the program).
 * Returns the index of the first positional argument; -1 after printing
 * "cgofuzz CMD: reason" to stderr; or CGOFUZZ_FLAGS_HELP for -h/-help
 * (the caller prints its usage and exits 0, as Go's flag package does). */
int cli_parse_flags(const char *cmd, cgofuzz_flag *flags, size_t nflags,
                    int argc, char **argv);
/* Prints the flags' help to stderr in Go's PrintDefaults layout. */
void cli_print_flags(const cgofuzz_flag *flags, size_t nflags);

/* --- cmd_cc.c: clang wrapper; cxx selects clang++. Returns only on error. */
int cli_cmd_cc(int argc, char **argv, bool cxx);

/* --- fileio.c */
/* Reads a whole file. On failure prints "cgofuzz: PATH: reason" and
 * returns -1. */
int cli_read_file(const char *path, cgofuzz_buf *out);
/* Writes data to path atomically: a temporary file in the same directory,
 * fsync, then rename over path. On failure the old file is untouched, the
 * temporary is removed, the reason is printed with the path, and -1 is
 * returned. mode applies to a newly created file. */
int cli_write_file_atomic(const char *path, const uint8_t *data, size_t len,
                          unsigned mode);

/* Reads and decodes a corpus file that must hold at least one value. On
 * failure prints "PATH:LINE: reason" (or "PATH: reason") and returns -1;
 * in and vals are left for the caller to free either way. */
struct cgofuzz_values;
int cli_load_corpus_file(const char *path, cgofuzz_buf *in,
                         struct cgofuzz_values *vals);

/* --- golaunch.c: Go fuzz target launchers (the payload format is
 * described there): this program with a Go test binary, its fuzz target's
 * name, argument kinds and seeds appended. */
#define CLI_GOLAUNCH_VERSION 1
#define CLI_GOLAUNCH_TRAILER 80
typedef struct cli_golaunch {
  char *target; /* the fuzz target, "FuzzX" */
  char *fuzzer; /* the launcher's NAME (defaults to target when read) */
  char *pkg;    /* the package's import path, or NULL */
  char *info;   /* one line about the build, or NULL */
  cgofuzz_kind *kinds;
  size_t n_kinds;
  cgofuzz_buf *seeds; /* encoded corpus files */
  size_t n_seeds;
  /* Filled by cli_golaunch_read: where the payload is. */
  uint64_t bin_off, bin_len, meta_len;
  uint8_t sha256[32];
} cli_golaunch;
/* Writes self_exe (less any payload of its own) + bin + g's metadata + the
 * trailer to path, atomically, mode 0755. Returns 0, or -1 after printing
 * why. */
int cli_golaunch_write(const char *path, const char *self_exe,
                       const uint8_t *bin, size_t bin_len,
                       const cli_golaunch *g);
/* Reads the payload's trailer and metadata: 1 with *g filled, 0 when path
 * has no payload (no trailer magic), -1 after printing why it is
 * malformed or unreadable. */
int cli_golaunch_read(const char *path, cli_golaunch *g);
/* Extracts the test binary to the per-user cache (or finds it there);
 * *out is its malloc'd path. 0, or -1 after printing why. */
int cli_golaunch_extract(const char *path, const cli_golaunch *g, char **out);
void cli_golaunch_free(cli_golaunch *g);
/* Launcher mode: -1 when /proc/self/exe has no payload (we are plain
 * cgofuzz), else the exit status of the launcher's run. */
int cli_golaunch_main(int argc, char **argv);

/* --- the commands */
int cli_cmd_corpus(int argc, char **argv);
int cli_cmd_convert(int argc, char **argv);
int cli_cmd_gofuzzer(int argc, char **argv);
int cli_cmd_mutate(int argc, char **argv);
int cli_cmd_fuzz(int argc, char **argv);
/* The fake worker of argument discovery (see cmd_fuzz.c). */
int cli_fake_worker(void);

#endif
