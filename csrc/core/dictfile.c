/*
 * dictfile.c: libFuzzer/AFL dictionary files (see dictfile.h).
 */
#include "dictfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "text.h"

static int is_blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Parses the line l[0..n) (no newline). Returns 1 and the value in *val
 * for an entry, 0 for a blank or comment line, -1 with *why on error. */
static int parse_line(const char *l, size_t n, cgofuzz_buf *val,
                      const char **why) {
  size_t i = 0;
  while (i < n && is_blank((unsigned char)l[i]))
    i++;
  if (i == n || l[i] == '#')
    return 0;
  const char *q = memchr(l + i, '"', n - i);
  if (!q) {
    *why = "no quoted value";
    return -1;
  }
  val->len = 0;
  for (i = (size_t)(q - l) + 1; i < n && l[i] != '"'; i++) {
    int c = (unsigned char)l[i];
    if (c == '\\') {
      if (i + 1 < n && (l[i + 1] == '\\' || l[i + 1] == '"')) {
        c = (unsigned char)l[++i];
      } else if (i + 3 < n && l[i + 1] == 'x' &&
                 cgofuzz_hexval(l[i + 2]) >= 0 &&
                 cgofuzz_hexval(l[i + 3]) >= 0) {
        c = cgofuzz_hexval(l[i + 2]) * 16 + cgofuzz_hexval(l[i + 3]);
        i += 3;
      } else {
        *why = "bad escape (only \\\\, \\\" and \\xHH)";
        return -1;
      }
    }
    if (cgofuzz_buf_putc(val, (uint8_t)c) != 0) {
      *why = NULL; /* out of memory */
      return -1;
    }
  }
  if (i >= n) {
    *why = "no closing quote";
    return -1;
  }
  for (i++; i < n; i++)
    if (!is_blank((unsigned char)l[i])) {
      *why = "text after the closing quote";
      return -1;
    }
  return 1;
}

int cgofuzz_dictfile_parse(const char *text, size_t len, const char *name,
                           cgofuzz_dictfile_add add, void *ctx,
                           cgofuzz_err *err) {
  cgofuzz_buf val = {0};
  int lineno = 0, rc = 0;
  for (size_t at = 0; at < len && rc == 0;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    const char *why = NULL;
    lineno++;
    int r = parse_line(text + at, n, &val, &why);
    if (r < 0 && why)
      rc = cgofuzz_errf(err, lineno, "%s:%d: malformed dictionary entry: %s",
                        name, lineno, why);
    else if (r < 0 || (r > 0 && add(ctx, val.data, val.len) != 0))
      rc = cgofuzz_errf(err, lineno, "out of memory");
    at += n + 1;
  }
  cgofuzz_buf_free(&val);
  return rc;
}

int cgofuzz_dictfile_load(const char *path, cgofuzz_dictfile_add add, void *ctx,
                          cgofuzz_err *err) {
  cgofuzz_buf text = {0};
  int rc = 0;
  if (cgofuzz_file_read(path, &text) != 0)
    rc = errno == ENOMEM ? cgofuzz_errf(err, 0, "out of memory")
                         : cgofuzz_errf(err, 0, "cannot read dictionary %s: %s",
                                        path, strerror(errno));
  if (rc == 0)
    rc = cgofuzz_dictfile_parse((const char *)text.data, text.len, path, add,
                                ctx, err);
  cgofuzz_buf_free(&text);
  return rc;
}

int cgofuzz_dictfile_quote(cgofuzz_buf *out, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  int rc = cgofuzz_buf_putc(out, '"');
  for (size_t i = 0; i < n && rc == 0; i++) {
    uint8_t c = p[i];
    if (c == '\\' || c == '"') {
      uint8_t e[2] = {'\\', c};
      rc = cgofuzz_buf_append(out, e, 2);
    } else if (c >= 0x20 && c < 0x7f) {
      rc = cgofuzz_buf_putc(out, c);
    } else {
      uint8_t e[4] = {'\\', 'x', (uint8_t)hex[c >> 4], (uint8_t)hex[c & 15]};
      rc = cgofuzz_buf_append(out, e, 4);
    }
  }
  return rc == 0 ? cgofuzz_buf_putc(out, '"') : rc;
}
