/*
 * fb_cmp.c: run-time comparison feedback for unmodified Go test binaries
 * (docs/comparisons.md).
 *
 * A tracing worker runs a patched copy of the user's binary
 * (gobin_patch.c) whose comparison hooks write their operands to a
 * trace area at the end of that worker's shared-memory file. Every corpus
 * entry (the seeds once the warm-up is over, then each new input) is run
 * there once, as an exact (warm-up) call; the records of that run give
 * input-to-state candidates (fb_i2s.c), which the user's own workers run
 * as exact inputs (FB_CALL_CMP). So the tracing worker only ever runs
 * inputs that already ran, every candidate is judged by the user's binary,
 * and a failure is always reproduced by it before it is reported: a
 * candidate that fails in the tracing worker is queued like the others.
 *
 * The tracing worker is driven synchronously from the coordinator's loop,
 * after the user's idle workers have their calls: slices of at most
 * CMP_SLICE_MS of execs (a round trip of well under a millisecond on most
 * targets), at most CMP_BUDGET of the wall time; the loop polls without
 * waiting while there is tracing to do. Its start (a Go program's start-up,
 * 50-300 ms) is not waited for either: the ping is sent, and its answer
 * read by a later step. The user's workers go on with their 100 ms calls
 * meanwhile, and never wait for a trace: a shallow bug go test -fuzz finds
 * in 0.02 s took 1.3-2.8 s when the first second went to tracing alone
 * (issue 26's jsonparser; 0.05 s since). A run of -fuzztime=Nx, which is
 * to be the same every time, keeps the blocking way: the ping is waited
 * for, and each step traces a whole entry with its byte loops. Newest first,
 * both ways: the entry traced next is the newest untraced one, and a trace's
 * candidates go before those of older traces (in the order of their
 * comparisons), since an input that just got through one comparison is where
 * the next one is met; when the queue is full the oldest candidates are
 * dropped. Candidates run while the time the user's workers spent on them stays
 * under CMP_SHARE of the workers' time plus an initial allowance, so Go's own
 * mutator keeps most of the effort on targets where comparisons teach nothing,
 * and under CMP_EARLY_SHARE of it while the allowance lasts: spent all at
 * once, the allowance took the first quarter second from Go's mutations of
 * the seeds, where shallow bugs are (x/image/tiff's palette index, one byte
 * from a seed: its median time to the failure 0.69 -> 0.50 s).
 * (Time, not execs: an exact run's round trip, with its coverage snapshot,
 * costs 5 to 15 of a target's execs.)
 *
 * Mutants are traced too, once the corpus is traced and fewer than
 * CMP_MUTANT_BELOW of their candidates wait: a random entry, cut to a
 * prefix a quarter of the time (cgofuzz_fb_prefix_len: libFuzzer's
 * -len_control keeps many of its inputs short), else given Go's mutations.
 * Tracing only what found coverage misses the compares of an input that
 * takes a path already covered: a record cut short fails its size check
 * as many other inputs did before, so it is never traced, and the length
 * its size was compared with is never written (libwebp's oss-fuzz:9100
 * needs an input of 20-29 bytes whose RIFF size is at most its length).
 * libFuzzer's table of recent compares takes operands from every exec;
 * cgofuzz from a sample of mutants, within the same budgets. A mutant
 * gives at most CMP_PER_MUTANT candidates (its trace begins with the fuzz
 * function's compares, the worker's reply's come last), and its first
 * CMP_FOLLOWS candidates that keep its length are traced in turn: one that
 * mended a size meets the next check (a chunk's size), and is seldom new
 * coverage. Mutants' candidates wait in a ring of their own, which takes
 * turns with the entries' (in one queue, either would starve the other:
 * webp's entries queue thousands), and a mutant that fails in the tracing
 * worker is queued as it is, for the user's workers to judge.
 *
 * A candidate from a width-1 call site (a literal compared byte by byte in
 * a loop) is followed before it is queued: while re-running it shows the
 * site's loop going further, the next candidate of that site is taken
 * (CMP_CHAIN_MAX steps), since the loop's coverage barely changes from one
 * byte to the next and the corpus would not keep the steps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "coord_worker.h"
#include "dir.h"
#include "fb_internal.h"
#include "godebug.h"
#include "hashset.h"
#include "mutator.h"
#include "os.h"

#define CMP_RECS 32768
#define CMP_TRACE_SIZE (CMP_TRACE_HDR + (size_t)CMP_RECS * CMP_REC_SIZE)
#define CMP_BUDGET 0.05       /* of the wall time, tracing */
#define CMP_BUDGET_MS 250     /* of tracing at start (the worker's too) */
#define CMP_QUEUE_MAX 8192    /* candidates waiting; more are dropped */
#define CMP_PER_TRACE 512     /* candidates from one traced run */
#define CMP_CHAIN_MAX 64      /* re-runs following one byte loop */
#define CMP_CHAINS 8          /* byte loops followed per traced entry */
#define CMP_SHARE 0.05        /* of the workers' time, at most, on candidates */
#define CMP_ALLOWANCE_MS 250  /* of candidates at start */
#define CMP_EARLY_SHARE 0.5   /* of the workers' time, while in it */
#define CMP_TRACE_MS 2000     /* one traced exec; slower: the worker restarts*/
#define CMP_SLICE_MS 5        /* of tracing per step of the loop */
#define CMP_MAX_DEATHS 3      /* in a row: tracing stops */
#define CMP_MUTANT_BELOW 64   /* queued candidates: fewer, a mutant is traced*/
#define CMP_FOLLOWS 4         /* a mutant's first candidates, traced in turn */
#define CMP_PER_MUTANT 12     /* candidates from a mutant's (or follow's) run */
#define CMP_CASES_PER_SITE 16 /* a switch site's candidates, in a run */

