/*
 * fb_dict.c: dictionary mutations chosen by the coordinator, for Go
 * workers that have no comparison feedback (docs/godict.md).
 *
 * A Go worker runs Go's mutator from whatever input the coordinator puts in
 * shared memory, and the coordinator rebuilds its finds by replaying that
 * mutator from the input it sent. So the coordinator may send an input of
 * its own making, as long as it keeps it (the call's value,
 * coord_feedback.h) for the replay:
 *  - FB_CALL_EXACT: the built input, run once as it is (Warmup, Limit 1,
 *    which returns its coverage), so a token that completes a comparison
 *    is seen at once;
 *  - FB_CALL_BASE: an ordinary fuzz call (Limit DICT_BASE_LIMIT) from the
 *    built input, so Go's mutations combine with the token.
 * A built input is one entry picked by the coordinator's weights (coord_host.c)
 * with 1-3 tokens inserted, overwritten, spliced in place of a range, or
 * replacing a whole []byte/string argument (integer constants also replace
 * integer arguments; a decimal token also replaces a decimal number of the
 * text). Tokens are picked in proportion to how often they paid off (new
 * coverage or a crasher) per use. Or it is a crossover: a part of another
 * entry's value (or its own) inserted or written over the entry's, or the
 * entry's head joined to the other's tail (to its own: a large erase) (Go's
 * mutator never mixes two inputs; real formats are made of the seeds' parts: an
 * HTML fragment of the tags of three seeds, bench/gobugs' x/net/html hang).
 * Crossovers and token builds share the built calls by their yields.
 *
 * How many calls are dictionary calls: a credit in exec equivalents. Every
 * plain call adds its execs times share/(1-share); every dictionary call
 * spends its cost (an exact run costs DICT_EXACT_COST). share is the
 * dictionary calls' recent finds per cost relative to the plain calls',
 * clamped to [DICT_SHARE_MIN, DICT_SHARE_MAX], so Go's own mutator always
 * keeps at least half the effort. The initial credit pays for about two
 * exact runs per token. $CGOFUZZ_DICT_CALLS=exact or =base makes every
 * call after the warm-up a dictionary call of that kind (for tests). No
 * clock is read here: the choices depend on the
 * replies and on a generator seeded from GODEBUG=fuzzseed=N when set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "codec.h"
#include "fb_internal.h"
#include "godebug.h"

#define DICT_EXACT_COST 6.0
#define DICT_BASE_LIMIT 1000
#define DICT_SHARE_MIN 0.05
#define DICT_SHARE_MAX 0.5
#define DICT_PRIOR_COST 20000.0
#define DICT_DECAY_COST 4e6
#define DICT_CREDIT_MAX 200000.0
#define DICT_MAX_VALUE ((size_t)1 << 20)
#define DICT_MAX_CORPUS_TOKENS 512
#define DICT_MAX_SEGMENT 64 /* a bracketed segment of a seed */
#define DICT_MAX_WORD 32    /* a run of a seed without spaces */
#define XO_PRIOR_USES 32.0
#define DICT_GATE_CALLS 20 /* plain calls without a find in a row */
#define DICT_RECOMPUTE_PICKS 64

/* --- tokens from the corpus */

/* An integer kind's width, 0 for one byte too: nothing to learn. */
static int kind_width(cgofuzz_kind k) {
  int w = fb_int_width(k);
  return w > 1 ? w : 0;
}

static bool is_alnum(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
         (c >= 'a' && c <= 'z') || c == '_';
}

static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* The closer of an opening bracket, or 0. */
static uint8_t closer(uint8_t c) {
  switch (c) {
  case '<':
    return '>';
  case '[':
    return ']';
  case '{':
    return '}';
  case '(':
    return ')';
  default:
    return 0;
  }
}

static size_t segment_end(const uint8_t *p, size_t L, size_t i);

/* Tokens of a text value's structure, at most 64: each bracketed segment
 * of 3..DICT_MAX_SEGMENT bytes from an opening bracket to its matching
 * closer (a tag "<head>", a flow "[1, 2]", a call's "(m map[string]int)"),
 * and each run of 2..DICT_MAX_WORD printable bytes that are neither space
 * nor bracket ("!!str", "//line", "&a"). The printable runs of the caller
 * are lines, mostly too long to be parts of another input. */
static void text_parts(cgofuzz_fb_dict *d, const uint8_t *b, size_t len) {
  size_t parts = 0;
  for (size_t i = 0; i < len && parts < 64; i++) {
    size_t e = segment_end(b, len, i);
    if (e >= i + 3) {
      cgofuzz_fb_dict_add(d, b + i, e - i, CGOFUZZ_DICT_CORPUS, 0, false);
      parts++;
    }
  }
  for (size_t j = 0; j < len && parts < 64; j++) {
    size_t a = j;
    while (j < len && b[j] > 0x20 && b[j] < 0x7f && !closer(b[j]) &&
           !strchr(">]})", b[j]))
      j++;
    if (j - a >= 2 && j - a <= DICT_MAX_WORD) {
      cgofuzz_fb_dict_add(d, b + a, j - a, CGOFUZZ_DICT_CORPUS, 0, false);
      parts++;
    }
  }
}

