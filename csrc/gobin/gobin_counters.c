/*
 * gobin_counters.c: a binary's coverage counters, read from the file.
 *
 * Invariants: every mask of a run has the size of the binary's counter
 * section, read here (ELF or Mach-O, gobin_obj.c) so that the very first
 * call can already carry a (zero) mask, as Go's does; a binary that cannot
 * be read has 0 counters (the run goes on unguided, and says so), never a
 * guessed size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gobin.h"
#include "gobin_obj.h"

size_t cgofuzz_gobin_section_size(const char *binary, const char *section) {
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, binary, false, NULL) != 0)
    return 0;
  const cgofuzz_gobin_obj_sect *s = cgofuzz_gobin_obj_section(&o, section);
  size_t n = s ? (size_t)s->size : 0;
  cgofuzz_gobin_obj_close(&o);
  return n;
}

/* Go's counter section has had three names: __libfuzzer_extra_counters
 * (go1.18), __sancov_cntrs (go1.19) and .go.fuzzcntrs (go1.20 on). The
 * go1.19 name is also the one clang gives a C target's counters, so it
 * counts as Go's only in a binary with Go's build info. */
const cgofuzz_gobin_obj_sect *
cgofuzz_gobin_go_section(const cgofuzz_gobin_obj *o) {
  const cgofuzz_gobin_obj_sect *s =
      cgofuzz_gobin_obj_section(o, ".go.fuzzcntrs");
  if (!s)
    s = cgofuzz_gobin_obj_section(o, "__libfuzzer_extra_counters");
  if (!s && cgofuzz_gobin_obj_section(o, ".go.buildinfo"))
    s = cgofuzz_gobin_obj_section(o, "__sancov_cntrs");
  return s;
}

size_t cgofuzz_gobin_go_counters(const char *binary) {
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, binary, false, NULL) != 0)
    return 0;
  const cgofuzz_gobin_obj_sect *s = cgofuzz_gobin_go_section(&o);
  size_t n = s ? (size_t)s->size : 0;
  cgofuzz_gobin_obj_close(&o);
  return n;
}

size_t cgofuzz_gobin_cgo_from(const char *binary, size_t mask_len) {
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, binary, true, NULL) != 0)
    return SIZE_MAX;
  uint64_t tag = cgofuzz_gobin_obj_sym_value(&o, "cgofuzz_cgo_in_go_range", -1),
           go = cgofuzz_gobin_obj_sym_value(&o, "internal/fuzz._counters", -1),
           from = cgofuzz_gobin_obj_sym_value(&o, "__start___sancov_cntrs", -1),
           end =
               cgofuzz_gobin_obj_sym_value(&o, "internal/fuzz._ecounters", -1);
  cgofuzz_gobin_obj_close(&o);
  if (!tag || !go || from <= go || end <= from || end - go != mask_len)
    return SIZE_MAX;
  return (size_t)(from - go);
}

size_t cgofuzz_gobin_counters(const char *binary) {
  size_t n = cgofuzz_gobin_go_counters(binary);
  return n ? n : cgofuzz_gobin_section_size(binary, "__sancov_cntrs");
}