typedef struct cand {
  uint8_t *data;
  size_t len, parent;
} cand;

typedef struct chain {
  cgofuzz_buf data;
  uint32_t pc;
  size_t len; /* the site's records when it was made */
} chain;

/* Candidates waiting, the next at c[h]; CMP_QUEUE_MAX of them. */
typedef struct ring {
  cand *c;
  size_t h, n;
} ring;

struct cgofuzz_fb_cmp {
  cgofuzz_gobin_copy copy; /* the traced copy */
  cgofuzz_coord_worker w;
  bool up;
  bool starting;   /* started, its ping answer not read yet */
  bool blocking;   /* -fuzztime=Nx: each step waits, traces a whole entry */
  int64_t ping_ms; /* when the ping was sent */
  size_t chain_at; /* chains[chain_at..nchains) are still to follow */
  int chain_step;  /* steps of chains[chain_at] so far */
  int deaths;
  uint64_t trace_off;
  size_t trace_size;
  size_t seen;  /* corpus entries below this are traced or in todo */
  size_t *todo; /* entries to trace, the newest last */
  size_t ntodo, todo_cap;
  size_t parent; /* the entry being traced */
  /* Queued candidates: [0] the entries', [1] mutants', [2] switch cases
   * (the entries', oldest first: see queue_case). */
  ring q[3];
  unsigned turn; /* the ring cgofuzz_fb_cmp_next took from last */
  cand *fresh;   /* this trace's candidates, in order, until it ends */
  size_t nfresh, fresh_cap;
  cgofuzz_hashset tried;      /* hashes of candidates queued so far */
  cgofuzz_hashset case_sites; /* (switch site, k): its k-th case queued */
  cgofuzz_hashset case_tried; /* hashes of switch cases' candidates */
  cgofuzz_gobin_cmprec *recs;
  size_t nrecs;
  const char *dump; /* $CGOFUZZ_CMP_DUMP */
  chain chains[CMP_CHAINS];
  size_t nchains;
  cgofuzz_values vals;
  cgofuzz_buf enc, next, line; /* line: a call being sent */
  bool mutants;                /* mutants are traced ($CGOFUZZ_CMP_MUTANTS) */
  bool of_mutant;              /* the current trace is a mutant's */
  cgofuzz_buf follows[CMP_FOLLOWS]; /* a mutant's candidates to trace */
  size_t nfollow, follow_at;        /* follows[follow_at..nfollow) to go */
  bool following;                   /* tracing one: its candidates are not */
  bool no_follows;                  /* $CGOFUZZ_CMP_MUTANTS=trace */
  cgofuzz_mutator mut;              /* makes them; its own stream */
  cgofuzz_buf mutant;               /* the one being traced, encoded */
  size_t mutant_len;                /* its text_len */
  int64_t start_ms, spent_ms, cand_ms;
  uint64_t traces, records, queued, runs, found, chain_steps, mutant_traces,
      followed;
};
typedef struct cgofuzz_fb_cmp cmp;

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h | 1;
}

/* Keeps a candidate of the current trace (see publish); false when it
 * was queued before (or there is no room). */
static bool enqueue(cmp *m, const uint8_t *p, size_t n) {
  if (m->nfresh >= CMP_PER_TRACE + CMP_CHAINS + CMP_FOLLOWS ||
      cgofuzz_hashset_add(&m->tried, hash_bytes(p, n)) != 1)
    return false;
  if (m->nfresh == m->fresh_cap) {
    size_t cap = m->fresh_cap ? 2 * m->fresh_cap : 64;
    cand *f = realloc(m->fresh, cap * sizeof *f);
    if (!f)
      return false;
    m->fresh = f;
    m->fresh_cap = cap;
  }
  uint8_t *d = malloc(n ? n : 1);
  if (!d)
    return false;
  memcpy(d, p, n);
  m->fresh[m->nfresh++] = (cand){.data = d, .len = n, .parent = m->parent};
  m->queued++;
  return true;
}

