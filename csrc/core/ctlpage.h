/*
 * ctlpage.h: the control page a fuzzing worker that runs cgofuzz's copy of
 * a Go test binary shares with its coordinator (fd CGOFUZZ_CTL_FD). Three
 * parties use it, and all take its layout from here: the stubs written
 * into the copy (csrc/gobin/gobin_patch.c), the coordinator that makes and
 * writes it (csrc/coord/coord_worker.c), and the cgo loop linked into a
 * cgo-cc binary (csrc/runtime/cgo/cgo_loop.c).
 *
 * Layout: CGOFUZZ_CTL_SIZE bytes, then the worker's copy of its coverage
 * mask (one byte per counter of internal/fuzz's range), the file rounded
 * to whole pages.
 *
 *   0    u8   kind    what call is in flight (CGOFUZZ_CTL_*): written by
 *                     the coordinator before each call
 *   1    u8           the snapshot stub's "a new bit" flag
 *   8    u64  magic   CGOFUZZ_CTL_MAGIC, written once by the coordinator:
 *                     what tells the cgo loop that fd 6 is this page and
 *                     not a file the test opened
 *   16   u8           the red-zone stub's record count, then its records
 *                     (24 .. 88)
 *   128  u8   args    how many of the fuzz function's []byte arguments the
 *                     args stub recorded for the call in flight (at most
 *                     CGOFUZZ_CTL_ARGS_MAX), then the records at 136, each
 *                     CGOFUZZ_CTL_ARG_SIZE bytes: u64 data pointer, u64
 *                     length, u64 index among the fuzz values (the *T not
 *                     counted). Rewritten before every call of the fuzz
 *                     function; stale between calls.
 *   264  u64  loop execs   inputs the cgo loop ran (cumulative, written by
 *                     the worker, read by the coordinator for its figures)
 *   272  u64  loop finds   of them, inputs that became the call's input
 *   280  u64  loop sized   of them, inputs run with an output buffer sized
 *                     by a size query of their own (cgo_loop.c, "derived")
 *   288  u64  loop picked  of them, inputs of a chain that started from
 *                     the coordinator's pick (the others: from Go's mutant)
 *   296  u64  loop pooled  the coordinator's picks that joined the loop's
 *                     pool of inputs to cross in (cgo_mutate.h)
 */
#ifndef CGOFUZZ_CTLPAGE_H
#define CGOFUZZ_CTLPAGE_H

#include <stddef.h>
#include <stdint.h>

#define CGOFUZZ_CTL_FD 6
#define CGOFUZZ_CTL_SIZE 4096
/* The control byte (gobin_patch.c's snapshot stub says what each does
 * to the snapshot's length). */
enum {
  CGOFUZZ_CTL_FULL = 0, /* not a fuzz call: the whole snapshot */
  CGOFUZZ_CTL_CUT = 1,  /* a warm-up fuzz call: cut after its last counter */
  CGOFUZZ_CTL_NEW = 2,  /* a fuzz call: cut, or empty without a new bit */
};
#define CGOFUZZ_CTL_MAGIC_AT 8
#define CGOFUZZ_CTL_MAGIC 0x4c544347465a5543ull /* "CUZFGCTL" */
#define CGOFUZZ_CTL_ARGS_N 128
#define CGOFUZZ_CTL_ARGS 136
#define CGOFUZZ_CTL_ARGS_MAX 4
#define CGOFUZZ_CTL_ARG_SIZE 32
#define CGOFUZZ_CTL_LOOP_EXECS 264
#define CGOFUZZ_CTL_LOOP_FINDS 272
#define CGOFUZZ_CTL_LOOP_SIZED 280
#define CGOFUZZ_CTL_LOOP_PICKED 288
#define CGOFUZZ_CTL_LOOP_POOLED 296
/* The size of a control page followed by a mask of mask_len bytes, in
 * whole pages. */
#define cgofuzz_ctl_size(mask_len)                                             \
  (CGOFUZZ_CTL_SIZE + (((size_t)(mask_len) + 4095) & ~(size_t)4095))

#endif
