/*
 * os_atexit.c: cgofuzz_os_on_exit where the system passes no exit status
 * to its hooks (Darwin, and Linux without glibc's on_exit: musl): one
 * handler, registered with atexit, called with status -1. Not built with
 * glibc, whose on_exit passes the status (and whose atexit lives in
 * libc_nonshared.a, not in libc.so, where tests/check_symbols.sh looks).
 */
#include <stdlib.h> /* first: it says whether this is glibc */
#if !defined(__GLIBC__)
#include <errno.h>

#include "os.h"

static void (*exit_fn)(int, void *);
static void *exit_arg;

static void at_exit(void) {
  if (exit_fn)
    exit_fn(-1, exit_arg);
}

int cgofuzz_os_on_exit_no_status_(void (*fn)(int status, void *arg),
                                  void *arg) {
  if (exit_fn) {
    errno = EBUSY;
    return -1;
  }
  exit_fn = fn;
  exit_arg = arg;
  return atexit(at_exit) == 0 ? 0 : -1;
}
#else
typedef int cgofuzz_os_atexit_empty_; /* ISO C: no empty file */
#endif