/* Puts c in front of ring q, dropping its oldest when it is full. */
static void ring_push(ring *q, cand c) {
  if (q->n == CMP_QUEUE_MAX) {
    free(q->c[(q->h + q->n - 1) % CMP_QUEUE_MAX].data);
    q->n--;
  }
  q->h = (q->h + CMP_QUEUE_MAX - 1) % CMP_QUEUE_MAX;
  q->c[q->h] = c;
  q->n++;
}

/* Puts c behind the others of ring q; false when it is full. */
static bool ring_append(ring *q, cand c) {
  if (q->n == CMP_QUEUE_MAX)
    return false;
  q->c[(q->h + q->n) % CMP_QUEUE_MAX] = c;
  q->n++;
  return true;
}

static cand ring_pop(ring *q) {
  cand c = q->c[q->h];
  q->h = (q->h + 1) % CMP_QUEUE_MAX;
  q->n--;
  return c;
}

static void ring_free(ring *q) {
  for (size_t i = 0; q->c && i < q->n; i++)
    free(q->c[(q->h + i) % CMP_QUEUE_MAX].data);
  free(q->c);
}

/* Puts the current trace's candidates in front of their ring (the
 * entries' or the mutants'), in order. */
static void publish(cmp *m) {
  for (size_t i = m->nfresh; i-- > 0;)
    ring_push(&m->q[m->of_mutant], m->fresh[i]);
  m->nfresh = 0;
}

static void stop_worker(cmp *m) {
  if (m->up || m->starting)
    cgofuzz_coord_worker_stop(&m->w, CGOFUZZ_COORD_WORKER_GRACE_MS);
  m->up = m->starting = false;
}

/* Starts the tracing worker and sends its ping, without waiting for the
 * answer (ping_answered reads it). 0, or -1 when it could not start. */
static int start_worker(fb_run *r, cmp *m) {
  cgofuzz_err err = {0};
  m->w.keep_stderr = false;
  if (cgofuzz_coord_worker_start(
          &m->w, m->copy.path, cgofuzz_coord_host_argv(r->h),
          cgofuzz_coord_host_envp(r->h), NULL, -1, -1, &err) != 0)
    return -1;
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_PING};
  m->line.len = 0;
  cgofuzz_wire_encode_call(&call, &m->line);
  if (cgofuzz_coord_worker_send(&m->w, &m->line, &err) != 0) {
    cgofuzz_coord_worker_stop(&m->w, CGOFUZZ_COORD_WORKER_GRACE_MS);
    return -1;
  }
  m->starting = true;
  m->ping_ms = cgofuzz_mono_ms();
  return 0;
}

/* 1 once the started worker has answered its ping (it is up), 0 while it
 * has not yet, -1 when it died or took longer than
 * CGOFUZZ_COORD_WORKER_PING_MS. Waits for the answer when m->blocking. */
static int ping_answered(cmp *m) {
  cgofuzz_err err = {0};
  const uint8_t *l;
  size_t n;
  int got = cgofuzz_coord_worker_recv(
      &m->w, m->blocking ? CGOFUZZ_COORD_WORKER_PING_MS : 0,
      CGOFUZZ_COORD_WORKER_MAX_LINE, &l, &n, &err);
  if (got == 0 && cgofuzz_mono_ms() - m->ping_ms < CGOFUZZ_COORD_WORKER_PING_MS)
    return 0;
  if (got != 1 || cgofuzz_wire_decode_ping_resp(l, n, &err) != 0) {
    stop_worker(m);
    return -1;
  }
  m->starting = false;
  m->up = true;
  return 1;
}

static void dump(cmp *m, size_t len);

static uint8_t *trace_area(cmp *m) { return m->w.mem.region + m->trace_off; }

/* Runs the encoded value once on the tracing worker and copies its records
 * to m->recs. 1: done (*failed: the run failed), 0: the worker could not
 * run it (died, hung: it is restarted at the next trace). */
