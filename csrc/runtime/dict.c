/*
 * dict.c: dictionary mutations for C targets: libFuzzer/AFL dictionary
 * files, the auto-dictionary (tokens that found coverage), and "input to
 * state" replacement from the comparison log and the table of recent
 * compares (TORC, torc.c), plus insertion of TORC operands.
 *
 * These mutations are not Go's, so a coordinator cannot rebuild their
 * results by replaying Go's mutator; the worker applies them only in exact
 * mode, where every such input is published in the exact-input slot before
 * it runs (see cgofuzz/exact.h). The generator passed in is the worker's
 * private one, never the Go mutator's, so Go's replayable chain is
 * untouched by them.
 *
 * Files are libFuzzer/AFL dictionaries, read by core/dictfile.c (the
 * coordinator reads the same format for its own dictionary mutations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dictfile.h"
#include "runtime.h"

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
  if (n) /* an empty entry may come with no bytes at all (p NULL) */
    memcpy(d->e[d->n], p, n);
  d->len[d->n++] = n;
  return 0;
}

static int add_entry(void *ctx, const uint8_t *p, size_t n) {
  return push((cgofuzz_dict_ *)ctx, p, n);
}

int cgofuzz_dict_load_(cgofuzz_dict_ *d, const char *path) {
  cgofuzz_err err = {0};
  if (cgofuzz_dictfile_load(path, add_entry, d, &err) != 0) {
    fprintf(stderr, "cgofuzz: %s\n", err.msg);
    return -1;
  }
  return 0;
}

void cgofuzz_dict_free_(cgofuzz_dict_ *d) {
  for (size_t i = 0; i < d->n; i++)
    free(d->e[i]);
  free(d->e);
  free(d->len);
  memset(d, 0, sizeof *d);
}

/* ---- the auto-dictionary ---- */

bool cgofuzz_autodict_add_(cgofuzz_autodict_ *a, const uint8_t *t, size_t n) {
  if (n < 2 || n > CGOFUZZ_AUTODICT_MAX)
    return false;
  for (size_t i = 0; i < a->n; i++)
    if (a->len[i] == n && memcmp(a->e[i], t, n) == 0)
      return false;
  size_t at = a->n;
  if (a->n < CGOFUZZ_AUTODICT_N) {
    a->n++;
  } else {
    at = a->next;
    a->next = (a->next + 1) % CGOFUZZ_AUTODICT_N;
  }
  memcpy(a->e[at], t, n);
  a->len[at] = (uint8_t)n;
  return true;
}

/* ---- mutations ---- */

static void set_token(cgofuzz_token_ *tok, const uint8_t *p, size_t n) {
  if (!tok)
    return;
  if (n > sizeof tok->b)
    n = sizeof tok->b;
  memcpy(tok->b, p, n);
  tok->n = n;
}

/* Where from[0..n) first occurs in b[0..len) at or after a random start
 * (wrapping around); -1 if nowhere. */
static long find(cgofuzz_pcg *r, const uint8_t *b, size_t len,
                 const uint8_t *from, size_t n) {
  if (n == 0 || n > len)
    return -1;
  size_t m = len - n + 1, start = cgofuzz_pcg_u32n(r, (uint32_t)m);
  for (size_t k = 0; k < m; k++) {
    size_t i = (start + k) % m;
    if (b[i] == from[0] && memcmp(b + i, from, n) == 0)
      return (long)i;
  }
  return -1;
}

/* Replaces the first occurrence at or after a random start of from[0..fn)
 * in b[0..*len) (room: cap) with to[0..tn), moving the tail when the
 * lengths differ. */
static bool replace(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                    const uint8_t *from, size_t fn, const uint8_t *to,
                    size_t tn, cgofuzz_token_ *tok) {
  if (*len - (fn <= *len ? fn : *len) + tn > cap)
    return false;
  long at = find(r, b, *len, from, fn);
  if (at < 0)
    return false;
  size_t i = (size_t)at;
  if (tn != fn)
    memmove(b + i + tn, b + i + fn, *len - i - fn);
  memcpy(b + i, to, tn);
  *len = *len - fn + tn;
  set_token(tok, to, tn);
  return true;
}

