/*
 * cgo_hooks.c: libcgofuzz_cgo.a, the runtime `cgofuzz cgo-cc` links into a
 * Go test binary whose C code it instrumented (docs/cgo.md).
 *
 * The C code's edges need nothing here: the link puts clang's 8-bit
 * counters right after Go's own, inside internal/fuzz's counter range
 * (cmd_cgocc.c), so Go's worker resets, snapshots and compares them as its
 * own. What the C code still needs at run time:
 *  - the counters' init callback clang's module constructors call;
 *  - the trace-cmp hooks and the sanitizer weak hooks of memcmp, strcmp
 *    and their kin, which forward each C comparison to Go's comparison
 *    hooks through the table of core/gohooks.h. In a binary cgofuzz has
 *    not patched, the table's slots are 0 and each hook is one load and a
 *    branch; in the coordinator's tracing copy they hold Go's hooks, whose
 *    bodies record the operands for the comparison feedback and the
 *    dictionary, exactly as a Go comparison does;
 *  - while the cgo loop runs its own inputs (cgo_loop.c), the same hooks
 *    record their operands in cgofuzz_cgo_torc (cgo_loop.h) for its
 *    mutations: one load and a branch otherwise.
 *
 * Invariants: this file calls nothing, libc included (memcmp would come
 * back here through the interceptors), and defines only cgofuzz_cgo_* and
 * the sanitizer hook names. Go's hooks are called with Go's register ABI
 * from whatever stack C runs on; they touch no stack (gobin_patch.c),
 * but the CALL's return address does, so the red zone below the C
 * caller's stack pointer is stepped over first. Only x86-64 forwards (the
 * patch is amd64-only); elsewhere the hooks are empty.
 */
#include <stddef.h>
#include <stdint.h>

#include "cgo_loop.h"
#include "gohooks.h"

/* The table: initialised data so that it keeps its magic in the file. */
struct cgofuzz_cgo_gohooks {
  char magic[CGOFUZZ_GOHOOKS_MAGIC_SIZE];
  uint64_t fn[CGOFUZZ_GOHOOK_N];
};
extern volatile struct cgofuzz_cgo_gohooks cgofuzz_cgo_gohooks;
volatile struct cgofuzz_cgo_gohooks cgofuzz_cgo_gohooks
    __attribute__((aligned(8), used)) = {CGOFUZZ_GOHOOKS_MAGIC, {0}};

/* The C counters clang registered (for `cgofuzz cgo-cc -stats` style
 * diagnostics and tests: the sum of every module's counters). */
extern size_t cgofuzz_cgo_ncounters;
size_t cgofuzz_cgo_ncounters;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  if (stop > start)
    cgofuzz_cgo_ncounters += (size_t)(stop - start);
}

/* Go's fakePC is an int; 32 bits of the C call site serve as well. */
#define CALLER_PC ((uint64_t)(uintptr_t)__builtin_return_address(0))

#if defined(__x86_64__)
static inline void go_int_hook(uint64_t fn, uint64_t a, uint64_t b,
                               uint64_t pc) {
  __asm__ volatile("sub $128, %%rsp\n\t"
                   "call *%[fn]\n\t"
                   "add $128, %%rsp"
                   : "+a"(a), "+b"(b), "+c"(pc)
                   : [fn] "r"(fn)
                   : "rdi", "rsi", "r8", "r9", "r10", "r11", "memory", "cc");
}

static inline void go_str_hook(uint64_t fn, const void *p0, uint64_t n0,
                               const void *p1, uint64_t n1, uint64_t pc) {
  __asm__ volatile("sub $128, %%rsp\n\t"
                   "call *%[fn]\n\t"
                   "add $128, %%rsp"
                   : "+a"(p0), "+b"(n0), "+c"(p1), "+D"(n1), "+S"(pc)
                   : [fn] "r"(fn)
                   : "r8", "r9", "r10", "r11", "memory", "cc");
}
#else
static inline void go_int_hook(uint64_t fn, uint64_t a, uint64_t b,
                               uint64_t pc) {
  (void)fn, (void)a, (void)b, (void)pc;
}
static inline void go_str_hook(uint64_t fn, const void *p0, uint64_t n0,
                               const void *p1, uint64_t n1, uint64_t pc) {
  (void)fn, (void)p0, (void)n0, (void)p1, (void)n1, (void)pc;
}
#endif