static int trace(cmp *m, const uint8_t *val, size_t len, bool *failed) {
  cgofuzz_err err = {0};
  *failed = false;
  m->nrecs = 0;
  if (!m->up) /* died in an earlier trace: cgofuzz_fb_cmp_step restarts it */
    return 0;
  if (cgofuzz_coord_exact_call(&m->w.mem, val, len,
                               CGOFUZZ_COORD_WORKER_CALL_NS, &m->line,
                               &err) != 0)
    return 0;
  uint8_t *t = trace_area(m);
  uint64_t cap = (m->trace_size - CMP_TRACE_HDR) / CMP_REC_SIZE, zero = 0;
  memcpy(t + 16, &cap, 8);
  memcpy(t + 8, &zero, 8);
  __atomic_store_n(t, (uint8_t)1, __ATOMIC_SEQ_CST);
  const uint8_t *l;
  size_t n;
  int got = cgofuzz_coord_worker_send(&m->w, &m->line, &err) == 0
                ? cgofuzz_coord_worker_recv(&m->w, CMP_TRACE_MS,
                                            CGOFUZZ_COORD_WORKER_MAX_LINE, &l,
                                            &n, &err)
                : -1;
  __atomic_store_n(t, (uint8_t)0, __ATOMIC_SEQ_CST);
  cgofuzz_fuzz_resp r = {0};
  if (got != 1 || cgofuzz_wire_decode_fuzz_resp(l, n, &r, &err) != 0) {
    stop_worker(m);
    m->deaths++;
    /* A run that killed its worker: the user's workers judge it. */
    *failed = got == -1;
    return *failed;
  }
  m->deaths = 0;
  *failed = r.err != NULL;
  cgofuzz_fuzz_resp_free(&r);
  uint64_t k;
  memcpy(&k, t + 8, 8);
  if (k > cap)
    k = cap;
  memcpy(m->recs, t + CMP_TRACE_HDR, (size_t)k * CMP_REC_SIZE);
  m->nrecs = (size_t)k;
  if (m->dump)
    dump(m, len);
  m->traces++;
  m->records += k;
  return 1;
}

/* $CGOFUZZ_CMP_DUMP: each traced run's records, as text, appended to a
 * file (for tests, and for seeing what a target compares). */
static void dump(cmp *m, size_t len) {
  FILE *f = fopen(m->dump, "a");
  if (!f)
    return;
  fprintf(f, "trace %zu bytes, %zu records\n", len, m->nrecs);
  for (size_t i = 0; i < m->nrecs; i++) {
    const cgofuzz_gobin_cmprec *r = &m->recs[i];
    fprintf(f, "kind=%#x pc=%08x", (unsigned)r->kind, (unsigned)r->pc);
    if (r->kind & (CMP_K_STR | CMP_K_FOLD)) {
      const uint8_t *s[2] = {r->a0, r->a1};
      uint32_t n[2] = {r->len0, r->len1};
      for (int j = 0; j < 2; j++) {
        fprintf(f, " s%d=", j);
        for (uint32_t q = 0; q < n[j] && q < CMP_REC_DATA; q++)
          fprintf(f, "%02x", s[j][q]);
        fprintf(f, "/%u", (unsigned)n[j]);
      }
    } else {
      uint64_t a, b;
      memcpy(&a, r->a0, 8);
      memcpy(&b, r->a1, 8);
      fprintf(f, " a0=%016llx a1=%016llx", (unsigned long long)a,
              (unsigned long long)b);
    }
    fputc('\n', f);
  }
  fclose(f);
}

/* The bytes of v's []byte and string arguments. */
static size_t text_len(const cgofuzz_values *v) {
  size_t n = 0;
  for (size_t k = 0; k < v->n; k++)
    if (fb_is_text(v->v[k].kind))
      n += v->v[k].s.len;
  return n;
}

/* A switch case's candidate (m->enc) joins the end of its own ring: a tag
 * byte set to another case is a message of another kind, the dispatch of
 * a parser, worth running soon even from an old trace (gosentry's CMPLOG
 * finds x/crypto's ssh/agent bug by one such byte of a seed); newest first
 * would leave the seeds' behind every new entry's. At most
 * CMP_CASES_PER_SITE per site in a run: the parser's loop meets the same
 * switch in every input. Its own set of candidates tried: an earlier
 * comparison of the same trace may have made the same input, queued
 * behind newer ones. */
static void queue_case(cmp *m, uint32_t pc) {
  int k = 0;
  for (; k < CMP_CASES_PER_SITE; k++) {
    uint64_t key = (uint64_t)pc << 8 | (uint64_t)k;
    if (cgofuzz_hashset_add(&m->case_sites,
                            hash_bytes((const uint8_t *)&key, sizeof key)) == 1)
      break;
  }
  if (k == CMP_CASES_PER_SITE || m->q[2].n == CMP_QUEUE_MAX ||
      cgofuzz_hashset_add(&m->case_tried,
                          hash_bytes(m->enc.data, m->enc.len)) != 1)
    return;
  uint8_t *d = malloc(m->enc.len ? m->enc.len : 1);
  if (!d)
    return;
  memcpy(d, m->enc.data, m->enc.len);
  ring_append(&m->q[2],
              (cand){.data = d, .len = m->enc.len, .parent = m->parent});
  m->queued++;
}

