/*
 * worker_watchdog.c: the per-exec timeout and the memory limit of a C
 * worker, and its answer to exit(0) inside the target.
 *
 * A hang or a runaway allocation is the worker's business, not the
 * coordinator's: Go's coordinator only sees a worker that stops answering
 * or dies, and rebuilds the input from what shared memory says. So the
 * invariant kept here is that the process ends *during* the guilty exec:
 *  - a thread polls every 50 ms; an exec running longer than the timeout
 *    (-test.fuzztimeout, default 10 s as Go's "deadlocked!" panic) or a
 *    resident set above the limit (-test.fuzzrsslimitmb, default 2048 as
 *    libFuzzer's -rss_limit_mb, 0: none) ends the process with status 2
 *    and a line on stderr while that exec is still the current one, so the
 *    count (or the exact-input slot) in shared memory names its input and
 *    any coordinator records it as a crasher;
 *  - exit(0) during an exec does the same (Go's worker runs with
 *    -test.paniconexit0), rather than ending the worker "successfully" in
 *    the middle of a call;
 *  - a single malloc of at least the malloc limit (-test.fuzzmalloclimitmb,
 *    default the RSS limit, as libFuzzer's -malloc_limit_mb) during an
 *    exec is an OOM at once, with the stack of the call, when the target
 *    has a sanitizer whose malloc hooks report it (weak references: none
 *    without one), rather than a resident set that grows too late or a
 *    malloc that fails quietly.
 * Everything here may run while the target holds malloc's or stdio's
 * locks, so it uses plain syscalls only. The hot loop pays a relaxed store
 * when an exec starts and one when it ends (cgofuzz_watchdog_arm_ and
 * cgofuzz_watchdog_disarm_), nothing else.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "exact.h"
#include "os.h"
#include "worker_internal.h"

atomic_llong cgofuzz_watchdog_exec_start_;
static int64_t timeout_ns = 10LL * 1000000000;
static int64_t rss_limit = 2048LL << 20;
static int64_t malloc_limit = -1; /* bytes; -1: the RSS limit; 0: none */

void __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *)) __attribute__((weak));
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static int64_t rss_bytes(void) {
  int64_t r = cgofuzz_os_rss_bytes(0);
  return r > 0 ? r : 0;
}

static void die(const char *msg) {
  /* write(2) only: stdio may be locked by the interrupted target. */
  ssize_t k = write(2, msg, strlen(msg));
  (void)k;
  _exit(2);
}

/* Under libFuzzer's command line (csrc/lf, which sets CGOFUZZ_LF_ENV in its
 * workers' environment) a hang and an OOM are reported in libFuzzer's words
 * and exit codes (-timeout_exitcode 70, OOM 71), which ClusterFuzz reads to
 * tell them from crashes. Set once before the thread starts. */
static bool lf_mode;

bool cgofuzz_watchdog_lf_mode_(void) { return lf_mode; }

