/*
 * lf.h: libFuzzer's command line over cgofuzz's engine, so that ClusterFuzz,
 * OSS-Fuzz and ClusterFuzzLite can drive every cgofuzz target, C or Go.
 *
 * One front end serves both kinds of target: the inputs always run in
 * worker processes that speak Go's worker protocol (core/wire.h), started
 * from `binary`: a C target binary runs itself as its worker (exactly as
 * with -test.fuzz), a Go target's launcher runs the package's unmodified
 * test binary. So fuzzing is cgofuzz's coordinator (coord.h) and every
 * other mode (reproduce, merge, minimize, cleanse) asks a worker to run one
 * input at a time, restarting it after a crash.
 *
 * Invariants the engines rely on (what ClusterFuzz parses):
 *  - progress on stderr in libFuzzer's words: "INFO: Loaded 1 modules (N
 *    inline 8-bit counters)", "#N INITED|NEW|pulse|DONE cov: ...",
 *    "Test unit written to <prefix>crash-<sha1>" (also oom-, timeout-),
 *    "stat::name: integer" with -print_final_stats=1 (also after a crash or
 *    SIGTERM), "MERGE-OUTER: N new files with F new features added; E new
 *    coverage edges" after -merge=1;
 *  - exit status: 0 when nothing was found and after a successful merge;
 *    on a crash, the sanitizer's exitcode if ASAN_OPTIONS/UBSAN_OPTIONS set
 *    one, else 1 (libFuzzer's -error_exitcode default is 77 for deadly
 *    signals, 1 for its own errors: see lf_exit_status);
 *  - corpus and artifact files hold raw bytes (core/rawargs.h maps them to
 *    the target's arguments); files in the `go test fuzz v1` format are
 *    accepted as they are, recognized by their first line.
 */
#ifndef CGOFUZZ_LF_H
#define CGOFUZZ_LF_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "cgofuzz/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the front end fuzzes. */
typedef struct cgofuzz_lf_target {
  const char *binary; /* the worker program (an absolute or ./ path) */
  char **worker_args; /* appended to every worker's own flags */
  size_t n_worker_args;
  const char *name;          /* the fuzz target, e.g. "FuzzLibFuzzer" */
  const cgofuzz_kind *kinds; /* its argument kinds */
  size_t n_kinds;
  const cgofuzz_buf *seeds; /* its f.Add seeds, encoded corpus files */
  size_t n_seeds;
  /* Whether `binary` is a Go test binary (its workers cannot enforce
   * -timeout / -rss_limit_mb themselves: the front end does). */
  bool go;
} cgofuzz_lf_target;

/* Whether argv (argv[0] is the program) is a libFuzzer command line rather
 * than a Go test binary's: some argument is a libFuzzer flag (-name=value,
 * not -test.*) or a file or directory. No argument at all is Go's (run the
 * seed corpus), as for any Go test binary. */
bool cgofuzz_lf_wanted(int argc, char **argv);

/* Runs the libFuzzer command line argv against t and returns the process
 * exit status. */
int cgofuzz_lf_main(int argc, char **argv, const cgofuzz_lf_target *t);

#ifdef __cplusplus
}
#endif
#endif
