/* lf_internal.h: what the libFuzzer front end's files share (lf.h). */
#ifndef CGOFUZZ_LF_INTERNAL_H
#define CGOFUZZ_LF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "coord_worker.h"
#include "gover.h"
#include "lf.h"

/* libFuzzer's exit codes (its -error_exitcode and -timeout_exitcode
 * defaults, its OOM and interrupt codes; ClusterFuzz counts 0 and 72 as
 * "nothing found"). */
#define LF_EXIT_ERROR 77
#define LF_EXIT_TIMEOUT 70
#define LF_EXIT_OOM 71
#define LF_EXIT_INTERRUPT 72
#define LF_EXIT_USAGE 1 /* libFuzzer's own errors */

/* The Go release t follows (its gover, 0: the newest). */
static inline int lf_gover(const cgofuzz_lf_target *t) {
  return t->gover ? t->gover : CGOFUZZ_GOVER_NEWEST;
}

/* --- lf_flags.c: the command line. Values not given keep libFuzzer's
 * defaults. */
typedef struct lf_opts {
  int64_t runs;           /* -runs, -1: unlimited */
  int64_t max_total_time; /* -max_total_time seconds, 0: none */
  int64_t timeout;        /* -timeout seconds per input, 0: none */
  int64_t rss_limit_mb;   /* -rss_limit_mb, 0: none */
  int64_t malloc_limit_mb;
  int64_t max_len; /* -max_len, 0: not given */
  int64_t len_control;
  int64_t seed; /* -seed, 0: random */
  const char *dict;
  int64_t use_value_profile;
  const char *artifact_prefix; /* "./" when not given, as libFuzzer */
  const char *exact_artifact_path;
  int64_t print_final_stats;
  int64_t report_slow_units; /* seconds: a unit this slow is a slow-unit- */
  int64_t merge;
  const char *merge_control_file;
  int64_t minimize_crash;
  int64_t cleanse_crash;
  int64_t close_fd_mask;
  int64_t detect_leaks;
  int64_t jobs, workers, fork;
  /* Fork mode (-fork=N): which failures the run goes on after, each
   * written as its artifact (libFuzzer's defaults: crashes stop it,
   * timeouts and OOMs do not). */
  int64_t ignore_crashes, ignore_timeouts, ignore_ooms;
  int64_t error_exitcode, timeout_exitcode;
  int64_t verbosity;
  int64_t help;
  char **inputs; /* positional arguments: corpus directories or files */
  size_t n_inputs;
} lf_opts;

/* Parses argv[1..argc). Unknown flags are warned about and ignored, as
 * libFuzzer does. Returns 0, or -1 after printing why (a malformed value). */
int cgofuzz_lf_parse_flags(int argc, char **argv, lf_opts *o);
void cgofuzz_lf_free_flags(lf_opts *o);
void cgofuzz_lf_print_help(const char *argv0);
/* The workers' extra flags for o (-test.fuzztimeout... for a C target). */
int cgofuzz_lf_worker_flags(const lf_opts *o, const cgofuzz_lf_target *t,
                            char ***out, size_t *n);

/* --- lf_corpus.c: raw testcases and files. */
typedef struct lf_input {
  char *path;      /* where it came from */
  cgofuzz_buf enc; /* as an encoded corpus file */
  size_t raw_len;  /* its size as libFuzzer counts it */
} lf_input;

typedef struct lf_inputs {
  lf_input *v;
  size_t n, cap;
} lf_inputs;

/* Reads one file: a `go test fuzz v1` file as it is, anything else as raw
 * bytes mapped to t's arguments (core/rawargs.h), cut to max_len (0: no
 * cut). Returns 0, or -1 after printing "PATH: reason". */
int cgofuzz_lf_read_input(const cgofuzz_lf_target *t, const char *path,
                          int64_t max_len, lf_input *out);
/* Appends every regular file under dir (recursively, sorted by name). */
int cgofuzz_lf_read_dir(const cgofuzz_lf_target *t, const char *dir,
                        int64_t max_len, lf_inputs *out);
void cgofuzz_lf_inputs_free(lf_inputs *in);
/* The raw bytes of an encoded input (what is written to disk). */
int cgofuzz_lf_raw(const cgofuzz_lf_target *t, const uint8_t *enc, size_t len,
                   cgofuzz_buf *raw);
/* Writes raw to dir/<sha1 of raw>, unless that file exists; -1 after
 * printing why. file_flags as cgofuzz_lf_write_file's. *path (if not
 * NULL) gets the malloc'd path. */
