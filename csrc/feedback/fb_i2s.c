/*
 * fb_i2s.c: input-to-state candidates for Go fuzz targets (RedQueen's
 * idea, docs/comparisons.md), from the comparison records of one run.
 *
 * A comparison whose operand came straight from the input (a byte, a word
 * read with encoding/binary, a number parsed by strconv, a field split from
 * a string) still holds that operand in the input in some encoding.
 * Finding it there and writing the other operand in the same encoding
 * gives an input that passes the comparison, without search. For each
 * record, both directions are tried (x is the operand looked for, y the one
 * written), except for a constant comparison, where only the variable side
 * can come from the input:
 *  - integers of width w (2, 4, 8): an integer argument equal to x (in w
 *    bytes) becomes y; in []byte and string arguments x is looked for
 *    little- and big-endian in w bytes (and in 4 and 2 bytes when x and y
 *    fit: a narrower field widened before the comparison), as decimal ASCII
 *    (signed and unsigned: strconv), and as hex ASCII;
 *  - strings (==, switch, strings.EqualFold): x is looked for as is, then
 *    ignoring ASCII case (a value lowered or folded before the
 *    comparison), and replaced by y (lengths may differ);
 *  - bytes (width 1): one byte alone matches too much to look for, but
 *    the records of one call site, in order, are usually a loop over a
 *    literal: their two sides, concatenated, are looked for and replaced as
 *    strings. An early-exit loop shows only the literal's prefix up to the
 *    first difference, so the caller re-runs such a candidate and goes on
 *    while the loop goes further (fb_cmp.c). Likewise consecutive
 *    constant byte comparisons of different sites (an unrolled literal,
 *    `b[1] == 'O' && b[2] == 'C'`: run_end), and those that all test one
 *    byte value (a switch on a tag byte: each case written in its place).
 * A size field is often compared after a header's size was added to it
 * (libwebp compares a RIFF size plus 8 with the input's length): when x
 * (at least I2S_ARITH_MIN, not an argument's length) is in no binary
 * encoding of the input, a value within I2S_ARITH_MAX of it is looked for
 * there (the same widths and byte orders, in an argument's first
 * I2S_ARITH_SPAN bytes, at most I2S_ARITH_SPOTS places), and y less the
 * difference written in its place, and one less (a strict "greater than",
 * or a size rounded up to even, passes at one less): AFL++'s arithmetic
 * input-to-state.
 * A width-1 record also sets a byte or int8 argument equal to x. An 8-byte
 * x equal to the length of a []byte or string argument makes that
 * argument y long, and y+1 (the hooks do not say which relation was
 * tested; up to I2S_MAX_LEN): a length check before what is compared next
 * (a switch on strings searches the cases' lengths as a binary tree).
 * Each distinct (kind, x, y) is tried once per run; each encoding's first
 * I2S_MAX_HITS occurrences are replaced, one candidate each.
 */
#include <stdlib.h>
#include <string.h>

#include "fb_internal.h"
#include "hashset.h"

#define I2S_MAX_HITS 4
#define I2S_MAX_SEQ 64
#define I2S_MAX_SITES 256
#define I2S_MAX_LEN 4096    /* the longest argument a length gives */
#define I2S_ARITH_MIN 16    /* smaller operands are near too many bytes */
#define I2S_ARITH_MAX 16    /* the largest difference looked for */
#define I2S_ARITH_SPOTS 2   /* places near an operand: more, none is taken */
#define I2S_ARITH_SPAN 4096 /* of each argument's first bytes, looked at */

typedef struct i2s {
  const cgofuzz_values *in;
  cgofuzz_values tmp;
  cgofuzz_fb_i2s_emit emit;
  void *ctx;
  size_t left; /* candidates still allowed */
  int rc;      /* -1 once out of memory or told to stop */
} i2s;

static uint64_t width_mask(int w) {
  return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
}

/* Hands st->tmp to the caller. */
static void give(i2s *st, uint32_t pc, int how) {
  if (st->rc != 0 || !st->left)
    return;
  st->left--;
  if (st->emit(st->ctx, &st->tmp, pc, how) != 0)
    st->rc = -1;
}

static int fresh_copy(i2s *st) {
  cgofuzz_values_clear(&st->tmp);
  if (cgofuzz_values_copy(&st->tmp, st->in) != 0) {
    st->rc = -1;
    return -1;
  }
  return 0;
}

