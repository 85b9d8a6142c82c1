/*
 * coord_internal.h: pieces shared by the coord_*.c files (not installed).
 *
 * The corpus holds encoded "go test fuzz v1" files in insertion order:
 * f.Add seeds, testdata files, cache files, then inputs found while
 * fuzzing. Entries are never removed and their data never moves, so a
 * worker's in-flight call can refer to an entry by index.
 */
#ifndef CGOFUZZ_COORD_INTERNAL_H
#define CGOFUZZ_COORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgofuzz/buf.h"
#include "cgofuzz/value.h"

typedef struct cgofuzz_centry {
  uint8_t *data; /* encoded corpus file, owned */
  size_t len;
  uint8_t sha[32];
  bool is_seed;
  char *name; /* "seed#N" or the file's base name, for messages */
} cgofuzz_centry;

typedef struct cgofuzz_corpus {
  cgofuzz_centry *e;
  size_t n, cap;
} cgofuzz_corpus;

/* Adds a copy of data unless an entry with the same SHA-256 exists.
 * Returns 1 if added, 0 if a duplicate, -1 when out of memory. */
int cgofuzz_corpus_add(cgofuzz_corpus *c, const uint8_t *data, size_t len,
                       bool is_seed, const char *name);
void cgofuzz_corpus_free(cgofuzz_corpus *c);

/* Checks that data decodes to values of exactly these kinds. On mismatch
 * returns -1 and writes Go's message ("mismatched types in corpus entry:
 * [..], want [..]", "wrong number of values ...", "unmarshal: ...") to msg.*/
int cgofuzz_corpus_typecheck(const uint8_t *data, size_t len,
                             const cgofuzz_kind *kinds, size_t n,
                             cgofuzz_buf *msg);

/* Loads the regular files of dir (sorted by name, as Go's ReadDir) into c.
 * strict: a malformed file is an error (appended to *errors as one
 * "\"path\": reason" line each) as for testdata; otherwise it is skipped, as
 * for the cache. A missing dir is empty. Returns -1 only on I/O errors
 * (message in *errors). */
int cgofuzz_corpus_load_dir(cgofuzz_corpus *c, const char *dir,
                            const cgofuzz_kind *kinds, size_t n, bool strict,
                            bool is_seed, cgofuzz_buf *errors);

/* mkdir -p dir, then writes data to dir/<Go's name> atomically (temporary
 * file and rename) with mode 0666 & ~umask. On success *path is the
 * malloc'd path. */
int cgofuzz_corpus_write(const char *dir, const uint8_t *data, size_t len,
                         char **path, cgofuzz_err *err);

/* The buffer's bytes as a C string: cgofuzz_buf_printf does not keep a
 * NUL after the data, so add one past len (len is unchanged). */
static inline char *coord_cstr(cgofuzz_buf *b) {
  if (cgofuzz_buf_putc(b, '\0') != 0)
    return (char *)"";
  b->len--;
  return (char *)b->data;
}

/* --- coverage (coord_cov.c) */

/* Size of the .go.fuzzcntrs section of an ELF binary (Go's coverage
 * counters): the length of every CoverageData. 0 when the binary is not
 * instrumented or not ELF. */
size_t cgofuzz_cov_counters_size(const char *binary);

/* Number of bits set in snap and not in mask (Go's countNewCoverageBits). */
size_t cgofuzz_cov_new_bits(const uint8_t *mask, const uint8_t *snap, size_t n);
/* mask |= snap. */
void cgofuzz_cov_merge(uint8_t *mask, const uint8_t *snap, size_t n);

/* --- formatting (coord_fmt.c) */

/* Appends a duration of whole seconds as Go prints a time.Duration rounded
 * to 1s: "0s", "59s", "1m0s", "2h3m4s". */
int cgofuzz_fmt_secs(cgofuzz_buf *b, int64_t secs);

#endif
