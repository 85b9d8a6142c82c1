/*
 * coord_cov.c: the coordinator's view of coverage.
 *
 * A Go worker reports coverage as a snapshot of its counters where each
 * byte is reduced to its highest set bit, so one mask bit means "this block
 * ran about 2^k times". The coordinator keeps the OR of everything seen and
 * sends it with every fuzz call; a worker stops a call as soon as it sees a
 * bit outside that mask. All masks have the size of the binary's counter
 * section, which is read from the binary (ELF or Mach-O, coord_obj.c) so
 * that the very first call can already carry a (zero) mask, as Go's does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"
#include "coord_obj_internal.h"

size_t cgofuzz_cov_section_size(const char *binary, const char *section) {
  cgofuzz_obj o;
  if (cgofuzz_obj_open(&o, binary, false, NULL) != 0)
    return 0;
  const cgofuzz_obj_sect *s = cgofuzz_obj_section(&o, section);
  size_t n = s ? (size_t)s->size : 0;
  cgofuzz_obj_close(&o);
  return n;
}

/* Go's counter section has had three names: __libfuzzer_extra_counters
 * (go1.18), __sancov_cntrs (go1.19) and .go.fuzzcntrs (go1.20 on). The
 * go1.19 name is also the one clang gives a C target's counters, so it
 * counts as Go's only in a binary with Go's build info. */
const cgofuzz_obj_sect *cgofuzz_cov_go_section(const cgofuzz_obj *o) {
  const cgofuzz_obj_sect *s = cgofuzz_obj_section(o, ".go.fuzzcntrs");
  if (!s)
    s = cgofuzz_obj_section(o, "__libfuzzer_extra_counters");
  if (!s && cgofuzz_obj_section(o, ".go.buildinfo"))
    s = cgofuzz_obj_section(o, "__sancov_cntrs");
  return s;
}

size_t cgofuzz_coord_go_counters(const char *binary) {
  cgofuzz_obj o;
  if (cgofuzz_obj_open(&o, binary, false, NULL) != 0)
    return 0;
  const cgofuzz_obj_sect *s = cgofuzz_cov_go_section(&o);
  size_t n = s ? (size_t)s->size : 0;
  cgofuzz_obj_close(&o);
  return n;
}

size_t cgofuzz_cov_cgo_from(const char *binary, size_t mask_len) {
  cgofuzz_obj o;
  if (cgofuzz_obj_open(&o, binary, true, NULL) != 0)
    return SIZE_MAX;
  uint64_t tag = cgofuzz_obj_sym_value(&o, "cgofuzz_cgo_in_go_range", -1),
           go = cgofuzz_obj_sym_value(&o, "internal/fuzz._counters", -1),
           from = cgofuzz_obj_sym_value(&o, "__start___sancov_cntrs", -1),
           end = cgofuzz_obj_sym_value(&o, "internal/fuzz._ecounters", -1);
  cgofuzz_obj_close(&o);
  if (!tag || !go || from <= go || end <= from || end - go != mask_len)
    return SIZE_MAX;
  return (size_t)(from - go);
}

size_t cgofuzz_cov_new_bits(const uint8_t *mask, const uint8_t *snap,
                            size_t n) {
  size_t bits = 0;
  for (size_t i = 0; i < n; i++)
    /* A loop, not __builtin_popcount: that may need libgcc, and the
     * runtime links against libc only. */
    for (unsigned v = (unsigned)(snap[i] & ~mask[i]) & 0xffu; v; v &= v - 1)
      bits++;
  return bits;
}

void cgofuzz_cov_merge(uint8_t *mask, const uint8_t *snap, size_t n) {
  for (size_t i = 0; i < n; i++)
    mask[i] |= snap[i];
}

size_t cgofuzz_coord_counters(const char *binary) {
  size_t n = cgofuzz_coord_go_counters(binary);
  return n ? n : cgofuzz_cov_section_size(binary, "__sancov_cntrs");
}
