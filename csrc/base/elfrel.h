/*
 * elfrel.h: small edits of 64-bit little-endian ELF relocatable objects
 * (.o files), made in place, for `cgofuzz cgo-cc` (cli/cmd_cgocc.c):
 * the bytes sections of a name take, turning sections into NOBITS, a
 * symbol's value and section, moving the symbols at one place, whether an
 * object defines a symbol.
 *
 * Each call opens, reads the headers it needs, writes only the bytes it
 * changes (pwrite) and closes. None changes the file's size or layout, so
 * an object stays valid for every other tool. A file that is not a
 * 64-bit little-endian ELF relocatable object is an error, except for the
 * read-only questions, which answer "nothing" (0) for it: a link line
 * holds archives, scripts and shared objects besides .o files.
 */
#ifndef CGOFUZZ_BASE_ELFREL_H
#define CGOFUZZ_BASE_ELFREL_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "hashset.h"

/* The bytes sections named name take when appended, in the order of the
 * file's section table, at offset *at (aligned as each requires); *at is
 * advanced past them. A section in a COMDAT group whose signature groups
 * already holds (the hashes of the signatures of the groups of the
 * objects appended before, in link order) takes none, since the linker
 * keeps the first object's copy of a group and drops the others (C++'s
 * inline and template functions, each object's copy of their counters);
 * the file's groups are added to it. groups may be NULL (every section
 * counts). 0, or -1 with err set for
 * an unreadable ELF file or a section that cannot be placed (an alignment
 * that is not a power of two, an offset past 2^64). */
int cgofuzz_elfrel_append_size(const char *path, const char *name, uint64_t *at,
                               cgofuzz_hashset *groups, cgofuzz_err *err);

/* Makes every section named name SHT_NOBITS (its bytes must be zero: the
 * file keeps them, the loader no longer reads them). Sets *count to the
 * number of sections changed. 0, or -1 with err set. */
int cgofuzz_elfrel_make_nobits(const char *path, const char *name, int *count,
                               cgofuzz_err *err);

/* The name (up to n bytes, NUL included) and size of section index shndx.
 * 0, or -1 with err set (a bad file, or no such section). */
int cgofuzz_elfrel_section(const char *path, uint64_t shndx, char *name,
                           size_t n, uint64_t *size, cgofuzz_err *err);

/* Adds delta to the value of every symbol defined in section shndx whose
 * value is value (a range's end and its aliases); *moved counts them. 0,
 * or -1 with err set. */
int cgofuzz_elfrel_move_symbols(const char *path, uint64_t shndx,
                                uint64_t value, uint64_t delta, int *moved,
                                cgofuzz_err *err);

/* The value and section index of symbol name where the object defines it:
 * 1, 0 when it does not, -1 with err set on a bad file. */
int cgofuzz_elfrel_symbol(const char *path, const char *name, uint64_t *value,
                          uint64_t *shndx, cgofuzz_err *err);

/* Whether the object defines (not just references) symbol name. */
bool cgofuzz_elfrel_defines(const char *path, const char *name);

#endif
