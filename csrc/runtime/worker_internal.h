/*
 * worker_internal.h: what the files of the -test.fuzzworker server share.
 * Private to the runtime layer (tools/check_layers.py keeps other layers
 * from including it).
 *
 * The server is three files, one concern each:
 *   worker.c           the serve loop: reads calls from fd 3, runs the fuzz
 *                      and minimize handlers, writes replies to fd 4;
 *   worker_exact.c     the exact-input slot (csrc/core/exact.h) and the
 *                      trace-cmp/dictionary bursts that need it;
 *   worker_watchdog.c  the per-exec timeout and the RSS limit.
 * They share one cgofuzz_worker_ (the serve loop owns it) and the watchdog's
 * clock of the running exec.
 */
#ifndef CGOFUZZ_WORKER_INTERNAL_H
#define CGOFUZZ_WORKER_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "mutator.h"
#include "pcg.h"
#include "runtime.h"
#include "shm.h"
#include "wire.h"

typedef struct cgofuzz_worker_ {
  cgofuzz_f *f;
  const char *name; /* the test's name in failure reports */
  cgofuzz_t t;
  cgofuzz_shm shm;
  cgofuzz_mutator m;
  uint8_t *mask; /* the coordinator's coverage mask, NULL until sent */
  size_t mask_len;
  uint8_t *snap; /* last exec's snapshot, snap_len bytes */
  size_t snap_len;
  cgofuzz_buf errmsg; /* the last failing exec's Go-style report */
  /* Exact mode (csrc/core/exact.h): non-Go mutations are allowed. */
  bool exact;
  bool warmup; /* the call being served is a warm-up (the initial corpus) */
  /* -report_slow_units under libFuzzer's command line (CGOFUZZ_LF_SLOW_ENV,
   * whole seconds; -1: off) and the slowest unit reported so far. */
  int64_t slow_units, slowest;
  cgofuzz_pcg dr; /* private generator of those mutations */
  bool cmp;       /* trace-cmp recording allowed */
  bool vp;        /* value profile (exact mode only) */
  int rec;        /* cgofuzz_cmp_on_ while the target runs (CGOFUZZ_CMP_*) */
  /* One Go exec in burst_period (a power of two, 4..burst_max) is recorded
   * and followed by a burst: back-off while bursts find nothing, so targets
   * whose comparisons teach nothing run at full speed. */
  uint32_t burst_period, burst_max;
  cgofuzz_dict_ dict; /* -test.fuzzdict entries */
  uint8_t *dbuf;      /* the mutated bytes, dcap long */
  size_t dcap;
  cgofuzz_value *dv; /* vals with one value pointing at dbuf */
  size_t dv_n;
  cgofuzz_buf enc;          /* the published input, reused */
  cgofuzz_autodict_ *autod; /* tokens that found coverage (exact mode) */
  /* Value profile: inputs that set a new feature without new coverage,
   * kept here (the coordinator sees only coverage) as bases of bursts,
   * which then also apply Go's byte mutations (pm: a mutator of our own on
   * a private stream, never Go's chain). A ring of VP_POOL entries. */
  struct cgofuzz_vp_input_ {
    size_t k;   /* the argument it replaces */
    uint8_t *b; /* its bytes, len of cap */
    size_t len, cap;
  } * pool;
  size_t pool_n, pool_next;
  cgofuzz_mutator pm;
  /* CGOFUZZ_WORKER_STATS=1: counts printed on exit, to see where time and
   * new-coverage events go (fuzz vs minimize, finds per call). */
  const char *stats; /* file rewritten at most every 0.5 s */
  int64_t st_last;
  int64_t st_fuzz_calls, st_fuzz_ns, st_finds, st_burst_execs, st_burst_finds;
  int64_t st_vp_inputs, st_pool_bursts;
  int64_t st_min_calls, st_min_ns, st_min_execs, st_execs;
} cgofuzz_worker_;

/* ---- worker_exec.c: one exec, and its reply's fields ---- */

/* One exec with coverage and timing; fills w->errmsg on failure. */
cgofuzz_run cgofuzz_worker_exec_(cgofuzz_worker_ *w, const cgofuzz_value *vals,
                                 int64_t *dur);
/* A malloc'ed copy of the last failing exec's report (a reply's Err). */
char *cgofuzz_worker_errmsg_(const cgofuzz_worker_ *w);
/* Whether an exec of dur ns is a new slowest unit (-report_slow_units under
 * libFuzzer's command line), by libFuzzer's rule: whole seconds, at least
 * the threshold, and over 1.1 times the slowest reported. Its seconds then
 * (remembered as the slowest), else 0. A call that met one ends with the
 * input in the slot and the seconds in the reply's slow_unit_sec. Inline:
 * it follows every exec, and is one test when off (slow_units < 0). */