/* Records a compare's operands for the cgo loop (cgo_loop.h), in the
 * slot the operands hash to, as libFuzzer's table of recent compares: a
 * compare made again with the same operands takes its own slot back, so
 * the table holds compares from the whole run of an input rather than
 * only its last ones (a decoder's final checks). */
static uint32_t torc_slot(uint64_t h, uint32_t n) {
  return (uint32_t)((h * 0x9e3779b97f4a7c15ull) >> 40) % n;
}

static void torc_int(uint64_t a, uint64_t b, int slot) {
  uint32_t i = torc_slot(a ^ b, CGOFUZZ_CGO_TORC_INTS);
  cgofuzz_cgo_torc.ints[i].a = a;
  cgofuzz_cgo_torc.ints[i].b = b;
  cgofuzz_cgo_torc.ints[i].width = (uint8_t)(1u << (slot & 3));
}

static void torc_mem(const void *a, size_t na, const void *b, size_t nb,
                     uint64_t pc) {
  const uint8_t *p[2] = {a, b};
  size_t n[2] = {na, nb};
  uint64_t h = pc;
  for (size_t j = 0; j < nb && j < 8; j++)
    h = (h << 8 | h >> 56) ^ p[1][j];
  uint32_t i = torc_slot(h, CGOFUZZ_CGO_TORC_MEMS);
  for (int k = 0; k < 2; k++) {
    size_t m =
        n[k] < CGOFUZZ_CGO_TORC_MEM_MAX ? n[k] : CGOFUZZ_CGO_TORC_MEM_MAX;
    for (size_t j = 0; j < m; j++)
      cgofuzz_cgo_torc.mems[i].b[k][j] = p[k][j];
    cgofuzz_cgo_torc.mems[i].len[k] = (uint8_t)m;
  }
}

static inline void int_cmp(int slot, uint64_t a, uint64_t b, uint64_t pc) {
  if (__builtin_expect(cgofuzz_cgo_torc.on, 0) && a != b)
    torc_int(a, b, slot);
  uint64_t fn = cgofuzz_cgo_gohooks.fn[slot];
  if (__builtin_expect(fn != 0, 0) && a != b)
    go_int_hook(fn, a, b, pc);
}

#define INT_HOOK(name, T, slot)                                                \
  void name(T a, T b);                                                         \
  void name(T a, T b) { int_cmp(slot, a, b, CALLER_PC); }
INT_HOOK(__sanitizer_cov_trace_cmp1, uint8_t, CGOFUZZ_GOHOOK_CMP1)
INT_HOOK(__sanitizer_cov_trace_cmp2, uint16_t, CGOFUZZ_GOHOOK_CMP2)
INT_HOOK(__sanitizer_cov_trace_cmp4, uint32_t, CGOFUZZ_GOHOOK_CMP4)
INT_HOOK(__sanitizer_cov_trace_cmp8, uint64_t, CGOFUZZ_GOHOOK_CMP8)
INT_HOOK(__sanitizer_cov_trace_const_cmp1, uint8_t, CGOFUZZ_GOHOOK_CONST1)
INT_HOOK(__sanitizer_cov_trace_const_cmp2, uint16_t, CGOFUZZ_GOHOOK_CONST2)
INT_HOOK(__sanitizer_cov_trace_const_cmp4, uint32_t, CGOFUZZ_GOHOOK_CONST4)
INT_HOOK(__sanitizer_cov_trace_const_cmp8, uint64_t, CGOFUZZ_GOHOOK_CONST8)

/* A switch: its operand against each case constant (the first 16), as Go
 * traces the cases of its own switches. cases[0] is the count, cases[1]
 * the operand's width in bits. */
void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases);
void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) {
  uint64_t bits = cases[1];
  int slot = bits <= 8    ? CGOFUZZ_GOHOOK_CONST1
             : bits <= 16 ? CGOFUZZ_GOHOOK_CONST2
             : bits <= 32 ? CGOFUZZ_GOHOOK_CONST4
                          : CGOFUZZ_GOHOOK_CONST8;
  if (__builtin_expect(!cgofuzz_cgo_gohooks.fn[slot] && !cgofuzz_cgo_torc.on,
                       1))
    return;
  for (uint64_t i = 0; i < cases[0] && i < 16; i++)
    int_cmp(slot, cases[2 + i], v, CALLER_PC + i);
}

