/*
 * coord_discover.h: what a test binary's fuzz targets are, learnt from
 * outside (coord_discover.c): their names (-test.list), and each one's
 * argument kinds and f.Add seeds, by running the binary as the
 * coordinator of fake workers (this program in fake-worker mode) that
 * record what they are sent.
 *
 * Invariants: discovery runs the binary in our directory with an empty
 * private cache, so nothing of the user's cache is read or written; it
 * fills only the kinds, seeds and environment fields of a run's config
 * (cgofuzz_coord_free_discovery frees them); a fake worker answers every
 * call as done and finds nothing, so the binary's own coordinator writes
 * nothing it did not already have.
 */
#ifndef CGOFUZZ_COORD_DISCOVER_H
#define CGOFUZZ_COORD_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "coord.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Environment variable that turns `cgofuzz -test.fuzzworker ...` into the
 * fake worker used for argument-type discovery; its value is the file the
 * fake worker appends the inputs it is sent to. */
#define CGOFUZZ_DISCOVER_ENV "CGOFUZZ_DISCOVER_OUT"
/* Set (to anything) beside it: the fake worker's name mode, for a binary
 * that coordinates itself with the user's flags (cgofuzz_coord_discovered). */
#define CGOFUZZ_DISCOVER_NAME_ENV "CGOFUZZ_DISCOVER_NAME"

/* Lists the fuzz targets of binary (names starting with "Fuzz" printed by
 * -test.list) matching the POSIX extended regexp re. Returns 0 and a
 * malloc'd array of malloc'd names, or -1 with err set. */
int cgofuzz_coord_list_targets(const char *binary, const char *re,
                               char ***names, size_t *n, cgofuzz_err *err);

/* Finds the argument kinds and f.Add seeds of target by running binary as
 * a coordinator whose workers are self_exe (this program, in fake-worker
 * mode), in our directory with an empty private cache. Fills
 * cfg->kinds/seeds (the f.Add seeds only: testdata entries are dropped). */
int cgofuzz_coord_discover(cgofuzz_coord_config *cfg, const char *self_exe,
                           cgofuzz_err *err);
void cgofuzz_coord_free_discovery(cgofuzz_coord_config *cfg);
/* Discovery from a run that someone else made (go test -exec,
 * cli/cmd_exec.c): the binary ran with the user's own flags as its
 * target's coordinator, its workers this program in fake-worker name mode
 * (CGOFUZZ_DISCOVER_ENV=records, CGOFUZZ_DISCOVER_NAME_ENV set), its
 * -test.fuzzcachedir an empty private directory and
 * -test.fuzzminimizetime=0. records_have_input: whether the binary sent an
 * input at all (it did not if a test failed first, the target failed,
 * skipped or returned before f.Fuzz, or -test.fuzz matched no target or
 * several). cache_target: the target's name from that cache, where Go's
 * coordinator wrote what the fake worker called interesting (malloc'd), or
 * NULL when it wrote nothing (every input it made was already in the
 * corpus). discovered: fills cfg as cgofuzz_coord_discover does for the
 * target so named (cfg->target = target, borrowed): 0; 1 when there was
 * no input; -1 with err set. */
bool cgofuzz_coord_records_have_input(const char *records);
char *cgofuzz_coord_cache_target(const char *cache_root);
int cgofuzz_coord_discovered(cgofuzz_coord_config *cfg, const char *records,
                             const char *target, cgofuzz_err *err);

/* The fake worker: answers pings, records every input it is sent to the
 * file named by $CGOFUZZ_DISCOVER_OUT, and reports each call as done.
 * Returns the process exit status. */
int cgofuzz_coord_fake_worker(void);

/* Runs a shell-free command (argv[0] looked up in PATH) and returns its
 * first output line, trimmed, in out (malloc'd). -1 if it fails. */
int cgofuzz_coord_cmd_line(char *const argv[], char **out);

#ifdef __cplusplus
}
#endif
#endif
