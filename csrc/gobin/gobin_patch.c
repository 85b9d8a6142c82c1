/*
 * gobin_patch.c: copies of a Go test binary that cgofuzz runs instead
 * of the binary itself: one whose comparison hooks record their operands
 * (run-time comparison feedback, docs/comparisons.md), and one whose
 * coverage snapshot goes eight counters at a time (the fuzzing workers',
 * docs/cgo.md). gobin_copy.c says where the copies live.
 *
 * A `go test -c -fuzz` binary is compiled with -d=libfuzzer: before every
 * integer comparison it calls runtime.libfuzzerTraceCmp1/2/4/8 (both
 * operands variable) or libfuzzerTraceConstCmp1/2/4/8 (the constant first),
 * before every string comparison runtime.libfuzzerHookStrCmp (go1.19 on)
 * and before strings.EqualFold runtime.libfuzzerHookEqualFold. Without the
 * libfuzzer build tag those are empty Go functions (internal/fuzz/trace.go):
 * one RET at a 32-byte aligned address, followed by INT3 padding. Go's
 * register ABI passes (arg0, arg1, fakePC) in AX, BX, CX, and for the
 * string hooks (ptr0, len0, ptr1, len1, fakePC) in AX, BX, CX, DI, SI; it
 * has no callee-saved registers besides SP, BP, R14 (g) and R15 (and X15,
 * kept zero), and the hooks and SnapshotCoverage are leaves, so a
 * replacement body may clobber anything else and needs no stack of its
 * own.
 *
 * A copy (the user's binary is never written) differs in these places:
 *  1. a new PT_LOAD segment, taking the PT_NOTE program header's place
 *     (the kernel ignores notes; the loader needs the PT_LOAD entries in
 *     ascending order, so the table is re-sorted), read-write-execute,
 *     holding the stubs below, followed (hooks only) by the trace area
 *     (zero-fill);
 *  2. hooks only: the entry point: an entry stub maps the trace area of
 *     the file on fd 5 (the worker's shared memory, core/shm.h) at
 *     offset trace_off MAP_SHARED|MAP_FIXED over the zero-fill, then jumps
 *     to the original entry. Started any other way, the mapping fails and
 *     the zero-fill stays: the hooks then see "off" and return;
 *  3. hooks only: each hook's RET becomes a JMP rel32 to its stub, which
 *     returns to the hook's caller;
 *  4. snapshot: the first instruction of each body of SnapshotCoverage
 *     becomes a JMP rel32 to the snapshot stub, which returns to its
 *     caller (the rest of the body is never run);
 *  5. traps (-panic-on): the entry of each function named faults at an
 *     address that says which (gobin_patch.h), so that calling it panics.
 * A hook stub appends one record (CMP_REC_SIZE bytes, layout in
 * gobin_patch.h) when the trace area's first byte is non-zero, taking
 * its index with LOCK XADD so concurrent goroutines never share a record;
 * indexes past the capacity are dropped. The hooks are found by the
 * symbol table (gobin_obj.c), or when stripped by Go's own function table. Only
 * linux/amd64 non-PIE executables are patched; anything else gets an error
 * saying why, and the caller falls back to the static dictionary (hooks)
 * or to the binary itself (snapshot).
 */
#include "elf64.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gobin.h"
#include "gobin_obj.h"
#include "gobin_patch.h"
#include "gobin_pcln.h"
#include "gohooks.h"
#include "shm.h"

#define PAGE 0x1000ull
#define MAX_IMAGE ((size_t)1 << 31)
#define MAX_ADDR 0x7ff00000ull /* stubs address the trace with imm32 */

/* The hooks, in the order of their stubs; the first CGOFUZZ_GOHOOK_N are
 * also the slots of the C side's table (core/gohooks.h). */
static const struct {
  const char *name;
  uint32_t kind;
  bool required;
} hooks[] = {
    {"runtime.libfuzzerTraceCmp1", 1, true},
    {"runtime.libfuzzerTraceCmp2", 2, true},
    {"runtime.libfuzzerTraceCmp4", 4, true},
    {"runtime.libfuzzerTraceCmp8", 8, true},
    {"runtime.libfuzzerTraceConstCmp1", CMP_K_CONST | 1, true},
    {"runtime.libfuzzerTraceConstCmp2", CMP_K_CONST | 2, true},
    {"runtime.libfuzzerTraceConstCmp4", CMP_K_CONST | 4, true},
    {"runtime.libfuzzerTraceConstCmp8", CMP_K_CONST | 8, true},
    {"runtime.libfuzzerHookStrCmp", CMP_K_STR, false},
    {"runtime.libfuzzerHookEqualFold", CMP_K_FOLD, false},
};
#define N_HOOKS (sizeof hooks / sizeof hooks[0])

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static int emit(cgofuzz_buf *b, const uint8_t *code, size_t n) {
  return cgofuzz_buf_append(b, code, n);
}

/* mov r12,rdx; mmap(area, size, RW, MAP_SHARED|MAP_FIXED, fd, off);
 * mov rdx,r12; jmp entry. rdx (the dynamic loader's fini function) is the
 * only register the process entry receives besides rsp. */
static int emit_entry(cgofuzz_buf *b, uint64_t at, uint32_t area, uint32_t size,
                      uint32_t fd, uint32_t off, uint64_t entry) {
  uint8_t c[] = {0x49, 0x89, 0xd4,                   /* mov r12, rdx */
                 0xb8, 0x09, 0x00, 0x00, 0x00,       /* mov eax, 9 */
                 0xbf, 0,    0,    0,    0,          /* mov edi, trace */
                 0xbe, 0,    0,    0,    0,          /* mov esi, size */
                 0xba, 0x03, 0x00, 0x00, 0x00,       /* mov edx, 3 */
                 0x41, 0xba, 0x11, 0x00, 0x00, 0x00, /* mov r10d, 0x11 */
                 0x41, 0xb8, 0,    0,    0,    0,    /* mov r8d, fd */
                 0x41, 0xb9, 0,    0,    0,    0,    /* mov r9d, off */
                 0x0f, 0x05,                         /* syscall */
                 0x4c, 0x89, 0xe2,                   /* mov rdx, r12 */
                 0xe9, 0,    0,    0,    0};         /* jmp entry */
  put32(c + 9, area);
  put32(c + 14, size);
  put32(c + 31, fd);
  put32(c + 37, off);
  put32(c + 47, (uint32_t)(entry - (at + sizeof c)));
  return emit(b, c, sizeof c);
}

/* The common head of a stub: r9 = the record, or return when tracing is
 * off or the area is full. */
static const uint8_t stub_head[] = {
    0x41, 0xb8, 0,    0,    0,    0,       /* mov r8d, trace */
    0x41, 0x80, 0x38, 0x00,                /* cmp byte [r8], 0 */
    0x74, 0,                               /* je ret */
    0x41, 0xb9, 0x01, 0x00, 0x00, 0x00,    /* mov r9d, 1 */
    0xf0, 0x4d, 0x0f, 0xc1, 0x48, 0x08,    /* lock xadd [r8+8], r9 */
    0x4d, 0x3b, 0x48, 0x10,                /* cmp r9, [r8+16] */
    0x73, 0,                               /* jae ret */
    0x49, 0xc1, 0xe1, 0x07,                /* shl r9, 7 */
    0x4f, 0x8d, 0x4c, 0x08, 0x40,          /* lea r9, [r8+r9+64] */
    0x41, 0xc7, 0x01, 0,    0,    0,    0, /* mov dword [r9], kind */
};

