/*
 * coord_sched.c: energy scheduling of corpus entries (see coord_internal.h
 * for the formula).
 *
 * Invariants: s->e[0..n) exist for every corpus entry; hits[b] is the
 * number of entries whose recorded coverage has byte b nonzero; total is
 * the sum of the weights as of the last recompute. Picks are random in
 * proportion to the weights, from a private xorshift generator: they never
 * touch the PCG state Go's mutator replay depends on. The generator is
 * seeded from GODEBUG=fuzzseed=N when set (so that a run can be repeated
 * with the same choices, as Go's workers repeat their mutations), else from
 * an address (a different sequence per run).
 */
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"
#include "godebug.h"

#define RECENCY_MS 10000.0
#define FATIGUE_CALLS 256.0
#define RECOMPUTE_MS 500
#define REDUNDANT_FACTOR 0.125
#define UNTRIED_FACTOR 64.0
/* An entry is untried until its plain calls ran this many of Go's
 * mutations of it, or one slice's time (FUZZ_SLICE_NS): a call that ends
 * at a find after a few execs (every call, early in a run) does not use
 * its turn up. */
#define UNTRIED_EXECS 256
#define FIRST_EXECS 1024
#define FIRST_NS 250000000LL        /* a seed's first turn, at most */
#define FIRST_TOTAL_NS 2000000000LL /* all of them, at most */
#define FOCUS_FACTOR 8.0 /* -focus: a feature of changed code's rarity */

int cgofuzz_coord_sched_grow(cgofuzz_coord_sched *s, size_t n, int64_t now_ms) {
  if (n <= s->n)
    return 0;
  if (n > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    while (cap < n)
      cap *= 2;
    cgofuzz_coord_sched_entry *e = realloc(s->e, cap * sizeof *e);
    if (!e)
      return -1;
    s->e = e;
    s->cap = cap;
  }
  for (size_t i = s->n; i < n; i++) {
    memset(&s->e[i], 0, sizeof s->e[i]);
    s->e[i].last_find_ms = now_ms;
    s->e[i].weight = 1;
  }
  s->n = n;
  s->dirty = true;
  return 0;
}

int cgofuzz_coord_sched_set_cov(cgofuzz_coord_sched *s, size_t i,
                                const uint8_t *snap, size_t len) {
  if (i >= s->n)
    return -1;
  if (len > s->hits_len) {
    uint32_t *h = realloc(s->hits, len * sizeof *h);
    if (!h)
      return -1;
    memset(h + s->hits_len, 0, (len - s->hits_len) * sizeof *h);
    s->hits = h;
    s->hits_len = len;
  }
  cgofuzz_coord_sched_entry *e = &s->e[i];
  for (size_t k = 0; k < e->n_feat; k++)
    s->hits[e->feat[k]]--;
  size_t nf = 0;
  for (size_t b = 0; b < len; b++)
    nf += snap[b] != 0;
  uint32_t *f = realloc(e->feat, (nf ? nf : 1) * sizeof *f);
  if (!f)
    return -1;
  e->feat = f;
  e->n_feat = 0;
  e->focus = false;
  for (size_t b = 0; b < len; b++)
    if (snap[b]) {
      f[e->n_feat++] = (uint32_t)b;
      s->hits[b]++;
      e->focus = e->focus || (b < s->focus_len && s->focus[b]);
    }
  s->dirty = true;
  return 0;
}

void cgofuzz_coord_sched_redundant(cgofuzz_coord_sched *s, size_t i) {
  if (i < s->n) {
    s->e[i].redundant = true;
    s->dirty = true;
  }
}

void cgofuzz_coord_sched_failing(cgofuzz_coord_sched *s, size_t i) {
  if (i < s->n) {
    s->e[i].failing = true;
    s->dirty = true;
  }
}

bool cgofuzz_coord_sched_is_failing(const cgofuzz_coord_sched *s, size_t i) {
  return i < s->n && s->e[i].failing;
}

void cgofuzz_coord_sched_found(cgofuzz_coord_sched *s, size_t i,
                               int64_t now_ms) {
  if (i >= s->n)
    return;
  s->e[i].redundant = false;
  s->e[i].last_find_ms = now_ms;
  s->e[i].calls_at_find = s->e[i].calls;
  s->dirty = true;
}

void cgofuzz_coord_sched_first(cgofuzz_coord_sched *s, size_t i) {
  if (i >= s->n || s->e[i].first)
    return;
  s->e[i].first = true;
  s->first_left++;
  if (i + 1 > s->first_end)
    s->first_end = i + 1;
  s->first_ns = FIRST_TOTAL_NS / (int64_t)s->first_left;
  if (s->first_ns > FIRST_NS)
    s->first_ns = FIRST_NS;
}

/* Ends e's first turn when it is over (or it fails). */
static void first_check(cgofuzz_coord_sched *s, cgofuzz_coord_sched_entry *e) {
  if (e->first &&
      (e->execs >= FIRST_EXECS || e->ns >= s->first_ns || e->failing)) {
    e->first = false;
    s->first_left--;
  }
}

/* Whether e still has its untried bonus: no plain call of it in flight,
 * and those answered ran it less than UNTRIED_EXECS times and one slice. */
static bool untried(const cgofuzz_coord_sched_entry *e) {
  return e->answered >= e->calls && e->execs < UNTRIED_EXECS &&
         e->ns < FUZZ_SLICE_NS;
}