/* Tokens of one []byte/string value: text (90% printable or white space) gives
 * its printable runs (lines) of 3..64 bytes (a longer run: its first 64), at
 * most 32, and its parts (text_parts) to d; binary data its alphanumeric runs
 * of 4..64 to cand, where they count (uses) in how many values they are.
 * Returns whether the value is text with a decimal digit. */
static bool value_tokens(cgofuzz_fb_dict *d, cgofuzz_fb_dict *cand,
                         const uint8_t *b, size_t len, uint64_t serial) {
  size_t printable = 0, runs = 0;
  bool digits = false;
  for (size_t j = 0; j < len; j++) {
    /* lines and tabs are text too (source code, YAML, zone files) */
    printable += (b[j] >= 0x20 && b[j] < 0x7f) || b[j] == '\n' ||
                 b[j] == '\t' || b[j] == '\r';
    digits = digits || is_digit(b[j]);
  }
  bool text = printable * 10 >= len * 9;
  for (size_t j = 0; j < len && runs < 32; j++) {
    size_t a = j;
    while (j < len && (text ? b[j] >= 0x20 && b[j] < 0x7f : is_alnum(b[j])))
      j++;
    size_t n = j - a > 64 ? 64 : j - a;
    if (n < (text ? 3u : 4u))
      continue;
    runs++;
    if (text) {
      cgofuzz_fb_dict_add(d, b + a, n, CGOFUZZ_DICT_CORPUS, 0, false);
      continue;
    }
    cgofuzz_fb_dict_add(cand, b + a, n, CGOFUZZ_DICT_CORPUS, 0, false);
    dtok *t = cgofuzz_fb_dict_find(cand, b + a, n);
    if (t && t->finds != serial) { /* once per value: finds marks it */
      t->finds = serial;
      t->uses++;
    }
  }
  if (text)
    text_parts(d, b, len);
  return text && digits;
}

/* Decimal numbers at the limits of Go's integer types and of float64's
 * exact integers: text that holds numbers is parsed into one of those, and
 * its bugs are at the limits (go/scanner's //line directive at
 * math.MaxInt64, bench/gobugs). Go's mutator changes one byte at a time
 * and never writes them. */
static const char *const decimal_limits[] = {
    "127",
    "128",
    "255",
    "256",
    "32767",
    "32768",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-129",
    "-32769",
    "-2147483648",
    "-2147483649",
    "-9223372036854775808",
    "-9223372036854775809",
};

/* Tokens of the starting corpus: the printable runs and parts of its text
 * values, the alphanumeric runs of its binary values that are in two
 * values or more (chunk names, keywords; not the chance letters of
 * compressed data), its integers of 2..8 bytes, and the decimal limits
 * when a text value holds a digit. */
static void corpus_tokens(fb_run *r, cgofuzz_fb_dict *d) {
  cgofuzz_values vals = {0};
  cgofuzz_fb_dict *cand = cgofuzz_fb_dict_new();
  if (!cand)
    return;
  uint64_t serial = 0;
  bool decimal = false;
  for (size_t i = 0; i < cgofuzz_coord_host_corpus(r->h); i++) {
    cgofuzz_err err = {0};
    size_t len;
    const uint8_t *data = cgofuzz_coord_host_entry(r->h, i, &len);
    if (cgofuzz_codec_decode_v(data, len, cgofuzz_coord_host_gover(r->h), &vals,
                               &err) != 0)
      continue;
    for (size_t k = 0; k < vals.n; k++) {
      const cgofuzz_value *v = &vals.v[k];
      if (cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_CORPUS) >=
          DICT_MAX_CORPUS_TOKENS)
        break;
      if (v->kind == CGOFUZZ_BYTES || v->kind == CGOFUZZ_STRING) {
        decimal |= value_tokens(d, cand, v->s.data, v->s.len, ++serial);
      } else if (kind_width(v->kind)) {
        cgofuzz_fb_dict_add_int(d, v->u, kind_width(v->kind),
                                CGOFUZZ_DICT_CORPUS);
      }
    }
  }
  for (size_t i = 0;
       i < cand->n &&
       cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_CORPUS) < DICT_MAX_CORPUS_TOKENS;
       i++)
    if (cand->t[i].uses >= 2)
      cgofuzz_fb_dict_add(d, cand->t[i].b, cand->t[i].len, CGOFUZZ_DICT_CORPUS,
                          0, false);
  cgofuzz_fb_dict_free(cand);
  cgofuzz_values_free(&vals);
  for (size_t i = 0;
       decimal && i < sizeof decimal_limits / sizeof *decimal_limits; i++)
    cgofuzz_fb_dict_add(d, (const uint8_t *)decimal_limits[i],
                        strlen(decimal_limits[i]), CGOFUZZ_DICT_CORPUS, 0,
                        false);
}