static int emit_stub(cgofuzz_buf *b, uint32_t trace, uint32_t kind) {
  static const uint8_t ints[] = {
      0x41, 0x89, 0x49, 0x04, /* mov [r9+4], ecx  (fakePC) */
      0x49, 0x89, 0x41, 0x10, /* mov [r9+16], rax (arg0) */
      0x49, 0x89, 0x59, 0x48, /* mov [r9+72], rbx (arg1) */
      0xc3};
  static const uint8_t strs[] = {
      0x41, 0x89, 0x71, 0x04,       /* mov [r9+4], esi  (fakePC) */
      0x41, 0x89, 0x59, 0x08,       /* mov [r9+8], ebx  (len0) */
      0x41, 0x89, 0x79, 0x0c,       /* mov [r9+12], edi (len1) */
      0x49, 0x89, 0xfa,             /* mov r10, rdi */
      0x49, 0x89, 0xcb,             /* mov r11, rcx */
      0x49, 0x8d, 0x79, 0x10,       /* lea rdi, [r9+16] */
      0x48, 0x89, 0xc6,             /* mov rsi, rax */
      0x48, 0x89, 0xd9,             /* mov rcx, rbx */
      0x48, 0x83, 0xf9, 0x38,       /* cmp rcx, 56 */
      0x76, 0x05,                   /* jbe +5 */
      0xb9, 0x38, 0x00, 0x00, 0x00, /* mov ecx, 56 */
      0xf3, 0xa4,                   /* rep movsb */
      0x49, 0x8d, 0x79, 0x48,       /* lea rdi, [r9+72] */
      0x4c, 0x89, 0xde,             /* mov rsi, r11 */
      0x4c, 0x89, 0xd1,             /* mov rcx, r10 */
      0x48, 0x83, 0xf9, 0x38,       /* cmp rcx, 56 */
      0x76, 0x05,                   /* jbe +5 */
      0xb9, 0x38, 0x00, 0x00, 0x00, /* mov ecx, 56 */
      0xf3, 0xa4,                   /* rep movsb */
      0xc3};
  const uint8_t *tail = kind & (CMP_K_STR | CMP_K_FOLD) ? strs : ints;
  size_t tail_len = kind & (CMP_K_STR | CMP_K_FOLD) ? sizeof strs : sizeof ints;
  uint8_t h[sizeof stub_head];
  memcpy(h, stub_head, sizeof h);
  put32(h + 2, trace);
  /* Both jumps land on the final RET. */
  h[11] = (uint8_t)(sizeof h - 12 + tail_len - 1);
  h[29] = (uint8_t)(sizeof h - 30 + tail_len - 1);
  put32(h + sizeof h - 4, kind);
  if (emit(b, h, sizeof h) != 0)
    return -1;
  return emit(b, tail, tail_len);
}

/* Go's SnapshotCoverage, eight counters at a time. Go's own loop rounds
 * each counter down to a power of two into coverageSnapshot one byte at a
 * time (with a bounds check or a table lookup per byte), and the worker
 * then counts the snapshot's new bits one byte at a time
 * (countNewCoverageBits, inlined into its loop): together about 4 ns a
 * counter on every exec (docs/cgo.md). This stub skips zero words, which
 * most are, and rounds the others with masked shifts that never carry
 * across bytes (b |= b>>1, b>>2, b>>4 smears the top bit down; b - b>>1
 * keeps it). It also sets the slice's length, by the control byte ctl[0]
 * (CGOFUZZ_CTL_*, gobin_patch.h, set by the coordinator before each call):
 *  - FULL (0): the full length (minimization indexes the snapshot as far
 *    as its own mask goes);
 *  - CUT (1, a warm-up fuzz call, whose snapshot is its reply): the end of
 *    the last non-zero word, so that the worker's count stops there,
 *    having no new bit to find past it;
 *  - NEW (2, any other fuzz call): as CUT when a rounded counter has a bit
 *    the mask at `mask` lacks (the coordinator keeps there a copy of the
 *    coverage mask it last sent this worker, which is the worker's own),
 *    else 0, so that the worker's count has nothing to walk: it would have
 *    found no new bit either. ctl[1] is the stub's "a new bit" flag.
 * A snapshot so shortened reaches the coordinator as the coverage of an
 * interesting input, which pads it with zeros (csrc/coord/coord_resp.c).
 * rsi = the counters, rdi = coverageSnapshot's data, rcx = its capacity,
 * which must be the counter range's length n (else a header found wrongly:
 * return without writing). Clobbers rax, rcx, rdx, rsi, rdi, r8-r11, which
 * both Go's ABI and the C one let a callee clobber, and uses no stack. */
static const uint8_t
    snapshot_code
        [] =
            {
                0xbe, 0x00, 0x00, 0x00, 0x00, /* 00 mov esi, counters */
                0x48, 0x8b, 0x3c, 0x25, 0x00, 0x00, 0x00, 0x00, /* 05 mov rdi,
                                                                   [hdr] */
                0x48, 0x8b, 0x0c, 0x25, 0x00, 0x00, 0x00, 0x00, /* 0d mov rcx,
                                                                   [hdr+16] */
                0x48, 0x81, 0xf9, 0x00, 0x00, 0x00, 0x00, /* 15 cmp rcx, n */
                0x0f, 0x85, 0x33, 0x01, 0x00, 0x00,       /* 1c jne done */
                0x48, 0xc7, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, /* 22 mov qword [hdr+8], 0 */
                0xc6, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, 0x00, /* 2e mov byte
                                                                   [ctl+1], 0 */
                0x49, 0xb8, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f,
                0x7f, /* 36 mov r8,
                         0x7f7f7f7f7f7f7f7f
                       */
                0x49, 0xb9, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f,
                0x3f, /* 40 mov r9,
                         0x3f3f3f3f3f3f3f3f
                       */
                0x49, 0xba, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
                0x0f,                   /* 4a mov r10,
                                           0x0f0f0f0f0f0f0f0f
                                         */
                0x31, 0xd2,             /* 54 xor edx, edx */
                0x48, 0x8d, 0x42, 0x08, /* 56 words: lea rax, [rdx+8] */
                0x48, 0x39, 0xc8,       /* 5a cmp rax, rcx */
                0x77, 0x68,             /* 5d ja bytes */
                0x48, 0x8b, 0x04, 0x16, /* 5f mov rax, [rsi+rdx] */
                0x48, 0x85, 0xc0,       /* 63 test rax, rax */
                0x74, 0x55,             /* 66 je store */
                0x49, 0x89, 0xc3,       /* 68 mov r11, rax */
                0x49, 0xd1, 0xeb,       /* 6b shr r11, 1 */
                0x4d, 0x21, 0xc3,       /* 6e and r11, r8 */
                0x4c, 0x09, 0xd8,       /* 71 or rax, r11 */
                0x49, 0x89, 0xc3,       /* 74 mov r11, rax */
                0x49, 0xc1, 0xeb, 0x02, /* 77 shr r11, 2 */
                0x4d, 0x21, 0xcb,       /* 7b and r11, r9 */
                0x4c, 0x09, 0xd8,       /* 7e or rax, r11 */
                0x49, 0x89, 0xc3,       /* 81 mov r11, rax */
                0x49, 0xc1, 0xeb, 0x04, /* 84 shr r11, 4 */
                0x4d, 0x21, 0xd3,       /* 88 and r11, r10 */
                0x4c, 0x09, 0xd8,       /* 8b or rax, r11 */
                0x49, 0x89, 0xc3,       /* 8e mov r11, rax */
                0x49, 0xd1, 0xeb,       /* 91 shr r11, 1 */
                0x4d, 0x21, 0xc3,       /* 94 and r11, r8 */
                0x4c, 0x29, 0xd8,       /* 97 sub rax, r11 */
                0x4c, 0x8b, 0x9a, 0x00, 0x00, 0x00, 0x00, /* 9a mov r11,
                                                             [rdx+mask] */
                0x49, 0xf7, 0xd3,                         /* a1 not r11 */
                0x49, 0x21, 0xc3,                         /* a4 and r11, rax */
                0x74, 0x08,                               /* a7 jz seen */
                0xc6, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, 0x01, /* a9 mov byte
                                                                   [ctl+1], 1: a
                                                                   new bit */
                0x4c, 0x8d, 0x5a, 0x08, /* b1 seen: lea r11, [rdx+8] */
                0x4c, 0x89, 0x1c, 0x25, 0x00, 0x00, 0x00, 0x00, /* b5 mov
                                                                   [hdr+8], r11
                                                                 */
                0x48, 0x89, 0x04, 0x17, /* bd store: mov [rdi+rdx], rax */
                0x48, 0x83, 0xc2, 0x08, /* c1 add rdx, 8 */
                0xeb, 0x8f,             /* c5 jmp words */
                0x48, 0x39, 0xca,       /* c7 bytes: cmp rdx, rcx */
                0x73, 0x56,             /* ca jae length */
                0x0f, 0xb6, 0x04, 0x16, /* cc movzx eax, byte [rsi+rdx] */
                0x41, 0x89, 0xc3,       /* d0 mov r11d, eax */
                0x41, 0xd1, 0xeb,       /* d3 shr r11d, 1 */
                0x44, 0x09, 0xd8,       /* d6 or eax, r11d */
                0x41, 0x89, 0xc3,       /* d9 mov r11d, eax */
                0x41, 0xc1, 0xeb, 0x02, /* dc shr r11d, 2 */
                0x44, 0x09, 0xd8,       /* e0 or eax, r11d */
                0x41, 0x89, 0xc3,       /* e3 mov r11d, eax */
                0x41, 0xc1, 0xeb, 0x04, /* e6 shr r11d, 4 */
                0x44, 0x09, 0xd8,       /* ea or eax, r11d */
                0x41, 0x89, 0xc3,       /* ed mov r11d, eax */
                0x41, 0xd1, 0xeb,       /* f0 shr r11d, 1 */
                0x44, 0x29, 0xd8,       /* f3 sub eax, r11d */
                0x88, 0x04, 0x17,       /* f6 mov [rdi+rdx], al */
                0x44, 0x0f, 0xb6, 0x9a, 0x00, 0x00, 0x00, 0x00, /* f9 movzx
                                                                   r11d, byte
                                                                   [rdx+mask] */
                0x41, 0xf7, 0xd3, /* 101 not r11d */
                0x41, 0x21, 0xc3, /* 104 and r11d, eax */
                0x74, 0x08,       /* 107 jz seen1 */
                0xc6, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, 0x01, /* 109 mov byte
                                                                   [ctl+1], 1:
                                                                   a new bit */
                0x48, 0xff, 0xc2, /* 111 seen1: inc rdx */
                0x85, 0xc0,       /* 114 test eax, eax */
                0x74, 0xaf,       /* 116 je bytes */
                0x48, 0x89, 0x14, 0x25, 0x00, 0x00, 0x00, 0x00, /* 118 mov
                                                                   [hdr+8], rdx
                                                                 */
                0xeb, 0xa5, /* 120 jmp bytes */
                0x80, 0x3c, 0x25, 0x00, 0x00, 0x00, 0x00, 0x00, /* 122 length:
                                                                   cmp byte
                                                                   [ctl], 0 */
                0x74, 0x21, /* 12a je full */
                0x80, 0x3c, 0x25, 0x00, 0x00, 0x00, 0x00, 0x02, /* 12c cmp byte
                                                                   [ctl], 2 */
                0x75, 0x1f, /* 134 jne done */
                0x80, 0x3c, 0x25, 0x00, 0x00, 0x00, 0x00, 0x00, /* 136 cmp byte
                                                                 * [ctl+1], 0
                                                                 */
                0x75, 0x15, /* 13e jne done: a new bit */
                0x48, 0xc7, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, 0x00,
                0x00, 0x00, 0x00, /* 140 mov qword [hdr+8], 0 */
                0xc3,             /* 14c ret */
                0x48, 0x89, 0x0c, 0x25, 0x00, 0x00, 0x00, 0x00, /* 14d full: mov
                                                                   [hdr+8], rcx
                                                                 */
                0xc3, /* 155 done: ret */
};
_Static_assert(sizeof snapshot_code == 0x156, "the jumps above count on it");

