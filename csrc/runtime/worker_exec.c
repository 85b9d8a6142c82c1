/*
 * worker_exec.c: one exec of the target in a worker, as both the serve
 * loop (worker.c) and the bursts (worker_exact.c) run it: the watchdog
 * armed around it, comparisons recorded only while the target runs (the
 * runtime's own memcmp calls never reach the tables), the coverage
 * snapshot taken, an input that allocated more than it freed re-checked
 * for leaks, and a failure's report kept in Go's words for the reply.
 *
 * It calls neither of its two users, so the loop and the bursts do not
 * call each other through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "exact.h"
#include "worker_internal.h"

/* An input that allocated more than it freed (leak.c): run again with
 * LeakSanitizer quiet, and if it still does, have LeakSanitizer look. A
 * leak ends the worker as a crash would: the input in shared memory is
 * the crasher. The second run's coverage is dropped (the first one's was
 * taken). */
static void leak_recheck(cgofuzz_worker_ *w, const cgofuzz_value *vals) {
  cgofuzz_watchdog_arm_(cgofuzz_mono_ns());
  bool suspect = cgofuzz_leak_rerun_(w->f, &w->t, vals);
  cgofuzz_watchdog_disarm_();
  cgofuzz_cov_clear_();
  w->t.log.len = 0;
  if (!suspect || !cgofuzz_leak_check_())
    return;
  bool lf = cgofuzz_watchdog_lf_mode_();
  if (lf && w->warmup)
    fprintf(stderr, "\nINFO: a leak has been found in the initial "
                    "corpus.\n\n");
  if (lf)
    fprintf(stderr, "INFO: to ignore leaks on libFuzzer side use "
                    "-detect_leaks=0.\n\n");
  else
    fprintf(stderr, "cgofuzz: the input leaked memory (LeakSanitizer, "
                    "above); -test.fuzzdetectleaks=false turns the check "
                    "off\n");
  fflush(stderr);
  _exit(CGOFUZZ_LEAK_EXIT);
}

cgofuzz_run cgofuzz_worker_exec_(cgofuzz_worker_ *w, const cgofuzz_value *vals,
                                 int64_t *dur) {
  int64_t t0 = cgofuzz_mono_ns();
  w->st_execs++;
  cgofuzz_watchdog_arm_(t0);
  /* Comparisons are recorded only while the target runs: the runtime's
   * own memcmp calls (intercepted too) never reach the tables. */
  cgofuzz_cmp_on_ = w->rec;
  cgofuzz_leak_begin_();
  cgofuzz_run r = cgofuzz_target_exec_(w->f, &w->t, vals);
  bool suspect = cgofuzz_leak_end_();
  cgofuzz_cmp_on_ = 0;
  *dur = cgofuzz_mono_ns() - t0;
  cgofuzz_watchdog_disarm_();
  cgofuzz_cov_snap_reset_(w->snap);
  cgofuzz_cov_collect_(w->snap, w->snap_len);
  if (suspect && r != CGOFUZZ_RUN_FAIL)
    leak_recheck(w, vals);
  if (r == CGOFUZZ_RUN_FAIL) {
    /* Go's Err is the failed test's captured report. */
    w->errmsg.len = 0;
    cgofuzz_buf_printf(&w->errmsg, "--- FAIL: %s (%.2fs)\n", w->name,
                       (double)*dur / 1e9);
    const uint8_t *p = w->t.log.data, *e = p + w->t.log.len;
    while (p < e) {
      const uint8_t *nl = memchr(p, '\n', (size_t)(e - p));
      size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(e - p);
      cgofuzz_buf_puts(&w->errmsg, "    ");
      cgofuzz_buf_append(&w->errmsg, p, n);
      p += n;
    }
    cgofuzz_buf_putc(&w->errmsg, 0);
    w->errmsg.len--;
  }
  return r;
}

char *cgofuzz_worker_errmsg_(const cgofuzz_worker_ *w) {
  return strndup(w->errmsg.len ? (char *)w->errmsg.data : "", w->errmsg.len);
}

int cgofuzz_worker_set_bytes_(cgofuzz_wire_bytes *b, const uint8_t *p,
                              size_t n) {
  b->data = malloc(n ? n : 1);
  if (!b->data)
    return -1;
  memcpy(b->data, p, n);
  b->len = n;
  b->has = true;
  return 0;
}
