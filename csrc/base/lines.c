/* lines.c: newline framing over a growing buffer (see lines.h).
 *
 * Consumed lines are dropped lazily, when more bytes are about to be read,
 * so handing out a line never moves memory; `scanned` keeps a partial line
 * from being searched for '\n' again after every read. */
#include "lines.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

int cgofuzz_lines_next(cgofuzz_lines *r, const uint8_t **line, size_t *len) {
  size_t from = r->scanned > r->consumed ? r->scanned : r->consumed;
  if (from >= r->buf.len)
    return 0;
  const uint8_t *nl = memchr(r->buf.data + from, '\n', r->buf.len - from);
  if (!nl) {
    r->scanned = r->buf.len;
    return 0;
  }
  *line = r->buf.data + r->consumed;
  *len = (size_t)(nl - *line);
  r->consumed = (size_t)(nl - r->buf.data) + 1;
  r->scanned = r->consumed;
  return 1;
}

long cgofuzz_lines_fill(cgofuzz_lines *r, int fd, size_t chunk) {
  if (r->consumed) { /* drop the lines handed out before */
    memmove(r->buf.data, r->buf.data + r->consumed, r->buf.len - r->consumed);
    r->buf.len -= r->consumed;
    r->scanned -= r->consumed;
    r->consumed = 0;
  }
  if (cgofuzz_buf_reserve(&r->buf, chunk) != 0) {
    errno = ENOMEM;
    return -1;
  }
  for (;;) {
    ssize_t k = read(fd, r->buf.data + r->buf.len, chunk);
    if (k < 0 && errno == EINTR)
      continue;
    if (k > 0)
      r->buf.len += (size_t)k;
    return (long)k;
  }
}

size_t cgofuzz_lines_pending(const cgofuzz_lines *r) {
  return r->buf.len - r->consumed;
}

int cgofuzz_lines_read(cgofuzz_lines *r, int fd, const uint8_t **line,
                       size_t *len) {
  for (;;) {
    if (cgofuzz_lines_next(r, line, len))
      return 1;
    long k = cgofuzz_lines_fill(r, fd, 65536);
    if (k < 0)
      return -1;
    if (k == 0)
      return cgofuzz_lines_pending(r) == 0 ? 0 : -1;
  }
}

void cgofuzz_lines_free(cgofuzz_lines *r) {
  cgofuzz_buf_free(&r->buf);
  memset(r, 0, sizeof *r);
}