int cgofuzz_gobin_snapshot_stub(cgofuzz_buf *b, uint32_t counters, uint32_t n,
                                uint32_t header, uint32_t ctl, uint32_t mask) {
  uint8_t c[sizeof snapshot_code];
  if (n > INT32_MAX || header > INT32_MAX - 16 || ctl > INT32_MAX - 1 ||
      mask > INT32_MAX - n)
    return -1; /* imm32 and disp32 sign-extend */
  memcpy(c, snapshot_code, sizeof c);
  put32(c + 0x01, counters);
  put32(c + 0x09, header);
  put32(c + 0x11, header + 16);
  put32(c + 0x18, n);
  put32(c + 0x26, header + 8);
  put32(c + 0x31, ctl + 1);
  put32(c + 0x9d, mask);
  put32(c + 0xac, ctl + 1);
  put32(c + 0xb9, header + 8);
  put32(c + 0xfd, mask);
  put32(c + 0x10c, ctl + 1);
  put32(c + 0x11c, header + 8);
  put32(c + 0x125, ctl);
  put32(c + 0x12f, ctl);
  put32(c + 0x139, ctl + 1);
  put32(c + 0x144, header + 8);
  put32(c + 0x151, header + 8);
  return emit(b, c, sizeof c);
}

/* The input's red zone, for a binary with AddressSanitizer (ASan's
 * shadow at address >> 3 + CGOFUZZ_ASAN_SHADOW, x86-64 Linux). Go's
 * worker hands the fuzz function its []byte as a prefix of the mutator's
 * buffer, whose capacity is the whole shared value (megabytes): a C read
 * or write past the input's end lands in that buffer, which ASan sees as
 * the Go allocation it is, so the bug is never found (libFuzzer copies
 * every input into a malloc of its exact size). testing's call of the
 * fuzz function, fn.Call(args) in testing.(*F).Fuzz.func1.1, is sent to
 * this stub first: for each argument that is a []byte (a reflect.Value
 * whose type is a slice of uint8, held indirectly), it sets the slice's
 * capacity to its length (so Go code that appends to the input gets a new
 * array, as it may, and never writes into the zone) and poisons up to 64
 * bytes after the input, whole granules inside the old capacity only (they
 * were addressable), recording each zone's shadow bytes (at most four) in
 * the control page; then it jumps to reflect.Value.Call. The snapshot stub
 * runs the unpoison prelude first: SnapshotCoverage is deferred by the
 * same closure, so it runs after every call, whether the fuzz function
 * returned, failed or panicked, before the mutator writes into the buffer
 * again. rdi, rsi = the args slice (Go's ABI: receiver in rax, rbx, rcx,
 * the slice in rdi, rsi, r8, all kept); clobbers r9-r13, which Go's ABI
 * lets a callee clobber. A Value is {type, ptr, flag}: flagIndir is bit
 * 7; a type's kind is byte 23 (mask 31: slice 23, uint8 8), a slice
 * type's element at byte 48 (every release from go1.18). */
