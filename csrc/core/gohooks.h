/*
 * gohooks.h: the table through which C code inside a Go test binary
 * reaches Go's comparison hooks (docs/cgo.md).
 *
 * `cgofuzz cgo-cc` links libcgofuzz_cgo.a into a cgo test binary; its
 * SanitizerCoverage trace-cmp hooks and sanitizer weak hooks (memcmp,
 * strcmp, ...) forward every C comparison to the Go function named in
 * the matching slot, with Go's register ABI: integers (arg0, arg1, fakePC)
 * in AX, BX, CX; strings (ptr0, len0, ptr1, len1, fakePC) in AX, BX, CX,
 * DI, SI. The table is initialised data that starts with the magic, so a
 * stripped binary still has it: the coordinator's tracing copy
 * (gobin_patch.c) finds it by the magic and writes the addresses of the
 * Go hooks it has patched; in any other binary the slots stay 0 and the C
 * hooks return at once.
 *
 * Invariants: the magic is 24 bytes, NUL padded, 8-byte aligned; the
 * slots follow it, 8 bytes each, in the order of enum below, which is also
 * the order of the first GOHOOK_N hooks of gobin_patch.c. Changing
 * either means a new magic (the version at its end).
 */
#ifndef CGOFUZZ_CORE_GOHOOKS_H
#define CGOFUZZ_CORE_GOHOOKS_H

#define CGOFUZZ_GOHOOKS_MAGIC "cgofuzz:gohooks:v1"
#define CGOFUZZ_GOHOOKS_MAGIC_SIZE 24

/* The slots: Go's runtime.libfuzzerTraceCmp1/2/4/8,
 * libfuzzerTraceConstCmp1/2/4/8 and libfuzzerHookStrCmp. */
enum {
  CGOFUZZ_GOHOOK_CMP1,
  CGOFUZZ_GOHOOK_CMP2,
  CGOFUZZ_GOHOOK_CMP4,
  CGOFUZZ_GOHOOK_CMP8,
  CGOFUZZ_GOHOOK_CONST1,
  CGOFUZZ_GOHOOK_CONST2,
  CGOFUZZ_GOHOOK_CONST4,
  CGOFUZZ_GOHOOK_CONST8,
  CGOFUZZ_GOHOOK_STRCMP,
  CGOFUZZ_GOHOOK_N
};

#endif
