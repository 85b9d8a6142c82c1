/*
 * cgo_mutate.c: the cgo loop's mutations (cgo_loop.c), libFuzzer's
 * default set as its MutationDispatcher has them, each as likely: erase a
 * span, insert a byte or a run of one byte, flip a bit, set a random or
 * interesting byte, an interesting word, add a little to an integer of 1
 * to 8 bytes (libFuzzer's ChangeBinaryInteger), copy a part within the
 * input, shuffle a few bytes, cross in a part of another input (the
 * pool: the worker's finds and the coordinator's picks), and write an operand
 * of a compare the C code made (cgofuzz_cgo_torc, libFuzzer's table of recent
 * compares). Not here: libFuzzer's ASCII integers and its dictionaries.
 *
 * Invariants: a mutation keeps the length at least 1 and at most cap, and
 * changes it only when fixed is unset; it reads and writes only p's n
 * bytes (cap when it grows) and the others' bytes; it draws only from
 * *rng, so the same state makes the same mutation. Calls no libc but
 * memcpy, memmove and memset (the file is built with -fno-builtin), and
 * the pool's malloc and free.
 */
#include <stdlib.h>
#include <string.h>

#include "cgo_loop.h"
#include "cgo_mutate.h"

/* Here, not in cgo_hooks.c, which writes it: a binary whose hooks are
 * package gofuzz's links the loop and this file alone. */
cgofuzz_cgo_torc_t cgofuzz_cgo_torc;

