/*
 * elfrel.h: small edits of 64-bit little-endian ELF relocatable objects
 * (.o files), made in place, for `cgofuzz cgo-cc` (cli/cmd_cgocc.c):
 * reading a section's total size, turning a section into NOBITS, moving
 * a symbol's value, asking whether an object defines a symbol.
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

/* The bytes sections named name take when appended, in the order of the
 * file's section table, at offset *at (aligned as each requires); *at is
 * advanced past them. 0, or -1 with err set for an unreadable ELF file. */
int cgofuzz_elfrel_append_size(const char *path, const char *name, uint64_t *at,
                               cgofuzz_err *err);

/* Makes every section named name SHT_NOBITS (its bytes must be zero: the
 * file keeps them, the loader no longer reads them). Sets *count to the
 * number of sections changed. 0, or -1 with err set. */
int cgofuzz_elfrel_make_nobits(const char *path, const char *name, int *count,
                               cgofuzz_err *err);

/* The size of the section named name in *size (the first, if several).
 * Returns 1 when the section exists, 0 when not, -1 with err set on a bad
 * file. */
int cgofuzz_elfrel_find_section(const char *path, const char *name,
                                uint64_t *size, cgofuzz_err *err);

/* Adds delta to the value of every symbol whose name is in names[] (n of
 * them); *moved counts them. 0, or -1 with err set. */
int cgofuzz_elfrel_move_symbols(const char *path, const char *const *names,
                                int n, uint64_t delta, int *moved,
                                cgofuzz_err *err);

/* The value of symbol name where the object defines it: 1 (with *value
 * set), 0 when it does not, -1 with err set on a bad file. */
int cgofuzz_elfrel_symbol_value(const char *path, const char *name,
                                uint64_t *value, cgofuzz_err *err);

/* Whether the object defines (not just references) symbol name. */
bool cgofuzz_elfrel_defines(const char *path, const char *name);

#endif
