/*
 * dict.c: dictionary mutations for C targets: libFuzzer/AFL dictionary
 * files and "input to state" replacement from the comparison log.
 *
 * These mutations are not Go's, so a coordinator cannot rebuild their
 * results by replaying Go's mutator; the worker applies them only in exact
 * mode, where every such input is published in the exact-input slot before
 * it runs (see cgofuzz/exact.h). The generator passed in is the worker's
 * private one, never the Go mutator's, so Go's replayable chain is
 * untouched by them.
 *
 * File format (libFuzzer and AFL share it): one entry per line,
 * `name="value"`, `name@level="value"` or `"value"`; blank lines and lines
 * starting with '#' are ignored; in the value, \\ \" and \xHH escape.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "text.h"

static int push(cgofuzz_dict_ *d, const uint8_t *p, size_t n) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 32;
    uint8_t **e = realloc(d->e, cap * sizeof *e);
    if (!e)
      return -1;
    d->e = e;
    size_t *l = realloc(d->len, cap * sizeof *l);
    if (!l)
      return -1;
    d->len = l;
    d->cap = cap;
  }
  d->e[d->n] = malloc(n ? n : 1);
  if (!d->e[d->n])
    return -1;
  memcpy(d->e[d->n], p, n);
  d->len[d->n++] = n;
  return 0;
}

/* Parses the quoted value starting at q (after the opening quote) into
 * out; returns its length or -1. */
static long unquote(const char *q, uint8_t *out) {
  long n = 0;
  for (; *q && *q != '"'; q++) {
    int c = (unsigned char)*q;
    if (c == '\\') {
      q++;
      if (*q == '\\' || *q == '"') {
        c = (unsigned char)*q;
      } else if (*q == 'x' && cgofuzz_hexval(q[1]) >= 0 &&
                 cgofuzz_hexval(q[2]) >= 0) {
        c = cgofuzz_hexval(q[1]) * 16 + cgofuzz_hexval(q[2]);
        q += 2;
      } else {
        return -1;
      }
    }
    out[n++] = (uint8_t)c;
  }
  if (*q != '"')
    return -1;
  for (q++; *q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'; q++)
    ;
  return *q ? -1 : n;
}

int cgofuzz_dict_load_(cgofuzz_dict_ *d, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cgofuzz: cannot read dictionary %s\n", path);
    return -1;
  }
  char line[8192];
  uint8_t val[8192];
  int lineno = 0, rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    lineno++;
    char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0)
      continue;
    char *q = strchr(p, '"');
    long n = q ? unquote(q + 1, val) : -1;
    if (n < 0 || push(d, val, (size_t)n) != 0) {
      fprintf(stderr, "cgofuzz: %s:%d: malformed dictionary entry\n", path,
              lineno);
      rc = -1;
    }
  }
  fclose(f);
  return rc;
}

void cgofuzz_dict_free_(cgofuzz_dict_ *d) {
  for (size_t i = 0; i < d->n; i++)
    free(d->e[i]);
  free(d->e);
  free(d->len);
  memset(d, 0, sizeof *d);
}

/* Replaces the first occurrence at or after a random start of from[0..n)
 * in b with to[0..n). */
static bool replace(cgofuzz_pcg *r, uint8_t *b, size_t len, const uint8_t *from,
                    const uint8_t *to, size_t n) {
  if (n == 0 || n > len)
    return false;
  size_t start = cgofuzz_pcg_u32n(r, (uint32_t)(len - n + 1));
  for (size_t k = 0; k <= len - n; k++) {
    size_t i = (start + k) % (len - n + 1);
    if (memcmp(b + i, from, n) == 0) {
      memcpy(b + i, to, n);
      return true;
    }
  }
  return false;
}

static bool from_runs(cgofuzz_pcg *r, uint8_t *b, size_t len) {
  const cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log;
  size_t nr = l->nruns < CGOFUZZ_CMP_RUNS ? l->nruns : CGOFUZZ_CMP_RUNS;
  if (!nr)
    return false;
  size_t first = cgofuzz_pcg_u32n(r, (uint32_t)nr);
  for (size_t k = 0; k < nr; k++) {
    const cgofuzz_cmp_run_ *run = &l->runs[(first + k) % nr];
    if (run->len && memcmp(run->a, run->b, run->len) != 0 &&
        replace(r, b, len, run->a, run->b, run->len))
      return true;
  }
  return false;
}

static bool from_pairs(cgofuzz_pcg *r, uint8_t *b, size_t len) {
  const cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log;
  size_t np = l->npairs < CGOFUZZ_CMP_PAIRS ? l->npairs : CGOFUZZ_CMP_PAIRS;
  if (!np)
    return false;
  size_t first = cgofuzz_pcg_u32n(r, (uint32_t)np);
  for (size_t k = 0; k < np; k++) {
    const cgofuzz_cmp_pair_ *p = &l->pairs[(first + k) % np];
    if (p->size < 2 || p->a == p->b)
      continue;
    uint8_t a[8], bb[8], ar[8], br[8];
    for (unsigned i = 0; i < p->size; i++) {
      a[i] = (uint8_t)(p->a >> (8 * i));
      bb[i] = (uint8_t)(p->b >> (8 * i));
      ar[p->size - 1 - i] = a[i];
      br[p->size - 1 - i] = bb[i];
    }
    /* Either side may be the input's; either byte order may be used. */
    if (replace(r, b, len, a, bb, p->size) ||
        replace(r, b, len, bb, a, p->size) ||
        replace(r, b, len, ar, br, p->size) ||
        replace(r, b, len, br, ar, p->size))
      return true;
  }
  return false;
}

static bool from_dict(cgofuzz_pcg *r, const cgofuzz_dict_ *d, uint8_t *b,
                      size_t *len, size_t cap) {
  if (!d || !d->n)
    return false;
  size_t i = cgofuzz_pcg_u32n(r, (uint32_t)d->n);
  size_t n = d->len[i];
  if (cgofuzz_pcg_bool(r)) { /* insert */
    if (*len + n > cap)
      return false;
    size_t at = cgofuzz_pcg_u32n(r, (uint32_t)(*len + 1));
    memmove(b + at + n, b + at, *len - at);
    memcpy(b + at, d->e[i], n);
    *len += n;
  } else { /* overwrite */
    if (n > *len)
      return false;
    size_t at = cgofuzz_pcg_u32n(r, (uint32_t)(*len - n + 1));
    memcpy(b + at, d->e[i], n);
  }
  return true;
}

bool cgofuzz_dict_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d, uint8_t *b,
                          size_t *len, size_t cap) {
  switch (cgofuzz_pcg_u32n(r, 3)) {
  case 0:
    if (from_runs(r, b, *len) || from_pairs(r, b, *len))
      return true;
    break;
  case 1:
    if (from_pairs(r, b, *len) || from_runs(r, b, *len))
      return true;
    break;
  default:
    break;
  }
  return from_dict(r, d, b, len, cap);
}
