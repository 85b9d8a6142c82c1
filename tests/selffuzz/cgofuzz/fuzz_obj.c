/*
 * fuzz_obj.c: self-fuzzing harness (libFuzzer form, built with `cgofuzz
 * cc`) for the reader of ELF64 and Mach-O 64 files (csrc/gobin/gobin_obj.c)
 * and the Go build info read through it (csrc/gobin/gobin_gover.c).
 *
 * The coordinator reads the test binary it is given with these before
 * anything runs it, and a binary can be truncated (a build killed half-way)
 * or crafted. Both take a path, so the input is written to a memfd and read
 * back as /proc/self/fd/N. When the file opens, every section, segment and
 * symbol the reader reports is checked to lie in the file, and the lookups
 * the coordinator makes (sections by name, data at an address, a symbol by
 * name, the function at an address) run on it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gobin.h"
#include "gobin_obj.h"
#include "gover.h"

#include "harness_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether p..p+n lies in o's mapping. */
static int in_map(const cgofuzz_gobin_obj *o, const void *p, uint64_t n) {
  const uint8_t *b = p;
  return b >= o->map && b <= o->map + o->len &&
         n <= (uint64_t)(o->map + o->len - b);
}

static void check_obj(const cgofuzz_gobin_obj *o) {
  CHECK(o->format == CGOFUZZ_OBJ_ELF || o->format == CGOFUZZ_OBJ_MACHO);
  for (size_t i = 0; i < o->nsect; i++) {
    const cgofuzz_gobin_obj_sect *s = &o->sect[i];
    CHECK(memchr(s->name, 0, sizeof s->name) != NULL);
    const uint8_t *b = cgofuzz_gobin_obj_bytes(o, s);
    CHECK(!s->in_file || (b && in_map(o, b, s->size)));
    /* The coordinator asks for sections by their ELF names. */
    if (s->name[0] == '.')
      CHECK(cgofuzz_gobin_obj_section(o, s->name) != NULL);
    /* Data at the section's start and end, a word and a byte. */
    for (uint64_t n = 1; n <= 8; n += 7) {
      const uint8_t *d = cgofuzz_gobin_obj_data_at(o, s->addr, n);
      CHECK(!d || in_map(o, d, n));
      d = cgofuzz_gobin_obj_data_at(o, s->addr + s->size - n, n);
      CHECK(!d || in_map(o, d, n));
    }
  }
  for (size_t i = 0; i < o->nseg; i++)
    CHECK(o->seg[i].off <= o->len &&
          o->seg[i].filesz <= o->len - o->seg[i].off);
  for (size_t i = 0; i < o->nsym && i < 256; i++) {
    const cgofuzz_gobin_obj_sym *y = &o->sym[i];
    if (y->name[0])
      CHECK(in_map(o, y->name, strlen(y->name) + 1));
    /* The first symbol of a name is the one a lookup finds. */
    CHECK(i > 0 ||
          cgofuzz_gobin_obj_sym_value(o, y->name, y->kind) == y->value);
    uint64_t off = 0;
    const char *f = cgofuzz_gobin_obj_func_at(o, y->value, &off);
    CHECK(!f || (f[0] && in_map(o, f, strlen(f) + 1)));
  }
  cgofuzz_gobin_obj_section(o, ".go.buildinfo");
  cgofuzz_gobin_obj_section(o, "__sancov_cntrs");
  cgofuzz_gobin_obj_section(o, "");
  CHECK(cgofuzz_gobin_obj_format_name(o) && cgofuzz_gobin_obj_arch_name(o));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536)
    return 0;
  const char *path = harness_file(data, size);
  for (int symbols = 0; symbols < 2; symbols++) {
    cgofuzz_gobin_obj o;
    cgofuzz_err err = {0};
    if (cgofuzz_gobin_obj_open(&o, path, symbols, &err) == 0) {
      CHECK(o.len == size && (symbols || o.nsym == 0));
      check_obj(&o);
      cgofuzz_gobin_obj_close(&o);
    } else {
      CHECK(err.msg[0] != '\0' && o.map == NULL && o.nsect == 0);
    }
  }
  /* Go build info: the version, the main module, the parsed release. */
  char out[128];
  cgofuzz_err err = {0};
  int rc = cgofuzz_gobin_goversion(path, out, sizeof out, &err);
  CHECK(rc >= -1 && rc <= 1);
  CHECK(rc != 1 || strlen(out) < sizeof out); /* NULs may cut it */
  char small[8];
  rc = cgofuzz_gobin_modpath(path, small, sizeof small, &err);
  CHECK(rc != 1 || strlen(small) < sizeof small);
  cgofuzz_gover g;
  rc = cgofuzz_gobin_gover(path, &g, &err);
  CHECK(rc >= -1 && rc <= 1);
  return 0;
}