static inline int64_t cgofuzz_worker_slow_unit_(cgofuzz_worker_ *w,
                                                int64_t dur) {
  if (w->slow_units < 0)
    return 0;
  int64_t secs = dur / 1000000000;
  if (secs < w->slow_units || (double)secs <= (double)w->slowest * 1.1)
    return 0;
  w->slowest = secs;
  return secs;
}
/* Sets a reply's byte field to a copy of p[0..n); -1 if out of memory. */
int cgofuzz_worker_set_bytes_(cgofuzz_wire_bytes *b, const uint8_t *p,
                              size_t n);

/* ---- worker_exact.c: the exact-input slot and bursts ---- */

/* Reads the exact-mode settings from the environment (CGOFUZZ_EXACT_SLOT,
 * CGOFUZZ_NO_TRACE_CMP, CGOFUZZ_BURST_MAX, CGOFUZZ_VALUE_PROFILE) and o
 * (value_profile), and loads o->dict (may be NULL). -1 if the dictionary
 * cannot be loaded or memory is short (said on stderr). */
int cgofuzz_worker_exact_init_(cgofuzz_worker_ *w,
                               const cgofuzz_worker_opts_ *o);
void cgofuzz_worker_exact_free_(cgofuzz_worker_ *w);
/* Invalidates the slot after the current value. */
void cgofuzz_worker_slot_clear_(cgofuzz_worker_ *w);
/* Publishes vals encoded; false if the slot has no room (then it stays
 * clear). */
bool cgofuzz_worker_slot_publish_(cgofuzz_worker_ *w, const cgofuzz_value *vals,
                                  size_t n);
/* Before a Go exec in exact mode: whether a burst follows it (then the exec
 * records comparisons, if allowed). Draws from w->dr only in exact mode.
 * Inline: it runs before every exec of a fuzz call. */
static inline bool cgofuzz_worker_burst_due_(cgofuzz_worker_ *w) {
  /* One exec in burst_period (4 while bursts pay off, up to 256 while
   * they do not) is followed by a burst of comparison-guided ones, and
   * only those need the comparison log: recording costs up to 3.6x the
   * exec on comparison-heavy code (cJSON: 52 us unrecorded, 189 us
   * recorded), so it is on just for them (and during the burst). */
  if (!w->exact)
    return false;
  bool burst = (cgofuzz_pcg_u32(&w->dr) & (w->burst_period - 1)) == 0;
  w->rec =
      (burst && w->cmp ? CGOFUZZ_CMP_REC : 0) | (w->vp ? CGOFUZZ_CMP_VP : 0);
  if (w->rec & CGOFUZZ_CMP_REC)
    cgofuzz_cmp_reset_();
  cgofuzz_vp_new_ = 0;
  return burst;
}

/* After a Go exec in exact mode that passed uninteresting: keeps its input
 * if it set a new value-profile feature. */
void cgofuzz_worker_vp_keep_(cgofuzz_worker_ *w, const cgofuzz_values *vals);

/* After a Go exec that passed uninteresting and that a burst follows: the
 * burst, and the back-off. Returns 1 (and fills resp) if a burst exec
 * failed, found coverage or was a new slowest unit; the slot then holds
 * its input. */
int cgofuzz_worker_burst_(cgofuzz_worker_ *w, const cgofuzz_values *vals,
                          cgofuzz_fuzz_resp *resp);

/* ---- worker_watchdog.c: per-exec timeout and RSS limit ---- */

/* The monotonic start (ns) of the running exec, 0 while none runs: all the
 * hot loop shares with the watchdog, a relaxed store at each end of an
 * exec. */
extern atomic_llong cgofuzz_watchdog_exec_start_;

static inline void cgofuzz_watchdog_arm_(int64_t start_ns) {
  atomic_store_explicit(&cgofuzz_watchdog_exec_start_, start_ns,
                        memory_order_relaxed);
}
static inline void cgofuzz_watchdog_disarm_(void) {
  atomic_store_explicit(&cgofuzz_watchdog_exec_start_, 0, memory_order_relaxed);
}

/* Takes the limits from o (-1: keep the default), catches exit(0) during
 * an exec and starts the watchdog thread. */
void cgofuzz_watchdog_start_(const cgofuzz_worker_opts_ *o);
/* Whether the worker reports in libFuzzer's words (CGOFUZZ_LF_ENV=1, read
 * once by cgofuzz_watchdog_start_). */
bool cgofuzz_watchdog_lf_mode_(void);

#endif