static const uint8_t redzone_code[] = {
    0x41, 0xb9, 0x01, 0x00, 0x00, 0x00, /* 00 mov r9d, 1: args[0] is the *T */
    0x49, 0x39, 0xf1,                   /* 06 loop: cmp r9, rsi */
    0x72, 0x05,                         /* 09 jb body */
    0xe9, 0x00, 0x00, 0x00, 0x00,       /* 0b jmp reflect.Value.Call */
    0x4f, 0x8d, 0x14, 0x49,             /* 10 lea r10, [r9+r9*2] */
    0x4e, 0x8d, 0x14, 0xd7,             /* 14 lea r10, [rdi+r10*8]: &args[i] */
    0x4d, 0x8b, 0x1a,                   /* 18 mov r11, [r10]: its type */
    0x4d, 0x85, 0xdb,                   /* 1b test r11, r11 */
    0x0f, 0x84, 0xe5, 0x00, 0x00, 0x00, /* 1e jz next */
    0x45, 0x0f, 0xb6, 0x63, 0x17,       /* 24 movzx r12d, byte [r11+23]: kind */
    0x41, 0x83, 0xe4, 0x1f,             /* 29 and r12d, 31 */
    0x41, 0x83, 0xfc, 0x17,             /* 2d cmp r12d, 23: a slice */
    0x0f, 0x85, 0xd2, 0x00, 0x00, 0x00, /* 31 jne next */
    0x4d, 0x8b, 0x63, 0x30, /* 37 mov r12, [r11+48]: its element type */
    0x4d, 0x85, 0xe4,       /* 3b test r12, r12 */
    0x0f, 0x84, 0xc5, 0x00, 0x00, 0x00, /* 3e jz next */
    0x45, 0x0f, 0xb6, 0x64, 0x24, 0x17, /* 44 movzx r12d, byte [r12+23] */
    0x41, 0x83, 0xe4, 0x1f,             /* 4a and r12d, 31 */
    0x41, 0x83, 0xfc, 0x08,             /* 4e cmp r12d, 8: of uint8 */
    0x0f, 0x85, 0xb1, 0x00, 0x00, 0x00, /* 52 jne next */
    0x41, 0xf6, 0x42, 0x10, 0x80, /* 58 test byte [r10+16], 0x80: flagIndir */
    0x0f, 0x84, 0xa6, 0x00, 0x00, 0x00, /* 5d jz next */
    0x4d, 0x8b, 0x52, 0x08, /* 63 mov r10, [r10+8]: the slice header */
    0x4d, 0x8b, 0x5a, 0x08, /* 67 mov r11, [r10+8]: len */
    0x4d, 0x8b, 0x62, 0x10, /* 6b mov r12, [r10+16]: cap */
    0x4d, 0x39, 0xdc,       /* 6f cmp r12, r11 */
    0x0f, 0x86, 0x91, 0x00, 0x00, 0x00, /* 72 jbe next: no room past the end */
    0x4d, 0x89, 0x5a, 0x10,             /* 78 mov [r10+16], r11: cap = len */
    0x4d, 0x8b, 0x2a,                   /* 7c mov r13, [r10]: ptr */
    0x4d, 0x01, 0xeb,                   /* 7f add r11, r13: start = ptr+len */
    0x4d, 0x01, 0xec,                   /* 82 add r12, r13: limit = ptr+cap */
    0x4d, 0x8d, 0x6b, 0x40,             /* 85 lea r13, [r11+64] */
    0x4d, 0x39, 0xe5,                   /* 89 cmp r13, r12 */
    0x4d, 0x0f, 0x47, 0xec,             /* 8c cmova r13, r12 */
    0x49, 0x83, 0xe5, 0xf8, /* 90 and r13, -8: end, a whole granule */
    0x4d, 0x39, 0xeb,       /* 94 cmp r11, r13 */
    0x0f, 0x83, 0x6c, 0x00, 0x00, 0x00, /* 97 jae next: no whole granule */
    0x44, 0x0f, 0xb6, 0x14, 0x25, 0x00, 0x00, 0x00,
    0x00,                   /* 9d movzx r10d, byte [ctl+16]: records */
    0x41, 0x83, 0xfa, 0x04, /* a6 cmp r10d, 4 */
    0x0f, 0x83, 0x59, 0x00, 0x00, 0x00, /* aa jae next: no room to record */
    0x41, 0xc1, 0xe2, 0x04,             /* b0 shl r10d, 4 */
    0x4d, 0x8d, 0xa2, 0x00, 0x00, 0x00, 0x00, /* b4 lea r12, [r10+ctl+24]: the
                                                 record */
    0xfe, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, /* bb inc byte [ctl+16] */
    0x4d, 0x89, 0xda,                         /* c2 mov r10, r11 */
    0x49, 0xc1, 0xea, 0x03,                   /* c5 shr r10, 3 */
    0x49, 0x81, 0xc2, 0x00, 0x00, 0x00, 0x00, /* c9 add r10, shadow: start's
                                                 shadow byte */
    0x4d, 0x89, 0x14, 0x24,                   /* d0 mov [r12], r10 */
    0x41, 0xf6, 0xc3, 0x07,                   /* d4 test r11b, 7 */
    0x74, 0x0a,                               /* d8 jz whole */
    0x45, 0x88, 0x1a,                         /* da mov [r10], r11b */
    0x41, 0x80, 0x22, 0x07, /* dd and byte [r10], 7: its first bytes stay */
    0x49, 0xff, 0xc2,       /* e1 inc r10 */
    0x4d, 0x89, 0xeb,       /* e4 whole: mov r11, r13 */
    0x49, 0xc1, 0xeb, 0x03, /* e7 shr r11, 3 */
    0x49, 0x81, 0xc3, 0x00, 0x00, 0x00, 0x00, /* eb add r11, shadow: end's
                                                 shadow byte */
    0x4d, 0x89, 0x5c, 0x24, 0x08,             /* f2 mov [r12+8], r11 */
    0x4d, 0x39, 0xda,                         /* f7 poison: cmp r10, r11 */
    0x0f, 0x83, 0x09, 0x00, 0x00, 0x00,       /* fa jae next */
    0x41, 0xc6, 0x02, 0xf7,       /* 100 mov byte [r10], 0xf7: user-poisoned */
    0x49, 0xff, 0xc2,             /* 104 inc r10 */
    0xeb, 0xee,                   /* 107 jmp poison */
    0x49, 0xff, 0xc1,             /* 109 next: inc r9 */
    0xe9, 0xf5, 0xfe, 0xff, 0xff, /* 10c jmp loop */
};
_Static_assert(sizeof redzone_code == 0x111, "the jumps above count on it");

/* Unpoisons the recorded zones (writes their shadow bytes back to 0: they
 * were addressable) and forgets them; falls through into the snapshot
 * stub. Clobbers rcx, rdx, rsi, rdi, which the snapshot stub loads. */
static const uint8_t unpoison_code[] = {
    0x0f, 0xb6, 0x0c, 0x25, 0x00,
    0x00, 0x00, 0x00,             /* 00 movzx ecx, byte [ctl+16] */
    0x85, 0xc9,                   /* 08 test ecx, ecx */
    0x74, 0x29,                   /* 0a jz go */
    0xba, 0x00, 0x00, 0x00, 0x00, /* 0c mov edx, ctl+24 */
    0x48, 0x8b, 0x32,             /* 11 lp: mov rsi, [rdx] */
    0x48, 0x8b, 0x7a, 0x08,       /* 14 mov rdi, [rdx+8] */
    0x48, 0x39, 0xfe,             /* 18 zl: cmp rsi, rdi */
    0x73, 0x08,                   /* 1b jae nx */
    0xc6, 0x06, 0x00,             /* 1d mov byte [rsi], 0 */
    0x48, 0xff, 0xc6,             /* 20 inc rsi */
    0xeb, 0xf3,                   /* 23 jmp zl */
    0x48, 0x83, 0xc2, 0x10,       /* 25 nx: add rdx, 16 */
    0xff, 0xc9,                   /* 29 dec ecx */
    0x75, 0xe4,                   /* 2b jnz lp */
    0xc6, 0x04, 0x25, 0x00, 0x00,
    0x00, 0x00, 0x00, /* 2d mov byte [ctl+16], 0 */
};
_Static_assert(sizeof unpoison_code == 0x35, "the jumps above count on it");

int cgofuzz_gobin_redzone_stub(cgofuzz_buf *b, uint32_t ctl, uint32_t shadow,
                               uint64_t at, uint64_t call) {
  uint8_t c[sizeof redzone_code];
  if (ctl > INT32_MAX - 24 - 4 * 16 || shadow > INT32_MAX)
    return -1;
  memcpy(c, redzone_code, sizeof c);
  put32(c + 12, (uint32_t)(call - (at + 16)));
  put32(c + 162, ctl + 16);
  put32(c + 183, ctl + 24);
  put32(c + 190, ctl + 16);
  put32(c + 204, shadow);
  put32(c + 238, shadow);
  return emit(b, c, sizeof c);
}

int cgofuzz_gobin_unpoison_stub(cgofuzz_buf *b, uint32_t ctl) {
  uint8_t c[sizeof unpoison_code];
  if (ctl > INT32_MAX - 24 - 4 * 16)
    return -1;
  memcpy(c, unpoison_code, sizeof c);
  put32(c + 4, ctl + 16);
  put32(c + 13, ctl + 24);
  put32(c + 48, ctl + 16);
  return emit(b, c, sizeof c);
}

/* The fuzz function's []byte arguments, for the cgo loop
 * (core/ctlpage.h, csrc/runtime/cgo/cgo_loop.c): testing's fn.Call(args)
 * goes through this stub first. It records each argument that is a []byte
 * held indirectly (the red-zone stub's test) as its data pointer, length
 * and index among the fuzz values (args[0], the *T, is not one), at most
 * CGOFUZZ_CTL_ARGS_MAX of them, then jumps on to next (the red-zone stub,
 * or reflect.Value.Call) with the registers it was given. The same
 * registers as the red-zone stub: reads rdi, rsi; clobbers r9-r12. */
