/* lines.h: the one reader of newline-framed messages.
 *
 * Go's worker protocol sends one JSON message per line on fds 3 and 4; the
 * coordinator reads replies without blocking (it polls many workers), a
 * worker reads calls blocking. Both use this reader: bytes go in by
 * cgofuzz_lines_fill (one read(2)), whole lines come out by
 * cgofuzz_lines_next. A line stays valid until the next call on the reader.
 */
#ifndef CGOFUZZ_LINES_H
#define CGOFUZZ_LINES_H
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_lines {
  cgofuzz_buf buf; /* unread bytes start at `consumed` */
  size_t consumed; /* bytes of buf handed out as lines already */
  size_t scanned;  /* bytes of buf known to hold no '\n' */
} cgofuzz_lines;

/* Hands out the next complete line (without its '\n') in *line, *len and
 * returns 1, or returns 0 when no complete line is buffered. */
int cgofuzz_lines_next(cgofuzz_lines *r, const uint8_t **line, size_t *len);

/* Reads once from fd (whatever one read(2) returns, at most `chunk` bytes).
 * Returns the number of bytes read, 0 at EOF, -1 on an error (errno set;
 * EINTR is retried, EAGAIN is returned as -1 for non-blocking fds). */
long cgofuzz_lines_fill(cgofuzz_lines *r, int fd, size_t chunk);

/* Bytes buffered that are not part of a complete line yet. */
size_t cgofuzz_lines_pending(const cgofuzz_lines *r);

/* Blocks until a complete line is available from fd: 1 and the line, 0 at
 * EOF with nothing pending, -1 on an error or EOF in the middle of a line. */
int cgofuzz_lines_read(cgofuzz_lines *r, int fd, const uint8_t **line,
                       size_t *len);

void cgofuzz_lines_free(cgofuzz_lines *r);

#ifdef __cplusplus
}
#endif
#endif
