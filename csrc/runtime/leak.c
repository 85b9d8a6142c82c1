/*
 * leak.c: libFuzzer's leak detection (-detect_leaks=1, its default under
 * ASan and LSan) for a C target's worker.
 *
 * LeakSanitizer alone reports at process exit, long after the input that
 * leaked, and a worker that has run a million inputs cannot say which.
 * libFuzzer's answer, kept here: count mallocs and frees while the target
 * runs (the sanitizer's malloc/free hooks); an input that allocated more
 * than it freed may have leaked, so it runs once more with LeakSanitizer
 * disabled (the allocations of that second run are not leaks to report),
 * and if it still allocates more than it frees, LeakSanitizer checks the
 * heap now (__lsan_do_recoverable_leak_check). A leak found is reported by
 * LeakSanitizer in its own words, and the worker exits with
 * CGOFUZZ_LEAK_EXIT: the input in shared memory is the leak, as a crash's
 * is. A target that keeps memory in a global cache without leaking would
 * make every input a suspect: after CGOFUZZ_LEAK_ATTEMPTS checks that found
 * nothing, the per-input check stops (LeakSanitizer still runs at exit),
 * with libFuzzer's note.
 *
 * Everything is a weak reference to the sanitizer's interface: a target
 * built without LeakSanitizer (no ASan, or UBSan only) has none of it and
 * the check is off. The counting hooks run inside the target's mallocs, on
 * any thread: relaxed atomics, no allocation.
 */
#include <stdio.h>
#include <unistd.h>

#include "os.h"
#include "runtime.h"

void __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *)) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));
void __lsan_disable(void) __attribute__((weak));
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* libFuzzer gives up after this many suspects without a leak. */
#define CGOFUZZ_LEAK_ATTEMPTS 1000

static int counting;          /* the target is running */
static unsigned long mallocs; /* during the current run */
static unsigned long frees;   /* during the current run */
static int enabled;           /* hooks installed, LeakSanitizer there */
static unsigned attempts;     /* leak checks that found nothing */

static void on_malloc(const volatile void *p, size_t n) {
  (void)p;
  (void)n;
  if (__atomic_load_n(&counting, __ATOMIC_RELAXED))
    __atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
}

static void on_free(const volatile void *p) {
  /* free(NULL) is no release: a target that frees NULL pointers would
   * otherwise balance a real leak. */
  if (p && __atomic_load_n(&counting, __ATOMIC_RELAXED))
    __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
}

bool cgofuzz_leak_init_(bool want) {
  /* The sanitizer keeps a few hook pairs and calls every one: install
   * ours once, however many users (a C worker, package gofuzz's Cover and
   * per-exec path) ask. */
  static int installed;
  if (!want || !__sanitizer_install_malloc_and_free_hooks || !__lsan_enable ||
      !__lsan_disable || !__lsan_do_recoverable_leak_check)
    return false;
  if (!installed)
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
  installed = 1;
  enabled = 1;
  return true;
}

void cgofuzz_leak_begin_(void) {
  if (!enabled)
    return;
  __atomic_store_n(&mallocs, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&frees, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

bool cgofuzz_leak_end_(void) {
  if (!enabled)
    return false;
  __atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&mallocs, __ATOMIC_RELAXED) >
         __atomic_load_n(&frees, __ATOMIC_RELAXED);
}

void cgofuzz_leak_quiet_(bool quiet) {
  if (!enabled)
    return;
  if (quiet)
    __lsan_disable();
  else
    __lsan_enable();
}

bool cgofuzz_leak_rerun_(cgofuzz_f *f, cgofuzz_t *t,
                         const cgofuzz_value *vals) {
  cgofuzz_leak_quiet_(true);
  cgofuzz_leak_begin_();
  cgofuzz_run r = cgofuzz_target_exec_(f, t, vals);
  bool suspect = cgofuzz_leak_end_();
  cgofuzz_leak_quiet_(false);
  return r != CGOFUZZ_RUN_FAIL && suspect;
}

/* Counts a check; after CGOFUZZ_LEAK_ATTEMPTS that found nothing, turns
 * the per-input check off with libFuzzer's note and returns false. */
static bool may_check(void) {
  if (!enabled)
    return false;
  if (++attempts > CGOFUZZ_LEAK_ATTEMPTS) {
    enabled = 0;
    fprintf(stderr,
            "INFO: libFuzzer disabled leak detection after every mutation.\n"
            "      Most likely the target function accumulates allocated\n"
            "      memory in a global state w/o actually leaking it.\n"
            "      If LeakSanitizer is enabled in this process it will "
            "still\n"
            "      run on the process shutdown.\n");
    return false;
  }
  return true;
}

bool cgofuzz_leak_check_(void) {
  return may_check() && __lsan_do_recoverable_leak_check() != 0;
}

/* The check with LeakSanitizer's report caught: its descriptor 2 points
 * at an anonymous file while it looks, and what it wrote is appended to
 * out. For a caller that hands the report on as a failure's message (a Go
 * test's t.Fatal) instead of ending the process under it. If the file
 * cannot be had, the report goes to stderr as usual and out gets a line
 * saying so. */
bool cgofuzz_leak_check_report_(cgofuzz_buf *out) {
  if (!may_check())
    return false;
  fflush(stderr);
  int fd = cgofuzz_os_anon_file("cgofuzz-leak-report");
  int saved = fd >= 0 ? dup(2) : -1;
  if (saved < 0 || dup2(fd, 2) < 0) {
    if (saved >= 0)
      close(saved);
    if (fd >= 0)
      close(fd);
    bool leaked = __lsan_do_recoverable_leak_check() != 0;
    if (leaked)
      cgofuzz_buf_puts(out, "(LeakSanitizer's report is on stderr)\n");
    return leaked;
  }
  bool leaked = __lsan_do_recoverable_leak_check() != 0;
  dup2(saved, 2);
  close(saved);
  if (leaked) {
    char chunk[4096];
    ssize_t n;
    off_t off = 0;
    while ((n = pread(fd, chunk, sizeof chunk, off)) > 0) {
      cgofuzz_buf_append(out, chunk, (size_t)n);
      off += n;
    }
  }
  close(fd);
  return leaked;
}
