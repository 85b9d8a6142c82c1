/*
 * gobin_patch.h: the patched copies of a Go test binary (gobin_patch.c):
 * comparison hooks that record their operands into a trace area, and a
 * coverage snapshot that goes eight counters at a time under a control
 * page.
 *
 * Invariants: the trace area's layout and the control page's are the
 * contract between the stubs written into the copy and the coordinator
 * that reads them (csrc/coord's worker slots, csrc/feedback's tracing
 * worker); both sides take them from here. Only linux/amd64 non-PIE
 * executables are patched; anything else is an error saying why.
 */
#ifndef CGOFUZZ_GOBIN_PATCH_H
#define CGOFUZZ_GOBIN_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "ctlpage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The trace area a patched binary's hooks write: CMP_TRACE_HDR bytes (on:
 * byte 0; the next record's index: u64 at 8; the capacity in records: u64
 * at 16), then the records. */
#define CMP_TRACE_HDR 64
#define CMP_REC_SIZE 128
#define CMP_REC_DATA 56
#define CMP_K_CONST 0x10 /* with a width: arg0 is the constant */
#define CMP_K_STR 0x20   /* runtime.libfuzzerHookStrCmp */
#define CMP_K_FOLD 0x40  /* runtime.libfuzzerHookEqualFold */

/* -panic-on: the functions a copy makes fail when they are called. The
 * first bytes of the k-th one's entry become MOV EAX, [CGOFUZZ_TRAP_ADDR +
 * k]: a read below 4 KiB, which Go turns into a run-time panic ("invalid
 * memory address or nil pointer dereference"), so the worker reports an
 * ordinary Go failure, recovered and minimized as one. Where the compiler
 * inlined the function into a caller, the first instruction it gave the
 * call's position (Go's inline tree: gobin_pcln.c) becomes an INT3: Go
 * dies of a fatal "SIGTRAP: trace trap" there, a worker death the run
 * records with its input. cgofuzz_gobin_trap_hit reads the function back
 * from the message: the signal line Go prints for a panic nobody recovers
 * gives the address and the entry as pc; testing's report of a recovered
 * one has the function's frame at its entry (no "+0x" offset), which no
 * fault of its own can show; a SIGTRAP's PC is one of the sites'. Names
 * are spelled as Go's symbol table spells them
 * (example.com/m/log.(*Logger).Error). */
#define CGOFUZZ_TRAP_ADDR 0x400u
#define CGOFUZZ_GOBIN_MAX_TRAPS 64
#define CGOFUZZ_TRAP_SIZE 7 /* the bytes a trapped entry gives up */
/* An inlined call's trap: the address after its INT3 (the PC Go prints
 * for "SIGTRAP: trace trap"), and which function of the list it calls. */
typedef struct cgofuzz_gobin_trapsite {
  uint64_t pc;
  uint32_t k;
} cgofuzz_gobin_trapsite;
typedef struct cgofuzz_gobin_traps {
  const char *const *names;
  size_t n; /* at most CGOFUZZ_GOBIN_MAX_TRAPS */
} cgofuzz_gobin_traps;

/* One call of a hook, as the stubs write it (little-endian). */
typedef struct cgofuzz_gobin_cmprec {
  uint32_t kind; /* width 1/2/4/8 (| CMP_K_CONST), or CMP_K_STR/_FOLD */
  uint32_t pc;   /* the compiler's fakePC: a hash of the source position */
  uint32_t len0, len1; /* strings: their lengths (the first 56 bytes kept) */
  uint8_t a0[CMP_REC_DATA], a1[CMP_REC_DATA]; /* integers: 8 bytes */
} cgofuzz_gobin_cmprec;

typedef struct cgofuzz_gobin_patched {
  uint64_t trace_addr; /* where the trace area is in the patched process */
  size_t trace_size;   /* its size, a multiple of the page size */
  size_t hooks;        /* hooks redirected (8 int hooks, and the string
                          hooks from go1.19) */
  bool strings;        /* the string hooks were among them */
  bool c_hooks;        /* the binary's cgo C code reports its compares
                          too (libcgofuzz_cgo.a's table, core/gohooks.h) */
  size_t snapshots;    /* SnapshotCoverage bodies sent to the word-at-a-
                          time stub (0: Go's own loop runs) */
  bool redzone;        /* the fuzz function's []byte inputs get an ASan
                          red zone (CGOFUZZ_GOBIN_PATCH_REDZONE) */
  bool args;           /* the fuzz function's []byte inputs are recorded in
                          the control page for the cgo loop (ctlpage.h) */
  bool trace_start;    /* a traced call's records start at the fuzz
                          function's call (HOOKS: the worker's decoding of
                          the input is not recorded) */
  size_t traps;        /* -panic-on functions trapped (all asked for) */
  uint64_t trap_pc[CGOFUZZ_GOBIN_MAX_TRAPS];    /* [traps]: entries, or 0 */
  size_t trap_inlined[CGOFUZZ_GOBIN_MAX_TRAPS]; /* [traps]: inlined calls */
  cgofuzz_gobin_trapsite *sites; /* the inlined calls' INT3s (malloc'd) */
  size_t n_sites;
} cgofuzz_gobin_patched;

