/*
 * gobin_discover.h: what a Go test binary's fuzz targets are, learnt from
 * outside (gobin_discover.c): their names (-test.list), and each one's
 * argument kinds and f.Add seeds, by running the binary as the coordinator
 * of fake workers (this program in fake-worker mode) that record what they
 * are sent.
 *
 * Invariants: discovery runs the binary in our directory with an empty
 * private cache, so nothing of the user's cache is read or written; a fake
 * worker answers every call as done and finds nothing, so the binary's own
 * coordinator writes nothing it did not already have. What is found is the
 * caller's (cgofuzz_gobin_found_free); the engine puts it into a run's
 * config (coord_discover.h).
 */
#ifndef CGOFUZZ_GOBIN_DISCOVER_H
#define CGOFUZZ_GOBIN_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "cgofuzz/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Environment variable that turns `cgofuzz -test.fuzzworker ...` into the
 * fake worker used for argument-type discovery; its value is the file the
 * fake worker appends the inputs it is sent to. */
#define CGOFUZZ_GOBIN_DISCOVER_ENV "CGOFUZZ_DISCOVER_OUT"
/* Set (to anything) beside it: the fake worker's name mode, for a binary
 * that coordinates itself with the user's flags (cgofuzz_gobin_read_records
 * reads what it recorded). */
#define CGOFUZZ_GOBIN_DISCOVER_NAME_ENV "CGOFUZZ_DISCOVER_NAME"

/* Lists the fuzz targets of binary (names starting with "Fuzz" printed by
 * -test.list) matching the POSIX extended regexp re. Returns 0 and a
 * malloc'd array of malloc'd names, or -1 with err set. A name that is no
 * Go identifier is refused (cgofuzz_gobin_target_name_ok): it would name
 * directories under testdata/fuzz and the cache. */
int cgofuzz_gobin_list_targets(const char *binary, const char *re,
                               char ***names, size_t *n, cgofuzz_err *err);
/* Whether s could be a Go identifier as far as a path is concerned: ASCII
 * letters, digits and '_', and the bytes of non-ASCII UTF-8 letters (not
 * checked further). A target's name becomes a directory's name
 * (testdata/fuzz/<name>, the cache's, the failure fallback's): names from
 * -test.list are refused otherwise, and no fallback is made of one. */
bool cgofuzz_gobin_target_name_ok(const char *s);

/* One discovery: the binary, its target, the release that built it (0: the
 * newest) and the flags for its workers (those the release accepts are
 * passed on); self_exe is what Go starts as its workers (this program). */
typedef struct {
  const char *binary;
  const char *target;
  const char *self_exe;
  int gover;
  char **extra_args;
  size_t n_extra;
} cgofuzz_gobin_run;

/* What a target told its fake workers: its argument kinds, the warm-up
 * inputs in the order Go sent them (the f.Add seeds, then the
 * testdata/fuzz/<target> files, each an encoded corpus file), and the
 * variables of the environment its body set before f.Fuzz
 * ("NAME=value"). */
typedef struct {
  cgofuzz_kind *kinds;
  size_t n_kinds;
  cgofuzz_buf *seeds;
  size_t n_seeds;
  char **env;
  size_t n_env;
} cgofuzz_gobin_found;

/* Runs run->binary as the coordinator of fake workers, in our directory
 * with an empty private cache, and fills *f. 0, or -1 with err set (the
 * binary's own words when it failed: an f.Add type mismatch, a TestMain
 * failure) and *f empty. */
int cgofuzz_gobin_discover(const cgofuzz_gobin_run *run, cgofuzz_gobin_found *f,
                           cgofuzz_err *err);
void cgofuzz_gobin_found_free(cgofuzz_gobin_found *f);

/* Discovery from a run that someone else made (go test -exec, the cli's
 * cmd_exec.c): the binary ran with the user's own flags as its target's
 * coordinator, its workers this program in fake-worker name mode
 * (CGOFUZZ_GOBIN_DISCOVER_ENV=records, CGOFUZZ_GOBIN_DISCOVER_NAME_ENV
 * set), its -test.fuzzcachedir an empty private directory and
 * -test.fuzzminimizetime=0. records_have_input: whether the binary sent an
 * input at all (it did not if a test failed first, the target failed,
 * skipped or returned before f.Fuzz, or -test.fuzz matched no target or
 * several). cache_target: the target's name from that cache, where Go's
 * coordinator wrote what the fake worker called interesting (malloc'd), or
 * NULL when it wrote nothing (every input it made was already in the
 * corpus). read_records: fills *f from the records file as
 * cgofuzz_gobin_discover does: 0; 1 when there was no input; -1 with err
 * set. */
bool cgofuzz_gobin_records_have_input(const char *records);
char *cgofuzz_gobin_cache_target(const char *cache_root);
int cgofuzz_gobin_read_records(const char *records, int gover,
                               cgofuzz_gobin_found *f, cgofuzz_err *err);

/* The fake worker: answers pings, records every input it is sent to the
 * file named by $CGOFUZZ_GOBIN_DISCOVER_ENV, and reports each call as
 * done. Returns the process exit status. */
int cgofuzz_gobin_fake_worker(void);

/* Runs a shell-free command (argv[0] looked up in PATH: `go env GOCACHE`,
 * `go list`) and returns its first output line, trimmed, in out
 * (malloc'd). -1 if it fails. */
int cgofuzz_gobin_cmd_line(char *const argv[], char **out);

#ifdef __cplusplus
}
#endif
#endif
