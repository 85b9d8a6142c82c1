/*
 * shm.h: the shared-memory file between a coordinator and one worker.
 *
 * Layout (Go's sharedMemHeader on 64-bit Linux, 40 bytes, native endian):
 *
 *   0  int64  count      values the worker has run in the current call
 *   8  int64  valueLen   bytes of the value area in use
 *   16 uint64 randState  PCG state saved at the start of the last chain
 *   24 uint64 randInc    PCG increment saved with it
 *   32 bool   rawInMem   value area holds raw bytes of the value being
 *                        minimized rather than an encoded corpus file
 *   40 ...    value area, capacity = file size - 40
 *
 * There is no locking: the protocol gives the worker exclusive access
 * during a call and the coordinator exclusive access between calls.
 * A worker finds the file on fd 5 (CGOFUZZ_SHM_FD) and maps its whole size.
 */
#ifndef CGOFUZZ_SHM_H
#define CGOFUZZ_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CGOFUZZ_FUZZ_IN_FD 3  /* calls from the coordinator */
#define CGOFUZZ_FUZZ_OUT_FD 4 /* responses to the coordinator */
#define CGOFUZZ_SHM_FD 5      /* the shared-memory file */

typedef struct cgofuzz_shm_header {
  int64_t count;
  int64_t value_len;
  uint64_t rand_state;
  uint64_t rand_inc;
  uint8_t raw_in_mem;
  uint8_t pad_[7];
} cgofuzz_shm_header;

#define CGOFUZZ_SHM_HEADER_SIZE 40

typedef struct cgofuzz_shm {
  int fd;
  uint8_t *region;
  size_t size; /* whole mapping, header included */
  char *path;  /* the (already removed) temp file's name when one was
                  made in $TMPDIR, for messages; else NULL */
} cgofuzz_shm;

/* Creates a file with room for value_cap bytes of value and maps it: a
 * memfd on Linux, else (or when that fails) a temporary file in $TMPDIR (or
 * /tmp) whose name is removed at once (workers inherit the descriptor), so
 * no file is left behind however the process ends. Returns 0 or -1 with err
 * set. */
int cgofuzz_shm_create(cgofuzz_shm *m, size_t value_cap, cgofuzz_err *err);

/* cgofuzz_shm_create's file in $TMPDIR (or /tmp), as where there is no
 * memfd: named fuzz-* (Go's pattern) and removed at once; m->path keeps
 * the name for messages. */
int cgofuzz_shm_create_file(cgofuzz_shm *m, size_t value_cap, cgofuzz_err *err);

/* Maps an already open file (e.g. fd 5 in a worker), whole size. */
int cgofuzz_shm_map_fd(cgofuzz_shm *m, int fd, cgofuzz_err *err);

/* Unmaps, closes, and removes the file if this side created it. */
void cgofuzz_shm_close(cgofuzz_shm *m);

static inline cgofuzz_shm_header *cgofuzz_shm_hdr(const cgofuzz_shm *m) {
  return (cgofuzz_shm_header *)m->region;
}
static inline uint8_t *cgofuzz_shm_value(const cgofuzz_shm *m) {
  return m->region + CGOFUZZ_SHM_HEADER_SIZE;
}
static inline size_t cgofuzz_shm_value_cap(const cgofuzz_shm *m) {
  return m->size - CGOFUZZ_SHM_HEADER_SIZE;
}

/* Copies b into the value area and sets valueLen. Returns -1 with err set if
 * len exceeds the capacity (Go panics there). */
int cgofuzz_shm_set_value(cgofuzz_shm *m, const uint8_t *b, size_t len,
                          cgofuzz_err *err);

#ifdef __cplusplus
}
#endif
#endif