static bool from_runs(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                      cgofuzz_token_ *tok) {
  const cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log_table_;
  size_t nr = l->nruns < CGOFUZZ_CMP_RUNS ? l->nruns : CGOFUZZ_CMP_RUNS;
  if (!nr)
    return false;
  size_t first = cgofuzz_pcg_u32n(r, (uint32_t)nr);
  for (size_t k = 0; k < nr; k++) {
    const cgofuzz_cmp_run_ *run = &l->runs[(first + k) % nr];
    /* Either side may be the input's: clang's trace_const_cmp1 gives the
     * constant first, so `data[3] != 'W'` arrives as ('W', data[3]), while
     * a loop over two arrays gives them in the source's order. */
    if (run->len && memcmp(run->a, run->b, run->len) != 0 &&
        (replace(r, b, len, cap, run->a, run->len, run->b, run->len, tok) ||
         replace(r, b, len, cap, run->b, run->len, run->a, run->len, tok)))
      return true;
  }
  return false;
}

static bool from_pairs(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                       cgofuzz_token_ *tok) {
  const cgofuzz_cmp_log_ *l = &cgofuzz_cmp_log_table_;
  size_t np = l->npairs < CGOFUZZ_CMP_PAIRS ? l->npairs : CGOFUZZ_CMP_PAIRS;
  if (!np)
    return false;
  size_t first = cgofuzz_pcg_u32n(r, (uint32_t)np);
  for (size_t k = 0; k < np; k++) {
    const cgofuzz_cmp_pair_ *p = &l->pairs[(first + k) % np];
    if (p->size < 2 || p->size > 8 || p->a == p->b)
      continue;
    uint8_t a[8], bb[8], ar[8], br[8];
    for (unsigned i = 0; i < p->size; i++) {
      a[i] = (uint8_t)(p->a >> (8 * i));
      bb[i] = (uint8_t)(p->b >> (8 * i));
      ar[p->size - 1 - i] = a[i];
      br[p->size - 1 - i] = bb[i];
    }
    /* Either side may be the input's; either byte order may be used. */
    size_t n = p->size;
    if (replace(r, b, len, cap, a, n, bb, n, tok) ||
        replace(r, b, len, cap, bb, n, a, n, tok) ||
        replace(r, b, len, cap, ar, n, br, n, tok) ||
        replace(r, b, len, cap, br, n, ar, n, tok))
      return true;
  }
  return false;
}

/* The TORC entry i if it holds something (clamped lengths: a race in the
 * hooks could have mixed two entries). */
static const cgofuzz_torc_entry_ *torc_at(size_t i, bool fresh_only,
                                          size_t *alen, size_t *blen) {
  const cgofuzz_torc_entry_ *e =
      &cgofuzz_torc_table_.e[i & (CGOFUZZ_TORC_N - 1)];
  if (!e->gen || (fresh_only && e->gen != cgofuzz_torc_table_.gen))
    return NULL;
  *alen = e->alen <= CGOFUZZ_TORC_MAX ? e->alen : CGOFUZZ_TORC_MAX;
  *blen = e->blen <= CGOFUZZ_TORC_MAX ? e->blen : CGOFUZZ_TORC_MAX;
  return *blen ? e : NULL;
}

/* Input to state from the byte-string comparisons of the last exec: one
 * operand found in the input is replaced by the other. */
static bool from_torc(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                      cgofuzz_token_ *tok) {
  size_t first = cgofuzz_pcg_u32n(r, CGOFUZZ_TORC_N), an, bn;
  for (size_t k = 0; k < CGOFUZZ_TORC_N; k++) {
    const cgofuzz_torc_entry_ *e = torc_at(first + k, true, &an, &bn);
    if (!e || !an || (an == bn && memcmp(e->a, e->b, an) == 0))
      continue;
    if (replace(r, b, len, cap, e->a, an, e->b, bn, tok) ||
        replace(r, b, len, cap, e->b, bn, e->a, an, tok))
      return true;
  }
  return false;
}

