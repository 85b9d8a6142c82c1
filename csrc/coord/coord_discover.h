/*
 * coord_discover.h: a run's fuzz target as its Go test binary told it,
 * put into the run's config (coord_discover.c over gobin_discover.h, which
 * runs the binary).
 *
 * Invariants: only the kinds, seeds and environment fields of the config
 * are filled (cgofuzz_coord_free_discovery frees them); the seeds are the
 * f.Add seeds in order, without the testdata/fuzz/<target> files Go also
 * sent, which the engine loads itself.
 */
#ifndef CGOFUZZ_COORD_DISCOVER_H
#define CGOFUZZ_COORD_DISCOVER_H

#include "buf.h"
#include "coord.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the argument kinds and f.Add seeds of cfg->target by running
 * cfg->binary as a coordinator whose workers are self_exe (this program,
 * in fake-worker mode; cgofuzz_gobin_discover). 0, or -1 with err set. */
int cgofuzz_coord_discover(cgofuzz_coord_config *cfg, const char *self_exe,
                           cgofuzz_err *err);
/* The same from the records of a run someone else made
 * (cgofuzz_gobin_read_records); cfg->target = target (borrowed). 0; 1 when
 * the binary sent no input; -1 with err set. */
int cgofuzz_coord_discovered(cgofuzz_coord_config *cfg, const char *records,
                             const char *target, cgofuzz_err *err);
void cgofuzz_coord_free_discovery(cgofuzz_coord_config *cfg);

#ifdef __cplusplus
}
#endif
#endif