static int on_candidate(void *ctx, const cgofuzz_values *v, uint32_t pc,
                        int how) {
  fb_run *r = ctx;
  cmp *m = r->cmp;
  cgofuzz_err err = {0};
  m->enc.len = 0;
  if (cgofuzz_codec_encode_v(v->v, v->n, cgofuzz_coord_host_gover(r->h),
                             &m->enc, &err) != 0)
    return 0;
  if (how == I2S_CASE) {
    queue_case(m, pc);
    return 0;
  }
  if (how == I2S_SEQ) {
    if (m->nchains < CMP_CHAINS) {
      chain *ch = &m->chains[m->nchains];
      ch->data.len = 0;
      if (cgofuzz_buf_append(&ch->data, m->enc.data, m->enc.len) == 0) {
        ch->pc = pc;
        ch->len = cgofuzz_fb_i2s_site_len(m->recs, m->nrecs, pc);
        m->nchains++;
      }
    }
    return 0;
  }
  /* Followed: a mutant's first candidates that keep its length (one made
   * of a length compared, a cut or an extension, is seldom what the next
   * comparison waits for). */
  if (enqueue(m, m->enc.data, m->enc.len) && m->of_mutant && !m->following &&
      !m->no_follows && m->nfollow < CMP_FOLLOWS &&
      text_len(v) == m->mutant_len) {
    cgofuzz_buf *f = &m->follows[m->nfollow];
    f->len = 0;
    if (cgofuzz_buf_append(f, m->enc.data, m->enc.len) == 0)
      m->nfollow++;
  }
  return 0;
}

/* The first candidate of site pc, for a chain step. */
typedef struct first {
  fb_run *r;
  cgofuzz_buf *out;
  bool got;
} first;

static int on_first(void *ctx, const cgofuzz_values *v, uint32_t pc, int how) {
  first *f = ctx;
  cgofuzz_err err = {0};
  (void)pc;
  if (how != I2S_SEQ || f->got)
    return 0;
  f->out->len = 0;
  f->got = cgofuzz_codec_encode_v(v->v, v->n, cgofuzz_coord_host_gover(f->r->h),
                                  f->out, &err) == 0;
  return 1; /* one is enough */
}

/* One step of following a byte loop (chains[chain_at]): re-runs it, and
 * while the site's records grow, takes the site's next candidate. When the
 * loop goes no further (or after CMP_CHAIN_MAX steps) the chain's input is
 * queued and the next chain's turn comes. */
static void follow_step(fb_run *r, cmp *m) {
  chain *ch = &m->chains[m->chain_at];
  cgofuzz_err err = {0};
  bool failed, more = false;
  if (m->chain_step < CMP_CHAIN_MAX &&
      trace(m, ch->data.data, ch->data.len, &failed) && !failed) {
    size_t len = cgofuzz_fb_i2s_site_len(m->recs, m->nrecs, ch->pc);
    if (len > ch->len && cgofuzz_codec_decode_v(ch->data.data, ch->data.len,
                                                cgofuzz_coord_host_gover(r->h),
                                                &m->vals, &err) == 0) {
      m->chain_steps++;
      first f = {.r = r, .out = &m->next};
      cgofuzz_fb_i2s(m->recs, m->nrecs, &m->vals, 8, ch->pc, on_first, &f);
      if (f.got) {
        cgofuzz_buf t = ch->data;
        ch->data = m->next;
        m->next = t;
        ch->len = len;
        more = true;
      }
    }
  }
  if (more && ++m->chain_step < CMP_CHAIN_MAX)
    return;
  enqueue(m, ch->data.data, ch->data.len);
  m->chain_at++;
  m->chain_step = 0;
}

/* A new trace, of entry idx or of a mutant of it: the last one's byte
 * loops and follows are dropped. */
static void begin_trace(cmp *m, size_t idx, bool of_mutant) {
  m->parent = idx;
  m->of_mutant = of_mutant;
  m->nfollow = m->follow_at = 0;
  m->nchains = m->chain_at = 0;
  m->chain_step = 0;
}

/* Traces corpus entry idx and queues its candidates; the byte loops it
 * shows are followed by the next steps (follow_step). */
static void trace_entry(fb_run *r, cmp *m, size_t idx) {
  size_t len;
  const uint8_t *data = cgofuzz_coord_host_entry(r->h, idx, &len);
  cgofuzz_err err = {0};
  bool failed;
  begin_trace(m, idx, false);
  if (!trace(m, data, len, &failed) || failed)
    return;
  if (cgofuzz_codec_decode_v(data, len, cgofuzz_coord_host_gover(r->h),
                             &m->vals, &err) != 0)
    return;
  cgofuzz_fb_i2s(m->recs, m->nrecs, &m->vals, CMP_PER_TRACE, 0, on_candidate,
                 r);
}

