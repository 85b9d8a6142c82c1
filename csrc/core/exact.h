/*
 * exact.h: the exact-input slot, a cgofuzz extension of Go's worker
 * protocol that lets a C worker use mutations Go's mutator cannot replay
 * (trace-cmp and dictionary mutations) without losing crash inputs.
 *
 * Go's coordinator rebuilds a worker's finds by replaying Go's mutator from
 * (randState, randInc, count) in shared memory, so a worker it drives must
 * only run inputs that replay can rebuild. A C worker therefore applies
 * non-Go mutations only when its coordinator declares, through the
 * environment variable CGOFUZZ_EXACT_ENV="1", that it reads this slot.
 * Go's coordinator never sets it, so under Go every input stays exact.
 *
 * Layout: in the shm value area, at offset CGOFUZZ_EXACT_OFF(valueLen)
 * (valueLen rounded up to 8; the coordinator's value [0, valueLen) is never
 * touched, so Go's "modified input" check still holds):
 *
 *   0  uint64 magic  CGOFUZZ_EXACT_MAGIC while the slot is valid, else 0
 *   8  int64  count  the shm count when the input was published
 *   16 uint64 len    length of the encoded input that follows
 *   24 ...           the input as a "go test fuzz v1" corpus file
 *
 * A second, cheaper form lets the worker publish one value without
 * encoding anything, for the many execs that differ from a replayable
 * input in a single []byte/string value (the dictionary bursts):
 *
 *   0  uint64 magic  CGOFUZZ_EXACT_RAW_MAGIC
 *   8  int64  count  as above
 *   16 uint64 len    length of the raw bytes that follow the index
 *   24 uint64 index  which argument they replace
 *   32 ...           the argument's raw bytes
 *
 * meaning: the input is what replaying Go's mutator up to count gives (the
 * same replay as without a slot), with argument index replaced by these
 * bytes. It is valid because non-replayable execs never advance count and
 * start from the chain's current values.
 *
 * Invariants (worker side):
 *  - the slot is cleared (magic 0) at the start of every fuzz call;
 *  - before running a non-replayable input the worker publishes it; if the
 *    exec passes uninteresting it clears the slot again, so a valid slot at
 *    the end of a call (a response, or the worker's death) always holds the
 *    input that ended it, exactly;
 *  - in exact mode the worker also publishes a replayable input that
 *    failed or found coverage, after the exec, so a coordinator may skip
 *    the replay altogether;
 *  - non-replayable execs do not advance count and draw from a private
 *    generator, so the Go chain around them replays as without them.
 * Coordinator side: when writing a value, also zero the 8 bytes at
 * CGOFUZZ_EXACT_OFF(valueLen) (so a worker that dies before its first
 * exec cannot leave a stale slot behind); set CGOFUZZ_EXACT_ENV=1 in the
 * workers' environment; after a fuzz call (or the worker's death), if the
 * slot's magic is set and its count equals the header's count, take its
 * input instead of the replay; otherwise replay as Go. Minimize calls do
 * not use the slot (their results are written to the value as in Go).
 *
 * Why not the alternatives: making dictionary choices replayable needs the
 * dictionary (built from the target's comparisons at run time) inside the
 * replaying coordinator; substituting the exact input during the Minimize
 * call that follows a find is lost when the find killed the worker (a new
 * process no longer knows it) and when minimization is off.
 * If the slot does not fit in the value capacity, the worker makes no
 * non-replayable exec for that input.
 */
#ifndef CGOFUZZ_EXACT_H
#define CGOFUZZ_EXACT_H

#include <stdint.h>

#define CGOFUZZ_EXACT_ENV "CGOFUZZ_EXACT_SLOT"
#define CGOFUZZ_EXACT_MAGIC 0x5443584546474643ull /* "CGFEXCT" little end. */
#define CGOFUZZ_EXACT_HDR 24
#define CGOFUZZ_EXACT_RAW_MAGIC 0x5741524546474643ull /* "CGFERAW" */
#define CGOFUZZ_EXACT_RAW_HDR 32
#define CGOFUZZ_EXACT_OFF(value_len) (((uint64_t)(value_len) + 7) & ~7ull)

#endif
