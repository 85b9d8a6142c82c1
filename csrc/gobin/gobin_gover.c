/*
 * gobin_gover.c: which Go release built a test binary, read from the
 * binary itself without running it (issue 14: the corpus codec, %q tables,
 * file names, timers and -test.* flags follow that release; gover.h).
 *
 * Every Go binary since go1.18 carries its build info in the ELF section
 * .go.buildinfo (Mach-O: __go_buildinfo; without section headers, at a
 * 16-byte aligned spot of its writable data): the 14-byte magic "\xff Go
 * buildinf:", a pointer size byte, a flags byte whose bit 1 (0x2) says the
 * strings are inline, padding to 32 bytes, then the Go version and the module
 * info, each as a uvarint length followed by that many bytes. (Binaries before
 * go1.18 used pointers instead of inline strings; they cannot fuzz and are
 * refused.) This is the layout Go's debug/buildinfo reads.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gobin.h"
#include "gobin_obj.h"
#include "gover.h"

#define BI_MAGIC "\xff Go buildinf:"
#define BI_MAGIC_LEN 14
#define BI_HEADER 32
#define BI_ALIGN 16
#define BI_FLAG_INLINE 0x2
#define BI_MAX (1u << 20) /* build info read; versions are tiny */

/* Reads the uvarint length at p[*i..n) and steps *i past it; false when it
 * is malformed or longer than what is left. */
static bool read_len(const uint8_t *p, size_t n, size_t *i, uint64_t *len) {
  *len = 0;
  for (int shift = 0;; shift += 7) {
    if (*i >= n || shift > 63)
      return false;
    *len |= (uint64_t)(p[*i] & 0x7F) << shift;
    if (!(p[(*i)++] & 0x80))
      break;
  }
  return *len <= n - *i;
}

/* Decodes a field of the build info bytes p[0..n) (starting at the magic):
 * BI_VERSION, the Go version; BI_MODPATH, the main module's path (the
 * "mod\t<path>\t..." line of the module info, which a binary built
 * outside a module lacks: then out is ""). Returns 1 and fills out, or -1
 * with err set. */
enum { BI_VERSION, BI_MODPATH };
static int decode_info(const uint8_t *p, size_t n, const char *binary,
                       int field, char *out, size_t outsize, cgofuzz_err *err) {
  if (n < BI_HEADER)
    return cgofuzz_errf(err, 0, "%s: truncated Go build info", binary);
  if (!(p[15] & BI_FLAG_INLINE))
    return cgofuzz_errf(err, 0,
                        "%s: built by a Go release older than go1.18 (no "
                        "inline build info), which cannot fuzz",
                        binary);
  uint64_t len = 0;
  size_t i = BI_HEADER;
  if (!read_len(p, n, &i, &len) || len == 0 || len >= outsize)
    return cgofuzz_errf(err, 0, "%s: bad Go version in build info", binary);
  if (field == BI_VERSION) {
    memcpy(out, p + i, (size_t)len);
    out[len] = '\0';
    return 1;
  }
  i += (size_t)len;
  if (!read_len(p, n, &i, &len))
    return cgofuzz_errf(err, 0, "%s: bad module info in build info", binary);
  const char *m = (const char *)p + i, *end = m + len;
  out[0] = '\0';
  for (const char *line = m; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t ll = nl ? (size_t)(nl - line) : (size_t)(end - line);
    if (ll > 4 && memcmp(line, "mod\t", 4) == 0) {
      const char *tab = memchr(line + 4, '\t', ll - 4);
      size_t pl = tab ? (size_t)(tab - line - 4) : ll - 4;
      if (pl >= outsize)
        return cgofuzz_errf(err, 0, "%s: module path too long", binary);
      memcpy(out, line + 4, pl);
      out[pl] = '\0';
      break;
    }
    if (!nl)
      break; /* line + ll + 1 would point past the end: undefined */
    line = nl + 1;
  }
  return 1;
}