static size_t mut_rndn(void *ctx, size_t n) {
  cmp *m = ctx;
  uint64_t v =
      (uint64_t)cgofuzz_pcg_u32(&m->mut.r) << 32 | cgofuzz_pcg_u32(&m->mut.r);
  return (size_t)(v % n);
}

/* A mutant of a random corpus entry, decoded in m->vals and encoded in
 * m->mutant; its entry's index, or SIZE_MAX when none could be made. */
static size_t make_mutant(fb_run *r, cmp *m) {
  size_t n = cgofuzz_coord_host_corpus(r->h), len;
  if (!n)
    return SIZE_MAX;
  size_t idx = mut_rndn(m, n);
  const uint8_t *data = cgofuzz_coord_host_entry(r->h, idx, &len);
  cgofuzz_err err = {0};
  if (cgofuzz_codec_decode_v(data, len, cgofuzz_coord_host_gover(r->h),
                             &m->vals, &err) != 0 ||
      !m->vals.n)
    return SIZE_MAX;
  size_t muts = 1 + mut_rndn(m, CGOFUZZ_CHAINED_MUTATIONS);
  cgofuzz_value *v = &m->vals.v[mut_rndn(m, m->vals.n)];
  if (fb_is_text(v->kind) && v->s.len >= 2 && mut_rndn(m, 4) == 0) {
    /* A prefix alone: a mutation more would mostly hit the header a short
     * prefix is made of, which the prefix's candidates are to mend. */
    v->s.len = cgofuzz_fb_prefix_len(v->s.len, mut_rndn, m);
    muts = 0;
  }
  for (size_t i = 0; i < muts; i++)
    if (cgofuzz_mutate(&m->mut, m->vals.v, m->vals.n, CGOFUZZ_SHM_VALUE_CAP,
                       &err) != 0)
      return SIZE_MAX;
  m->mutant_len = text_len(&m->vals);
  m->mutant.len = 0;
  if (cgofuzz_codec_encode_v(m->vals.v, m->vals.n,
                             cgofuzz_coord_host_gover(r->h), &m->mutant,
                             &err) != 0)
    return SIZE_MAX;
  return idx;
}

/* Traces the next of a mutant's first candidates (follows) and queues its
 * own candidates: a candidate that passed one comparison (a size made to
 * fit) meets the next one (a chunk's size), and, as it is seldom new
 * coverage, would not be traced as an entry. */
static void follow_candidate(fb_run *r, cmp *m) {
  cgofuzz_buf *f = &m->follows[m->follow_at++];
  cgofuzz_err err = {0};
  bool failed;
  m->followed++;
  if (!trace(m, f->data, f->len, &failed) || failed ||
      cgofuzz_codec_decode_v(f->data, f->len, cgofuzz_coord_host_gover(r->h),
                             &m->vals, &err) != 0)
    return; /* (a failing one is queued already) */
  m->following = true;
  cgofuzz_fb_i2s(m->recs, m->nrecs, &m->vals, CMP_PER_MUTANT, 0, on_candidate,
                 r);
  m->following = false;
}

/* Traces a mutant (make_mutant) and queues its candidates as its entry's;
 * a mutant that fails there is queued itself. false: none was made. */
static bool trace_mutant(fb_run *r, cmp *m) {
  size_t idx = make_mutant(r, m);
  bool failed;
  if (idx == SIZE_MAX)
    return false;
  begin_trace(m, idx, true);
  m->mutant_traces++;
  if (!trace(m, m->mutant.data, m->mutant.len, &failed))
    return true;
  if (failed) {
    enqueue(m, m->mutant.data, m->mutant.len);
    return true;
  }
  cgofuzz_fb_i2s(m->recs, m->nrecs, &m->vals, CMP_PER_MUTANT, 0, on_candidate,
                 r);
  return true;
}

/* The newest entry not traced yet (under -focus, one that reaches changed
 * code if a recent one does), or SIZE_MAX. */
static size_t next_todo(fb_run *r, cmp *m) {
  size_t n = cgofuzz_coord_host_corpus(r->h);
  if (n > m->seen) {
    size_t add = n - m->seen;
    if (m->ntodo + add > m->todo_cap) {
      size_t cap = 2 * (m->ntodo + add);
      size_t *t = realloc(m->todo, cap * sizeof *t);
      if (!t)
        return SIZE_MAX;
      m->todo = t;
      m->todo_cap = cap;
    }
    while (m->seen < n)
      m->todo[m->ntodo++] = m->seen++;
  }
  /* -focus: of the newest 64, one that reaches changed code goes first */
  for (size_t k = m->ntodo; k-- > 0 && m->ntodo - k <= 64;)
    if (cgofuzz_coord_host_focus(r->h, m->todo[k])) {
      size_t t = m->todo[k];
      m->todo[k] = m->todo[m->ntodo - 1];
      m->todo[m->ntodo - 1] = t;
      break;
    }
  return m->ntodo ? m->todo[--m->ntodo] : SIZE_MAX;
}