static const uint8_t args_code[] = {
    0xc6, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00,
    0x00,                               /* 00 mov byte [ctl+args], 0 */
    0x41, 0xb9, 0x01, 0x00, 0x00, 0x00, /* 08 mov r9d, 1: args[0] is the *T */
    0x49, 0x39, 0xf1,                   /* 0e loop: cmp r9, rsi */
    0x72, 0x05,                         /* 11 jb body */
    0xe9, 0x00, 0x00, 0x00, 0x00,       /* 13 jmp next stub */
    0x4f, 0x8d, 0x14, 0x49,             /* 18 body: lea r10, [r9+r9*2] */
    0x4e, 0x8d, 0x14, 0xd7,             /* 1c lea r10, [rdi+r10*8]: &args[i] */
    0x4d, 0x8b, 0x1a,                   /* 20 mov r11, [r10]: its type */
    0x4d, 0x85, 0xdb,                   /* 23 test r11, r11 */
    0x74, 0x70,                         /* 26 jz next */
    0x45, 0x0f, 0xb6, 0x63, 0x17,       /* 28 movzx r12d, byte [r11+23] */
    0x41, 0x83, 0xe4, 0x1f,             /* 2d and r12d, 31 */
    0x41, 0x83, 0xfc, 0x17,             /* 31 cmp r12d, 23: a slice */
    0x75, 0x61,                         /* 35 jne next */
    0x4d, 0x8b, 0x63, 0x30,             /* 37 mov r12, [r11+48]: element */
    0x4d, 0x85, 0xe4,                   /* 3b test r12, r12 */
    0x74, 0x58,                         /* 3e jz next */
    0x45, 0x0f, 0xb6, 0x64, 0x24, 0x17, /* 40 movzx r12d, byte [r12+23] */
    0x41, 0x83, 0xe4, 0x1f,             /* 46 and r12d, 31 */
    0x41, 0x83, 0xfc, 0x08,             /* 4a cmp r12d, 8: of uint8 */
    0x75, 0x48,                         /* 4e jne next */
    0x41, 0xf6, 0x42, 0x10, 0x80,       /* 50 test byte [r10+16], flagIndir */
    0x74, 0x41,                         /* 55 jz next */
    0x4d, 0x8b, 0x52, 0x08,             /* 57 mov r10, [r10+8]: the header */
    0x44, 0x0f, 0xb6, 0x24, 0x25, 0x00, 0x00,
    0x00, 0x00,             /* 5b movzx r12d, byte [ctl+args] */
    0x41, 0x83, 0xfc, 0x04, /* 64 cmp r12d, CGOFUZZ_CTL_ARGS_MAX */
    0x73, 0x2e,             /* 68 jae next: no room to record */
    0xfe, 0x04, 0x25, 0x00, 0x00, 0x00, 0x00, /* 6a inc byte [ctl+args] */
    0x41, 0xc1, 0xe4, 0x05,                   /* 71 shl r12d, 5: a record */
    0x4d, 0x8b, 0x1a,                         /* 75 mov r11, [r10]: ptr */
    0x4d, 0x89, 0x9c, 0x24, 0x00, 0x00, 0x00,
    0x00,                   /* 78 mov [r12+record], r11 */
    0x4d, 0x8b, 0x5a, 0x08, /* 80 mov r11, [r10+8]: len */
    0x4d, 0x89, 0x9c, 0x24, 0x00, 0x00, 0x00,
    0x00,                   /* 84 mov [r12+record+8], r11 */
    0x4d, 0x8d, 0x59, 0xff, /* 8c lea r11, [r9-1]: the value's index */
    0x4d, 0x89, 0x9c, 0x24, 0x00, 0x00, 0x00,
    0x00,                         /* 90 mov [r12+record+16], r11 */
    0x49, 0xff, 0xc1,             /* 98 next: inc r9 */
    0xe9, 0x6e, 0xff, 0xff, 0xff, /* 9b jmp loop */
};
_Static_assert(sizeof args_code == 0xa0, "the jumps above count on it");
_Static_assert(CGOFUZZ_CTL_ARGS_MAX == 4 && CGOFUZZ_CTL_ARG_SIZE == 32,
               "args_code's cmp and shl");

int cgofuzz_gobin_args_stub(cgofuzz_buf *b, uint32_t ctl, uint64_t at,
                            uint64_t next) {
  uint8_t c[sizeof args_code];
  if (ctl > INT32_MAX - CGOFUZZ_CTL_ARGS -
                CGOFUZZ_CTL_ARGS_MAX * CGOFUZZ_CTL_ARG_SIZE)
    return -1;
  memcpy(c, args_code, sizeof c);
  put32(c + 0x03, ctl + CGOFUZZ_CTL_ARGS_N);
  put32(c + 0x14, (uint32_t)(next - (at + 0x18)));
  put32(c + 0x60, ctl + CGOFUZZ_CTL_ARGS_N);
  put32(c + 0x6d, ctl + CGOFUZZ_CTL_ARGS_N);
  put32(c + 0x7c, ctl + CGOFUZZ_CTL_ARGS);
  put32(c + 0x88, ctl + CGOFUZZ_CTL_ARGS + 8);
  put32(c + 0x94, ctl + CGOFUZZ_CTL_ARGS + 16);
  return emit(b, c, sizeof c);
}

_Static_assert(CGOFUZZ_GOHOOK_STRCMP == 8 && CGOFUZZ_GOHOOK_N == 9,
               "hooks[] and core/gohooks.h list the hooks in one order");

typedef struct image {
  uint8_t *p;
  size_t n;
} image;

/* The file offset of address a inside an executable PT_LOAD, with at
 * least 8 bytes of it there, or 0. The segments were checked to lie
 * inside the file (loads_fit), so the 8 bytes do too. */
static uint64_t text_offset(const Elf64_Phdr *ph, size_t n, uint64_t a) {
  for (size_t i = 0; i < n; i++)
    if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
        a >= ph[i].p_vaddr && a - ph[i].p_vaddr <= ph[i].p_filesz &&
        ph[i].p_filesz - (a - ph[i].p_vaddr) >= 8)
      return a - ph[i].p_vaddr + ph[i].p_offset;
  return 0;
}

/* Whether every PT_LOAD's file bytes lie inside the file of n bytes and
 * its addresses do not wrap: the patcher then reads and writes code only
 * inside the image, whatever the headers say. */
static bool loads_fit(const Elf64_Phdr *ph, size_t nph, size_t n) {
  for (size_t i = 0; i < nph; i++)
    if (ph[i].p_type == PT_LOAD &&
        (ph[i].p_offset > n || ph[i].p_filesz > n - ph[i].p_offset ||
         ph[i].p_filesz > ph[i].p_memsz || ph[i].p_vaddr > MAX_ADDR ||
         ph[i].p_memsz > MAX_ADDR))
      return false;
  return true;
}

/* A Go function's entry: its symbol, or in a stripped binary Go's own
 * function table (gobin_pcln.c; go test's binaries under -exec are linked
 * with -s -w). 0 when absent. */
static uint64_t go_func(const cgofuzz_gobin_obj *o, const char *name) {
  uint64_t a = cgofuzz_gobin_obj_sym_value(o, name, CGOFUZZ_SYM_FUNC);
  cgofuzz_gobin_pcln t;
  if (!a && cgofuzz_gobin_pcln_open(o, &t) == 0)
    a = cgofuzz_gobin_pcln_find(&t, name, NULL);
  return a;
}

/* Makes the code at address from (in an executable PT_LOAD) a JMP rel32
 * to address to. */
static void put_jmp(image *im, const Elf64_Phdr *ph, size_t nph, uint64_t from,
                    uint64_t to) {
  uint8_t *p = im->p + text_offset(ph, nph, from);
  p[0] = 0xe9;
  put32(p + 1, (uint32_t)(to - (from + 5)));
}

/* The image to patch: a copy of the file obj maps (read once, for its
 * symbols and for the bytes the copy changes). */
