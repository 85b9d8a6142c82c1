/*
 * fb_internal.h: what the feedback strategies' files share (not
 * installed): the token store's layout, a run's state and each
 * strategy's entry points, which fb.c calls in the order the coordinator
 * used to.
 *
 * Invariants: a run's state (fb_run) exists from the coordinator's start
 * call to its stop call, and is reached through the table's ctx; the
 * coordinator is reached only through coord_feedback.h's host functions;
 * the dictionary calls' random stream is their own (seeded from
 * GODEBUG=fuzzseed when set), so their choices depend only on the order
 * of the replies.
 */
#ifndef CGOFUZZ_FB_INTERNAL_H
#define CGOFUZZ_FB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "clock.h"
#include "coord_feedback.h"
#include "fb.h"
#include "gobin_patch.h"

/* The width in bytes of an integer kind (1, 2, 4 or 8; int and uint are
 * 64 bits), 0 for the other kinds. */
static inline int fb_int_width(cgofuzz_kind k) {
  switch (k) {
  case CGOFUZZ_INT8:
  case CGOFUZZ_UINT8:
    return 1;
  case CGOFUZZ_INT16:
  case CGOFUZZ_UINT16:
    return 2;
  case CGOFUZZ_INT32:
  case CGOFUZZ_UINT32:
    return 4;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT64:
  case CGOFUZZ_UINT:
  case CGOFUZZ_UINT64:
    return 8;
  default:
    return 0;
  }
}

/* Whether a kind is a []byte or a string (bytes the mutator and the
 * candidates cut, splice and search). */
static inline bool fb_is_text(cgofuzz_kind k) {
  return k == CGOFUZZ_BYTES || k == CGOFUZZ_STRING;
}

/* Whether an integer kind is signed (its values are kept sign-extended). */
static inline bool fb_int_signed(cgofuzz_kind k) {
  return k == CGOFUZZ_INT || (k >= CGOFUZZ_INT8 && k <= CGOFUZZ_INT64);
}

/* --- dictionary mutations (fb_dict.c, docs/godict.md) */

/* FB_CALL_CMP: an exact run of a comparison-feedback candidate
 * (fb_cmp.c), outside the dictionary's accounting. */
enum { FB_CALL_NONE, FB_CALL_EXACT, FB_CALL_BASE, FB_CALL_CMP };

/* Which calls are dictionary calls, by cost in exec equivalents (an exact
 * run costs DICT_EXACT_COST: a round trip per exec) and what each kind
 * found lately; no clock is read, so with GODEBUG=fuzzseed=N (which seeds
 * rng) the choices depend only on the order of the replies. */
typedef struct fb_dsched {
  bool on;
  uint64_t rng;
  double credit;               /* dictionary cost still allowed */
  double cost[3], finds[3];    /* per FB_CALL_*, decayed */
  double share;                /* dictionary share of the cost, last computed */
  uint64_t calls[3], found[3]; /* totals, for -v */
  double *cum;                 /* cumulative token weights */
  size_t cum_n;
  unsigned picks;             /* since cum was computed */
  cgofuzz_values vals, other; /* the entry built, a crossover's other */
  /* Built calls of tokens and of crossovers, and how many found. */
  double tok_uses, tok_finds, xo_uses, xo_finds;
  size_t first;   /* tokens given their first-pass exact run so far */
  bool gate;      /* fb->dict_when_stalled, until the workers stall */
  unsigned stall; /* plain calls without a find, in a row */
  uint32_t *dec;  /* the decimal numbers among the tokens (3 bytes or more) */
  size_t n_dec;
  int only;      /* $CGOFUZZ_DICT_CALLS=exact|base: every call of that kind */
  bool any_arg;  /* an argument a token can go into */
  bool any_text; /* a []byte or string argument */
  struct cgofuzz_gobin_godict_job *job; /* the code's constants, coming */
  int64_t job_t0;
} fb_dsched;

/* --- the token store (fb_tokens.c) */

