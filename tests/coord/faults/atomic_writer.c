/*
 * atomic_writer.c: writes file after file with cgofuzz_file_write_atomic
 * (csrc/base/file.h), for test_atomic.py, which kills it and then checks
 * that every file left is whole.
 *
 * usage: atomic_writer DIR COUNT [--naive | --no-sync] [--kill-at CALL:N]
 *
 * Writes COUNT files (0: until killed) into DIR, cycling through the names
 * f0 ... f4, so that most writes replace a file. File number seq holds a
 * line "cgofuzz-atomic seq=SEQ len=LEN sha256=HEX" and LEN bytes whose
 * SHA-256 is HEX (LEN from 1 byte to about 400 KiB), so a file checks
 * itself. After each write "NAME SEQ" goes to stdout, flushed.
 *
 * --naive writes in place (open with O_TRUNC, write, close) instead: the
 * writer the test must catch. --no-sync writes with CGOFUZZ_FILE_NO_SYNC
 * (a new file unnamed, then linked; no fsync). --kill-at CALL:N sends this
 * process SIGKILL at the N-th call of CALL (mkdtemp, open, write, fsync,
 * close, rename, rmdir, linkat) made by the writer: before the call, or for
 * write after half its bytes, so a kill lands exactly between two steps of a
 * write, or in the middle of one. The calls are caught with the linker's --wrap
 * (see tests/coord/faults/CMakeLists.txt), so what is counted is the writer's
 * own calls, not stdio's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "file.h"
#include "sha256.h"

static const char *kill_call;
static long kill_at, calls;

/* Counts a call of name; SIGKILL at the chosen one. */
static void step(const char *name) {
  if (kill_call && strcmp(name, kill_call) == 0 && ++calls == kill_at)
    kill(getpid(), SIGKILL);
}

char *__real_mkdtemp(char *);
int __real_open(const char *, int, ...);
ssize_t __real_write(int, const void *, size_t);
int __real_fsync(int);
int __real_close(int);
int __real_rename(const char *, const char *);
int __real_rmdir(const char *);
int __real_linkat(int, const char *, int, const char *, int);

char *__wrap_mkdtemp(char *t) {
  step("mkdtemp");
  return __real_mkdtemp(t);
}

int __wrap_open(const char *path, int flags, ...) {
  step("open");
  va_list ap;
  va_start(ap, flags);
  int mode = flags & O_CREAT ? va_arg(ap, int) : 0;
  va_end(ap);
  return __real_open(path, flags, mode);
}

ssize_t __wrap_write(int fd, const void *p, size_t n) {
  if (kill_call && strcmp(kill_call, "write") == 0 && calls + 1 == kill_at &&
      n > 1)
    __real_write(fd, p, n / 2); /* then killed in the middle */
  step("write");
  return __real_write(fd, p, n);
}

int __wrap_fsync(int fd) {
  step("fsync");
  return __real_fsync(fd);
}

int __wrap_close(int fd) {
  step("close");
  return __real_close(fd);
}

int __wrap_rename(const char *a, const char *b) {
  step("rename");
  return __real_rename(a, b);
}

int __wrap_rmdir(const char *p) {
  step("rmdir");
  return __real_rmdir(p);
}

int __wrap_linkat(int fd, const char *a, int nfd, const char *b, int fl) {
  step("linkat");
  return __real_linkat(fd, a, nfd, b, fl);
}

/* The writer the test must catch: in place, no temporary. */
static int write_naive(const char *path, const void *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return -1;
  int r = cgofuzz_write_all(fd, data, len);
  return close(fd) == 0 && r == 0 ? 0 : -1;
}

/* File number seq's bytes: the line, then the payload. */
static int contents(long seq, cgofuzz_buf *out) {
  size_t len = 1 + (size_t)(seq * 7919 % 409600);
  uint8_t *p = malloc(len);
  if (!p)
    return -1;
  uint32_t x = (uint32_t)seq * 2654435761u + 1;
  for (size_t i = 0; i < len; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    p[i] = (uint8_t)x;
  }
  uint8_t sum[32];
  cgofuzz_sha256(p, len, sum);
  out->len = 0;
  cgofuzz_buf_printf(out, "cgofuzz-atomic seq=%ld len=%zu sha256=", seq, len);
  for (int i = 0; i < 32; i++)
    cgofuzz_buf_printf(out, "%02x", sum[i]);
  cgofuzz_buf_putc(out, '\n');
  cgofuzz_buf_append(out, p, len);
  free(p);
  return out->failed ? -1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: atomic_writer DIR COUNT [--naive | --no-sync] "
                    "[--kill-at CALL:N]\n");
    return 2;
  }
  const char *dir = argv[1];
  long count = atol(argv[2]);
  int naive = 0;
  unsigned flags = CGOFUZZ_FILE_UMASK;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--naive") == 0) {
      naive = 1;
    } else if (strcmp(argv[i], "--no-sync") == 0) {
      flags |= CGOFUZZ_FILE_NO_SYNC;
    } else if (strcmp(argv[i], "--kill-at") == 0 && i + 1 < argc) {
      char *c = strchr(argv[++i], ':');
      if (!c)
        return 2;
      *c = 0;
      kill_call = argv[i];
      kill_at = atol(c + 1);
    } else {
      fprintf(stderr, "atomic_writer: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  cgofuzz_buf data = {0}, path = {0};
  for (long seq = 0; count == 0 || seq < count; seq++) {
    path.len = 0;
    cgofuzz_buf_printf(&path, "%s/f%ld%c", dir, seq % 5, 0);
    if (path.failed || contents(seq, &data) != 0) {
      fprintf(stderr, "atomic_writer: out of memory\n");
      return 1;
    }
    const char *what = "write";
    int r = naive
                ? write_naive((const char *)path.data, data.data, data.len)
                : cgofuzz_file_write_atomic((const char *)path.data, data.data,
                                            data.len, 0644, flags, &what);
    if (r != 0) {
      fprintf(stderr, "atomic_writer: %s: %s failed: %s\n",
              (const char *)path.data, what, strerror(errno));
      return 1;
    }
    printf("f%ld %ld\n", seq % 5, seq);
    fflush(stdout);
  }
  cgofuzz_buf_free(&data);
  cgofuzz_buf_free(&path);
  return 0;
}
