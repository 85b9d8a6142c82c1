/*
 * tracecmp.c: comparison tracing (clang -fsanitize-coverage=trace-cmp) turned
 * into mutation material, which Go's mutator lacks.
 *
 * While recording is on (CGOFUZZ_CMP_REC in cgofuzz_cmp_on_), every
 * instrumented comparison is noted in a fixed table that is reset before
 * each recorded exec (no allocation in the hooks, which run inside the
 * target):
 *  - pairs: the last CMP_PAIRS (pc, a, b, size) of the exec;
 *  - runs: consecutive 1-byte comparisons made by the same instruction
 *    (a byte-by-byte check in a loop) are concatenated, so "data[0..j] vs
 *    magic[0..j]" is seen as one pair of strings. A run ends at the first
 *    mismatch, so replacing the input's bytes by the other side's bytes
 *    exposes the next byte on the following exec.
 * Calls of memcmp and its kin are not instrumented comparisons: their
 * operands reach torc.c through the sanitizer weak hooks.
 * With CGOFUZZ_CMP_VP on, each comparison also feeds the value profile
 * (feature bits: call site x distance between the operands; runtime.h).
 * The hooks are strong definitions: clang links its UBSan standalone
 * runtime (whole-archive, early on the line) into any -fsanitize-coverage
 * build, and its weak default hooks would otherwise win.
 * Recording is off unless the worker was started in exact mode (see
 * worker_exact.c), and on only while the target runs: with it off the
 * hooks cost one load and a branch.
 */
#include <string.h>

#include "runtime.h"

int cgofuzz_cmp_on_;
cgofuzz_cmp_log_ cgofuzz_cmp_log_table_;
uint64_t cgofuzz_vp_map_[CGOFUZZ_VP_SITES * CGOFUZZ_VP_DIST / 64];
int cgofuzz_vp_new_;

/* The two value-profile distances of an integer comparison: Hamming, and
 * the bit length of the difference (for < and > as well as ==). */
static void vp_cmp(uintptr_t pc, uint64_t a, uint64_t b) {
  uintptr_t site = cgofuzz_vp_site_(pc);
  cgofuzz_vp_note_(site, cgofuzz_popcount64_(a ^ b));
  uint64_t d = a > b ? a - b : b - a;
  cgofuzz_vp_note_(site + 1, d ? 64 - (unsigned)__builtin_clzll(d) : 0);
}

static void note(uintptr_t pc, uint64_t a, uint64_t b, unsigned size) {
  cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log_table_;
  if (cgofuzz_cmp_on_ & CGOFUZZ_CMP_VP)
    vp_cmp(pc, a, b);
  if (!(cgofuzz_cmp_on_ & CGOFUZZ_CMP_REC))
    return;
  if (a == b && size > 1)
    return; /* an equal pair teaches nothing */
  cgofuzz_cmp_pair_ *p = &l->pairs[l->npairs++ % CGOFUZZ_CMP_PAIRS];
  p->pc = pc;
  p->a = a;
  p->b = b;
  p->size = size;
}

static void note1(uintptr_t pc, uint8_t a, uint8_t b) {
  cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log_table_;
  if (!(cgofuzz_cmp_on_ & CGOFUZZ_CMP_REC)) {
    note(pc, a, b, 1); /* the value profile only */
    return;
  }
  cgofuzz_cmp_run_ *r =
      l->nruns ? &l->runs[(l->nruns - 1) % CGOFUZZ_CMP_RUNS] : NULL;
  if (!r || r->pc != pc || r->len >= CGOFUZZ_CMP_RUN_MAX || r->closed) {
    r = &l->runs[l->nruns++ % CGOFUZZ_CMP_RUNS];
    r->pc = pc;
    r->len = 0;
    r->closed = 0;
  }
  r->a[r->len] = a;
  r->b[r->len] = b;
  r->len++;
  if (a != b)
    r->closed = 1; /* a loop leaves at its first mismatch */
  note(pc, a, b, 1);
}

#define PC() ((uintptr_t)__builtin_return_address(0))
#define HOOK(name, T, size)                                                    \
  void name(T a, T b);                                                         \
  void name(T a, T b) {                                                        \
    if (__builtin_expect(cgofuzz_cmp_on_, 0))                                  \
      note(PC(), a, b, size);                                                  \
  }
HOOK(__sanitizer_cov_trace_cmp2, uint16_t, 2)
HOOK(__sanitizer_cov_trace_cmp4, uint32_t, 4)
HOOK(__sanitizer_cov_trace_cmp8, uint64_t, 8)
HOOK(__sanitizer_cov_trace_const_cmp2, uint16_t, 2)
HOOK(__sanitizer_cov_trace_const_cmp4, uint32_t, 4)
HOOK(__sanitizer_cov_trace_const_cmp8, uint64_t, 8)

void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) {
  if (__builtin_expect(cgofuzz_cmp_on_, 0))
    note1(PC(), a, b);
}
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) {
  if (__builtin_expect(cgofuzz_cmp_on_, 0))
    note1(PC(), a, b);
}

void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases);
void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) {
  /* cases[0] is the count, cases[1] the operand width in bits. */
  if (!__builtin_expect(cgofuzz_cmp_on_, 0))
    return;
  unsigned size = (unsigned)(cases[1] / 8);
  for (uint64_t i = 0; i < cases[0] && i < 16; i++)
    note(PC() + i, v, cases[2 + i], size ? size : 8);
}

#pragma GCC diagnostic ignored "-Wunused-parameter"
#define NOP(name, T)                                                           \
  void name(T v);                                                              \
  void name(T v) {}
NOP(__sanitizer_cov_trace_div4, uint32_t)
NOP(__sanitizer_cov_trace_div8, uint64_t)
NOP(__sanitizer_cov_trace_gep, uintptr_t)
NOP(__sanitizer_cov_trace_pc_indir, uintptr_t)
