/*
 * buf.c: growable byte buffers and error records.
 *
 * Buffers grow geometrically so that appending is amortised O(1); the
 * encoders append to them one token at a time.
 */
#include "buf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cgofuzz_buf_reserve(cgofuzz_buf *b, size_t n) {
  if (b->failed)
    return -1;
  if (b->cap - b->len >= n)
    return 0;
  if (n > SIZE_MAX / 2 - b->len) {
    b->failed = true;
    return -1;
  }
  size_t want = b->len + n;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < want)
    cap *= 2;
  uint8_t *p = realloc(b->data, cap);
  if (!p) {
    b->failed = true;
    return -1;
  }
  b->data = p;
  b->cap = cap;
  return 0;
}

int cgofuzz_buf_append(cgofuzz_buf *b, const void *p, size_t n) {
  if (n == 0)
    return b->failed ? -1 : 0;
  if (cgofuzz_buf_reserve(b, n) != 0)
    return -1;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return 0;
}

int cgofuzz_buf_putc(cgofuzz_buf *b, uint8_t c) {
  if ((b->len == b->cap || b->failed) && cgofuzz_buf_reserve(b, 1) != 0)
    return -1;
  b->data[b->len++] = c;
  return 0;
}

char *cgofuzz_buf_cstr(cgofuzz_buf *b) {
  if (cgofuzz_buf_putc(b, '\0') != 0)
    return (char *)"";
  b->len--;
  return (char *)b->data;
}

int cgofuzz_buf_puts(cgofuzz_buf *b, const char *s) {
  return cgofuzz_buf_append(b, s, strlen(s));
}

int cgofuzz_buf_printf(cgofuzz_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[128];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return -1;
  if ((size_t)n < sizeof small)
    return cgofuzz_buf_append(b, small, (size_t)n);
  if (cgofuzz_buf_reserve(b, (size_t)n + 1) != 0)
    return -1;
  va_start(ap, fmt);
  vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

void cgofuzz_buf_free(cgofuzz_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->failed = false;
}

int cgofuzz_write_all(int fd, const void *p, size_t n) {
  const uint8_t *q = p;
  while (n > 0) {
    ssize_t k = write(fd, q, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return -1;
    q += k;
    n -= (size_t)k;
  }
  return 0;
}

/* One positioned transfer loop for both directions. */
static int pio_all(int fd, uint8_t *p, size_t n, uint64_t off, bool out) {
  while (n > 0) {
    ssize_t k =
        out ? pwrite(fd, p, n, (off_t)off) : pread(fd, p, n, (off_t)off);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      if (k == 0)
        errno = EIO;
      return -1;
    }
    p += k;
    n -= (size_t)k;
    off += (uint64_t)k;
  }
  return 0;
}

int cgofuzz_pread_all(int fd, void *p, size_t n, uint64_t off) {
  return pio_all(fd, p, n, off, false);
}

int cgofuzz_pwrite_all(int fd, const void *p, size_t n, uint64_t off) {
  return pio_all(fd, (uint8_t *)p, n, off, true); /* only read from */
}

int cgofuzz_errf(cgofuzz_err *err, int line, const char *fmt, ...) {
  if (err) {
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}