/* Finds the build info of a binary: 1 (its field in out), 0 (none: not
 * a Go binary), -1 (err set). */
static int binary_info(const char *binary, int field, char *out, size_t outsize,
                       cgofuzz_err *err) {
  if (outsize > 0)
    out[0] = '\0';
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, binary, false, err) != 0)
    return -1;
  int rc = 0;
  /* 1. The section .go.buildinfo (Mach-O: __go_buildinfo). */
  const cgofuzz_gobin_obj_sect *s =
      cgofuzz_gobin_obj_section(&o, ".go.buildinfo");
  const uint8_t *p = cgofuzz_gobin_obj_bytes(&o, s);
  if (p) {
    size_t n = s->size < BI_MAX ? (size_t)s->size : BI_MAX;
    if (n < BI_MAGIC_LEN || memcmp(p, BI_MAGIC, BI_MAGIC_LEN) != 0)
      rc = cgofuzz_errf(err, 0, "%s: %s without its magic", binary, s->name);
    else
      rc = decode_info(p, n, binary, field, out, outsize, err);
  }
  /* 2. Without the section (ELF section headers stripped): the first
   * writable segment, at 16-byte alignment, as debug/buildinfo does. */
  for (size_t i = 0; rc == 0 && !s && i < o.nseg; i++) {
    const cgofuzz_gobin_obj_seg *g = &o.seg[i];
    if (!g->write)
      continue;
    size_t n = g->filesz < BI_MAX ? (size_t)g->filesz : BI_MAX;
    const uint8_t *b = o.map + g->off;
    for (size_t at = 0; at + BI_HEADER <= n; at += BI_ALIGN)
      if (memcmp(b + at, BI_MAGIC, BI_MAGIC_LEN) == 0) {
        rc = decode_info(b + at, n - at, binary, field, out, outsize, err);
        break;
      }
    break; /* only the first writable segment */
  }
  cgofuzz_gobin_obj_close(&o);
  return rc;
}

int cgofuzz_gobin_goversion(const char *binary, char *out, size_t outsize,
                            cgofuzz_err *err) {
  return binary_info(binary, BI_VERSION, out, outsize, err);
}

int cgofuzz_gobin_modpath(const char *binary, char *out, size_t outsize,
                          cgofuzz_err *err) {
  return binary_info(binary, BI_MODPATH, out, outsize, err);
}

int cgofuzz_gobin_gover(const char *binary, cgofuzz_gover *g,
                        cgofuzz_err *err) {
  char v[128];
  *g = CGOFUZZ_GOVER_NEWEST;
  int rc = cgofuzz_gobin_goversion(binary, v, sizeof v, err);
  if (rc <= 0)
    return rc;
  /* "go1.27.4", "go1.27rc1", or "devel go1.28-abcdef Tue ..." */
  const char *s = strncmp(v, "devel ", 6) == 0 ? v + 6 : v;
  size_t n = strcspn(s, " -+");
  cgofuzz_gover parsed;
  if (cgofuzz_gover_parse(s, n, &parsed) != 0)
    return cgofuzz_errf(err, 0, "%s: cannot read Go version \"%s\"", binary, v);
  *g = cgofuzz_gover_clamp(parsed);
  return 1;
}

bool cgofuzz_gobin_test_flag_ok(int g, const char *arg) {
  if (arg[0] != '-')
    return true;
  const char *p = arg + 1 + (arg[1] == '-');
  if (strncmp(p, "test.", 5) != 0)
    return true;
  p += 5;
  char name[64];
  size_t n = strcspn(p, "=");
  if (n == 0 || n >= sizeof name)
    return true;
  memcpy(name, p, n);
  name[n] = '\0';
  /* Only flags known to arrive after g are dropped: others (a C target's
   * own, or ones cgofuzz has no record of) are passed on as given. */
  return cgofuzz_gover_has_test_flag(g ? g : CGOFUZZ_GOVER_NEWEST, name) ||
         !cgofuzz_gover_has_test_flag(CGOFUZZ_GOVER_NEWEST, name);
}
