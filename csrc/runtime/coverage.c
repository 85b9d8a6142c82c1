/*
 * coverage.c: SanitizerCoverage inline 8-bit counters as Go-style coverage.
 *
 * clang's -fsanitize-coverage=inline-8bit-counters,pc-table gives each
 * instrumented module (executable, shared object) a counter array that
 * compiled code increments directly; each module reports it once through
 * __sanitizer_cov_8bit_counters_init before main. The counter vector is the
 * concatenation of all modules' arrays in that order.
 *
 * A Go coordinator's mask has the size of *its* counter table, and its
 * coverage diff panics on any other size, so a snapshot is always built at
 * the size the coordinator asked for: counter i lands in byte i % len
 * (OR-ed). With a mask at least as large as the counter table this is the
 * identity, which is what a cgofuzz coordinator asks for.
 *
 * Bucketing is Go's (core/bucket.h): a counter byte becomes its highest
 * set bit, so a mask bit k of byte i means "block i ran about 2^k times in
 * one exec".
 *
 * Per-exec cost: the collect pass reads the counter table 8 bytes at a time
 * and zeroes only the non-zero words, so its cost is N/8 loads plus work
 * proportional to the blocks the input touched; the snapshot is never
 * cleared or compared in full: the touched snapshot bytes are listed, and
 * has_new/snap_reset only visit those. The N/8 scan stays (libFuzzer pays
 * the same); an exact sparse scan needs write tracking: mprotect the
 * counter pages read-only after each exec and record the page from the
 * first SIGSEGV on each (one fault per touched page, only worth it for
 * tables of many megabytes), or compile with trace-pc-guard and record the
 * guard on first hit (a call per edge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "runtime.h"

typedef struct {
  uint8_t *start;
  size_t len;
} cov_module;

static cov_module *modules;
static size_t nmodules, ncounters;
static size_t npcs; /* pc-table entries (pairs), for the sanity warning */

/* Snapshot bytes set by the last collect. */
static size_t *touched;
static size_t ntouched, touched_cap;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end);

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  if (start >= stop)
    return;
  /* A module may be reported twice (e.g. dlopen of a loaded object). */
  for (size_t i = 0; i < nmodules; i++)
    if (modules[i].start == start)
      return;
  cov_module *m = realloc(modules, (nmodules + 1) * sizeof *m);
  if (!m) {
    fprintf(stderr, "cgofuzz: out of memory registering coverage counters\n");
    return;
  }
  modules = m;
  modules[nmodules].start = start;
  modules[nmodules].len = (size_t)(stop - start);
  ncounters += modules[nmodules].len;
  nmodules++;
}

void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end) {
  /* Entries are (pc, flags) pairs, one per counter; only the count is used
   * here, but the table must be accepted for pc-table builds to link. */
  npcs += (size_t)(end - beg) / 2;
}

size_t cgofuzz_cov_ncounters_(void) { return ncounters; }

size_t cgofuzz_cov_nmodules_(void) { return nmodules; }

uint8_t *cgofuzz_cov_module_(size_t i, size_t *len) {
  *len = i < nmodules ? modules[i].len : 0;
  return i < nmodules ? modules[i].start : NULL;
}

void cgofuzz_cov_clear_(void) {
  for (size_t i = 0; i < nmodules; i++)
    memset(modules[i].start, 0, modules[i].len);
}

static inline void hit(uint8_t *snap, size_t j, uint8_t c) {
  if (snap[j] == 0)
    touched[ntouched++] = j;
  snap[j] |= cgofuzz_bucket(c);
}

size_t cgofuzz_cov_collect_(uint8_t *snap, size_t len) {
  ntouched = 0;
  if (len == 0 || ncounters == 0)
    return 0;
  size_t need = len < ncounters ? len : ncounters;
  if (touched_cap < need) {
    size_t *t = realloc(touched, need * sizeof *t);
    if (!t)
      return 0;
    touched = t;
    touched_cap = need;
  }
  bool fold = ncounters > len;
  size_t base = 0;
  for (size_t m = 0; m < nmodules; m++) {
    uint8_t *p = modules[m].start;
    size_t n = modules[m].len, i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      if (w == 0)
        continue;
      memset(p + i, 0, 8);
      for (size_t k = 0; k < 8; k++) {
        uint8_t c = (uint8_t)(w >> (8 * k)); /* little endian: byte i+k */
        if (c) {
          size_t g = base + i + k;
          hit(snap, fold ? g % len : g, c);
        }
      }
    }
    for (; i < n; i++) {
      uint8_t c = p[i];
      if (c) {
        p[i] = 0;
        size_t g = base + i;
        hit(snap, fold ? g % len : g, c);
      }
    }
    base += n;
  }
  return ntouched;
}

bool cgofuzz_cov_has_new_(const uint8_t *snap, const uint8_t *mask) {
  for (size_t i = 0; i < ntouched; i++) {
    size_t j = touched[i];
    if (snap[j] & (uint8_t)~mask[j])
      return true;
  }
  return false;
}

void cgofuzz_cov_snap_reset_(uint8_t *snap) {
  for (size_t i = 0; i < ntouched; i++)
    snap[touched[i]] = 0;
  ntouched = 0;
}
