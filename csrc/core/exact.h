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
 * Layout (defined here once: both sides use the accessors below rather
 * than offsets of their own): in the shm value area, at offset
 * CGOFUZZ_EXACT_OFF(valueLen) (valueLen rounded up to 8; the coordinator's
 * value [0, valueLen) is never touched, so Go's "modified input" check still
 * holds):
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
 * CGOFUZZ_EXACT_OFF(valueLen) (cgofuzz_exact_clear; so a worker that dies
 * before its first exec cannot leave a stale slot behind); set
 * CGOFUZZ_EXACT_ENV=1 in the workers' environment; after a fuzz call (or the
 * worker's death), if the slot's magic is set and its count equals the header's
 * count, take its input instead of the replay; otherwise replay as Go. Minimize
 * calls do not use the slot (their results are written to the value as in Go).
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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shm.h"

#define CGOFUZZ_EXACT_ENV "CGOFUZZ_EXACT_SLOT"
/* Set to "1" in a worker's environment by the libFuzzer front end
 * (csrc/lf): a C worker then reports hangs and OOMs in libFuzzer's words
 * and exit codes (runtime/worker_watchdog.c). */
#define CGOFUZZ_LF_ENV "CGOFUZZ_LF"
/* With it, libFuzzer's -report_slow_units=N in seconds: a C worker ends
 * its fuzz call after an input that ran N seconds or more and 10% longer
 * than its slowest so far (libFuzzer's rule, in whole seconds), with the
 * input in the exact slot and the seconds in the reply's
 * CgofuzzSlowUnitSec (core/wire.h). Unset: never. */
#define CGOFUZZ_LF_SLOW_ENV "CGOFUZZ_LF_SLOW_UNITS"
/* A C worker's exit status after LeakSanitizer found that its input leaked
 * (runtime/leak.c); the front ends call it a leak, not a crash. */
#define CGOFUZZ_LEAK_EXIT 73
#define CGOFUZZ_EXACT_MAGIC 0x5443584546474643ull /* "CGFEXCT" little end. */
#define CGOFUZZ_EXACT_RAW_MAGIC 0x5741524546474643ull /* "CGFERAW" */
#define CGOFUZZ_EXACT_OFF(value_len) (((uint64_t)(value_len) + 7) & ~7ull)

/* Where each field of the header lies in the slot. The two forms share the
 * first three; only the raw form has the index. The header's size is also
 * where the input starts. */
#define CGOFUZZ_EXACT_MAGIC_AT 0
#define CGOFUZZ_EXACT_COUNT_AT 8
#define CGOFUZZ_EXACT_LEN_AT 16
#define CGOFUZZ_EXACT_INDEX_AT 24
#define CGOFUZZ_EXACT_HDR 24     /* the encoded form's header */
#define CGOFUZZ_EXACT_RAW_HDR 32 /* the raw form's header */

/* A slot's header, either form. Fields are read and written with memcpy at
 * the offsets above (the slot is 8-aligned, but this does not rely on it). */
typedef struct {
  uint64_t magic; /* CGOFUZZ_EXACT_MAGIC, CGOFUZZ_EXACT_RAW_MAGIC or 0 */
  int64_t count;
  uint64_t len;
  uint64_t index; /* the raw form only */
} cgofuzz_exact_hdr;

/* The header size of the form that magic names. */
static inline size_t cgofuzz_exact_hdr_size(uint64_t magic) {
  return magic == CGOFUZZ_EXACT_RAW_MAGIC ? CGOFUZZ_EXACT_RAW_HDR
                                          : CGOFUZZ_EXACT_HDR;
}

/* The slot after m's current value (the header's valueLen), or NULL if
 * valueLen is out of range or hdr bytes of header do not fit in the value
 * area after it. *room (if room is not NULL) is what follows the header:
 * the most input bytes the slot can hold. */
static inline uint8_t *cgofuzz_exact_slot(const cgofuzz_shm *m, size_t hdr,
                                          size_t *room) {
  int64_t value_len = cgofuzz_shm_hdr(m)->value_len;
  size_t cap = cgofuzz_shm_value_cap(m);
  if (value_len < 0 || (uint64_t)value_len > cap)
    return NULL;
  uint64_t off = CGOFUZZ_EXACT_OFF(value_len);
  if (off > cap || cap - off < hdr)
    return NULL;
  if (room)
    *room = cap - (size_t)off - hdr;
  return cgofuzz_shm_value(m) + off;
}

/* Invalidates the slot after m's current value (zeroes its magic), if the
 * magic fits there; a slot without room for its magic is never valid. */
static inline void cgofuzz_exact_clear(const cgofuzz_shm *m) {
  uint8_t *s = cgofuzz_exact_slot(m, 8, NULL);
  if (s)
    memset(s + CGOFUZZ_EXACT_MAGIC_AT, 0, 8);
}

/* Reads the header of the slot s, located with hdr (CGOFUZZ_EXACT_HDR or
 * CGOFUZZ_EXACT_RAW_HDR): the index only when the raw form's header fits
 * (it is 0 otherwise). The caller checks the magic. */
static inline void cgofuzz_exact_read(const uint8_t *s, size_t hdr,
                                      cgofuzz_exact_hdr *h) {
  memcpy(&h->magic, s + CGOFUZZ_EXACT_MAGIC_AT, 8);
  memcpy(&h->count, s + CGOFUZZ_EXACT_COUNT_AT, 8);
  memcpy(&h->len, s + CGOFUZZ_EXACT_LEN_AT, 8);
  h->index = 0;
  if (hdr >= CGOFUZZ_EXACT_RAW_HDR)
    memcpy(&h->index, s + CGOFUZZ_EXACT_INDEX_AT, 8);
}

/* The input of the slot s in the form whose header is hdr bytes. */
static inline const uint8_t *cgofuzz_exact_data(const uint8_t *s, size_t hdr) {
  return s + hdr;
}

/* Publishes h->len bytes of data in the slot s, in the form h->magic names
 * (the caller located s with that form's header size and checked the
 * room). The magic is cleared first and stored last, with release order,
 * so a worker that dies mid-publication leaves the slot invalid, never
 * half-written. */
static inline void cgofuzz_exact_publish(uint8_t *s, const cgofuzz_exact_hdr *h,
                                         const uint8_t *data) {
  size_t hdr = cgofuzz_exact_hdr_size(h->magic);
  memset(s + CGOFUZZ_EXACT_MAGIC_AT, 0, 8);
  memcpy(s + CGOFUZZ_EXACT_COUNT_AT, &h->count, 8);
  memcpy(s + CGOFUZZ_EXACT_LEN_AT, &h->len, 8);
  if (hdr == CGOFUZZ_EXACT_RAW_HDR)
    memcpy(s + CGOFUZZ_EXACT_INDEX_AT, &h->index, 8);
  if (h->len)
    memcpy(s + hdr, data, (size_t)h->len);
  __atomic_store_n((uint64_t *)(void *)(s + CGOFUZZ_EXACT_MAGIC_AT), h->magic,
                   __ATOMIC_RELEASE);
}

#endif