static bool is_decimal(const dtok *t);

/* --- scheduling */

static uint64_t rnd(fb_dsched *x) {
  /* splitmix64: one 64-bit state, any seed is fine */
  uint64_t z = (x->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static size_t rndn(fb_dsched *x, size_t n) {
  return (size_t)(rnd(x) % (uint64_t)n);
}

static double rnd01(fb_dsched *x) {
  return (double)(rnd(x) >> 11) / 9007199254740992.0;
}

static double tok_weight(const dtok *t) {
  static const double prior[CGOFUZZ_DICT_NSRC] = {3, 2, 1, 1};
  double w = prior[t->src] * (1.0 + 8.0 * (double)t->finds) /
             (1.0 + (double)t->uses / 16.0);
  return w < prior[t->src] * 0.02 ? prior[t->src] * 0.02 : w;
}

static size_t pick_token(fb_dsched *x, const cgofuzz_fb_dict *d) {
  if (x->cum_n != d->n || x->picks >= DICT_RECOMPUTE_PICKS) {
    double *cum = realloc(x->cum, d->n * sizeof *cum);
    if (!cum)
      return rndn(x, d->n);
    x->cum = cum;
    double s = 0;
    for (size_t i = 0; i < d->n; i++)
      cum[i] = (s += tok_weight(&d->t[i]));
    x->cum_n = d->n;
    x->picks = 0;
  }
  x->picks++;
  double r = rnd01(x) * x->cum[x->cum_n - 1];
  size_t lo = 0, hi = x->cum_n - 1;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (x->cum[mid] > r)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static double clamp(double v, double lo, double hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static void recompute_share(fb_dsched *x) {
  double yg = (x->finds[0] + 1) / (x->cost[0] + DICT_PRIOR_COST);
  double yd = (x->finds[1] + x->finds[2] + 1) /
              (x->cost[1] + x->cost[2] + DICT_PRIOR_COST);
  x->share = clamp(yd / (yd + yg), DICT_SHARE_MIN, DICT_SHARE_MAX);
}

/* Turns dictionary calls on once there are tokens, and gives credit for a
 * first exact run of each token added (tokens can come after the start:
 * the code's constants). */
static void dict_credit(fb_dsched *x, const cgofuzz_fb_dict *d, size_t added) {
  /* No token, no built calls, crossovers included: without seeds to take
   * parts from (a corpus that starts empty), built values cost a fast C
   * worker the execs its own comparison feedback needs (tests/lf/libfuzzer's
   * TWO harness: 14k execs to its magic without them, 500k with them). */
  if (!x->any_arg || d->n == 0 || added == 0)
    return;
  if (!x->on) {
    x->on = true;
    x->credit = 0;
    recompute_share(x);
  }
  double more = (double)added * 2 * DICT_EXACT_COST;
  x->credit = clamp((x->credit > 0 ? x->credit : 0) + (more > 512 ? more : 512),
                    0, DICT_CREDIT_MAX);
}

int cgofuzz_fb_dsched_start(fb_run *r, cgofuzz_err *err) {
  const cgofuzz_coord_config *cfg = cgofuzz_coord_host_config(r->h);
  const cgofuzz_fb *fb = r->fb;
  fb_dsched *x = &r->dx;
  cgofuzz_fb_dict *d = fb->dict;
  if (!d)
    return 0;
  if (fb->dict_corpus)
    corpus_tokens(r, d);
  for (size_t i = 0; i < d->n; i++) {
    if (!is_decimal(&d->t[i]) || d->t[i].len < 3)
      continue;
    uint32_t *dec = realloc(x->dec, (x->n_dec + 1) * sizeof *dec);
    if (!dec)
      break;
    x->dec = dec;
    x->dec[x->n_dec++] = (uint32_t)i;
  }
  if (fb->dict_out && cgofuzz_fb_dict_write(d, fb->dict_out, cfg->target, err))
    return -1;
  if (cgofuzz_coord_host_says(r->h))
    fprintf(stderr,
            "cgofuzz: dictionary: %zu tokens (%zu from -dict files, %zu from "
            "the target's package, %zu from its module, %zu from the "
            "corpus)%s\n",
            d->n, cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_USER),
            cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_BINARY),
            cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_MODULE),
            cgofuzz_fb_dict_count(d, CGOFUZZ_DICT_CORPUS),
            fb->dict_code ? "; its code's constants follow" : "");
  x->gate = fb->dict_when_stalled;
  for (size_t i = 0; i < cfg->n_kinds; i++) {
    x->any_text = x->any_text || fb_is_text(cfg->kinds[i]);
    x->any_arg = x->any_arg || x->any_text || kind_width(cfg->kinds[i]);
  }
  if (!x->any_arg)
    return 0;
  uint64_t seed;
  if (cgofuzz_godebug_fuzzseed(getenv("GODEBUG"), &seed))
    x->rng = seed ^ 0x64696374ull; /* "dict": not the scheduler's stream */
  else
    x->rng = (uint64_t)(uintptr_t)x ^ ((uint64_t)cgofuzz_mono_ms() << 20);
  const char *only = getenv("CGOFUZZ_DICT_CALLS");
  if (only && !strcmp(only, "exact"))
    x->only = FB_CALL_EXACT;
  else if (only && !strcmp(only, "base"))
    x->only = FB_CALL_BASE;
  if (fb->dict_code) {
    cgofuzz_err err = {0};
    cgofuzz_gobin_sink sink = cgofuzz_fb_dict_sink(d);
    if (cgofuzz_gobin_godict_code_start(&sink, cfg->binary, cfg->target,
                                        &x->job, &err) != 0 &&
        cgofuzz_coord_host_says(r->h))
      fprintf(stderr, "cgofuzz: %s\n", err.msg);
    x->job_t0 = cgofuzz_mono_ms();
  }
  dict_credit(x, d, d->n);
  return 0;
}

void cgofuzz_fb_dsched_step(fb_run *r) {
  fb_dsched *x = &r->dx;
  if (!x->job)
    return;
  cgofuzz_err err = {0};
  size_t added = 0;
  int got = cgofuzz_gobin_godict_code_poll(x->job, false, &added, &err);
  if (got == 0)
    return;
  bool say = cgofuzz_coord_host_says(r->h);
  if (got < 0 && say)
    fprintf(stderr, "cgofuzz: %s\n", err.msg);
  else if (say)
    fprintf(stderr,
            "cgofuzz: dictionary: %zu tokens from the code (go tool objdump, "
            "%lld ms), %zu in all\n",
            added, (long long)(cgofuzz_mono_ms() - x->job_t0), r->fb->dict->n);
  cgofuzz_gobin_godict_code_free(x->job);
  x->job = NULL;
  dict_credit(x, r->fb->dict, added);
}

void cgofuzz_fb_dsched_stop(fb_run *r) {
  fb_dsched *x = &r->dx;
  if (x->on && cgofuzz_coord_host_says(r->h))
    fprintf(stderr,
            "cgofuzz: dictionary calls: %llu exact (%llu found), %llu from a "
            "built base (%llu found); plain calls: %llu (%llu found); "
            "share %.2f; crossovers: %.0f (%.0f found)\n",
            (unsigned long long)x->calls[1], (unsigned long long)x->found[1],
            (unsigned long long)x->calls[2], (unsigned long long)x->found[2],
            (unsigned long long)x->calls[0], (unsigned long long)x->found[0],
            x->share, x->xo_uses, x->xo_finds);
  cgofuzz_gobin_godict_code_free(x->job); /* a run shorter than objdump */
  free(x->cum);
  free(x->dec);
  cgofuzz_values_free(&x->vals);
  cgofuzz_values_free(&x->other);
  memset(x, 0, sizeof *x);
}

int cgofuzz_fb_dsched_next(fb_run *r) {
  fb_dsched *x = &r->dx;
  if (x->on && x->only)
    return x->only;
  if (!x->on || x->credit <= 0)
    return FB_CALL_NONE;
  /* Built calls wait, where the configuration says so (C workers), until
   * the workers' own calls stall: a C worker's comparison feedback takes
   * a magic faster alone (tests/lf/libfuzzer's TWO harness: 14k execs, 500k
   * with built calls among them), while Magma's sqlite3 stalls within seconds
   * and crossovers then take it from 1,369 edges to 6,000. */
  if (x->gate) {
    if (x->stall < DICT_GATE_CALLS)
      return FB_CALL_NONE;
    x->gate = false;
  }
  /* A first pass of exact runs, one per token (first_pass); then by
   * yield. */
  if (x->first < r->fb->dict->n)
    return FB_CALL_EXACT;
  double ye = (x->finds[1] + 1) / (x->cost[1] + DICT_PRIOR_COST);
  double yb = (x->finds[2] + 1) / (x->cost[2] + DICT_PRIOR_COST);
  double pb = clamp(yb / (ye + yb), 0.1, 0.6);
  return rnd01(x) < pb ? FB_CALL_BASE : FB_CALL_EXACT;
}

/* A position in [0, max]: the start and the end often (magic numbers,
 * prefixes, trailers), else uniform. */
static size_t pick_pos(fb_dsched *x, size_t max) {
  size_t r = rndn(x, 8);
  if (r < 2)
    return 0;
  if (r == 2)
    return max;
  return rndn(x, max + 1);
}

/* v (owned) takes nb's bytes, unless building them failed (rc). */
static int set_bytes(cgofuzz_value *v, cgofuzz_buf *nb, int rc) {
  if (rc != 0) {
    cgofuzz_buf_free(nb);
    return -1;
  }
  cgofuzz_value_release(v);
  v->flags = nb->len ? CGOFUZZ_VAL_OWNED : 0;
  v->s.data = nb->len ? nb->data : NULL;
  v->s.len = nb->len;
  if (!nb->len)
    cgofuzz_buf_free(nb);
  return 0;
}

/* Whether the token is a decimal number ("-" and 1..20 digits). */
static bool is_decimal(const dtok *t) {
  size_t i = t->len > 1 && t->b[0] == '-';
  if (t->len - i < 1 || t->len - i > 20)
    return false;
  for (; i < t->len; i++)
    if (!is_digit(t->b[i]))
      return false;
  return true;
}

/* The range [*at, *at+*cut) of one decimal number of p[0..L) (its sign
 * too), chosen at random; false when there is none. */
static bool pick_number(fb_dsched *x, const uint8_t *p, size_t L, size_t *at,
                        size_t *cut) {
  size_t runs = 0;
  for (size_t j = 0; j < L; j++)
    if (is_digit(p[j]) && (j == 0 || !is_digit(p[j - 1])))
      runs++;
  if (!runs)
    return false;
  size_t k = rndn(x, runs);
  for (size_t j = 0; j < L; j++) {
    if (!is_digit(p[j]) || (j > 0 && is_digit(p[j - 1])) || k--)
      continue;
    size_t a = j > 0 && p[j - 1] == '-' ? j - 1 : j, e = j;
    while (e < L && is_digit(p[e]))
      e++;
    *at = a;
    *cut = e - a;
    return true;
  }
  return false;
}

/* The end of the segment of p[0..L) that opens at i (its closer's index
 * + 1, as text_parts matches them), or 0. */
static size_t segment_end(const uint8_t *p, size_t L, size_t i) {
  uint8_t close = closer(p[i]);
  size_t depth = 0, end = L < i + DICT_MAX_SEGMENT ? L : i + DICT_MAX_SEGMENT;
  for (size_t j = i + 1; close && j < end; j++) {
    if (p[j] == p[i])
      depth++;
    else if (p[j] == close && depth-- == 0)
      return j + 1;
  }
  return 0;
}

/* Whether the token is one bracketed segment. */
static bool is_segment(const dtok *t) {
  return t->len >= 3 && segment_end(t->b, t->len, 0) == t->len;
}

/* A segment of p[0..L) opened by the token's bracket, chosen at random:
 * its range [*at, *at+*cut); with after set, the empty range just past
 * it. False when there is none. */
static bool pick_segment(fb_dsched *x, const uint8_t *p, size_t L, uint8_t open,
                         bool after, size_t *at, size_t *cut) {
  size_t segs = 0;
  for (size_t i = 0; i < L; i++)
    segs += p[i] == open && segment_end(p, L, i);
  if (!segs)
    return false;
  size_t k = rndn(x, segs);
  for (size_t i = 0; i < L; i++) {
    size_t e;
    if (p[i] != open || !(e = segment_end(p, L, i)) || k--)
      continue;
    *at = after ? e : i;
    *cut = after ? 0 : e - i;
    return true;
  }
  return false;
}

/* One token into the []byte/string value v (owned): written over it,
 * inserted, in place of a range, or as the whole value. A token of the
 * text's structure goes where its kind is: a decimal token in place of
 * one of its decimal numbers (always when number is set, else half the
 * time); a bracketed segment ("<head>") half the time in place of one of
 * its segments of the same bracket, a quarter just after one. */
static int put_bytes(fb_dsched *x, cgofuzz_value *v, const dtok *t,
                     bool number) {
  size_t L = v->s.len, n = t->len;
  cgofuzz_buf nb = {0};
  const uint8_t *p = v->s.data;
  size_t op = rndn(x, 8), at, cut;
  if ((op >= 3 && op <= 6) && L + n > DICT_MAX_VALUE)
    op = 0;
  int rc = 0;
  size_t seg = is_segment(t) ? rndn(x, 4) : 3;
  if ((is_decimal(t) && L + n <= DICT_MAX_VALUE && (number || rndn(x, 2)) &&
       pick_number(x, p, L, &at, &cut)) ||
      (seg < 3 && L + n <= DICT_MAX_VALUE &&
       pick_segment(x, p, L, t->b[0], seg == 2, &at, &cut))) {
    rc |= cgofuzz_buf_append(&nb, p, at);
    rc |= cgofuzz_buf_append(&nb, t->b, n);
    rc |= cgofuzz_buf_append(&nb, p + at + cut, L - at - cut);
  } else if (op <= 2) { /* overwrite, growing the value if it is too short */
    size_t at = pick_pos(x, L >= n ? L - n : L);
    size_t end = at + n > L ? at + n : L;
    rc |= cgofuzz_buf_reserve(&nb, end);
    if (rc == 0) {
      memcpy(nb.data, p, L);
      memcpy(nb.data + at, t->b, n);
      nb.len = end;
    }
  } else if (op <= 5) { /* insert */
    at = pick_pos(x, L);
    rc |= cgofuzz_buf_append(&nb, p, at);
    rc |= cgofuzz_buf_append(&nb, t->b, n);
    rc |= cgofuzz_buf_append(&nb, p + at, L - at);
  } else if (op == 6) { /* splice: a range replaced by the token */
    at = pick_pos(x, L);
    size_t room = L - at < 2 * n ? L - at : 2 * n;
    cut = rndn(x, room + 1);
    rc |= cgofuzz_buf_append(&nb, p, at);
    rc |= cgofuzz_buf_append(&nb, t->b, n);
    rc |= cgofuzz_buf_append(&nb, p + at + cut, L - at - cut);
  } else { /* the whole value */
    rc |= cgofuzz_buf_append(&nb, t->b, n);
  }
  return set_bytes(v, &nb, rc);
}

/* An integer token into the integer value v (of at least its width). */
static void put_int(fb_dsched *x, cgofuzz_value *v, const dtok *t) {
  uint64_t u = 0;
  for (unsigned i = 0; i < t->len; i++)
    u |= (uint64_t)t->b[t->be ? t->len - 1 - i : i] << (8 * i);
  int kw = kind_width(v->kind);
  if (fb_int_signed(v->kind) && (kw == t->int_width || rndn(x, 2)) &&
      t->int_width < 8 && (u >> (8 * t->int_width - 1)) & 1)
    u |= ~0ull << (8 * t->int_width); /* sign-extend */
  if (kw < 8)
    u &= (1ull << (8 * kw)) - 1;
  if (fb_int_signed(v->kind) && kw < 8 && (u >> (8 * kw - 1)) & 1)
    u |= ~0ull << (8 * kw); /* values hold signed kinds sign-extended */
  v->u = u;
}

static bool fits(const dtok *t, cgofuzz_kind k) {
  if (k == CGOFUZZ_BYTES || k == CGOFUZZ_STRING)
    return true;
  return t->int_width && kind_width(k) >= t->int_width;
}

int64_t cgofuzz_fb_dsched_base_limit(void) { return DICT_BASE_LIMIT; }

/* A crossover of v (owned) with q[0..qn), another entry's value of the
 * same argument: a part of q written over v or inserted into it
 * (libFuzzer's CopyPartOf, InsertPartOf), or v's head joined to q's tail
 * (AFL's splice). */
static int cross(fb_dsched *x, cgofuzz_value *v, const uint8_t *q, size_t qn) {
  if (rndn(x, 3) == 0) {
    size_t L = v->s.len, at = rndn(x, L + 1), from = rndn(x, qn);
    if (at + qn - from > DICT_MAX_VALUE)
      return 0;
    cgofuzz_buf nb = {0};
    int rc = cgofuzz_buf_append(&nb, v->s.data, at);
    rc |= cgofuzz_buf_append(&nb, q + from, qn - from);
    return set_bytes(v, &nb, rc);
  }
  size_t max = qn < DICT_MAX_SEGMENT * 4 ? qn : DICT_MAX_SEGMENT * 4;
  size_t n = 1 + rndn(x, max), from = rndn(x, qn - n + 1);
  dtok part = {.b = (uint8_t *)q + from, .len = (uint32_t)n};
  return put_bytes(x, v, &part, false);
}

/* The crossover build of entry idx with a random entry (itself too): 0,
 * 1 when none applies, -1 when out of memory. */
static int build_cross(fb_run *r, size_t idx) {
  fb_dsched *x = &r->dx;
  /* Any entry, itself too: its head joined to its own tail is a large
   * erase (libFuzzer's EraseBytes takes up to half the input; Go's
   * mutator a few bytes), which brings what a long seed holds deep
   * inside to its start (the SQL statements inside the Tcl scripts of
   * Magma's sqlite3 seeds). */
  size_t other = rndn(x, cgofuzz_coord_host_corpus(r->h));
  (void)idx;
  /* Not an entry that failed (a run that goes on after failures keeps
   * them): its parts would fail again. */
  if (cgofuzz_coord_host_failing(r->h, other))
    return 1;
  size_t len;
  const uint8_t *data = cgofuzz_coord_host_entry(r->h, other, &len);
  cgofuzz_err err = {0};
  if (cgofuzz_codec_decode_v(data, len, cgofuzz_coord_host_gover(r->h),
                             &x->other, &err) != 0 ||
      x->other.n != x->vals.n)
    return 1;
  size_t elig = 0;
  for (size_t k = 0; k < x->vals.n; k++)
    elig += fb_is_text(x->vals.v[k].kind) && x->other.v[k].s.len > 0;
  if (!elig)
    return 1;
  size_t which = rndn(x, elig);
  for (size_t k = 0; k < x->vals.n; k++) {
    const cgofuzz_value *q = &x->other.v[k];
    if (!fb_is_text(x->vals.v[k].kind) || !q->s.len || which--)
      continue;
    return cross(x, &x->vals.v[k], q->s.data, q->s.len);
  }
  return 1;
}

/* One of the entry's text arguments, chosen at random, or NULL. */
static cgofuzz_value *pick_text(fb_dsched *x) {
  size_t elig = 0;
  for (size_t k = 0; k < x->vals.n; k++)
    elig += fb_is_text(x->vals.v[k].kind);
  size_t which = elig ? rndn(x, elig) : 0;
  for (size_t k = 0; k < x->vals.n; k++)
    if (fb_is_text(x->vals.v[k].kind) && which-- == 0)
      return &x->vals.v[k];
  return NULL;
}

/* A run of one byte value (3..130 bytes, 0x00 or 0xff half the time)
 * inserted into one []byte/string argument of the built entry, or, a
 * quarter of the time, written over it: libFuzzer's InsertRepeatedBytes.
 * Go's mutator inserts runs of a random byte, mostly of 1..8: a length
 * field or count made of 0xff bytes (LZ4's match length, 255 per byte, to
 * reach the end of a 64 KiB output) is out of its reach. 0, 1 when no
 * argument takes one, -1 when out of memory. */
static int build_run(fb_dsched *x) {
  cgofuzz_value *v = pick_text(x);
  size_t L = v ? v->s.len : 0, n = 3 + rndn(x, 128);
  if (!v || L + n > DICT_MAX_VALUE)
    return 1;
  uint8_t b = rndn(x, 2) ? (uint8_t)rndn(x, 256) : rndn(x, 2) ? 0xff : 0;
  bool over = rndn(x, 4) == 0 && L >= n;
  size_t at = pick_pos(x, over ? L - n : L);
  cgofuzz_buf nb = {0};
  int rc = cgofuzz_buf_append(&nb, v->s.data, at);
  rc |= cgofuzz_buf_reserve(&nb, n);
  if (rc == 0) {
    memset(nb.data + nb.len, b, n);
    nb.len += n;
  }
  size_t rest = over ? at + n : at;
  if (L > rest) /* (an empty value's data may be NULL) */
    rc |= cgofuzz_buf_append(&nb, v->s.data + rest, L - rest);
  return set_bytes(v, &nb, rc);
}

/* A prefix of a text argument, to be mutated from: libFuzzer mutates
 * within a length limit that starts small and grows (-len_control), so
 * many of its inputs are a short prefix of an entry, mutated, and a read
 * past the end of a record cut short (libwebp's webp:386, a chunk header
 * read past a 16-byte RIFF/WEBP/VP8X prefix) is found there. Go's
 * mutator removes a range at random, rarely a whole tail. The length:
 * cgofuzz_fb_prefix_len. 1 when the value has no prefix to take. */
static size_t dsched_rndn(void *x, size_t n) { return rndn(x, n); }

static int build_prefix(fb_dsched *x) {
  cgofuzz_value *v = pick_text(x);
  size_t L = v ? v->s.len : 0;
  if (L < 2)
    return 1;
  size_t n = cgofuzz_fb_prefix_len(L, dsched_rndn, x);
  cgofuzz_buf nb = {0};
  return set_bytes(v, &nb, cgofuzz_buf_append(&nb, v->s.data, n));
}

size_t cgofuzz_fb_prefix_len(size_t L, size_t (*rndn)(void *, size_t),
                             void *ctx) {
  if (rndn(ctx, 2))
    return 1 + rndn(ctx, L - 1);
  size_t bits = 0;
  while (((size_t)2 << bits) <= L - 1)
    bits++;
  size_t lo = (size_t)1 << rndn(ctx, bits + 1);
  size_t n = lo + rndn(ctx, lo);
  return n >= L ? L - 1 : n;
}

/* The chance of a crossover build, from the yields of the two kinds of
 * build (finds per use, with a prior of one find in XO_PRIOR_USES for
 * tokens and in four times that for crossovers): a fifth at first, so
 * that tokens keep most of the early builds (a magic a token completes
 * by itself is found there: tests/coord/godict), more as crossovers pay off. */
static double cross_chance(const fb_dsched *x) {
  double yx = (x->xo_finds + 1) / (x->xo_uses + 4 * XO_PRIOR_USES);
  double yt = (x->tok_finds + 1) / (x->tok_uses + XO_PRIOR_USES);
  return clamp(yx / (yx + yt), 0.1, 0.6);
}

/* One of the entry's arguments token t fits, chosen at random, or NULL. */
static cgofuzz_value *pick_arg(fb_dsched *x, const dtok *t) {
  size_t elig = 0;
  for (size_t k = 0; k < x->vals.n; k++)
    elig += fits(t, x->vals.v[k].kind);
  if (!elig)
    return NULL;
  size_t which = rndn(x, elig);
  for (size_t k = 0; k < x->vals.n; k++)
    if (fits(t, x->vals.v[k].kind) && which-- == 0)
      return &x->vals.v[k];
  return NULL;
}

/* The first pass: each token once, in order (tokens added later, the
 * code's constants, get their turn when they come), as a whole []byte or
 * string argument or as an integer argument: how a magic compared by
 * itself is completed (`s == "key"`, a prefix, a map key, an integer
 * constant: tests/coord/godict's planted bugs, each found in this pass). */
static int first_pass(fb_dsched *x, const cgofuzz_fb_dict *d, fb_slot *s) {
  size_t ti = x->first++;
  const dtok *t = &d->t[ti];
  cgofuzz_value *v = pick_arg(x, t);
  if (!v)
    return 1;
  if (fb_is_text(v->kind)) {
    cgofuzz_buf nb = {0};
    if (set_bytes(v, &nb, cgofuzz_buf_append(&nb, t->b, t->len)) != 0)
      return -1;
  } else {
    put_int(x, v, t);
  }
  s->tok[s->ntok++] = (uint32_t)ti;
  return 0;
}

int cgofuzz_fb_dsched_build(fb_run *r, fb_slot *s, size_t idx,
                            cgofuzz_buf *out) {
  fb_dsched *x = &r->dx;
  const cgofuzz_fb_dict *d = r->fb->dict;
  size_t len;
  const uint8_t *data = cgofuzz_coord_host_entry(r->h, idx, &len);
  cgofuzz_err err = {0};
  if (cgofuzz_codec_decode_v(data, len, cgofuzz_coord_host_gover(r->h),
                             &x->vals, &err) != 0)
    return 1;
  s->ntok = 0;
  s->cross = false;
  if (x->first < d->n) {
    int f = first_pass(x, d, s);
    if (f != 0)
      return f;
  } else if (x->any_text && rnd01(x) < cross_chance(x)) {
    /* Runs and prefixes share the crossovers' calls and yields: none
     * uses a token. */
    size_t k = rndn(x, 8);
    int b = k < 2   ? build_run(x)
            : k < 4 ? build_prefix(x)
                    : build_cross(r, idx);
    if (b < 0)
      return -1;
    s->cross = b == 0;
  }
  size_t want =
      s->cross || s->ntok ? 0 : 1 + (rndn(x, 4) == 0) + (rndn(x, 16) == 0);
  for (size_t tries = 0; s->ntok < want && tries < 8 * want; tries++) {
    /* A quarter of the picks are numbers: the limits are few among the
     * tokens, and a number of the text is the likeliest place for one. */
    bool number = x->n_dec && rndn(x, 4) == 0;
    size_t ti = number ? x->dec[rndn(x, x->n_dec)] : pick_token(x, d);
    const dtok *t = &d->t[ti];
    cgofuzz_value *v = pick_arg(x, t);
    if (!v)
      continue;
    if (fb_is_text(v->kind)) {
      if (put_bytes(x, v, t, number) != 0)
        return -1;
    } else {
      put_int(x, v, t);
    }
    s->tok[s->ntok++] = (uint32_t)ti;
  }
  if (!s->ntok && !s->cross)
    return 1;
  out->len = 0;
  if (cgofuzz_codec_encode_v(x->vals.v, x->vals.n,
                             cgofuzz_coord_host_gover(r->h), out, &err) != 0)
    return -1;
  return 0;
}

void cgofuzz_fb_dsched_done(fb_run *r, const fb_slot *s, int k, int64_t count,
                            bool found) {
  fb_dsched *x = &r->dx;
  if (!x->on)
    return;
  double cost = (double)(count > 0 ? count : 0);
  if (k == FB_CALL_EXACT)
    cost *= DICT_EXACT_COST;
  else if (k == FB_CALL_BASE)
    cost += DICT_EXACT_COST;
  x->cost[k] += cost;
  x->finds[k] += found;
  x->calls[k]++;
  x->found[k] += found;
  if (k == FB_CALL_NONE)
    x->stall = found ? 0 : x->stall + 1;
  if (k == FB_CALL_NONE)
    x->credit += cost * x->share / (1 - x->share);
  else
    x->credit -= cost;
  x->credit = clamp(x->credit, -DICT_CREDIT_MAX, DICT_CREDIT_MAX);
  if (k != FB_CALL_NONE && s->cross) {
    x->xo_uses++;
    x->xo_finds += found;
  } else if (k != FB_CALL_NONE) {
    x->tok_uses++;
    x->tok_finds += found;
    cgofuzz_fb_dict *d = r->fb->dict;
    for (size_t i = 0; i < s->ntok; i++) {
      dtok *t = &d->t[s->tok[i]];
      t->uses++;
      t->finds += found;
    }
    if (found)
      x->picks = DICT_RECOMPUTE_PICKS; /* reweigh at the next pick */
  }
  if (x->cost[0] + x->cost[1] + x->cost[2] > DICT_DECAY_COST)
    for (int i = 0; i < 3; i++) {
      x->cost[i] /= 2;
      x->finds[i] /= 2;
    }
  recompute_share(x);
}
