/*
 * gobin_pcln.h: Go's own function table (.gopclntab) of a Go binary, read
 * without running it (gobin_pcln.c): a function's entry and end by name,
 * the places where the compiler inlined it into its callers, and the
 * source line of an instruction.
 *
 * Invariants: a stripped binary (go test's binaries under -exec are
 * linked -s -w) keeps the table for tracebacks, so what is found here is
 * found in every binary of go1.18 and later; older or foreign tables are
 * "absent", never guessed at. Every offset read from the file is checked
 * against the bytes it indexes.
 */
#ifndef CGOFUZZ_GOBIN_PCLN_H
#define CGOFUZZ_GOBIN_PCLN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gobin_obj.h"

typedef struct cgofuzz_gobin_pcln {
  const cgofuzz_gobin_obj *obj;
  const uint8_t *h; /* the table's bytes */
  size_t n;
  bool go120; /* magic 0xfffffff1 (go1.20 on): _func has startLine */
  uint64_t nfunc, text, names, pctab, funcs;
  const uint8_t *md; /* the runtime's first module data, NULL: not found */
  /* The runtime's go:func.* base of funcdata, 0: unknown; read from md by
   * the first cgofuzz_gobin_pcln_inlined (gofunc_read), which alone needs
   * it: finding it reads inline trees, work a lookup by name need not do. */
  uint64_t gofunc;
  bool gofunc_read;
} cgofuzz_gobin_pcln;

/* Reads o's table into t: 0, or -1 when o has none this reader knows. */
int cgofuzz_gobin_pcln_open(const cgofuzz_gobin_obj *o, cgofuzz_gobin_pcln *t);
/* The entry of the function called name, and where the next one starts
 * (*end, when not NULL); 0 when there is none. */
uint64_t cgofuzz_gobin_pcln_find(const cgofuzz_gobin_pcln *t, const char *name,
                                 uint64_t *end);
/* Calls fn(ctx, site) for every place where a function called name was
 * inlined: site is the address of the instruction the compiler gives the
 * call's position (an inline mark at the start of the inlined body).
 * Returns how many, or -1 when the inline trees cannot be read (gofunc
 * unknown). */
long cgofuzz_gobin_pcln_inlined(cgofuzz_gobin_pcln *t, const char *name,
                                void (*fn)(void *ctx, uint64_t site),
                                void *ctx);

/* The source file and line of the instruction at pc (Go's pcfile and
 * pcln tables of the function that holds it); false when the table does
 * not say. *file points into the table. */
bool cgofuzz_gobin_pcln_line(const cgofuzz_gobin_pcln *t, uint64_t pc,
                             const char **file, int *line);

#endif