/* Hooks clang emits only when asked; defined so that a package whose own
 * #cgo CFLAGS ask for them still links. */
#define NOP_HOOK(name, T)                                                      \
  void name(T v);                                                              \
  void name(T v) { (void)v; }
NOP_HOOK(__sanitizer_cov_trace_div4, uint32_t)
NOP_HOOK(__sanitizer_cov_trace_div8, uint64_t)
NOP_HOOK(__sanitizer_cov_trace_gep, uintptr_t)
NOP_HOOK(__sanitizer_cov_trace_pc_indir, uintptr_t)

/* The operands Go's string hook copies are capped at 56 bytes; a C string
 * is measured no further than that. */
#define STR_MAX 64

static size_t str_len(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

static void str_cmp(const void *a, size_t na, const void *b, size_t nb,
                    void *called_pc) {
  if (__builtin_expect(cgofuzz_cgo_torc.on, 0) && na && nb)
    torc_mem(a, na, b, nb, (uint64_t)(uintptr_t)called_pc);
  uint64_t fn = cgofuzz_cgo_gohooks.fn[CGOFUZZ_GOHOOK_STRCMP];
  if (__builtin_expect(fn != 0, 0) && na + nb > 1)
    go_str_hook(fn, a, na, b, nb, (uint64_t)(uintptr_t)called_pc);
}

void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result);
void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result) {
  if (result != 0)
    str_cmp(s1, n, s2, n, called_pc);
}

static void cstr_cmp(void *called_pc, const char *s1, const char *s2, size_t n,
                     int result) {
  if (result == 0 ||
      (!cgofuzz_cgo_gohooks.fn[CGOFUZZ_GOHOOK_STRCMP] && !cgofuzz_cgo_torc.on))
    return;
  if (n > STR_MAX)
    n = STR_MAX;
  str_cmp(s1, str_len(s1, n), s2, str_len(s2, n), called_pc);
}

void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result);
void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result) {
  cstr_cmp(called_pc, s1, s2, n, result);
}

void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result);
void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result) {
  cstr_cmp(called_pc, s1, s2, STR_MAX, result);
}

void __sanitizer_weak_hook_strncasecmp(void *called_pc, const char *s1,
                                       const char *s2, size_t n, int result);
void __sanitizer_weak_hook_strncasecmp(void *called_pc, const char *s1,
                                       const char *s2, size_t n, int result) {
  cstr_cmp(called_pc, s1, s2, n, result);
}

void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result);
void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result) {
  cstr_cmp(called_pc, s1, s2, STR_MAX, result);
}

/* strstr, strcasestr, memmem: the needle, when it was not found, against
 * the haystack's start (the needle is the token worth learning). */
static void needle(void *called_pc, const void *hay, size_t nhay,
                   const void *ndl, size_t nndl, const void *result) {
  if (result || !cgofuzz_cgo_gohooks.fn[CGOFUZZ_GOHOOK_STRCMP])
    return;
  if (nhay > STR_MAX)
    nhay = STR_MAX;
  str_cmp(ndl, nndl < STR_MAX ? nndl : STR_MAX, hay, nhay, called_pc);
}

void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result);
void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result) {
  if (cgofuzz_cgo_gohooks.fn[CGOFUZZ_GOHOOK_STRCMP])
    needle(called_pc, s1, str_len(s1, STR_MAX), s2, str_len(s2, STR_MAX),
           result);
}

void __sanitizer_weak_hook_strcasestr(void *called_pc, const char *s1,
                                      const char *s2, char *result);
void __sanitizer_weak_hook_strcasestr(void *called_pc, const char *s1,
                                      const char *s2, char *result) {
  if (cgofuzz_cgo_gohooks.fn[CGOFUZZ_GOHOOK_STRCMP])
    needle(called_pc, s1, str_len(s1, STR_MAX), s2, str_len(s2, STR_MAX),
           result);
}

void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2, void *result);
void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2, void *result) {
  needle(called_pc, s1, len1, s2, len2, result);
}