/* The input with data[at, at+cut) of argument k replaced by rep. */
static void splice(i2s *st, size_t k, size_t at, size_t cut, const uint8_t *rep,
                   size_t rep_len, uint32_t pc, int how) {
  if (st->rc != 0 || !st->left || fresh_copy(st) != 0)
    return;
  cgofuzz_value *v = &st->tmp.v[k];
  size_t L = v->s.len, n = L - cut + rep_len;
  uint8_t *p = malloc(n ? n : 1);
  if (!p) {
    st->rc = -1;
    return;
  }
  /* (An empty value's data and an empty rep may be NULL.) */
  if (at)
    memcpy(p, v->s.data, at);
  if (rep_len)
    memcpy(p + at, rep, rep_len);
  if (L - at - cut)
    memcpy(p + at + rep_len, v->s.data + at + cut, L - at - cut);
  cgofuzz_value_release(v);
  v->flags = CGOFUZZ_VAL_OWNED;
  v->s.data = p;
  v->s.len = n;
  give(st, pc, how);
}

static bool eq_fold(const uint8_t *a, const uint8_t *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z')
      x = (uint8_t)(x + 32);
    if (y >= 'A' && y <= 'Z')
      y = (uint8_t)(y + 32);
    if (x != y)
      return false;
  }
  return true;
}

/* Replaces the first occurrences of x in every []byte/string argument by
 * y; fold: compare ignoring ASCII case. Returns how many were found. */
static size_t replace_all(i2s *st, const uint8_t *x, size_t xn,
                          const uint8_t *y, size_t yn, bool fold, uint32_t pc,
                          int how) {
  size_t found = 0;
  if (!xn)
    return 0;
  for (size_t k = 0; k < st->in->n; k++) {
    const cgofuzz_value *v = &st->in->v[k];
    if (!fb_is_text(v->kind) || v->s.len < xn)
      continue;
    size_t hits = 0;
    for (size_t at = 0; at + xn <= v->s.len && hits < I2S_MAX_HITS; at++) {
      const uint8_t *p = v->s.data + at;
      if (fold ? !eq_fold(p, x, xn) : memcmp(p, x, xn) != 0)
        continue;
      hits++;
      splice(st, k, at, xn, y, yn, pc, how);
    }
    found += hits;
  }
  return found;
}

static void strings_pair(i2s *st, const uint8_t *x, size_t xn, const uint8_t *y,
                         size_t yn, bool fold, uint32_t pc, int how) {
  if (xn == yn && (fold ? eq_fold(x, y, xn) : !memcmp(x, y, xn)))
    return;
  if (!replace_all(st, x, xn, y, yn, false, pc, how))
    replace_all(st, x, xn, y, yn, true, pc, how);
  /* A whole empty argument compared with a word: becomes the word. */
  if (xn == 0 && yn)
    for (size_t k = 0; k < st->in->n; k++)
      if (fb_is_text(st->in->v[k].kind) && st->in->v[k].s.len == 0)
        splice(st, k, 0, 0, y, yn, pc, how);
}