/* Writes t[0..n) into b: inserted at a random place, or over the bytes
 * there. */
static bool put(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                const uint8_t *t, size_t n) {
  if (n == 0)
    return false;
  if (cgofuzz_pcg_bool(r)) { /* insert */
    if (*len + n > cap)
      return false;
    size_t at = cgofuzz_pcg_u32n(r, (uint32_t)(*len + 1));
    memmove(b + at + n, b + at, *len - at);
    memcpy(b + at, t, n);
    *len += n;
  } else { /* overwrite */
    if (n > *len)
      return false;
    size_t at = cgofuzz_pcg_u32n(r, (uint32_t)(*len - n + 1));
    memcpy(b + at, t, n);
  }
  return true;
}

/* A TORC operand (any exec's, mostly the b side: a needle, or the side
 * that was not the input's more often than not) written into b. */
static bool torc_put(cgofuzz_pcg *r, uint8_t *b, size_t *len, size_t cap,
                     cgofuzz_token_ *tok) {
  size_t first = cgofuzz_pcg_u32n(r, CGOFUZZ_TORC_N), an, bn;
  for (size_t k = 0; k < CGOFUZZ_TORC_N; k++) {
    const cgofuzz_torc_entry_ *e = torc_at(first + k, false, &an, &bn);
    if (!e)
      continue;
    const uint8_t *t = e->b;
    size_t n = bn;
    if (an && cgofuzz_pcg_u32n(r, 4) == 0) {
      t = e->a;
      n = an;
    }
    if (!put(r, b, len, cap, t, n))
      return false;
    set_token(tok, t, n);
    return true;
  }
  return false;
}

/* An entry of the user's dictionary or of the auto-dictionary. */
static bool from_dict(cgofuzz_pcg *r, const cgofuzz_dict_ *d,
                      const cgofuzz_autodict_ *ad, uint8_t *b, size_t *len,
                      size_t cap) {
  size_t nd = d ? d->n : 0, na = ad ? ad->n : 0;
  if (nd + na == 0)
    return false;
  size_t i = cgofuzz_pcg_u32n(r, (uint32_t)(nd + na));
  if (i < nd)
    return put(r, b, len, cap, d->e[i], d->len[i]);
  return put(r, b, len, cap, ad->e[i - nd], ad->len[i - nd]);
}

bool cgofuzz_cmp_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d,
                         const cgofuzz_autodict_ *ad, uint8_t *b, size_t *len,
                         size_t cap, cgofuzz_token_ *tok) {
  if (tok)
    tok->n = 0;
  switch (cgofuzz_pcg_u32n(r, 5)) {
  case 0:
    if (from_runs(r, b, len, cap, tok) || from_pairs(r, b, len, cap, tok) ||
        from_torc(r, b, len, cap, tok))
      return true;
    break;
  case 1:
    if (from_pairs(r, b, len, cap, tok) || from_runs(r, b, len, cap, tok) ||
        from_torc(r, b, len, cap, tok))
      return true;
    break;
  case 2:
    if (from_torc(r, b, len, cap, tok) || from_pairs(r, b, len, cap, tok) ||
        from_runs(r, b, len, cap, tok))
      return true;
    break;
  case 3:
    if (torc_put(r, b, len, cap, tok))
      return true;
    break;
  default:
    break;
  }
  if (tok)
    tok->n = 0;
  return from_dict(r, d, ad, b, len, cap);
}

bool cgofuzz_dict_mutate_(cgofuzz_pcg *r, const cgofuzz_dict_ *d, uint8_t *b,
                          size_t *len, size_t cap) {
  return cgofuzz_cmp_mutate_(r, d, NULL, b, len, cap, NULL);
}