static int copy_image(const cgofuzz_gobin_obj *obj, const char *path, image *im,
                      cgofuzz_err *err) {
  if (obj->len < sizeof(Elf64_Ehdr) || obj->len > MAX_IMAGE)
    return cgofuzz_errf(err, 0, "%s: not an executable of a usable size", path);
  if (!(im->p = malloc(obj->len)))
    return cgofuzz_errf(err, 0, "out of memory");
  memcpy(im->p, obj->map, obj->len);
  im->n = obj->len;
  return 0;
}

/* The C side's table (core/gohooks.h), when `cgofuzz cgo-cc` linked one:
 * found by its magic, 8-byte aligned, in the file bytes of a writable
 * PT_LOAD; its slots get the Go hooks' addresses (whose bodies now jump to
 * the stubs). Whether there was one. */
static bool fill_c_table(image *im, const Elf64_Phdr *ph, size_t nph,
                         const uint64_t *hook_at) {
  static const char magic[CGOFUZZ_GOHOOKS_MAGIC_SIZE] = CGOFUZZ_GOHOOKS_MAGIC;
  const size_t need = sizeof magic + 8 * CGOFUZZ_GOHOOK_N;
  for (size_t i = 0; i < nph; i++) {
    if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W) ||
        ph[i].p_offset > im->n || ph[i].p_filesz > im->n - ph[i].p_offset)
      continue;
    uint64_t lo = ph[i].p_offset, hi = lo + ph[i].p_filesz;
    /* File offsets and addresses agree modulo the page size. */
    uint64_t first = lo + ((8 - (ph[i].p_vaddr & 7)) & 7);
    for (uint64_t o = first; o + need <= hi; o += 8) {
      if (memcmp(im->p + o, magic, sizeof magic) != 0)
        continue;
      for (int k = 0; k < CGOFUZZ_GOHOOK_N; k++)
        memcpy(im->p + o + sizeof magic + 8 * (size_t)k, &hook_at[k], 8);
      return true;
    }
  }
  return false;
}

/* The functions whose bodies are Go's SnapshotCoverage: the method the
 * testing package calls through its testDeps interface and the pointer
 * wrapper the interface's table may hold instead (go1.18 copies the whole
 * loop into both). internal/fuzz.SnapshotCoverage itself is inlined into
 * them and dropped by the linker. */
static const char *const snapshot_funcs[] = {
    "testing/internal/testdeps.TestDeps.SnapshotCoverage",
    "testing/internal/testdeps.(*TestDeps).SnapshotCoverage",
};
#define N_SNAPSHOT_FUNCS (sizeof snapshot_funcs / sizeof snapshot_funcs[0])

static bool in_writable(const Elf64_Phdr *ph, size_t n, uint64_t a,
                        uint64_t len) {
  for (size_t i = 0; i < n; i++)
    if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_W) &&
        a >= ph[i].p_vaddr && a + len <= ph[i].p_vaddr + ph[i].p_memsz)
      return true;
  return false;
}

/* coverageSnapshot's slice header as the body of function fn (at file
 * offset off) addresses it, for a binary without symbols: Go's loop loads
 * the slice's data pointer and length from the global, two RIP-relative
 * MOVs (REX.W 8B, ModRM mod 00 r/m 101) of addresses A and A+8, with A
 * 8-aligned in a writable segment. The body ends at the INT3 padding Go
 * puts between functions. 0 unless exactly one such A. */
static uint64_t snapshot_header(const image *im, const Elf64_Phdr *ph,
                                size_t nph, uint64_t fn, uint64_t off) {
  enum { MAX_BODY = 1024, MAX_LOADS = 32 };
  uint64_t load[MAX_LOADS], found = 0;
  size_t nload = 0, end = off + MAX_BODY < im->n ? off + MAX_BODY : im->n;
  for (size_t i = off; i + 7 <= end && nload < MAX_LOADS; i++) {
    const uint8_t *p = im->p + i;
    if (p[0] == 0xcc && p[1] == 0xcc)
      break;
    if ((p[0] == 0x48 || p[0] == 0x4c) && p[1] == 0x8b && (p[2] & 0xc7) == 0x05)
      load[nload++] = fn + (i - off) + 7 +
                      (uint64_t)(int64_t)(int32_t)cgofuzz_gobin_obj_u32(p + 3);
  }
  for (size_t i = 0; i < nload; i++)
    for (size_t j = 0; j < nload; j++) {
      uint64_t a = load[i];
      if (load[j] != a + 8 || (a & 7) || !in_writable(ph, nph, a, 24))
        continue;
      if (found && found != a)
        return 0;
      found = a;
    }
  return found;
}

/* testing's closure that calls the fuzz function (fn.Call(args)): the
 * one call in it of reflect.Value.Call, as the address of its CALL rel32
 * instruction; 0 unless there is exactly one. */
static uint64_t fuzz_call_site(const image *im, const cgofuzz_gobin_obj *obj,
                               const Elf64_Phdr *ph, size_t nph,
                               uint64_t *call) {
  enum { MAX_BODY = 16384 };
  static const char *const names[] = {"testing.(*F).Fuzz.func1.1",
                                      "testing.(*F).Fuzz.func1.2",
                                      "testing.(*F).Fuzz.func2.1"};
  *call = go_func(obj, "reflect.Value.Call");
  uint64_t site = 0;
  for (size_t k = 0; k < sizeof names / sizeof names[0] && *call; k++) {
    uint64_t fn = go_func(obj, names[k]);
    uint64_t off = fn ? text_offset(ph, nph, fn) : 0;
    size_t end = off + MAX_BODY < im->n ? off + MAX_BODY : im->n;
    for (size_t i = off; off && i + 5 <= end; i++) {
      const uint8_t *p = im->p + i;
      if (p[0] == 0xcc && p[1] == 0xcc) /* the padding after the body */
        break;
      uint64_t at = fn + (i - off);
      if (p[0] == 0xe8 &&
          at + 5 + (uint64_t)(int64_t)(int32_t)cgofuzz_gobin_obj_u32(p + 1) ==
              *call) {
        if (site)
          return 0;
        site = at;
      }
    }
  }
  return site;
}

/* Sends the SnapshotCoverage bodies to a stub (snapshot_code), and the
 * entry point to a stub that maps the worker's control page (fd
 * CGOFUZZ_CTL_FD, gobin_patch.h) at seg + PAGE: both appended to code,
 * which starts the segment at seg. Started without that descriptor, the
 * page stays zero-fill and the snapshot keeps its full length. A body is
 * left alone unless its slice header, found by snapshot_header, agrees
 * with the symbol table where there is one. Where its site is found, the
 * fuzz function's call goes through args_code (*args) and, with redzone,
 * redzone_code (*redzoned), and the bodies through unpoison_code. The number of
 * bodies redirected; 0 leaves the image and code as they were. */
