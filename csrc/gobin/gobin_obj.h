/*
 * gobin_obj.h: a Go or C binary read without running it
 * (gobin_obj.c): its sections, segments and symbols, from an ELF64 file
 * (Linux) or a Mach-O 64 file (macOS), little-endian, amd64 or arm64.
 *
 * The coordinator reads binaries for the size of their coverage counters
 * (gobin_counters.c), the Go release and main module of their build info
 * (gobin_gover.c) and the constants of their code and data
 * (gobin_godict.c). Those readers ask for sections by their ELF names
 * (".go.fuzzcntrs", ".go.buildinfo", "__sancov_cntrs"); in a Mach-O file
 * the same section is found under the name Go's and clang's linkers give
 * it there ("__go_fuzzcntrs", "__go_buildinfo", "__sancov_cntrs").
 */
#ifndef CGOFUZZ_GOBIN_OBJ_H
#define CGOFUZZ_GOBIN_OBJ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "buf.h"

/* A little-endian word of a binary's bytes (the machine is too: amd64,
 * arm64), read where it may be unaligned. */
static inline uint32_t cgofuzz_gobin_obj_u32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t cgofuzz_gobin_obj_u64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

enum { CGOFUZZ_OBJ_ELF = 1, CGOFUZZ_OBJ_MACHO = 2 };
enum { CGOFUZZ_ARCH_OTHER, CGOFUZZ_ARCH_AMD64, CGOFUZZ_ARCH_ARM64 };
enum { CGOFUZZ_SYM_OTHER, CGOFUZZ_SYM_FUNC, CGOFUZZ_SYM_OBJECT };

typedef struct cgofuzz_gobin_obj_sect {
  char name[32];    /* as the file names it (Mach-O: 16 bytes at most) */
  uint64_t addr;    /* virtual address */
  uint64_t size;    /* in memory */
  uint64_t off;     /* file offset of its bytes, when in_file */
  bool in_file;     /* its bytes are in the file (not .bss, zero-fill) */
  bool code, write; /* executable; writable */
} cgofuzz_gobin_obj_sect;

/* A loaded segment (ELF's PT_LOAD, Mach-O's LC_SEGMENT_64) with bytes in
 * the file: where build info is looked for when sections are missing. */
typedef struct cgofuzz_gobin_obj_seg {
  uint64_t addr, off, filesz;
  bool write;
} cgofuzz_gobin_obj_seg;

typedef struct cgofuzz_gobin_obj_sym {
  const char *name; /* in the mapping; Mach-O's leading '_' left out */
  uint64_t value;
  uint64_t size; /* Mach-O has none: up to the next symbol of its section */
  int kind;      /* CGOFUZZ_SYM_* */
} cgofuzz_gobin_obj_sym;

typedef struct cgofuzz_gobin_obj {
  const uint8_t *map; /* the whole file, read-only */
  size_t len;
  int format; /* CGOFUZZ_OBJ_* */
  int arch;   /* CGOFUZZ_ARCH_* */
  cgofuzz_gobin_obj_sect *sect;
  size_t nsect;
  cgofuzz_gobin_obj_seg *seg;
  size_t nseg;
  cgofuzz_gobin_obj_sym *sym; /* empty when stripped, or not asked for */
  size_t nsym;
} cgofuzz_gobin_obj;

/* Maps path and reads its headers (and, with symbols, its symbol table).
 * Returns 0, or -1 with err naming the file and what is wrong with it (not
 * an ELF or Mach-O file, big-endian or 32-bit, a universal binary,
 * truncated headers); o is then empty and needs no close. */
int cgofuzz_gobin_obj_open(cgofuzz_gobin_obj *o, const char *path, bool symbols,
                           cgofuzz_err *err);
void cgofuzz_gobin_obj_close(cgofuzz_gobin_obj *o);

/* The section of that ELF name (or its Mach-O twin); NULL if none. */
const cgofuzz_gobin_obj_sect *
cgofuzz_gobin_obj_section(const cgofuzz_gobin_obj *o, const char *elf_name);

/* The section's bytes in the mapping, NULL when they are not in the file. */
const uint8_t *cgofuzz_gobin_obj_bytes(const cgofuzz_gobin_obj *o,
                                       const cgofuzz_gobin_obj_sect *s);

/* The n bytes at virtual address va of a section that is in the file and
 * is not code (read-only data, data); NULL unless all n are in one. */
const uint8_t *cgofuzz_gobin_obj_data_at(const cgofuzz_gobin_obj *o,
                                         uint64_t va, uint64_t n);

/* "ELF" or "Mach-O", and "amd64", "arm64" or "other": for messages. */
/* The value of the symbol called name, of that kind (CGOFUZZ_SYM_*, or -1
 * for any), 0 when o has none (a stripped file). */
uint64_t cgofuzz_gobin_obj_sym_value(const cgofuzz_gobin_obj *o,
                                     const char *name, int kind);
/* The function symbol whose [value, value+size) holds addr, and addr's
 * offset in it; NULL when none does (a stripped file, a position-
 * independent one whose run-time addresses differ). */
const char *cgofuzz_gobin_obj_func_at(const cgofuzz_gobin_obj *o, uint64_t addr,
                                      uint64_t *off);
const char *cgofuzz_gobin_obj_format_name(const cgofuzz_gobin_obj *o);
const char *cgofuzz_gobin_obj_arch_name(const cgofuzz_gobin_obj *o);

#endif