/* A token, and what picking it by weight needs (fb_dict.c). */
typedef struct dtok {
  uint8_t *b; /* its bytes (owned) */
  uint32_t len;
  uint8_t src;          /* CGOFUZZ_DICT_*: where it came from */
  uint8_t int_width;    /* an integer's width in bytes, 0: bytes only */
  bool be;              /* the integer is big-endian */
  uint64_t uses, finds; /* dictionary calls that used it, and their finds */
} dtok;

struct cgofuzz_fb_dict {
  dtok *t;
  size_t n, cap;
  uint32_t *ht; /* open addressing: token index + 1, 0: empty */
  size_t ht_cap;
};

/* Adds the integer v of width bytes (2, 4, 8) in both byte orders unless
 * it is tiny (0..255 or -256..-1 in that width). Tokens added, or -1. */
int cgofuzz_fb_dict_add_int(cgofuzz_fb_dict *d, uint64_t v, int width, int src);
/* The token p[0..n), or NULL. */
dtok *cgofuzz_fb_dict_find(cgofuzz_fb_dict *d, const uint8_t *p, size_t n);
/* --- a run's state (fb.c) */

/* What a strategy notes of the call it made for one slot. */
typedef struct fb_slot {
  uint32_t tok[3]; /* the tokens a dictionary call used (fb_dict.c) */
  size_t ntok;
  bool cross;          /* a built call without tokens: a crossover or run */
  int64_t cmp_sent_ms; /* FB_CALL_CMP: when it was sent (fb_cmp.c) */
} fb_slot;

/* Between a run's start and its stop. */
typedef struct cgofuzz_fb_run {
  cgofuzz_fb *fb;               /* the configuration */
  cgofuzz_coord_host *h;        /* the run */
  fb_dsched dx;                 /* dictionary calls */
  struct cgofuzz_fb_cmp *cmp;   /* run-time comparison feedback, NULL: off */
  struct cgofuzz_fb_race *race; /* -racereplay, NULL: off */
  struct cgofuzz_fb_goleak *goleak; /* -goleaks, NULL: off */
  fb_slot *slots;                   /* one per worker slot */
  size_t nslots;
} fb_run;

/* --- dictionary calls (fb_dict.c) */

/* Starts dictionary scheduling when fb has a dictionary (and adds the
 * corpus's tokens, writes -dictout). -1 with err: the run must fail. */
int cgofuzz_fb_dsched_start(fb_run *r, cgofuzz_err *err);
void cgofuzz_fb_dsched_stop(fb_run *r);
/* Adds the code's constants once objdump is done (fb->dict_code); called
 * on every turn of the loop. */
void cgofuzz_fb_dsched_step(fb_run *r);
/* The kind of the next call for an idle worker after the warm-up. */
int cgofuzz_fb_dsched_next(fb_run *r);
/* Builds the value of a dictionary call from corpus entry idx into out
 * (fs->tok/ntok/cross set). Returns 0, or 1 when no token applies to
 * this entry (send a plain call), -1 when out of memory. */
int cgofuzz_fb_dsched_build(fb_run *r, fb_slot *fs, size_t idx,
                            cgofuzz_buf *out);
/* The length of a prefix of a value L >= 2 bytes long: 1..L-1, uniform
 * half the time, else log-uniform (within [2^k, 2^(k+1)) for k uniform up
 * to log2(L-1)), so that short prefixes of long values are common. rndn
 * gives a uniform draw in [0, n) from ctx's stream (2 or 3 draws). */
size_t cgofuzz_fb_prefix_len(size_t L, size_t (*rndn)(void *ctx, size_t n),
                             void *ctx);
/* The Limit of a FB_CALL_BASE call. */
int64_t cgofuzz_fb_dsched_base_limit(void);
/* A fuzz call of kind (FB_CALL_*, not _CMP) ended (reply or death) after
 * count execs; found: it found new coverage or a crasher. */
void cgofuzz_fb_dsched_done(fb_run *r, const fb_slot *fs, int kind,
                            int64_t count, bool found);

/* --- input-to-state (fb_i2s.c, fb_cmp.c, docs/comparisons.md) */