int cgofuzz_lf_write_named(const char *dir, const uint8_t *raw, size_t len,
                           unsigned file_flags, char **path);
/* Writes data to path (atomically: a temporary beside it, then rename),
 * with cgofuzz_file_write_atomic's file_flags: CGOFUZZ_FILE_NO_SYNC for a
 * new input of the fuzzing loop (libFuzzer never syncs its corpus), 0 for
 * artifacts and what a merge keeps. */
int cgofuzz_lf_write_file(const char *path, const uint8_t *data, size_t len,
                          unsigned file_flags);
/* Prints libFuzzer's artifact lines and writes the artifact: to
 * -exact_artifact_path if given, else <prefix><kind>-<sha1>. Returns 0 or
 * -1 (then the bytes are printed in full so nothing is lost). */
/* As libFuzzer's WriteUnitToFileWithPrefix: the file, its path and its
 * base64 (cgofuzz_lf_write_artifact also dumps the bytes first, as
 * libFuzzer does for a failure). */
int cgofuzz_lf_write_unit(const lf_opts *o, const char *kind,
                          const uint8_t *raw, size_t len);
int cgofuzz_lf_write_artifact(const lf_opts *o, const char *kind,
                              const uint8_t *raw, size_t len);
/* Is path a directory? */
bool cgofuzz_lf_is_dir(const char *path);

/* --- lf_exec.c: one input at a time in a worker process. */
typedef enum { LF_OK, LF_CRASH, LF_TIMEOUT, LF_OOM, LF_LEAK } lf_outcome;

typedef struct lf_exec {
  const cgofuzz_lf_target *t;
  const lf_opts *o;
  cgofuzz_coord_worker w;
  bool have_worker;
  char **argv, **envp;
  size_t nargv;
  int output_fd; /* the workers' stderr, -1: /dev/null (-close_fd_mask) */
  int stdout_fd; /* and their stdout */
  cgofuzz_buf line;
  /* After cgofuzz_lf_exec_run: */
  uint8_t *cov; /* coverage of the last input (cov_len bytes) */
  size_t cov_len;
  cgofuzz_buf msg; /* a failure's text: Go's error or how it died */
  int status;      /* wait status of a dead worker, -1 if none */
} lf_exec;

int cgofuzz_lf_exec_init(lf_exec *x, const cgofuzz_lf_target *t,
                         const lf_opts *o, int output_fd);
/* Runs one encoded input. Returns 0 with *out set, or -1 when the worker
 * cannot be run at all (message printed). */
int cgofuzz_lf_exec_run(lf_exec *x, const uint8_t *enc, size_t len,
                        lf_outcome *out);
void cgofuzz_lf_exec_free(lf_exec *x);
/* The libFuzzer lines for a failure the executor (or the coordinator)
 * saw, and the exit status it gives the process. */
int cgofuzz_lf_report_failure(const lf_opts *o, lf_outcome oc, const char *msg,
                              size_t msg_len, int status);
/* The outcome a dead worker's wait status means under CGOFUZZ_LF_ENV. */
lf_outcome cgofuzz_lf_outcome_of_status(int status);
const char *
cgofuzz_lf_outcome_kind(lf_outcome oc); /* "crash", "timeout", "oom", "leak" */

/* --- the modes */
/* -jobs=N (lf_jobs.c): runs argv again N times, -workers at a time. */
int cgofuzz_lf_jobs(int argc, char **argv, const lf_opts *o);
int cgofuzz_lf_fuzz(const cgofuzz_lf_target *t, const lf_opts *o);
int cgofuzz_lf_run_files(const cgofuzz_lf_target *t, const lf_opts *o);
int cgofuzz_lf_merge(const cgofuzz_lf_target *t, const lf_opts *o);
/* Reads the merge control file at path for target as a resumed merge does
 * (lf_merge.c's control_open: a partial last line is cut off, a file with
 * no whole line is begun again), replays its records into a mask of its
 * counters (up to 16 Mi of them) and closes it. 0 with the number of
 * records and of counters (0: no counters line), or -1 after printing why.
 * For the self-fuzzing harness tests/selffuzz/cgofuzz/fuzz_merge.c. */
int cgofuzz_lf_merge_control_check(const char *path, const char *target,
                                   size_t *records, size_t *counters);
int cgofuzz_lf_minimize_crash(const cgofuzz_lf_target *t, const lf_opts *o);
int cgofuzz_lf_cleanse_crash(const cgofuzz_lf_target *t, const lf_opts *o);

/* Resident set of this process and its children, in MB (peak). */
int64_t cgofuzz_lf_peak_rss_mb(void);

#endif
