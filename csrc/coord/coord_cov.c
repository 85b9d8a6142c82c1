/*
 * coord_cov.c: the coordinator's view of coverage.
 *
 * A Go worker reports coverage as a snapshot of its counters where each
 * byte is reduced to its highest set bit, so one mask bit means "this block
 * ran about 2^k times". The coordinator keeps the OR of everything seen and
 * sends it with every fuzz call; a worker stops a call as soon as it sees a
 * bit outside that mask. All masks have the size of the binary's counter
 * section, which is read from the ELF file so that the very first call can
 * already carry a (zero) mask, as Go's does.
 */
#include "elf64.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"

size_t cgofuzz_cov_section_size(const char *binary, const char *section) {
  FILE *f = fopen(binary, "rb");
  if (!f)
    return 0;
  size_t result = 0;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  char *names = NULL;
  if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, 4) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 ||
      eh.e_shstrndx >= eh.e_shnum)
    goto done;
  sh = calloc(eh.e_shnum, sizeof *sh);
  if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) != 0 ||
      fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum)
    goto done;
  Elf64_Shdr *strs = &sh[eh.e_shstrndx];
  if (strs->sh_size == 0 || strs->sh_size > (64u << 20))
    goto done;
  names = malloc(strs->sh_size + 1);
  if (!names || fseek(f, (long)strs->sh_offset, SEEK_SET) != 0 ||
      fread(names, 1, strs->sh_size, f) != strs->sh_size)
    goto done;
  names[strs->sh_size] = '\0';
  for (size_t i = 0; i < eh.e_shnum; i++) {
    if (sh[i].sh_name < strs->sh_size &&
        strcmp(names + sh[i].sh_name, section) == 0) {
      result = (size_t)sh[i].sh_size;
      break;
    }
  }
done:
  free(names);
  free(sh);
  fclose(f);
  return result;
}

size_t cgofuzz_cov_counters_size(const char *binary) {
  size_t n = cgofuzz_cov_section_size(binary, ".go.fuzzcntrs");
  /* go1.18 and go1.19 named the section as libFuzzer does (issue 14). */
  return n ? n : cgofuzz_cov_section_size(binary, "__libfuzzer_extra_counters");
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
  size_t n = cgofuzz_cov_counters_size(binary);
  return n ? n : cgofuzz_cov_section_size(binary, "__sancov_cntrs");
}

size_t cgofuzz_coord_go_counters(const char *binary) {
  return cgofuzz_cov_counters_size(binary);
}