static size_t patch_snapshot(image *im, const cgofuzz_gobin_obj *obj,
                             const Elf64_Phdr *ph, size_t nph,
                             cgofuzz_buf *code, uint64_t seg, bool redzone,
                             bool *redzoned, bool *args) {
  Elf64_Ehdr *eh = (Elf64_Ehdr *)im->p;
  const cgofuzz_gobin_obj_sect *cnt = cgofuzz_gobin_go_section(obj);
  uint64_t sym_hdr =
      cgofuzz_gobin_obj_sym_value(obj, "internal/fuzz.coverageSnapshot", -1);
  uint64_t sym_cnt =
      cgofuzz_gobin_obj_sym_value(obj, "internal/fuzz._counters", -1);
  *redzoned = *args = false;
  if (!cnt || !cnt->size || cnt->addr + cnt->size > MAX_ADDR ||
      (sym_cnt && sym_cnt != cnt->addr) || code->len != 0)
    return 0;
  uint64_t fn[N_SNAPSHOT_FUNCS], hdr = 0;
  size_t nfn = 0;
  for (size_t i = 0; i < N_SNAPSHOT_FUNCS; i++) {
    uint64_t a = go_func(obj, snapshot_funcs[i]);
    uint64_t off = a ? text_offset(ph, nph, a) : 0;
    uint64_t h = off ? snapshot_header(im, ph, nph, a, off) : 0;
    if (!h || (sym_hdr && h != sym_hdr) || (hdr && h != hdr))
      continue;
    hdr = h;
    fn[nfn++] = a;
  }
  uint64_t ctl = seg + PAGE, call = 0;
  uint64_t site = fuzz_call_site(im, obj, ph, nph, &call);
  if (!nfn || emit_entry(code, seg, (uint32_t)ctl,
                         (uint32_t)cgofuzz_ctl_size(cnt->size), CGOFUZZ_CTL_FD,
                         0, eh->e_entry) != 0) {
    code->len = 0;
    return 0;
  }
  /* The fuzz function's call: the args stub, then (ASan) the red-zone
   * stub, then reflect.Value.Call. */
  uint64_t first = seg + code->len, rz = first + sizeof args_code;
  bool zone = site && redzone;
  if (site && cgofuzz_gobin_args_stub(code, (uint32_t)ctl, first,
                                      zone ? rz : call) != 0)
    site = 0, zone = false, code->len = (size_t)(first - seg);
  if (zone && cgofuzz_gobin_redzone_stub(code, (uint32_t)ctl,
                                         CGOFUZZ_ASAN_SHADOW, rz, call) != 0)
    site = 0, zone = false, code->len = (size_t)(first - seg);
  uint64_t at = seg + code->len;
  if ((zone && cgofuzz_gobin_unpoison_stub(code, (uint32_t)ctl) != 0) ||
      cgofuzz_gobin_snapshot_stub(
          code, (uint32_t)cnt->addr, (uint32_t)cnt->size, (uint32_t)hdr,
          (uint32_t)ctl, (uint32_t)(ctl + CGOFUZZ_CTL_SIZE)) != 0) {
    code->len = 0;
    return 0;
  }
  for (size_t i = 0; i < nfn; i++)
    put_jmp(im, ph, nph, fn[i], at);
  if (site) { /* CALL reflect.Value.Call becomes CALL the args stub */
    put32(im->p + text_offset(ph, nph, site) + 1,
          (uint32_t)(first - (site + 5)));
    *args = true;
    *redzoned = zone;
  }
  eh->e_entry = seg;
  return nfn;
}

/* The start of a traced call's records: testing's call of the fuzz
 * function (fn.Call(args), fuzz_call_site) goes through this stub, which
 * sets the trace area's record count to 0 and jumps to reflect.Value.Call
 * with every register as it was. What the worker compared before (its
 * decoding of the input's corpus encoding: go/scanner, strconv, hundreds
 * of records per input, as many candidates that change nothing the fuzz
 * function reads) is dropped; what it compares after the call (its reply)
 * stays, behind the fuzz function's own records. */
static int emit_trace_start(cgofuzz_buf *b, uint32_t count, uint64_t at,
                            uint64_t call) {
  uint8_t c[] = {
      0x48, 0xc7, 0x04, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, /* mov qword [count], 0 */
      0xe9, 0,    0,    0,    0, /* jmp reflect.Value.Call */
  };
  put32(c + 4, count);
  put32(c + 13, (uint32_t)(call - (at + sizeof c)));
  return emit(b, c, sizeof c);
}

/* The comparison hooks: each hook's RET becomes a jump to its stub, and
 * the entry point the stub that maps the trace area (at seg + PAGE, tsize
 * bytes, from trace_off of fd 5). The stubs are appended to code, which
 * starts the segment at seg. The fuzz function's call, where it is found,
 * goes through emit_trace_start's stub (info->trace_start). */
static int patch_hooks(image *im, const cgofuzz_gobin_obj *obj, Elf64_Phdr *ph,
                       size_t nph, cgofuzz_buf *code, uint64_t seg,
                       uint64_t trace_off, uint64_t tsize,
                       cgofuzz_gobin_patched *info, cgofuzz_err *err) {
  Elf64_Ehdr *eh = (Elf64_Ehdr *)im->p;
  uint64_t trace = seg + PAGE;
  uint64_t hook_at[N_HOOKS] = {0}, stub_at[N_HOOKS] = {0};
  for (size_t i = 0; i < N_HOOKS; i++) {
    uint64_t a = go_func(obj, hooks[i].name);
    uint64_t off = a ? text_offset(ph, nph, a) : 0;
    if (!off) {
      if (hooks[i].required)
        return cgofuzz_errf(err, 0, "no %s (not built with -fuzz?)",
                            hooks[i].name);
      continue;
    }
    /* RET then at least four INT3: an empty body and its padding. */
    const uint8_t *p = im->p + off;
    if (p[0] != 0xc3 || p[1] != 0xcc || p[2] != 0xcc || p[3] != 0xcc ||
        p[4] != 0xcc)
      return cgofuzz_errf(err, 0, "%s is not an empty function", hooks[i].name);
    hook_at[i] = a;
  }
  if (emit_entry(code, seg, (uint32_t)trace, (uint32_t)tsize, CGOFUZZ_SHM_FD,
                 (uint32_t)trace_off, eh->e_entry) != 0)
    return cgofuzz_errf(err, 0, "out of memory");
  for (size_t i = 0; i < N_HOOKS; i++) {
    if (!hook_at[i])
      continue;
    stub_at[i] = seg + code->len;
    if (emit_stub(code, (uint32_t)trace, hooks[i].kind) != 0)
      return cgofuzz_errf(err, 0, "out of memory");
  }
  uint64_t call = 0, site = fuzz_call_site(im, obj, ph, nph, &call);
  uint64_t start = seg + code->len;
  if (site && emit_trace_start(code, (uint32_t)(trace + 8), start, call) != 0)
    return cgofuzz_errf(err, 0, "out of memory");
  for (size_t i = 0; i < N_HOOKS; i++) {
    if (!hook_at[i])
      continue;
    put_jmp(im, ph, nph, hook_at[i], stub_at[i]);
    info->hooks++;
    info->strings |= (hooks[i].kind & (CMP_K_STR | CMP_K_FOLD)) != 0;
  }
  if (site) { /* CALL reflect.Value.Call becomes CALL the start stub */
    put32(im->p + text_offset(ph, nph, site) + 1,
          (uint32_t)(start - (site + 5)));
    info->trace_start = true;
  }
  info->c_hooks = fill_c_table(im, ph, nph, hook_at);
  eh->e_entry = seg;
  return 0;
}

/* The INT3s of one -panic-on function's inlined calls (trap_inlined). */
typedef struct trap_sites {
  image *im;
  const Elf64_Phdr *ph;
  size_t nph;
  cgofuzz_gobin_patched *info;
  uint32_t k;
  bool oom;
} trap_sites;

static void trap_inlined(void *ctx, uint64_t site) {
  trap_sites *ts = ctx;
  uint64_t off = text_offset(ts->ph, ts->nph, site);
  cgofuzz_gobin_patched *info = ts->info;
  if (!off)
    return;
  cgofuzz_gobin_trapsite *s =
      realloc(info->sites, (info->n_sites + 1) * sizeof *s);
  if (!s) {
    ts->oom = true;
    return;
  }
  info->sites = s;
  s[info->n_sites++] = (cgofuzz_gobin_trapsite){site + 1, ts->k};
  ts->im->p[off] = 0xcc; /* int3: Go's fatal "SIGTRAP: trace trap" */
}

/* -panic-on: the k-th function of traps gets MOV EAX, [CGOFUZZ_TRAP_ADDR +
 * k] at its entry, and an INT3 at each place it was inlined
 * (gobin_patch.h). Go's function table gives the entry and where the next
 * function begins: a body shorter than the trap is refused. Nothing jumps
 * into the bytes a trap covers without going through its first byte,
 * which now faults: the entry, or the first instruction the compiler gave
 * the inlined call's position. */