void cgofuzz_coord_sched_timed(cgofuzz_coord_sched *s, size_t i, int64_t execs,
                               int64_t ns) {
  if (i >= s->n)
    return;
  cgofuzz_coord_sched_entry *e = &s->e[i];
  e->answered++;
  if (execs > 0 && ns >= 0) { /* else not a measure of its speed */
    e->execs += (uint64_t)execs;
    e->ns += ns;
  }
  if (untried(e))
    s->dirty = true; /* its bonus is back: the call ended short */
  first_check(s, e);
}

/* AFL's performance score steps (afl-fuzz's calculate_score) on an entry's
 * time per exec against mean, the mean over the entries timed so far of
 * theirs. (Over entries, not execs: when the slow entries take the picks
 * an exec-weighted mean slows with them and stops telling them apart.) */
static double speed(const cgofuzz_coord_sched_entry *e, double mean) {
  if (!e->execs || mean <= 0)
    return 1;
  double r = ((double)e->ns / (double)e->execs) / mean;
  if (r > 4)
    return 0.1;
  if (r > 3)
    return 0.25;
  if (r > 2)
    return 0.5;
  if (r < 0.25)
    return 3;
  if (r < 1.0 / 3)
    return 2;
  if (r < 0.5)
    return 1.5;
  return 1;
}

static void recompute(cgofuzz_coord_sched *s, int64_t now_ms) {
  double sum = 0, tsum = 0;
  size_t with_cov = 0, timed = 0;
  for (size_t i = 0; i < s->n; i++) {
    cgofuzz_coord_sched_entry *e = &s->e[i];
    double r = 0;
    for (size_t k = 0; k < e->n_feat; k++) {
      uint32_t b = e->feat[k];
      bool f = b < s->focus_len && s->focus[b];
      r += (f ? FOCUS_FACTOR : 1.0) / (double)s->hits[b];
    }
    e->weight = r; /* raw rarity for now */
    if (e->n_feat) {
      sum += r;
      with_cov++;
    }
    if (e->execs) {
      tsum += (double)e->ns / (double)e->execs;
      timed++;
    }
  }
  double mean = with_cov ? sum / (double)with_cov : 1;
  double tmean = timed ? tsum / (double)timed : 0;
  s->total = 0;
  for (size_t i = 0; i < s->n; i++) {
    cgofuzz_coord_sched_entry *e = &s->e[i];
    double w = e->n_feat && mean > 0 ? e->weight / mean : 1;
    if (w < 0.25)
      w = 0.25;
    if (w > 4)
      w = 4;
    double age = (double)(now_ms - e->last_find_ms);
    if (age < 0)
      age = 0;
    w *= 1 + 3 * RECENCY_MS / (RECENCY_MS + age);
    w *= speed(e, tmean);
    double fat = 1 + (double)(e->calls - e->calls_at_find) / FATIGUE_CALLS;
    if (fat > 16)
      fat = 16;
    w /= fat;
    if (e->redundant)
      w *= REDUNDANT_FACTOR;
    else if (untried(e))
      w *= UNTRIED_FACTOR;
    if (e->failing)
      w = 0;
    e->weight = w;
    s->total += w;
  }
  s->computed_ms = now_ms;
  s->dirty = false;
}

void cgofuzz_coord_sched_seed(cgofuzz_coord_sched *s, uint64_t seed) {
  /* splitmix64: nearby seeds (1, 2, 3...) must not give xorshift states
   * that share most of their bits, or their first picks would agree. */
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  s->rng = z ? z : 0x9e3779b97f4a7c15ULL; /* xorshift never leaves 0 */
}

static uint64_t next_rand(cgofuzz_coord_sched *s) {
  if (!s->rng) {
    uint64_t seed;
    if (cgofuzz_godebug_fuzzseed(getenv("GODEBUG"), &seed))
      cgofuzz_coord_sched_seed(s, seed);
    else
      s->rng = 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)s;
  }
  s->rng ^= s->rng << 13;
  s->rng ^= s->rng >> 7;
  s->rng ^= s->rng << 17;
  return s->rng;
}

size_t cgofuzz_coord_sched_pick_weighted(cgofuzz_coord_sched *s,
                                         int64_t now_ms) {
  if (s->n == 0)
    return 0;
  if (s->dirty || now_ms - s->computed_ms >= RECOMPUTE_MS)
    recompute(s, now_ms);
  double x = (double)(next_rand(s) >> 11) / 9007199254740992.0 * s->total;
  size_t pick = s->n - 1;
  for (size_t i = 0; i < s->n; i++) {
    x -= s->e[i].weight;
    if (x < 0 && s->e[i].weight > 0) {
      pick = i;
      break;
    }
  }
  return pick;
}

/* The first seed whose first turn is not over and has no call in flight;
 * s->n when there is none. */
static size_t first_turn(cgofuzz_coord_sched *s) {
  for (size_t i = 0; s->first_left && i < s->first_end && i < s->n; i++) {
    cgofuzz_coord_sched_entry *e = &s->e[i];
    first_check(s, e);
    if (e->first && e->answered >= e->calls)
      return i;
  }
  return s->n;
}

size_t cgofuzz_coord_sched_pick(cgofuzz_coord_sched *s, int64_t now_ms) {
  if (s->n == 0)
    return 0;
  size_t pick = first_turn(s);
  if (pick == s->n)
    pick = cgofuzz_coord_sched_pick_weighted(s, now_ms);
  bool bonus = untried(&s->e[pick]);
  s->e[pick].calls++;
  if (bonus)
    s->dirty = true; /* its untried bonus ends, for now */
  return pick;
}

void cgofuzz_coord_sched_free(cgofuzz_coord_sched *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->e[i].feat);
  free(s->e);
  free(s->hits);
  memset(s, 0, sizeof *s);
}