bool cgofuzz_fb_cmp_step(fb_run *r) {
  cmp *m = r->cmp;
  if (!m || !cgofuzz_coord_host_fuzzing(r->h))
    return false;
  if (m->deaths >= CMP_MAX_DEATHS) {
    if (!cgofuzz_coord_host_config(r->h)->quiet)
      fprintf(stderr,
              "cgofuzz: run-time comparison feedback stopped: its tracing "
              "worker died %d times in a row\n",
              m->deaths);
    cgofuzz_fb_cmp_stop(r);
    return false;
  }
  int64_t now = cgofuzz_mono_ms();
  if (!m->start_ms)
    m->start_ms = now;
  if ((double)m->spent_ms >
      CMP_BUDGET * (double)(now - m->start_ms) + CMP_BUDGET_MS)
    return false;
  if (!m->up) {
    int up = m->starting ? 0 : start_worker(r, m);
    if (up == 0)
      up = ping_answered(m);
    if (up < 0)
      m->deaths++;
    if (!m->up)
      return false; /* the loop's poll comes back for it */
  }
  /* A slice of CMP_SLICE_MS; blocking (an exec-counted run, which is to be
   * the same every time): one whole entry, its byte loops included. */
  bool more = true, traced = false;
  while (more && m->up) {
    if (m->chain_at < m->nchains) {
      follow_step(r, m);
    } else if (m->follow_at < m->nfollow) {
      follow_candidate(r, m);
    } else if (m->blocking && traced) {
      break;
    } else {
      size_t idx = next_todo(r, m);
      if (idx != SIZE_MAX)
        trace_entry(r, m, idx);
      else if (!m->mutants || m->q[1].n >= CMP_MUTANT_BELOW)
        more = false;
      else
        more = trace_mutant(r, m);
      traced = true;
    }
    publish(m);
    if (!m->blocking && cgofuzz_mono_ms() - now >= CMP_SLICE_MS)
      break;
  }
  m->spent_ms += cgofuzz_mono_ms() - now;
  return more && m->up && !m->blocking;
}

int cgofuzz_fb_cmp_next(fb_run *r, fb_slot *s, cgofuzz_buf *out, size_t *idx) {
  cmp *m = r->cmp;
  if (!m || !(m->q[0].n + m->q[1].n + m->q[2].n))
    return 0;
  int64_t now = cgofuzz_mono_ms();
  double spent =
      (double)(now - m->start_ms) * (double)cgofuzz_coord_host_workers(r->h);
  double cap = CMP_SHARE * spent + CMP_ALLOWANCE_MS;
  if (cap > CMP_EARLY_SHARE * spent)
    cap = CMP_EARLY_SHARE * spent;
  if ((double)m->cand_ms > cap)
    return 0;
  /* The rings take turns; an empty one gives its turn to the next. */
  do
    m->turn = (m->turn + 1) % 3;
  while (!m->q[m->turn].n);
  cand k = ring_pop(&m->q[m->turn]);
  out->len = 0;
  int rc = cgofuzz_buf_append(out, k.data, k.len);
  free(k.data);
  if (rc != 0 || k.parent >= cgofuzz_coord_host_corpus(r->h))
    return 0;
  *idx = k.parent;
  s->ntok = 0;
  s->cross = false;
  s->cmp_sent_ms = now;
  m->runs++;
  return 1;
}

void cgofuzz_fb_cmp_done(fb_run *r, const fb_slot *s, bool found) {
  if (!r->cmp)
    return;
  r->cmp->found += found;
  r->cmp->cand_ms += cgofuzz_mono_ms() - s->cmp_sent_ms;
}