/* Appends the decimal digits of v to p; no stdio (see die). */
static char *put_int(char *p, int64_t v) {
  char tmp[24];
  int n = 0;
  if (v < 0)
    v = 0;
  do
    tmp[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  while (n)
    *p++ = tmp[--n];
  return p;
}

static char *put_str(char *p, const char *s) {
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

static void die_lf(bool oom, int64_t a, int64_t b) {
  char msg[256], *p = msg;
  p = put_str(p, "==");
  p = put_int(p, (int64_t)getpid());
  if (oom) {
    p = put_str(p, "== ERROR: libFuzzer: out-of-memory (used: ");
    p = put_int(p, a);
    p = put_str(p, "Mb; exceeds: ");
    p = put_int(p, b);
    p = put_str(p, "Mb)\n   To change the out-of-memory limit use "
                   "-rss_limit_mb=<N>\n\nSUMMARY: libFuzzer: out-of-memory\n");
  } else {
    p = put_str(p, "== ERROR: libFuzzer: timeout after ");
    p = put_int(p, a);
    p = put_str(p, " seconds\nSUMMARY: libFuzzer: timeout\n");
  }
  ssize_t k = write(2, msg, (size_t)(p - msg));
  (void)k;
  _exit(oom ? 71 : 70);
}

/* The malloc hook: a single allocation of malloc_limit bytes or more
 * during an exec ends the worker as an OOM, its stack printed first. */
static void on_malloc(const volatile void *ptr, size_t size) {
  (void)ptr;
  if (malloc_limit <= 0 || (int64_t)(size >> 20) < (malloc_limit >> 20) ||
      !atomic_load_explicit(&cgofuzz_watchdog_exec_start_,
                            memory_order_relaxed))
    return;
  char msg[256], *p = msg;
  p = put_str(p, "==");
  p = put_int(p, (int64_t)getpid());
  p = put_str(p, lf_mode ? "== ERROR: libFuzzer: out-of-memory (malloc("
                         : "== cgofuzz: out of memory: malloc(");
  p = put_int(p, (int64_t)size);
  p = put_str(p, lf_mode ? "))\n   To change the out-of-memory limit use "
                           "-rss_limit_mb=<N>\n\n"
                         : ") above -test.fuzzmalloclimitmb; the input is "
                           "recorded as a crasher\n");
  ssize_t k = write(2, msg, (size_t)(p - msg));
  (void)k;
  if (__sanitizer_print_stack_trace)
    __sanitizer_print_stack_trace();
  if (lf_mode) {
    k = write(2, "SUMMARY: libFuzzer: out-of-memory\n", 34);
    (void)k;
  }
  _exit(lf_mode ? 71 : 2);
}

static void on_free(const volatile void *ptr) { (void)ptr; }

/* exit(0) inside the target would end the worker "successfully" in the
 * middle of a call; Go's worker runs with -test.paniconexit0 and panics
 * instead. Same here: status 2 and a message, so the input is a crasher
 * under any coordinator. Where the exit status is unknown (-1: Darwin's
 * atexit), any exit in the middle of a call is one: a non-zero status
 * was a crasher already, now with status 2 and the message. */
static void on_exit0(int status, void *arg) {
  (void)arg;
  if (status <= 0 &&
      atomic_load_explicit(&cgofuzz_watchdog_exec_start_, memory_order_relaxed))
    die("panic: unexpected call to exit(0) during fuzzing\n");
}

static void *watchdog(void *arg) {
  (void)arg;
  struct timespec ts = {0, 50 * 1000000};
  for (;;) {
    nanosleep(&ts, NULL);
    int64_t st = atomic_load_explicit(&cgofuzz_watchdog_exec_start_,
                                      memory_order_relaxed);
    int64_t now = cgofuzz_mono_ns();
    if (st && timeout_ns > 0 && now - st > timeout_ns) {
      if (lf_mode)
        die_lf(false, (now - st) / 1000000000, 0);
      die("cgofuzz: exec timed out (-test.fuzztimeout); the input is "
          "recorded as a crasher\n");
    }
    int64_t rss;
    if (rss_limit > 0 && (rss = rss_bytes()) > rss_limit) {
      if (lf_mode)
        die_lf(true, rss >> 20, rss_limit >> 20);
      die("cgofuzz: out of memory: resident set above -test.fuzzrsslimitmb; "
          "the input is recorded as a crasher\n");
    }
  }
  return NULL;
}

void cgofuzz_watchdog_start_(const cgofuzz_worker_opts_ *o) {
  if (o->timeout_ns >= 0)
    timeout_ns = o->timeout_ns;
  if (o->rss_limit_mb >= 0)
    rss_limit = o->rss_limit_mb << 20;
  malloc_limit = o->malloc_limit_mb >= 0 ? o->malloc_limit_mb << 20 : rss_limit;
  const char *lf = getenv(CGOFUZZ_LF_ENV);
  lf_mode = lf && strcmp(lf, "1") == 0;
  cgofuzz_os_on_exit(on_exit0, NULL);
  if (malloc_limit > 0 && __sanitizer_install_malloc_and_free_hooks)
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
  pthread_t th;
  if (pthread_create(&th, NULL, watchdog, NULL) == 0)
    pthread_detach(th);
}
