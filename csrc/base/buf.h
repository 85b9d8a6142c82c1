/*
 * buf.h: a growable byte buffer and the error record shared by all modules.
 *
 * Every function that can fail for a reason a user should read takes a
 * cgofuzz_err and fills it with one line of text; callers prefix it with
 * the file or peer it concerns.
 */
#ifndef CGOFUZZ_BUF_H
#define CGOFUZZ_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_buf {
  uint8_t *data;
  size_t len, cap;
  /* Set when an append ran out of memory; every later append then fails
   * too, so a buffer holds whole text or is marked, and a sequence of
   * appends is checked once at its end. Cleared by cgofuzz_buf_free. */
  bool failed;
} cgofuzz_buf;

/* Makes room for n more bytes. Returns 0, or -1 when out of memory (and
 * marks b failed). */
int cgofuzz_buf_reserve(cgofuzz_buf *b, size_t n);
int cgofuzz_buf_append(cgofuzz_buf *b, const void *p, size_t n);
int cgofuzz_buf_putc(cgofuzz_buf *b, uint8_t c);
int cgofuzz_buf_puts(cgofuzz_buf *b, const char *s);
int cgofuzz_buf_printf(cgofuzz_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cgofuzz_buf_free(cgofuzz_buf *b);
/* The buffer's bytes as a C string: the appends keep no NUL after the
 * data, so one is added past len (len is unchanged). "" when there is no
 * memory for it. */
char *cgofuzz_buf_cstr(cgofuzz_buf *b);

/* Writes all n bytes to fd, retrying short writes and EINTR. Returns 0, or
 * -1 with errno set. */
int cgofuzz_write_all(int fd, const void *p, size_t n);

/* Reads (writes) exactly n bytes at file offset off, retrying short
 * transfers and EINTR. Returns 0, or -1 with errno set (EIO when the file
 * ends first). */
int cgofuzz_pread_all(int fd, void *p, size_t n, uint64_t off);
int cgofuzz_pwrite_all(int fd, const void *p, size_t n, uint64_t off);

/* An error: a message and, for corpus files, the 1-based line it is about
 * (0 when it concerns no particular line). */
typedef struct cgofuzz_err {
  int line;
  char msg[512];
} cgofuzz_err;

/* Sets err (if not NULL) and returns -1, so callers can `return
 * cgofuzz_errf(...)`. */
int cgofuzz_errf(cgofuzz_err *err, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
