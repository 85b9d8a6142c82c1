/*
 * dictfile.h: the dictionary file format of libFuzzer and AFL, read and
 * written. Pure parsing: the runtime's dictionary mutations (runtime/dict.c)
 * and the coordinator's (feedback/fb_tokens.c) both read files through it.
 *
 * One entry per line: `name="value"`, `name@level="value"` or `"value"`;
 * blank lines and lines whose first non-blank character is '#' are
 * ignored; in the value, \\ \" and \xHH are the only escapes; only blanks
 * may follow the closing quote. Lines end with \n (a \r before it is a
 * blank).
 */
#ifndef CGOFUZZ_DICTFILE_H
#define CGOFUZZ_DICTFILE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives one entry (p[0..n), n may be 0); returns 0, or -1 to stop (out
 * of memory). */
typedef int (*cgofuzz_dictfile_add)(void *ctx, const uint8_t *p, size_t n);

/* Parses text[0..len) and calls add for each entry, in order. On a
 * malformed line returns -1 with err->line set and err->msg
 * "NAME:LINE: malformed dictionary entry: REASON" (entries before it have
 * been added); -1 with "out of memory" when add fails. */
int cgofuzz_dictfile_parse(const char *text, size_t len, const char *name,
                           cgofuzz_dictfile_add add, void *ctx,
                           cgofuzz_err *err);

/* Reads the file at path and parses it (NAME is the path). An unreadable
 * file: -1 with "cannot read dictionary PATH: REASON". */
int cgofuzz_dictfile_load(const char *path, cgofuzz_dictfile_add add, void *ctx,
                          cgofuzz_err *err);

/* Appends p[0..n) as a quoted value that cgofuzz_dictfile_parse reads back
 * as it is: printable ASCII as itself, '\\' and '"' escaped, every other
 * byte as \xHH. Returns 0 or -1 (out of memory). */
int cgofuzz_dictfile_quote(cgofuzz_buf *out, const uint8_t *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