/* Candidates from records (fb_i2s.c): emit gets each candidate (valid
 * during the call) with the call site it answers and how it was made;
 * non-zero from emit stops. At most max candidates; only_pc != 0: only
 * that site's records. -1 when out of memory or stopped. */
enum {
  I2S_PLAIN,
  I2S_SEQ, /* from a width-1 site's sequence */
  I2S_CASE /* a case of a switch on one byte */
};
typedef int (*cgofuzz_fb_i2s_emit)(void *ctx, const cgofuzz_values *v,
                                   uint32_t pc, int how);
int cgofuzz_fb_i2s(const cgofuzz_gobin_cmprec *r, size_t n,
                   const cgofuzz_values *in, size_t max, uint32_t only_pc,
                   cgofuzz_fb_i2s_emit emit, void *ctx);
/* How many width-1 records site pc has. */
size_t cgofuzz_fb_i2s_site_len(const cgofuzz_gobin_cmprec *r, size_t n,
                               uint32_t pc);

/* --- a corpus replay's budget: the race replay's, the goroutine probes'
 */

/* Each blocks the loop while it runs, so it may take 1/FB_REPLAY_SHARE of
 * the run's wall time past its first FB_REPLAY_FREE_MS; a run counted in
 * execs (-fuzztime=Nx) replays every entry as it comes, so that what it
 * finds does not depend on the machine's speed. */
#define FB_REPLAY_SHARE 10
#define FB_REPLAY_FREE_MS 1000
typedef struct fb_replay {
  bool counted;
  int64_t start_ms, spent_ms;
} fb_replay;
/* Starts counting r's replay time. */
static inline void fb_replay_start(fb_replay *b, const fb_run *r) {
  b->counted = cgofuzz_coord_host_config(r->h)->fuzz_count > 0;
  b->start_ms = cgofuzz_mono_ms();
  b->spent_ms = 0;
}
/* Whether a replay may run now (at now_ms). */
static inline bool fb_replay_may(const fb_replay *b, int64_t now_ms) {
  return b->counted || b->spent_ms < FB_REPLAY_FREE_MS ||
         b->spent_ms * FB_REPLAY_SHARE <= now_ms - b->start_ms;
}

/* --- -racereplay (fb_race.c) */

struct cgofuzz_fb_race;
/* Starts replaying the corpus in fb->race_binary's workers when set. */
void cgofuzz_fb_race_start(fb_run *r);
/* Replays the next corpus entry not replayed yet, within its budget.
 * true: there is more to replay now. */
bool cgofuzz_fb_race_step(fb_run *r);
void cgofuzz_fb_race_stop(fb_run *r);

/* --- -goleaks (fb_goleak.c) */

struct cgofuzz_fb_goleak;
/* Starts probing the corpus for goroutine leaks when fb->goleak_binary. */
void cgofuzz_fb_goleak_start(fb_run *r);
/* Probes the next corpus entries, within its budget. true: there is more
 * to probe now. */
bool cgofuzz_fb_goleak_step(fb_run *r);
void cgofuzz_fb_goleak_stop(fb_run *r);

/* --- run-time comparison feedback (fb_cmp.c) */

struct cgofuzz_fb_cmp;
/* Patches a copy of a Go binary and starts its tracing worker when
 * fb->cmp_feedback; a binary that cannot be patched gets a one-line note
 * and the run goes on without. Never fails the run. */
void cgofuzz_fb_cmp_start(fb_run *r);
/* Traces corpus entries not traced yet and queues their candidates, for a
 * slice of a few ms within the time budget; called from the loop once the
 * warm-up is over, after the idle workers got their calls. true: there is
 * more to trace now (the loop's poll should not wait). */
bool cgofuzz_fb_cmp_step(fb_run *r);
/* Moves the next queued candidate into out (1), with its parent entry in
 * *idx; 0 when none is queued. */
int cgofuzz_fb_cmp_next(fb_run *r, fb_slot *fs, cgofuzz_buf *out, size_t *idx);
/* The exact run of a candidate ended; found: new coverage or a crasher. */
void cgofuzz_fb_cmp_done(fb_run *r, const fb_slot *fs, bool found);
void cgofuzz_fb_cmp_stop(fb_run *r);

#endif