static int patch_traps(image *im, const cgofuzz_gobin_obj *obj,
                       const Elf64_Phdr *ph, size_t nph,
                       const cgofuzz_gobin_traps *traps,
                       cgofuzz_gobin_patched *info, cgofuzz_err *err) {
  cgofuzz_gobin_pcln t;
  if (traps->n > CGOFUZZ_GOBIN_MAX_TRAPS)
    return cgofuzz_errf(err, 0, "-panic-on: more than %d functions",
                        CGOFUZZ_GOBIN_MAX_TRAPS);
  if (cgofuzz_gobin_pcln_open(obj, &t) != 0)
    return cgofuzz_errf(err, 0, "-panic-on: no Go function table");
  for (size_t k = 0; k < traps->n; k++) {
    const char *name = traps->names[k];
    uint64_t end = 0, a = cgofuzz_gobin_pcln_find(&t, name, &end);
    uint64_t off = a ? text_offset(ph, nph, a) : 0;
    trap_sites ts = {im, ph, nph, info, (uint32_t)k, false};
    long inl = cgofuzz_gobin_pcln_inlined(&t, name, trap_inlined, &ts);
    if (ts.oom)
      return cgofuzz_errf(err, 0, "out of memory");
    if (a && !off)
      return cgofuzz_errf(err, 0, "-panic-on: %s is not in the code", name);
    if (a && end < a + CGOFUZZ_TRAP_SIZE)
      return cgofuzz_errf(err, 0,
                          "-panic-on: %s is shorter than the %d bytes a trap "
                          "takes",
                          name, CGOFUZZ_TRAP_SIZE);
    if (!a && inl <= 0)
      return cgofuzz_errf(err, 0,
                          "-panic-on: no function %s in the binary (spelled "
                          "as Go's symbols are, e.g. example.com/m/log.(*"
                          "Logger).Error; one never called is not there)",
                          name);
    if (a) {
      uint8_t *p = im->p + off;
      p[0] = 0x8b; /* mov eax, dword [disp32] */
      p[1] = 0x04;
      p[2] = 0x25;
      put32(p + 3, CGOFUZZ_TRAP_ADDR + (uint32_t)k);
    }
    info->trap_pc[k] = a;
    info->trap_inlined[k] = inl > 0 ? (size_t)inl : 0;
  }
  info->traps = traps->n;
  return 0;
}

int cgofuzz_gobin_patch(const char *binary, const char *out, uint64_t trace_off,
                        size_t trace_size, unsigned flags,
                        const cgofuzz_gobin_traps *traps,
                        cgofuzz_gobin_patched *info, cgofuzz_err *err) {
  image im = {0};
  cgofuzz_gobin_obj obj = {0}; /* the binary: its symbols, and im's bytes */
  cgofuzz_buf code = {0};
  FILE *f = NULL;
  int rc = -1;
  memset(info, 0, sizeof *info);
  if (cgofuzz_gobin_obj_open(&obj, binary, true, err) != 0 ||
      copy_image(&obj, binary, &im, err) != 0)
    goto done;
  Elf64_Ehdr *eh = (Elf64_Ehdr *)im.p;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    cgofuzz_errf(err, 0, "not a 64-bit little-endian ELF file");
    goto done;
  }
  if (eh->e_machine != EM_X86_64) {
    cgofuzz_errf(err, 0, "not an amd64 binary (ELF machine %u)",
                 (unsigned)eh->e_machine);
    goto done;
  }
  if (eh->e_type != ET_EXEC) {
    cgofuzz_errf(err, 0, "a position-independent executable");
    goto done;
  }
  if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
      eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_phoff % 8 ||
      eh->e_phoff > im.n ||
      (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > im.n - eh->e_phoff ||
      eh->e_shoff > im.n ||
      (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > im.n - eh->e_shoff) {
    cgofuzz_errf(err, 0, "malformed ELF headers");
    goto done;
  }
  Elf64_Phdr *ph = (Elf64_Phdr *)(im.p + eh->e_phoff);
  if (!loads_fit(ph, eh->e_phnum, im.n)) {
    cgofuzz_errf(err, 0, "a loadable segment lies outside the file");
    goto done;
  }
  size_t nph = eh->e_phnum, note = nph, last_load = nph;
  uint64_t end = 0;
  for (size_t i = 0; i < nph; i++) {
    if (ph[i].p_type == PT_NOTE && note == nph)
      note = i;
    if (ph[i].p_type == PT_LOAD) {
      last_load = i;
      if (ph[i].p_vaddr + ph[i].p_memsz > end)
        end = ph[i].p_vaddr + ph[i].p_memsz;
    }
  }
  if (note == nph || last_load == nph) {
    cgofuzz_errf(err, 0, "no PT_NOTE program header to reuse");
    goto done;
  }
  /* The segment: a page of stubs, then the trace area, above everything
   * the binary maps (and a gap for the heap's brk start). */
  uint64_t seg = ((end + 0xfffffull) & ~0xfffffull) + 0x100000ull;
  uint64_t trace = seg + PAGE;
  if ((flags & CGOFUZZ_GOBIN_PATCH_HOOKS) &&
      (flags & CGOFUZZ_GOBIN_PATCH_SNAPSHOT)) {
    cgofuzz_errf(err, 0, "the hooks and the snapshot are patched apart");
    goto done;
  }
  /* The page after the stubs: the control page and the worker's mask
   * (snapshot), or the start of the trace area (hooks). */
  const cgofuzz_gobin_obj_sect *cnt = cgofuzz_gobin_go_section(&obj);
  uint64_t tsize = flags & CGOFUZZ_GOBIN_PATCH_HOOKS
                       ? (trace_size + PAGE - 1) & ~(PAGE - 1)
                       : cgofuzz_ctl_size(cnt ? cnt->size : 0);
  if (trace + tsize > MAX_ADDR || trace_off > 0xffffffffull ||
      (trace_off & (PAGE - 1))) {
    cgofuzz_errf(err, 0, "its address space leaves no room below 2 GiB");
    goto done;
  }
  uint64_t foff = ((uint64_t)im.n + PAGE - 1) & ~(PAGE - 1);
  if ((flags & CGOFUZZ_GOBIN_PATCH_HOOKS) &&
      patch_hooks(&im, &obj, ph, nph, &code, seg, trace_off, tsize, info,
                  err) != 0)
    goto done;
  if (traps && traps->n &&
      patch_traps(&im, &obj, ph, nph, traps, info, err) != 0)
    goto done;
  if (flags & CGOFUZZ_GOBIN_PATCH_SNAPSHOT)
    info->snapshots = patch_snapshot(&im, &obj, ph, nph, &code, seg,
                                     (flags & CGOFUZZ_GOBIN_PATCH_REDZONE) != 0,
                                     &info->redzone, &info->args);
  if (code.len > PAGE) {
    cgofuzz_errf(err, 0, "stubs too large");
    goto done;
  }
  Elf64_Phdr load = {.p_type = PT_LOAD,
                     .p_flags = PF_R | PF_W | PF_X,
                     .p_offset = foff,
                     .p_vaddr = seg,
                     .p_paddr = seg,
                     .p_filesz = code.len,
                     .p_memsz = PAGE + tsize,
                     .p_align = PAGE};
  /* Drop the note, put the new segment after the last PT_LOAD. */
  memmove(&ph[note], &ph[note + 1], (nph - note - 1) * sizeof *ph);
  if (last_load > note)
    last_load--;
  memmove(&ph[last_load + 2], &ph[last_load + 1],
          (nph - 1 - (last_load + 1)) * sizeof *ph);
  ph[last_load + 1] = load;
  if (flags & CGOFUZZ_GOBIN_PATCH_HOOKS) {
    info->trace_addr = trace;
    info->trace_size = tsize;
  }

  f = fopen(out, "wb");
  static const uint8_t zero[PAGE];
  if (!f || fwrite(im.p, 1, im.n, f) != im.n ||
      fwrite(zero, 1, foff - im.n, f) != foff - im.n ||
      (code.len && fwrite(code.data, 1, code.len, f) != code.len) ||
      fflush(f) != 0 || fchmod(fileno(f), 0700) != 0) {
    cgofuzz_errf(err, 0, "cannot write %s: %s", out, strerror(errno));
    goto done;
  }
  rc = 0;
done:
  if (f && fclose(f) != 0 && rc == 0)
    rc = cgofuzz_errf(err, 0, "cannot write %s: %s", out, strerror(errno));
  free(im.p);
  cgofuzz_gobin_obj_close(&obj);
  cgofuzz_buf_free(&code);
  return rc;
}