/* Frees what info owns (the trap sites). */
void cgofuzz_gobin_patched_free(cgofuzz_gobin_patched *info);

/* What cgofuzz_gobin_patch patches: the comparison hooks (and the entry
 * that maps their trace area), Go's coverage snapshot. */
enum {
  CGOFUZZ_GOBIN_PATCH_HOOKS = 1,
  CGOFUZZ_GOBIN_PATCH_SNAPSHOT = 2,
  CGOFUZZ_GOBIN_PATCH_REDZONE = 4, /* with SNAPSHOT, for an ASan binary */
};
/* Where AddressSanitizer's shadow byte of address a is on x86-64 Linux:
 * (a >> 3) + this. */
#define CGOFUZZ_ASAN_SHADOW 0x7fff8000u

/* Writes to out a copy of binary; with CGOFUZZ_GOBIN_PATCH_HOOKS, one whose
 * comparison hooks record into the trace area of the file on fd 5 at
 * trace_off (page-aligned), trace_size bytes; with
 * CGOFUZZ_GOBIN_PATCH_SNAPSHOT, one whose coverage snapshot runs eight
 * counters at a time where it can be found (info->snapshots); with traps
 * (NULL: none), one where each of them fails when called (every one is
 * trapped, or it is an error naming the one that cannot be). -1 with err
 * saying why the binary cannot be patched. */
int cgofuzz_gobin_patch(const char *binary, const char *out, uint64_t trace_off,
                        size_t trace_size, unsigned flags,
                        const cgofuzz_gobin_traps *traps,
                        cgofuzz_gobin_patched *info, cgofuzz_err *err);
/* Splits a -panic-on list at its commas outside brackets (a generic
 * instantiation's name has commas of its own), dropping empty and
 * repeated names: *n names, malloc'd (free with cgofuzz_gobin_traps_free);
 * -1 out of memory (gobin_trap.c). */
int cgofuzz_gobin_traps_split(const char *list, char ***names, size_t *n);
void cgofuzz_gobin_traps_free(char **names, size_t n);
/* Which of traps, patched as info says, a Go failure message shows was
 * called (gobin_trap.c): its index, or -1 when the message is not one of
 * a trap's (a nil dereference of the program's own included). */
int cgofuzz_gobin_trap_hit(const char *msg, size_t len,
                           const cgofuzz_gobin_traps *traps,
                           const cgofuzz_gobin_patched *info);
/* Appends the snapshot stub (gobin_patch.c) for n counters at address
 * counters, coverageSnapshot's slice header at address header, the
 * control page at ctl and the worker's copy of its coverage mask (n bytes)
 * at mask; all below 2 GiB. -1 when they are not, or out of memory. */
int cgofuzz_gobin_snapshot_stub(cgofuzz_buf *b, uint32_t counters, uint32_t n,
                                uint32_t header, uint32_t ctl, uint32_t mask);
/* Appends the red-zone stub (gobin_patch.c), to be placed at address
 * at, that ends in a jump to call (reflect.Value.Call); its records go to
 * the control page at ctl, ASan's shadow of a is (a >> 3) + shadow. And
 * the unpoison prelude, which the snapshot stub must follow. -1 when an
 * address is not below 2 GiB, or out of memory. */
int cgofuzz_gobin_redzone_stub(cgofuzz_buf *b, uint32_t ctl, uint32_t shadow,
                               uint64_t at, uint64_t call);
int cgofuzz_gobin_unpoison_stub(cgofuzz_buf *b, uint32_t ctl);
/* Appends the args stub (gobin_patch.c), to be placed at address at, that
 * records the fuzz function's []byte arguments in the control page at ctl
 * (core/ctlpage.h) and ends in a jump to next. -1 when ctl is not below 2
 * GiB, or out of memory. */
int cgofuzz_gobin_args_stub(cgofuzz_buf *b, uint32_t ctl, uint64_t at,
                            uint64_t next);

/* The control page of a fuzzing worker that runs the snapshot copy, its
 * kinds of call and its fields: core/ctlpage.h. */

#ifdef __cplusplus
}
#endif
#endif
