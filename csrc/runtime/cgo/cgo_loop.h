/*
 * cgo_loop.h: what the two files of libcgofuzz_cgo.a share for the cgo
 * loop (cgo_loop.c): the comparisons the C code made during the loop's
 * inputs, recorded by cgo_hooks.c's trace-cmp and memcmp hooks while
 * cgofuzz_cgo_torc.on is set, for the loop's mutations to copy from (as
 * libFuzzer's table of recent compares).
 *
 * The table is defined in cgo_loop.c, which a binary whose hooks are
 * package gofuzz's links alone (its wrappers call the loop).
 *
 * Invariants: the hooks only write while on is set, which only the loop
 * sets, around its own calls of the C function, on the thread that runs
 * them; a record goes to the slot its operands hash to (libFuzzer's
 * table does the same), so an empty slot (width 0, lengths 0) is skipped.
 */
#ifndef CGOFUZZ_CGO_LOOP_H
#define CGOFUZZ_CGO_LOOP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGOFUZZ_CGO_TORC_INTS 64 /* integer operand pairs kept */
#define CGOFUZZ_CGO_TORC_MEMS 16 /* memory operand pairs kept */
#define CGOFUZZ_CGO_TORC_MEM_MAX 32

typedef struct cgofuzz_cgo_torc {
  volatile int on;
  struct {
    uint64_t a, b;
    uint8_t width;
  } ints[CGOFUZZ_CGO_TORC_INTS];
  struct {
    uint8_t len[2];
    uint8_t b[2][CGOFUZZ_CGO_TORC_MEM_MAX];
  } mems[CGOFUZZ_CGO_TORC_MEMS];
} cgofuzz_cgo_torc_t;

extern cgofuzz_cgo_torc_t cgofuzz_cgo_torc;

/* The loop's frame address while it runs a mutant, else 0: the C frames
 * of a crash report (cgo_stack.c) end below it, as a real call's end at
 * Go's asmcgocall. */
extern volatile uintptr_t cgofuzz_cgo_loop_fp;

/* The loop, called by cgo-cc's rewritten cgo wrappers (csrc/cli/cgowrap.c)
 * before each call of a C function with a pointer argument: frame is cgo's
 * argument frame (size bytes), again is the wrapper itself (called with a
 * copy of the frame, it calls the C function; the loop does not enter
 * itself), args lists the pointer arguments' offsets in the frame, 0xffff,
 * the other arguments' as offset * 16 + size, 0xffff, the result's the
 * same way where the function has one (size 0 when over 15 bytes),
 * 0xffff. */
void cgofuzz_cgo_loop(void *frame, size_t size, void (*again)(void *),
                      const unsigned short *args);
/* Called by the same wrappers after their real call, with the frame they
 * gave cgofuzz_cgo_loop: hands over the loop's find, if it had one. */
void cgofuzz_cgo_loop_end(const void *frame);

/* The index-th value of the corpus file v (len bytes) when it is a
 * []byte("...") or []byte(`...`) line, decoded into out (cap bytes): its
 * length, or -1 for any other value, a file that is not a corpus file, or
 * a value longer than cap. The loop's chains start from the coordinator's
 * pick this way (cgo_loop.c). */
long cgofuzz_cgo_pick(const uint8_t *v, size_t len, uint64_t index,
                      uint8_t *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