static size_t put_le(uint8_t *b, uint64_t v, int w) {
  for (int i = 0; i < w; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  return (size_t)w;
}

static size_t put_be(uint8_t *b, uint64_t v, int w) {
  for (int i = 0; i < w; i++)
    b[i] = (uint8_t)(v >> (8 * (w - 1 - i)));
  return (size_t)w;
}

static size_t put_dec(uint8_t *b, uint64_t v, bool neg) {
  char t[24];
  size_t n = 0, m = 0;
  do {
    t[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  if (neg)
    b[m++] = '-';
  while (n)
    b[m++] = (uint8_t)t[--n];
  return m;
}

static size_t put_hex(uint8_t *b, uint64_t v, bool upper) {
  const char *d = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char t[16];
  size_t n = 0, m = 0;
  do {
    t[n++] = d[v & 15];
    v >>= 4;
  } while (v);
  while (n)
    b[m++] = (uint8_t)t[--n];
  return m;
}

static int64_t sext(uint64_t v, int w) {
  if (w >= 8)
    return (int64_t)v;
  uint64_t sign = 1ull << (8 * w - 1);
  return (int64_t)((v ^ sign) - sign);
}

/* An argument of length x compared with y: the argument made y long
 * (truncated, or extended by repeating its own bytes), so that what is
 * compared after a length check (a switch on strings goes by length
 * first) is reached. */
static void lengths(i2s *st, uint64_t x, uint64_t y, uint32_t pc) {
  if (y > I2S_MAX_LEN || x == y)
    return;
  for (size_t k = 0; k < st->in->n; k++) {
    const cgofuzz_value *v = &st->in->v[k];
    if (!fb_is_text(v->kind) || v->s.len != x)
      continue;
    if (y <= x) {
      splice(st, k, (size_t)y, (size_t)(x - y), NULL, 0, pc, I2S_PLAIN);
      continue;
    }
    uint8_t *pad = malloc((size_t)(y - x));
    if (!pad) {
      st->rc = -1;
      return;
    }
    for (size_t i = 0; i < y - x; i++)
      pad[i] = x ? v->s.data[i % x] : 'A';
    splice(st, k, (size_t)x, 0, pad, (size_t)(y - x), pc, I2S_PLAIN);
    free(pad);
  }
}

static uint64_t get_int(const uint8_t *p, int w, bool be) {
  uint64_t v = 0;
  for (int i = 0; i < w; i++)
    v |= (uint64_t)p[be ? w - 1 - i : i] << (8 * i);
  return v;
}

/* x not found as it is: the places where a field of w bytes or narrower
 * (down to least), either byte order, differs from x by d, 0 < |d| <=
 * I2S_ARITH_MAX, get y - d and y - d - 1 (see the head), the widest field
 * at each place; nothing when there are more than I2S_ARITH_SPOTS such
 * places (an operand near that many bytes is no field of the input). */
static void arith(i2s *st, uint64_t x, uint64_t y, int w, int least,
                  uint32_t pc) {
  struct spot {
    size_t k, at;
    int nw;
    bool be;
    int64_t d;
  } h[I2S_ARITH_SPOTS];
  size_t nh = 0;
  for (size_t k = 0; k < st->in->n; k++) {
    const cgofuzz_value *v = &st->in->v[k];
    size_t span = v->s.len < I2S_ARITH_SPAN ? v->s.len : I2S_ARITH_SPAN;
    for (size_t at = 0; fb_is_text(v->kind) && at < span; at++)
      for (int nw = w, got = 0; !got && nw >= least; nw /= 2)
        for (int be = 0; !got && be < 2; be++) {
          if (at + (size_t)nw > v->s.len)
            continue;
          int64_t d = (int64_t)(x - get_int(v->s.data + at, nw, be));
          if (d == 0 || d > I2S_ARITH_MAX || d < -I2S_ARITH_MAX)
            continue;
          if (nh == I2S_ARITH_SPOTS)
            return;
          h[nh++] = (struct spot){k, at, nw, be, d};
          got = 1;
        }
  }
  uint8_t b[8];
  for (size_t i = 0; i < nh; i++)
    for (uint64_t less = 0; less < 2; less++) {
      uint64_t d = (uint64_t)h[i].d, to = y - d - less;
      if ((h[i].d > 0 && y < d + less) || (to & ~width_mask(h[i].nw)))
        continue; /* below 0, or past the field's width */
      (h[i].be ? put_be : put_le)(b, to, h[i].nw);
      splice(st, h[i].k, h[i].at, (size_t)h[i].nw, b, (size_t)h[i].nw, pc,
             I2S_PLAIN);
    }
}

/* Whether x is the length of a []byte or string argument (lengths()
 * answers that comparison; a field near it is a coincidence). */
static bool is_a_length(const i2s *st, uint64_t x) {
  for (size_t k = 0; k < st->in->n; k++)
    if (fb_is_text(st->in->v[k].kind) && st->in->v[k].s.len == x)
      return true;
  return false;
}

/* x -> y for integers of width w. */
static void ints_pair(i2s *st, uint64_t x, uint64_t y, int w, uint32_t pc) {
  uint64_t m = width_mask(w);
  x &= m;
  y &= m;
  if (w == 8) { /* y, and y+1 for a "longer than y" branch (x == y too) */
    lengths(st, x, y, pc);
    lengths(st, x, y + 1, pc);
  }
  if (x == y)
    return;
  for (size_t k = 0; k < st->in->n; k++) {
    const cgofuzz_value *v = &st->in->v[k];
    int kw = fb_int_width(v->kind);
    if (!kw || kw < w || (v->u & m) != x)
      continue;
    if (fresh_copy(st) != 0)
      return;
    cgofuzz_value *t = &st->tmp.v[k];
    uint64_t u = (v->u & ~m) | y;
    if (kw < 8)
      u &= width_mask(kw);
    if (fb_int_signed(v->kind))
      u = (uint64_t)sext(u, kw);
    t->u = u;
    give(st, pc, I2S_PLAIN);
  }
  if (w == 1)
    return;
  uint8_t ex[24] = {0}, ey[24] = {0};
  size_t found = 0;
  int least = w;
  for (int nw = w; nw >= 2; nw /= 2) {
    if (nw < w && ((x | y) & ~width_mask(nw)))
      break;
    least = nw;
    found += replace_all(st, ex, put_le(ex, x, nw), ey, put_le(ey, y, nw),
                         false, pc, I2S_PLAIN);
    found += replace_all(st, ex, put_be(ex, x, nw), ey, put_be(ey, y, nw),
                         false, pc, I2S_PLAIN);
  }
  if (!found && x >= I2S_ARITH_MIN && !is_a_length(st, x))
    arith(st, x, y, w, least, pc);
  /* Numbers that went through strconv: unsigned, then signed. */
  replace_all(st, ex, put_dec(ex, x, false), ey, put_dec(ey, y, false), false,
              pc, I2S_PLAIN);
  int64_t sx = sext(x, w), sy = sext(y, w);
  if (sx < 0 || sy < 0)
    replace_all(st, ex,
                put_dec(ex, sx < 0 ? -(uint64_t)sx : (uint64_t)sx, sx < 0), ey,
                put_dec(ey, sy < 0 ? -(uint64_t)sy : (uint64_t)sy, sy < 0),
                false, pc, I2S_PLAIN);
  if (x >= 0x100) {
    replace_all(st, ex, put_hex(ex, x, false), ey, put_hex(ey, y, false), false,
                pc, I2S_PLAIN);
    replace_all(st, ex, put_hex(ex, x, true), ey, put_hex(ey, y, true), false,
                pc, I2S_PLAIN);
  }
}

static uint64_t rec_int(const uint8_t *b) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)b[i] << (8 * i);
  return v;
}

/* A width-1 call site's records in order: both sides, at most
 * I2S_MAX_SEQ. */
typedef struct site {
  uint32_t pc;
  uint8_t a[I2S_MAX_SEQ], b[I2S_MAX_SEQ];
  size_t n;
} site;

/* Consecutive width-1 constant comparisons of different sites: their
 * input sides and constants, in order (see run_end). */
typedef struct byte_run {
  uint8_t in[I2S_MAX_SEQ], k[I2S_MAX_SEQ];
  uint32_t pc[I2S_MAX_SEQ];
  size_t n;
} byte_run;

/* A run whose comparisons all test the same byte value is a switch on
 * one byte (Go compiles `switch b[0] { case 1: ... case 2: ... }` as a
 * tree of constant comparisons, each case its own site): the byte is set
 * to each case in turn, at its first I2S_MAX_HITS places. A lone byte
 * comparison is not, as it matches in too many places; a switch is a
 * parser's dispatch on a tag, worth the few candidates (LibAFL's CMPLOG
 * takes every byte comparison). */
static void switch_cases(i2s *st, const byte_run *b) {
  for (size_t i = 0; i < b->n && st->rc == 0 && st->left; i++) {
    bool first = b->k[i] != b->in[0];
    for (size_t j = 0; j < i && first; j++)
      first = b->k[j] != b->k[i];
    if (first)
      replace_all(st, &b->in[0], 1, &b->k[i], 1, false, b->pc[i], I2S_CASE);
  }
}

/* The run of width-1 constant comparisons ended: of two or more, at
 * different sites, the input bytes, looked for together, get the
 * constants. Go compiles `b[0] == 'M' && b[1] == 'Z' && ...` with the
 * later bytes' tests joined without branches (SETE, AND): a candidate
 * that passes one of them adds no coverage, and the whole literal is only
 * reached by setting the bytes at once. */
static void run_end(i2s *st, byte_run *b) {
  bool distinct = b->n >= 2, same = distinct;
  for (size_t i = 1; i < b->n && distinct; i++) {
    distinct = b->pc[i] != b->pc[i - 1];
    same = same && b->in[i] == b->in[0];
  }
  if (distinct && same)
    switch_cases(st, b);
  else if (distinct && st->rc == 0 && st->left)
    strings_pair(st, b->in, b->n, b->k, b->n, false, b->pc[b->n - 1],
                 I2S_PLAIN);
  b->n = 0;
}

size_t cgofuzz_fb_i2s_site_len(const cgofuzz_gobin_cmprec *r, size_t n,
                               uint32_t pc) {
  size_t len = 0;
  for (size_t i = 0; i < n; i++)
    if ((r[i].kind & ~CMP_K_CONST) == 1 && r[i].pc == pc)
      len++;
  return len;
}

int cgofuzz_fb_i2s(const cgofuzz_gobin_cmprec *r, size_t n,
                   const cgofuzz_values *in, size_t max, uint32_t only_pc,
                   cgofuzz_fb_i2s_emit emit, void *ctx) {
  i2s st = {.in = in, .emit = emit, .ctx = ctx, .left = max};
  site *sites = calloc(I2S_MAX_SITES, sizeof *sites);
  byte_run run = {.n = 0};
  cgofuzz_hashset seen = {0}; /* the comparisons tried */
  size_t nsites = 0;
  if (!sites)
    return -1;
  for (size_t i = 0; i < n && st.rc == 0 && st.left; i++) {
    const cgofuzz_gobin_cmprec *c = &r[i];
    uint32_t k = c->kind;
    if (only_pc && c->pc != only_pc)
      continue;
    if (k == (1 | CMP_K_CONST) && run.n < I2S_MAX_SEQ) {
      run.in[run.n] = c->a1[0]; /* arg0 is the constant */
      run.k[run.n] = c->a0[0];
      run.pc[run.n++] = c->pc;
    } else {
      run_end(&st, &run);
    }
    if ((k & ~CMP_K_CONST) == 1) {
      size_t j = 0;
      while (j < nsites && sites[j].pc != c->pc)
        j++;
      if (j == nsites && nsites < I2S_MAX_SITES)
        sites[nsites++].pc = c->pc;
      if (j < nsites && sites[j].n < I2S_MAX_SEQ) {
        sites[j].a[sites[j].n] = c->a0[0];
        sites[j].b[sites[j].n++] = c->a1[0];
      }
    }
    /* One try per distinct comparison: a cheap hash of kind and operands.*/
    uint64_t h = 1469598103934665603ull ^ k;
    size_t la = k & (CMP_K_STR | CMP_K_FOLD)
                    ? (c->len0 < CMP_REC_DATA ? c->len0 : CMP_REC_DATA)
                    : 8;
    size_t lb = k & (CMP_K_STR | CMP_K_FOLD)
                    ? (c->len1 < CMP_REC_DATA ? c->len1 : CMP_REC_DATA)
                    : 8;
    for (size_t q = 0; q < la; q++)
      h = (h ^ c->a0[q]) * 1099511628211ull;
    h = (h ^ 0xff ^ la) * 1099511628211ull;
    for (size_t q = 0; q < lb; q++)
      h = (h ^ c->a1[q]) * 1099511628211ull;
    h = (h ^ lb) * 1099511628211ull;
    int added = cgofuzz_hashset_add(&seen, h);
    if (added < 0)
      st.rc = -1;
    if (added != 1)
      continue;
    if (k & (CMP_K_STR | CMP_K_FOLD)) {
      /* A string longer than the record holds cannot be written back. */
      if (c->len0 > CMP_REC_DATA || c->len1 > CMP_REC_DATA)
        continue;
      bool fold = (k & CMP_K_FOLD) != 0;
      strings_pair(&st, c->a0, c->len0, c->a1, c->len1, fold, c->pc, I2S_PLAIN);
      strings_pair(&st, c->a1, c->len1, c->a0, c->len0, fold, c->pc, I2S_PLAIN);
      continue;
    }
    int w = (int)(k & 0xf);
    if (w != 1 && w != 2 && w != 4 && w != 8)
      continue;
    uint64_t a0 = rec_int(c->a0), a1 = rec_int(c->a1);
    /* A constant comparison's constant is arg0: only arg1 is looked for. */
    ints_pair(&st, a1, a0, w, c->pc);
    if (!(k & CMP_K_CONST))
      ints_pair(&st, a0, a1, w, c->pc);
  }
  run_end(&st, &run);
  for (size_t j = 0; j < nsites && st.rc == 0 && st.left; j++) {
    site *s = &sites[j];
    if (s->n < 2)
      continue;
    strings_pair(&st, s->a, s->n, s->b, s->n, false, s->pc, I2S_SEQ);
    strings_pair(&st, s->b, s->n, s->a, s->n, false, s->pc, I2S_SEQ);
  }
  cgofuzz_values_free(&st.tmp);
  free(sites);
  cgofuzz_hashset_free(&seen);
  return st.rc;
}
