/*
 * coord_report.h: what a run (coord.h) tells its caller as it goes and at
 * its end: its figures, an observer's callbacks (libFuzzer's front end,
 * lf.h, which then prints and writes everything itself) and a report of
 * its failures (a campaign, cli/campaign.c).
 *
 * Invariants: the callbacks are called from the coordinator's thread, in
 * the order the events happen, and never after cgofuzz_coord_run
 * returns; the figures count the warm-up's execs too; a failure is told
 * (and reported) once.
 */
#ifndef CGOFUZZ_COORD_REPORT_H
#define CGOFUZZ_COORD_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "coord.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a front end (lf.h: libFuzzer's command line) is told as a run goes. */
typedef struct cgofuzz_coord_stats {
  int64_t execs;      /* inputs run, warm-up included */
  int64_t elapsed_ms; /* since the run started */
  size_t corpus;      /* corpus entries */
  size_t cov_bytes;   /* coverage counters ever hit (libFuzzer's "cov") */
  size_t cov_bits;    /* counter buckets ever hit (libFuzzer's "ft") */
  /* Of cov_bytes and cov_bits, those of a cgo package's C code (a binary
   * linked by `cgofuzz cgo-cc`, csrc/cli/cmd_cgocc.c), and how many
   * counters that code has; all 0 without such code. */
  size_t c_cov_bytes, c_cov_bits, c_counters;
  size_t new_inputs; /* interesting inputs found by fuzzing */
  size_t workers;
} cgofuzz_coord_stats;

/* Replaces Go's output and files: with an observer the coordinator prints
 * nothing of its own (no progress lines, no verdict), reads no testdata or
 * cache directory and writes none; failures and new inputs are handed over
 * instead, crashers unminimized and at once, as libFuzzer writes them. Each
 * callback may be NULL. data is always an encoded corpus file. */
typedef struct cgofuzz_coord_observer {
  void *ctx;
  /* Every starting input has run once (libFuzzer's INITED). */
  void (*inited)(void *ctx, const cgofuzz_coord_stats *st);
  /* A new interesting input joined the corpus. */
  void (*new_input)(void *ctx, const uint8_t *data, size_t len,
                    const cgofuzz_coord_stats *st);
  /* Every 3 s while fuzzing. */
  void (*pulse)(void *ctx, const cgofuzz_coord_stats *st);
  /* An input failed: msg is the worker's error text, or says how the
   * worker died; status is the worker's wait status when it died (else
   * -1), except that a hang or an out-of-memory death (coord_death.c) is
   * given as exit status 70 or 71, libFuzzer's codes for them. The run
   * then ends, unless fuzz_continue and the observer returns true (it
   * goes on after this failure: libFuzzer's fork mode ignores some). */
  bool (*failure)(void *ctx, const uint8_t *data, size_t len, const char *msg,
                  size_t msg_len, int status, const cgofuzz_coord_stats *st);
  /* An input ran secs whole seconds (libFuzzer's -report_slow_units): a
   * C worker's new slowest unit (the front end passes the threshold to its
   * workers: core/exact.h's CGOFUZZ_LF_SLOW_ENV), or, for a Go worker, the
   * last input of a call that ran a second or more past its deadline (a
   * lower bound of its time; coord_resp.c). */
  void (*slow_unit)(void *ctx, const uint8_t *data, size_t len, int64_t secs);
  /* The run is over; fatal_msg is the error that ended it, if any. */
  void (*finished)(void *ctx, const cgofuzz_coord_stats *st,
                   const char *fatal_msg, size_t fatal_len);
} cgofuzz_coord_observer;

/* A failure a run recorded: the file written (NULL when none could be),
 * the failure's text as printed, and shell command lines (one per line,
 * '\n'-separated, each run from the directory the run was started in)
 * that reproduce it from where the file is. All malloc'd. */
typedef struct cgofuzz_coord_failure {
  char *path;
  char *msg;
  char *repro;
} cgofuzz_coord_failure;

/* Filled by cgofuzz_coord_run when cfg->report is set. failures are
 * appended (a report may collect several runs of one target); the other
 * fields describe the last run: corpus_start is the corpus size after the
 * seeds, testdata and cache were loaded, stats the figures at its end,
 * failed its verdict. Each failure is appended once: when it is written
 * (-fuzzcontinue) or when it ends the run (a failure that could not be
 * written anywhere, or an error such as a failing seed, has path NULL). */
typedef struct cgofuzz_coord_report {
  cgofuzz_coord_stats stats;
  size_t corpus_start;
  bool failed;
  cgofuzz_coord_failure *failures;
  size_t n_failures;
} cgofuzz_coord_report;
void cgofuzz_coord_report_free(cgofuzz_coord_report *r);

#ifdef __cplusplus
}
#endif
#endif