void cgofuzz_fb_cmp_start(fb_run *r) {
  const cgofuzz_coord_config *cfg = cgofuzz_coord_host_config(r->h);
  if (!r->fb->cmp_feedback || !cgofuzz_coord_host_mask_len(r->h))
    return; /* off, or not a Go binary built with -fuzz */
  cmp *m = calloc(1, sizeof *m);
  cgofuzz_err err = {0};
  cgofuzz_buf out = {0};
  if (!m)
    goto off;
  m->w.mem.fd = -1;
  m->copy.mfd = -1;
  m->blocking = cfg->fuzz_count > 0;
  if (cgofuzz_gobin_copy_path(&m->copy, cfg->binary, "cgofuzz-cmp", false, &out,
                              &err) != 0)
    goto off;
  m->trace_off = (CGOFUZZ_SHM_HEADER_SIZE + CGOFUZZ_SHM_VALUE_CAP + 4095) &
                 ~(uint64_t)4095;
  cgofuzz_gobin_patched info;
  if (cgofuzz_gobin_patch(cfg->binary, cgofuzz_buf_cstr(&out), m->trace_off,
                          CMP_TRACE_SIZE, CGOFUZZ_GOBIN_PATCH_HOOKS, NULL,
                          &info, &err) != 0)
    goto off;
  m->trace_size = info.trace_size;
  if (cgofuzz_coord_worker_init(
          &m->w, m->trace_off - CGOFUZZ_SHM_HEADER_SIZE + m->trace_size,
          &err) != 0)
    goto off;
  m->dump = getenv("CGOFUZZ_CMP_DUMP");
  /* $CGOFUZZ_CMP_MUTANTS: 0, none; trace, their candidates not traced. */
  const char *mutants = getenv("CGOFUZZ_CMP_MUTANTS");
  m->mutants = !mutants || strcmp(mutants, "0") != 0;
  m->no_follows = mutants && strcmp(mutants, "trace") == 0;
  uint64_t seed;
  if (!cgofuzz_godebug_fuzzseed(getenv("GODEBUG"), &seed))
    seed = (uint64_t)(uintptr_t)m ^ ((uint64_t)cgofuzz_mono_ms() << 20);
  cgofuzz_mutator_init(&m->mut, 0, 1);
  cgofuzz_pcg_seed(&m->mut.r, seed ^ 0x6d7574616e74ull /* "mutant" */, 1);
  m->q[0].c = calloc(CMP_QUEUE_MAX, sizeof *m->q[0].c);
  m->q[1].c = calloc(CMP_QUEUE_MAX, sizeof *m->q[1].c);
  m->q[2].c = calloc(CMP_QUEUE_MAX, sizeof *m->q[2].c);
  m->recs = malloc(m->trace_size);
  if (!m->q[0].c || !m->q[1].c || !m->q[2].c || !m->recs) {
    snprintf(err.msg, sizeof err.msg, "out of memory");
    goto off;
  }
  if (cgofuzz_coord_host_says(r->h))
    fprintf(stderr,
            "cgofuzz: run-time comparison feedback: %zu hooks patched in a "
            "copy of %s%s%s%s\n",
            info.hooks, cfg->binary,
            info.strings ? "" : " (no string hooks before go1.19)",
            info.c_hooks ? ", and the cgo C code's compares" : "",
            info.trace_start ? "" : " (the worker's decoding traced too)");
  cgofuzz_buf_free(&out);
  r->cmp = m;
  return;
off:
  if (!cfg->quiet)
    fprintf(stderr,
            "cgofuzz: no run-time comparison feedback for %s (%s); using the "
            "static dictionary only\n",
            cfg->binary, err.msg);
  cgofuzz_buf_free(&out);
  r->cmp = m;
  cgofuzz_fb_cmp_stop(r);
}

void cgofuzz_fb_cmp_stop(fb_run *r) {
  cmp *m = r->cmp;
  if (!m)
    return;
  if (cgofuzz_coord_host_says(r->h) && m->traces)
    fprintf(stderr,
            "cgofuzz: comparison feedback: %llu traced runs (%llu of mutants, "
            "%llu of their candidates, %llu records, %llu byte-loop steps), "
            "%llu candidates queued, %llu run, %llu found something\n",
            (unsigned long long)m->traces, (unsigned long long)m->mutant_traces,
            (unsigned long long)m->followed, (unsigned long long)m->records,
            (unsigned long long)m->chain_steps, (unsigned long long)m->queued,
            (unsigned long long)m->runs, (unsigned long long)m->found);
  stop_worker(m);
  if (m->w.mem.fd >= 0 || m->w.mem.region)
    cgofuzz_coord_worker_free(&m->w);
  cgofuzz_gobin_copy_free(&m->copy);
  for (size_t i = 0; i < m->nfresh; i++)
    free(m->fresh[i].data);
  free(m->fresh);
  free(m->todo);
  for (size_t i = 0; i < CMP_CHAINS; i++)
    cgofuzz_buf_free(&m->chains[i].data);
  for (size_t i = 0; i < CMP_FOLLOWS; i++)
    cgofuzz_buf_free(&m->follows[i]);
  ring_free(&m->q[0]);
  ring_free(&m->q[1]);
  ring_free(&m->q[2]);
  cgofuzz_hashset_free(&m->tried);
  cgofuzz_hashset_free(&m->case_sites);
  cgofuzz_hashset_free(&m->case_tried);
  free(m->recs);
  cgofuzz_values_free(&m->vals); /* before the mutator: values borrow scratch */
  cgofuzz_mutator_free(&m->mut);
  cgofuzz_buf_free(&m->mutant);
  cgofuzz_buf_free(&m->enc);
  cgofuzz_buf_free(&m->next);
  cgofuzz_buf_free(&m->line);
  free(m);
  r->cmp = NULL;
}
