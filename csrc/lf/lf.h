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
#include <stdint.h>

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
  /* The Go release that built binary (cgofuzz_gover of core/gover.h, from
   * cgofuzz_gobin_gover): inputs are decoded and encoded, and
   * workers started, as it does. 0: the newest (a C target). */
  int gover;
} cgofuzz_lf_target;

/* Whether argv (argv[0] is the program) is a libFuzzer command line rather
 * than a Go test binary's: some argument is a libFuzzer flag (-name=value,
 * not -test.*) or a file or directory. No argument at all is Go's (run the
 * seed corpus), as for any Go test binary. */
bool cgofuzz_lf_wanted(int argc, char **argv);

/* Runs the libFuzzer command line argv against t and returns the process
 * exit status. */
int cgofuzz_lf_main(int argc, char **argv, const cgofuzz_lf_target *t);

/* --- The corpus merge of -merge=1 and of `cgofuzz corpus merge|prune`
 * (lf_merge.c, docs/corpus-tools.md): libFuzzer's greedy set cover. The
 * inputs of the initial directories run first (in name order) and make
 * the starting coverage; the others run smallest first (raw size, ties by
 * path), and each one that adds a coverage feature (a bit of a coverage
 * counter, Go's countNewCoverageBits) is kept. So the kept inputs with the
 * initial ones reach every feature any input reached. Each input is
 * canonicalized first (raw bytes and `go test fuzz v1` files alike, to
 * Go's encoding of its values): inputs with the same values run once.
 *
 * Crash safety: with a control file, every input run is recorded there
 * (its canonical sha256, outcome and features) before anything is done
 * with it, so a merge killed at any point and run again with the same
 * control file replays those records instead of running them and reaches
 * the same result. */
enum {
  CGOFUZZ_LF_MERGE_KEPT,      /* adds coverage: kept */
  CGOFUZZ_LF_MERGE_INITIAL,   /* from an initial directory */
  CGOFUZZ_LF_MERGE_REDUNDANT, /* ran, no feature the others lack */
  CGOFUZZ_LF_MERGE_DUP,       /* same values as an input that ran fine */
  CGOFUZZ_LF_MERGE_FAILED,    /* crashed, hung or ran out of memory */
  CGOFUZZ_LF_MERGE_BAD        /* a corpus file of other types, malformed */
};

typedef struct cgofuzz_lf_merge_input {
  const char *path;
  const uint8_t *enc; /* the canonical `go test fuzz v1` encoding */
  size_t enc_len;
  const uint8_t *raw; /* the raw bytes (core/rawargs.h) of the values */
  size_t raw_len;
  const uint8_t *sha256; /* of enc (32 bytes) */
  int disposition;       /* CGOFUZZ_LF_MERGE_* (final in account) */
} cgofuzz_lf_merge_input;

struct lf_opts;
typedef struct cgofuzz_lf_merge_job {
  const cgofuzz_lf_target *t;
  char *const *initial; /* directories (or files) of the initial set */
  size_t n_initial;
  char *const *dirs; /* directories (or files) to merge */
  size_t n_dirs;
  const char *control; /* the control file, or NULL for none */
  int64_t timeout_s;   /* per input, 0: none */
  int64_t rss_limit_mb;
  int64_t max_len;    /* raw files are cut to this (0: not cut) */
  int output_fd;      /* the workers' stdout/stderr, -1: /dev/null */
  const char *prefix; /* starts the lines about skipped inputs */
  /* Called once the inputs are read: how many, how many initial, how
   * many the control file already has. May be NULL. */
  void (*loaded)(void *ctx, size_t n, size_t n_initial, size_t n_recorded);
  /* Called for each kept input in order (again after a resume: make it
   * idempotent). Returns 0, or -1 to stop the merge. */
  int (*keep)(void *ctx, const cgofuzz_lf_merge_input *in);
  /* Called for every input read, after the merge completed. May be NULL. */
  void (*account)(void *ctx, const cgofuzz_lf_merge_input *in);
  void *ctx;
  const struct lf_opts *lf; /* the libFuzzer front end's own options */
} cgofuzz_lf_merge_job;

typedef struct cgofuzz_lf_merge_stats {
  size_t files;    /* inputs read */
  size_t initial;  /* of which in the initial set */
  size_t recorded; /* found in the control file (not run again) */
  size_t executed; /* run now */
  size_t kept, redundant, dups, failed, bad;
  size_t new_bits, new_edges; /* what the kept inputs add */
  size_t bits, edges;         /* of the whole merged set (initial + kept) */
  size_t counters;            /* the target's coverage counters */
} cgofuzz_lf_merge_stats;

/* Runs the merge. Returns 0, or -1 after printing why (a worker that
 * cannot start, an unusable control file, keep failing, out of memory). */
int cgofuzz_lf_merge_run(const cgofuzz_lf_merge_job *job,
                         cgofuzz_lf_merge_stats *st);

/* The sha256 of the canonical encoding of the input in path, as the merge
 * computes it (for a caller about to delete a file the merge accounted
 * for). Returns 0, or -1 after printing why. */
int cgofuzz_lf_merge_file_sha(const cgofuzz_lf_target *t, const char *path,
                              int64_t max_len, uint8_t sha[32]);

#ifdef __cplusplus
}
#endif
#endif
