/*
 * failalloc.c: a preloaded allocator shim that makes chosen allocations of
 * one process fail, for tests/coord/faults/test_memory.py (memory running out
 * in cgofuzz's coordinator, the way SQLite's malloc tests fail each allocation
 * in turn).
 *
 * FAILALLOC=N fails the N-th call of malloc, calloc or realloc (counted
 * from 1) in the process that loaded the shim; FAILALLOC=N+ fails it and
 * every later one (memory gone for good); FAILALLOC=0 fails none and only
 * counts. FAILALLOC_LOG names a file the shim appends to: "failed N at
 * FILE+OFFSET ..." at the first failure (the return addresses of the stack
 * in their object files, for addr2line), and "count N" when the process
 * exits.
 *
 * Only the process that loaded the shim counts: forked children stop
 * (pthread_atfork), and LD_PRELOAD is taken out of the environment at load
 * so that programs cgofuzz starts do not load it. The real allocator is
 * glibc's (__libc_malloc and friends), so free needs no wrapper. Built at
 * test time with `cc -shared -fPIC`; glibc only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static long fail_at;     /* 0: count only */
static int from_then_on; /* N+ */
static int counting;     /* 0 in forked children */
static long calls;       /* allocations seen */
static int failed;       /* an allocation was failed */
static char log_path[4096];

static void say(const char *line) {
  if (!log_path[0])
    return;
  int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    close(fd);
  }
}

static void child(void) { counting = 0; }
static void on_crash(int sig);

__attribute__((constructor)) static void failalloc_init(void) {
  const char *spec = getenv("FAILALLOC");
  const char *log = getenv("FAILALLOC_LOG");
  if (log && strlen(log) < sizeof log_path)
    strcpy(log_path, log);
  if (spec) {
    char *end;
    fail_at = strtol(spec, &end, 10);
    from_then_on = *end == '+';
    counting = 1;
  }
  unsetenv("LD_PRELOAD");
  pthread_atfork(NULL, NULL, child);
  if (counting) {
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash);
  }
}

__attribute__((destructor)) static void failalloc_fini(void) {
  if (!counting)
    return;
  char line[64];
  snprintf(line, sizeof line, "count %ld\n", calls);
  say(line);
}

/* Appends " FILE+0xOFFSET" for one return address to line (of size n). */
static void frame(char *line, size_t n, uintptr_t pc) {
  Dl_info info;
  const char *file = "?";
  if (dladdr((void *)pc, &info) && info.dli_fbase) {
    pc -= (uintptr_t)info.dli_fbase;
    file = info.dli_fname ? info.dli_fname : "?";
    const char *slash = strrchr(file, '/');
    file = slash ? slash + 1 : file;
  }
  size_t used = strlen(line);
  if (used < n)
    snprintf(line + used, n - used, " %s+0x%lx", file, (unsigned long)pc);
}

typedef struct stack {
  char *line;
  size_t n;
  int depth;
} stack;

static _Unwind_Reason_Code one_frame(struct _Unwind_Context *ctx, void *arg) {
  stack *s = arg;
  if (s->depth++ > 0 && s->depth < 14)
    frame(s->line, s->n, (uintptr_t)_Unwind_GetIP(ctx));
  return s->depth < 14 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

/* Logs what (a word and a number) with the stack of the caller's caller. */
static void say_stack(const char *what, long n) {
  char line[1024];
  snprintf(line, sizeof line, "%s %ld at", what, n);
  stack s = {line, sizeof line - 1, 0};
  _Unwind_Backtrace(one_frame, &s);
  strcat(line, "\n");
  say(line);
}

/* Whether this allocation fails. */
static int fail(void) {
  if (!counting)
    return 0;
  long n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  if (fail_at <= 0 || n < fail_at || (n > fail_at && !from_then_on))
    return 0;
  if (!__atomic_exchange_n(&failed, 1, __ATOMIC_RELAXED))
    say_stack("failed", n);
  errno = ENOMEM;
  return 1;
}

/* A crash of the process is logged with its stack ("signal N at ..."),
 * then taken as it would have been. */
static void on_crash(int sig) {
  say_stack("signal", sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

void *malloc(size_t n) { return fail() ? NULL : __libc_malloc(n); }

void *calloc(size_t n, size_t size) {
  return fail() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n) {
  return fail() ? NULL : __libc_realloc(p, n);
}