uint64_t cgofuzz_cgo_rand(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

static uint64_t rnd(cgofuzz_cgo_mut *m) { return cgofuzz_cgo_rand(m->rng); }
static size_t below(cgofuzz_cgo_mut *m, size_t n) {
  return n ? (size_t)(rnd(m) % n) : 0;
}

/* A mutation returns the new length, 0 when it could not apply here
 * (cgofuzz_cgo_mutate then draws another). */

static void put_int(uint8_t *p, size_t n, size_t at, uint64_t v, size_t w,
                    int big) {
  if (at + w > n)
    return;
  for (size_t k = 0; k < w; k++)
    p[at + k] = (uint8_t)(v >> (8 * (big ? w - 1 - k : k)));
}

static uint64_t get_int(const uint8_t *p, size_t at, size_t w, int big) {
  uint64_t v = 0;
  for (size_t j = 0; j < w; j++)
    v |= (uint64_t)p[at + j] << (8 * (big ? w - 1 - j : j));
  return v;
}

/* Opens k bytes at at (the caller fills them). */
static void make_room(cgofuzz_cgo_mut *m, size_t at, size_t k) {
  memmove(m->p + at + k, m->p + at, m->n - at);
  m->n += k;
}

static size_t m_erase(cgofuzz_cgo_mut *m) {
  if (m->fixed || m->n < 2)
    return 0;
  size_t k = 1 + below(m, m->n / 2), at = below(m, m->n - k + 1);
  memmove(m->p + at, m->p + at + k, m->n - at - k);
  return m->n -= k;
}

/* One byte, or a run of 3 to 128 of one byte (random, 0 or 0xff). */
static size_t m_insert(cgofuzz_cgo_mut *m) {
  size_t room = m->cap - m->n, k = (rnd(m) & 1) ? 1 : 3 + below(m, 126);
  if (m->fixed || !room)
    return 0;
  if (k > room)
    k = room;
  size_t at = below(m, m->n + 1);
  uint8_t b = (uint8_t)(k == 1 || below(m, 2) ? rnd(m) : (rnd(m) & 1) * 0xff);
  make_room(m, at, k);
  memset(m->p + at, b, k);
  return m->n;
}

static size_t m_bit(cgofuzz_cgo_mut *m) {
  m->p[below(m, m->n)] ^= (uint8_t)(1u << below(m, 8));
  return m->n;
}

static size_t m_byte(cgofuzz_cgo_mut *m) {
  static const int8_t interesting[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
  size_t at = below(m, m->n);
  m->p[at] = (rnd(m) & 1) ? (uint8_t)rnd(m)
                          : (uint8_t)interesting[below(m, sizeof interesting)];
  return m->n;
}

/* An interesting 16- or 32-bit word, either byte order. */
static size_t m_word(cgofuzz_cgo_mut *m) {
  static const int16_t i16[] = {-32768, -129, 128,  255,  256,
                                512,    1000, 1024, 4096, 32767};
  static const int32_t i32[] = {-2147483647 - 1, -100663046, -32769,
                                32768,           65535,      65536,
                                100663045,       2147483647};
  size_t w = (rnd(m) & 1) ? 2 : 4;
  if (m->n < w)
    return 0;
  uint64_t v =
      w == 2 ? (uint16_t)i16[below(m, 10)] : (uint32_t)i32[below(m, 8)];
  put_int(m->p, m->n, below(m, m->n - w + 1), v, w, (int)(rnd(m) & 1));
  return m->n;
}

/* libFuzzer's ChangeBinaryInteger: an integer of 1, 2, 4 or 8 bytes,
 * either byte order, plus or minus up to 10 (or negated), or, near the
 * start, set to the input's length (a size field). */
static size_t m_int(cgofuzz_cgo_mut *m) {
  size_t w = (size_t)1 << below(m, 4);
  if (m->n < w)
    return 0;
  size_t at = below(m, m->n - w + 1);
  int big = (int)(rnd(m) & 1);
  uint64_t v = get_int(m->p, at, w, big);
  if (at < 64 && !below(m, 4)) {
    v = m->n;
  } else {
    uint64_t add = below(m, 21);
    v += add - 10;
    if (add == 10 || (rnd(m) & 1))
      v = 0 - v;
  }
  put_int(m->p, m->n, at, v, w, big);
  return m->n;
}

/* A part of q (q_n bytes) copied over p's bytes or inserted among them. */
static size_t copy_in(cgofuzz_cgo_mut *m, const uint8_t *q, size_t q_n) {
  size_t room = m->fixed ? 0 : m->cap - m->n;
  int insert = room && (rnd(m) & 1);
  size_t max = insert ? room : m->n;
  if (q_n < max)
    max = q_n;
  if (!max)
    return 0;
  size_t k = 1 + below(m, max), from = below(m, q_n - k + 1);
  uint8_t tmp[256];
  if (k > sizeof tmp)
    k = sizeof tmp;
  memcpy(tmp, q + from, k); /* q may be p */
  size_t to = below(m, (insert ? m->n + 1 : m->n - k + 1));
  if (insert)
    make_room(m, to, k);
  memcpy(m->p + to, tmp, k);
  return m->n;
}

static size_t m_copy(cgofuzz_cgo_mut *m) { return copy_in(m, m->p, m->n); }

/* libFuzzer's CrossOver: a part of one of the others. */
static size_t m_cross(cgofuzz_cgo_mut *m) {
  if (!m->n_others)
    return 0;
  const cgofuzz_cgo_bytes *e = &m->others[below(m, m->n_others)];
  return copy_in(m, e->b, e->n);
}

/* Up to 8 bytes in a row, shuffled. */
static size_t m_shuffle(cgofuzz_cgo_mut *m) {
  size_t k = 1 + below(m, m->n < 8 ? m->n : 8), at = below(m, m->n - k + 1);
  for (size_t i = k - 1; i > 0; i--) {
    size_t j = below(m, i + 1);
    uint8_t t = m->p[at + i];
    m->p[at + i] = m->p[at + j], m->p[at + j] = t;
  }
  return m->n;
}

/* An operand of a recorded compare, written where the other one is in p
 * (as little- or big-endian), else at a random place. */
static size_t m_torc_int(cgofuzz_cgo_mut *m) {
  size_t k = below(m, CGOFUZZ_CGO_TORC_INTS);
  uint64_t a = cgofuzz_cgo_torc.ints[k].a, b = cgofuzz_cgo_torc.ints[k].b;
  size_t w = cgofuzz_cgo_torc.ints[k].width, n = m->n;
  if (!w || w > n)
    return 0;
  if (rnd(m) & 1) {
    uint64_t t = a;
    a = b, b = t;
  }
  size_t start = below(m, n - w + 1);
  for (size_t s = 0; s + w <= n; s++) {
    size_t at = (start + s) % (n - w + 1);
    for (int big = 0; big < 2; big++)
      if (get_int(m->p, at, w, big) == a) {
        put_int(m->p, n, at, b, w, big);
        return n;
      }
  }
  put_int(m->p, n, below(m, n - w + 1), b, w, (int)(rnd(m) & 1));
  return n;
}

static size_t m_torc_mem(cgofuzz_cgo_mut *m) {
  size_t k = below(m, CGOFUZZ_CGO_TORC_MEMS), n = m->n;
  int side = (int)(rnd(m) & 1);
  const uint8_t *x = cgofuzz_cgo_torc.mems[k].b[side],
                *y = cgofuzz_cgo_torc.mems[k].b[!side];
  size_t nx = cgofuzz_cgo_torc.mems[k].len[side],
         ny = cgofuzz_cgo_torc.mems[k].len[!side];
  if (!ny || ny > n)
    return 0;
  for (size_t at = 0; nx && at + nx <= n && at + ny <= n; at++) {
    size_t j = 0; /* not memcmp: the interceptors would record it */
    while (j < nx && m->p[at + j] == x[j])
      j++;
    if (j == nx) {
      memcpy(m->p + at, y, ny);
      return n;
    }
  }
  memcpy(m->p + below(m, n - ny + 1), y, ny);
  return n;
}

/* Not memcmp: the interceptors would record it as the C code's. */
static int same(const uint8_t *a, const uint8_t *b, size_t n) {
  size_t i = 0;
  while (i < n && a[i] == b[i])
    i++;
  return i == n;
}

static void pool_drop(cgofuzz_cgo_pool *p, size_t i) {
  p->bytes -= p->e[i].n;
  free(p->e[i].b);
  p->n--;
  p->e[i] = p->e[p->n];
  p->e[p->n].b = NULL, p->e[p->n].n = 0;
}

int cgofuzz_cgo_pool_add(cgofuzz_cgo_pool *p, const uint8_t *b, size_t n,
                         uint64_t *rng) {
  if (n > CGOFUZZ_CGO_POOL_BYTES)
    return 0;
  /* A scan, no index: an add comes with a find or a call of Go's worker,
   * and most entries differ from b in length or in the first bytes. */
  for (size_t i = 0; i < p->n; i++)
    if (p->e[i].n == n && same(p->e[i].b, b, n))
      return 0;
  uint8_t *c = malloc(n ? n : 1);
  if (!c)
    return -1;
  memcpy(c, b, n);
  while (p->n && (p->n == CGOFUZZ_CGO_POOL_MAX ||
                  p->bytes + n > CGOFUZZ_CGO_POOL_BYTES))
    pool_drop(p, (size_t)(cgofuzz_cgo_rand(rng) % p->n));
  p->e[p->n].b = c, p->e[p->n++].n = n;
  p->bytes += n;
  return 1;
}

void cgofuzz_cgo_pool_free(cgofuzz_cgo_pool *p) {
  while (p->n)
    pool_drop(p, p->n - 1);
}

size_t cgofuzz_cgo_mutate(cgofuzz_cgo_mut *m) {
  static size_t (*const ops[])(cgofuzz_cgo_mut *) = {
      m_erase, m_insert,  m_bit,      m_byte,     m_word, m_int,
      m_copy,  m_shuffle, m_torc_int, m_torc_mem, m_cross};
  for (int tries = 0; tries < 8; tries++) {
    size_t n = ops[below(m, sizeof ops / sizeof ops[0])](m);
    if (n)
      return n;
  }
  return m_bit(m);
}
