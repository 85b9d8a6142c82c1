/*
 * fb_goleak.c: -goleaks: corpus entries, as the run finds them, are run
 * again in a worker of the target's own binary, and goroutines an input
 * leaves running are the run's failure, with the input written to testdata
 * and `CGOFUZZ_FLAGS=-goleaks go test -run=Target/NAME -exec=cgofuzz`
 * re-running it (cgofuzz_fb_goleak_check). What goleak checks after a
 * test, for binaries that do not import it.
 *
 * A probe: a fresh worker runs some entries (each once, or twice), waits
 * for the goroutines they started to end, and is sent SIGQUIT: Go's
 * runtime then prints every goroutine's stack and exits. Goroutines are
 * counted by the function that created them ("created by F"); those the
 * runtime created are not counted, nor are those without a creator (the
 * main goroutine).
 *
 * Invariants:
 *  - counts are compared with a tolerance per creator: at first an idle
 *    worker's (package init, testing's own), raised when an entry's
 *    goroutines turn out not to be a leak. A leak is creator F with at
 *    least two goroutines more than tolerated after the same input ran
 *    twice in one worker and GOLEAK_CONFIRM_MS passed: one per run. A
 *    goroutine an input's first run starts for good (a cache's janitor,
 *    a sync.Once) is one, not two, and raises the tolerance instead;
 *  - entries are probed in corpus order, GOLEAK_BATCH at a time (one
 *    worker, dumped GOLEAK_SETTLE_MS after its runs, the loop going on
 *    meanwhile); a batch with goroutines beyond the
 *    tolerance is probed again after GOLEAK_CONFIRM_MS, then halved down
 *    to the entry responsible, which is then confirmed as above; entries
 *    that fail when run are skipped (the user's workers report those);
 *  - within the replays' share of the run's wall time (fb_replay, as the
 *    race replay: a probe's runs and dump, and the search for a suspect
 *    batch's entry, block the loop), every entry as it comes in a run
 *    counted in execs;
 *  - a worker that dies or hangs on a batch makes its entries probed one
 *    at a time, the entry that does it skipped.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "coord_worker.h"
#include "fb_internal.h"
#include "mutator.h"
#include "text.h"

#define GOLEAK_BATCH 16        /* entries per probe */
#define GOLEAK_SETTLE_MS 200   /* a batch's wait before the dump */
#define GOLEAK_CONFIRM_MS 1000 /* a suspect's: goleak waits about as long */
#define GOLEAK_CALL_MS 10000   /* one run of an entry (it ran in time) */
#define GOLEAK_DUMP_MS 5000    /* for the dump after SIGQUIT */
#define GOLEAK_FAILS_MAX 10    /* failed probes in a row before stopping */

/* --- a dump's goroutines, counted by creator */

void cgofuzz_fb_goleak_set_free(cgofuzz_fb_goleak_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    free(s->g[i].creator);
    free(s->g[i].stack);
  }
  free(s->g);
  memset(s, 0, sizeof *s);
}

static cgofuzz_fb_goleak_gor *set_find(const cgofuzz_fb_goleak_set *s,
                                       const char *creator) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->g[i].creator, creator) == 0)
      return &s->g[i];
  return NULL;
}

/* Adds n to creator's count (a new creator keeps stack, a copy). 0 or -1. */
static int set_add(cgofuzz_fb_goleak_set *s, const char *creator, size_t n,
                   const char *stack) {
  cgofuzz_fb_goleak_gor *g = set_find(s, creator);
  if (g) {
    g->n += n;
    return 0;
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    void *p = realloc(s->g, cap * sizeof *s->g);
    if (!p)
      return -1;
    s->g = p;
    s->cap = cap;
  }
  g = &s->g[s->n];
  g->creator = strdup(creator);
  g->stack = stack ? strdup(stack) : NULL;
  g->n = n;
  if (!g->creator || (stack && !g->stack)) {
    free(g->creator);
    free(g->stack);
    return -1;
  }
  s->n++;
  return 0;
}

/* One line of a goroutine's block as it is shown in a report: a header
 * without the crash dump's gp=/m= fields, a frame line without fp=/sp=/pc=. */
static void put_line(cgofuzz_buf *b, const char *l, size_t n, bool header) {
  if (header) {
    const char *st = memchr(l, '[', n);
    const char *sp = memchr(l + 10, ' ', n - 10); /* after "goroutine N" */
    if (st && sp && sp < st) {
      cgofuzz_buf_append(b, l, (size_t)(sp - l) + 1);
      cgofuzz_buf_append(b, st, n - (size_t)(st - l));
      cgofuzz_buf_putc(b, '\n');
      return;
    }
  }
  const uint8_t *fp = cgofuzz_text_find((const uint8_t *)l, n, " fp=", 4);
  if (fp)
    n = (size_t)((const char *)fp - l);
  cgofuzz_buf_append(b, l, n);
  cgofuzz_buf_putc(b, '\n');
}

/* The function of a "created by F" or "created by F in goroutine N" line
 * into out. */
static void creator_of(const char *l, size_t n, cgofuzz_buf *out) {
  static const char by[] = "created by ";
  l += sizeof by - 1;
  n -= sizeof by - 1;
  const uint8_t *in =
      cgofuzz_text_find((const uint8_t *)l, n, " in goroutine", 13);
  if (in)
    n = (size_t)((const char *)in - l);
  out->len = 0;
  cgofuzz_buf_append(out, l, n);
}

int cgofuzz_fb_goleak_parse(const uint8_t *t, size_t n,
                            cgofuzz_fb_goleak_set *out) {
  static const char gor[] = "goroutine ", by[] = "created by ";
  cgofuzz_buf block = {0}, who = {0};
  bool in = false, created = false;
  int rc = 0;
  const char *p = (const char *)t, *end = p + n;
  while (p <= end && rc == 0) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
    bool last = !nl;
    if (len > sizeof gor && memcmp(p, gor, sizeof gor - 1) == 0 &&
        p[sizeof gor - 1] >= '0' && p[sizeof gor - 1] <= '9') {
      block.len = 0;
      in = true;
      created = false;
      put_line(&block, p, len, true);
    } else if (in && len == 0) {
      in = false;
    } else if (in) {
      put_line(&block, p, len, false);
      if (len > sizeof by && memcmp(p, by, sizeof by - 1) == 0) {
        creator_of(p, len, &who);
        created = true;
      }
    }
    /* A block ends at its blank line or the text's end; the creator line
     * comes last but for its file line. */
    if (created && (!in || last)) {
      const char *c = cgofuzz_buf_cstr(&who);
      if (block.failed || who.failed)
        rc = -1;
      else if (strncmp(c, "runtime.", 8) != 0 &&
               set_add(out, c, 1, cgofuzz_buf_cstr(&block)) != 0)
        rc = -1;
      created = false;
    }
    if (last)
      break;
    p = nl + 1;
  }
  cgofuzz_buf_free(&block);
  cgofuzz_buf_free(&who);
  return rc;
}

/* --- probes */

/* w's environment: envp (NULL: ours) without GOTRACEBACK, which could
 * silence the dump ("none"), and with GOTRACEBACK=all. NULL: no memory. */
static char **probe_env(char *const envp[]) {
  extern char **environ;
  char *const *e = envp ? envp : environ;
  size_t n = 0;
  while (e[n])
    n++;
  char **v = calloc(n + 2, sizeof *v);
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(e[i], "GOTRACEBACK=", 12) != 0)
      v[k++] = e[i];
  v[k] = "GOTRACEBACK=all";
  return v;
}

/* Waits ms while w runs (its stderr drained). false: it exited. */
static bool settle(cgofuzz_coord_worker *w, int ms) {
  return cgofuzz_coord_worker_reap(w, ms) == 0;
}

/* SIGQUIT to w and its dump, read until w exits, counted into out. 0, or
 * -1 (no dump: err says why). */
static int dump(cgofuzz_coord_worker *w, cgofuzz_fb_goleak_set *out,
                cgofuzz_err *err) {
  static const char quit[] = "SIGQUIT: quit";
  cgofuzz_coord_worker_drain_stderr(w);
  w->tail_len = 0;
  kill(w->pid, SIGQUIT);
  int rc = 0;
  if (!cgofuzz_coord_worker_reap(w, GOLEAK_DUMP_MS))
    rc = cgofuzz_errf(err, 0, "no goroutine dump %d ms after SIGQUIT",
                      GOLEAK_DUMP_MS);
  /* What it wrote last may still be in the pipe: read it to EOF. */
  int64_t until = cgofuzz_mono_ms() + GOLEAK_DUMP_MS;
  while (rc == 0 && cgofuzz_coord_worker_drain_stderr(w) == 1 &&
         cgofuzz_mono_ms() < until) {
    struct timespec ts = {0, 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  const uint8_t *t = w->tail, *at = NULL;
  size_t n = w->tail_len;
  if (rc == 0 && t && n)
    at = cgofuzz_text_find(t, n, quit, sizeof quit - 1);
  if (rc == 0 && !at)
    rc = cgofuzz_errf(err, 0, "SIGQUIT gave no goroutine dump");
  if (rc == 0 && cgofuzz_fb_goleak_parse(at, n - (size_t)(at - t), out) != 0)
    rc = cgofuzz_errf(err, 0, "out of memory");
  cgofuzz_coord_worker_stop(w, CGOFUZZ_COORD_WORKER_GRACE_MS);
  return rc;
}

/* A probe's worker, from its runs to its dump. */
typedef struct probe_w {
  cgofuzz_coord_worker w;
  cgofuzz_buf line;
  char **env;
} probe_w;

static void probe_drop(probe_w *p) {
  cgofuzz_coord_worker_free(&p->w);
  cgofuzz_buf_free(&p->line);
  free(p->env);
  memset(p, 0, sizeof *p);
}

/* Starts a fresh worker of tg in p and runs v[0..n) in it, runs times
 * over. 0, or -1 with err and p dropped (*bad: the entry that failed or
 * killed the worker, or n). */
static int probe_start(const cgofuzz_fb_goleak_target *tg,
                       const cgofuzz_fb_goleak_value *v, size_t n, int runs,
                       probe_w *p, size_t *bad, cgofuzz_err *err) {
  memset(p, 0, sizeof *p);
  *bad = n;
  if (!(p->env = probe_env(tg->envp)))
    return cgofuzz_errf(err, 0, "out of memory");
  if (cgofuzz_coord_worker_init(&p->w, CGOFUZZ_SHM_VALUE_CAP, err) != 0) {
    free(p->env);
    p->env = NULL;
    return -1;
  }
  int rc = cgofuzz_coord_side_start(&p->w, tg->binary, tg->argv, p->env,
                                    &p->line, err);
  for (int k = 0; k < runs && rc == 0; k++)
    for (size_t i = 0; i < n && rc == 0; i++) {
      cgofuzz_fuzz_resp resp;
      int got = cgofuzz_coord_side_run(&p->w, v[i].data, v[i].len,
                                       GOLEAK_CALL_MS, &p->line, &resp, err);
      if (got == 1) {
        if (resp.err) /* a failing input: the user's workers report it */
          got = cgofuzz_errf(err, 0, "the input fails: %.*s",
                             (int)(resp.err_len < 200 ? resp.err_len : 200),
                             resp.err);
        cgofuzz_fuzz_resp_free(&resp);
      }
      if (got != 1) {
        *bad = i;
        rc = -1;
      }
    }
  if (rc != 0)
    probe_drop(p);
  return rc;
}

/* p's goroutines, counted into out, once its inputs' had time to end
 * (the caller waited); p is dropped. 0, or -1 with err. */
static int probe_finish(probe_w *p, cgofuzz_fb_goleak_set *out,
                        cgofuzz_err *err) {
  int rc = settle(&p->w, 0) ? dump(&p->w, out, err)
                            : cgofuzz_errf(err, 0,
                                           "the worker exited while "
                                           "idle");
  probe_drop(p);
  return rc;
}

/* Runs v[0..n) runs times over in a fresh worker of tg, waits settle_ms
 * and counts its goroutines into out. 0, or -1 with err (*bad: the entry
 * that failed or killed the worker, or n). */
static int probe(const cgofuzz_fb_goleak_target *tg,
                 const cgofuzz_fb_goleak_value *v, size_t n, int runs,
                 int settle_ms, cgofuzz_fb_goleak_set *out, size_t *bad,
                 cgofuzz_err *err) {
  probe_w p;
  if (probe_start(tg, v, n, runs, &p, bad, err) != 0)
    return -1;
  settle(&p.w, settle_ms);
  return probe_finish(&p, out, err);
}

/* The creator in after with the most goroutines beyond tol's count (at
 * least min), or NULL. */
static const cgofuzz_fb_goleak_gor *excess(const cgofuzz_fb_goleak_set *after,
                                           const cgofuzz_fb_goleak_set *tol,
                                           size_t min) {
  const cgofuzz_fb_goleak_gor *best = NULL;
  size_t most = 0;
  for (size_t i = 0; i < after->n; i++) {
    const cgofuzz_fb_goleak_gor *t = set_find(tol, after->g[i].creator);
    size_t have = after->g[i].n, ok = t ? t->n : 0;
    if (have >= ok + min && have - ok > most) {
      most = have - ok;
      best = &after->g[i];
    }
  }
  return best;
}

/* Runs v twice in a fresh worker: 1 with msg (the report) when a creator
 * has two goroutines more than tol allows GOLEAK_CONFIRM_MS after, 0
 * when none has, -1 with err when the probe failed. */
static int confirm(const cgofuzz_fb_goleak_target *tg,
                   const cgofuzz_fb_goleak_value *v,
                   const cgofuzz_fb_goleak_set *tol, cgofuzz_buf *msg,
                   cgofuzz_err *err) {
  cgofuzz_fb_goleak_set after = {0};
  size_t bad;
  int rc = probe(tg, v, 1, 2, GOLEAK_CONFIRM_MS, &after, &bad, err);
  const cgofuzz_fb_goleak_gor *g = rc == 0 ? excess(&after, tol, 2) : NULL;
  if (g) {
    const cgofuzz_fb_goleak_gor *t = set_find(tol, g->creator);
    cgofuzz_buf_printf(msg,
                       "goroutine leak: the input leaves goroutines created by "
                       "%s running (run twice: %zu of them still there %d ms "
                       "after it returned)\n\n%s",
                       g->creator, g->n - (t ? t->n : 0), GOLEAK_CONFIRM_MS,
                       g->stack ? g->stack : "");
    rc = msg->failed ? cgofuzz_errf(err, 0, "out of memory") : 1;
  }
  cgofuzz_fb_goleak_set_free(&after);
  return rc;
}

int cgofuzz_fb_goleak_check(const cgofuzz_fb_goleak_target *tg,
                            const uint8_t *v, size_t len, cgofuzz_buf *msg,
                            cgofuzz_err *err) {
  cgofuzz_fb_goleak_set idle = {0};
  cgofuzz_fb_goleak_value one = {v, len};
  size_t bad;
  int rc = probe(tg, NULL, 0, 1, 0, &idle, &bad, err);
  if (rc == 0)
    rc = confirm(tg, &one, &idle, msg, err);
  cgofuzz_fb_goleak_set_free(&idle);
  return rc;
}

/* --- the run's probes */

struct cgofuzz_fb_goleak {
  cgofuzz_fb_goleak_target tg;
  cgofuzz_fb_goleak_set tol; /* per creator: not a leak */
  bool have_base;            /* tol holds an idle worker's counts */
  size_t next;               /* the next corpus entry to probe */
  size_t single_until;       /* entries before it are probed one at a time */
  fb_replay budget;
  unsigned fails; /* failed probes in a row */
  uint64_t probed, leaks;
  /* A batch's probe waiting for its goroutines to end (the loop goes on
   * meanwhile): its worker, until when, its entries (k of the corpus's
   * from next on; bv[0..bn) those that do not fail). */
  probe_w pw;
  bool settling;
  int64_t settle_until;
  size_t bk, bn;
  cgofuzz_fb_goleak_value bv[GOLEAK_BATCH];
};
typedef struct cgofuzz_fb_goleak gl;

void cgofuzz_fb_goleak_start(fb_run *r) {
  const char *bin = r->fb->goleak_binary;
  if (!bin || !*bin)
    return;
  gl *x = calloc(1, sizeof *x);
  if (!x) {
    fprintf(stderr, "cgofuzz: -goleaks: out of memory\n");
    return;
  }
  x->tg.binary = bin;
  x->tg.argv = cgofuzz_coord_host_argv(r->h);
  x->tg.envp = cgofuzz_coord_host_envp(r->h);
  fb_replay_start(&x->budget, r);
  r->goleak = x;
}

/* Raises x's tolerance to the counts of every creator in s. */
static void tolerate(gl *x, const cgofuzz_fb_goleak_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    cgofuzz_fb_goleak_gor *t = set_find(&x->tol, s->g[i].creator);
    if (t && t->n < s->g[i].n)
      t->n = s->g[i].n;
    else if (!t)
      set_add(&x->tol, s->g[i].creator, s->g[i].n, NULL);
  }
}

/* Probes v[0..n) once after wait ms: 1 when some creator has goroutines
 * beyond the tolerance (their counts in *after, which the caller frees),
 * 0 when none, -1 when the probe failed (*bad: the entry it failed on, or
 * n). */
static int suspect(gl *x, const cgofuzz_fb_goleak_value *v, size_t n, int ms,
                   cgofuzz_fb_goleak_set *after, size_t *bad) {
  cgofuzz_err err = {0};
  memset(after, 0, sizeof *after);
  if (probe(&x->tg, v, n, 1, ms, after, bad, &err) != 0) {
    cgofuzz_fb_goleak_set_free(after);
    return -1;
  }
  return excess(after, &x->tol, 1) != NULL;
}

/* Finds, in a batch whose probe showed goroutines beyond the tolerance,
 * the entry responsible and confirms it (the failure is the run's), or
 * raises the tolerance when none is a leak. */
static void hunt(fb_run *r, gl *x, const cgofuzz_fb_goleak_value *v, size_t n,
                 const cgofuzz_fb_goleak_set *batch) {
  cgofuzz_fb_goleak_set after;
  size_t bad, lo = 0, hi = n;
  int s = suspect(x, v, n, GOLEAK_CONFIRM_MS, &after, &bad);
  cgofuzz_fb_goleak_set_free(&after);
  if (s <= 0)
    return; /* they ended given time: slow, not leaked */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    s = suspect(x, v + lo, mid - lo, GOLEAK_CONFIRM_MS, &after, &bad);
    cgofuzz_fb_goleak_set_free(&after);
    if (s < 0)
      return;
    if (s)
      hi = mid;
    else
      lo = mid;
  }
  cgofuzz_buf msg = {0};
  cgofuzz_err err = {0};
  int leak = confirm(&x->tg, &v[lo], &x->tol, &msg, &err);
  if (leak == 1) {
    x->leaks++;
    cgofuzz_coord_host_failure(r->h, v[lo].data, v[lo].len,
                               (const char *)msg.data, msg.len, NULL,
                               "-goleaks");
  } else if (leak == 0) {
    tolerate(x, batch); /* a goroutine started once, for good */
  }
  cgofuzz_buf_free(&msg);
}

/* A batch's probe failed: one of its entries kills the worker or fails,
 * so they are probed again one at a time (that one then skipped). */
static void batch_failed(gl *x) {
  x->fails++;
  if (x->bn > 1)
    x->single_until = x->next + x->bk;
  else
    x->next += x->bk;
}

/* Starts the probe of entries [x->next, x->next + k), k <= GOLEAK_BATCH:
 * their runs now, the dump once they settled (batch_end). */
static void batch_begin(fb_run *r, gl *x, size_t k) {
  cgofuzz_err err = {0};
  size_t bad;
  x->bk = k;
  x->bn = 0;
  for (size_t i = x->next; i < x->next + k; i++)
    if (!cgofuzz_coord_host_failing(r->h, i)) {
      x->bv[x->bn].data = cgofuzz_coord_host_entry(r->h, i, &x->bv[x->bn].len);
      x->bn++;
    }
  if (!x->bn)
    x->next += k;
  else if (probe_start(&x->tg, x->bv, x->bn, 1, &x->pw, &bad, &err) != 0)
    batch_failed(x);
  else {
    x->settling = true;
    x->settle_until = cgofuzz_mono_ms() + GOLEAK_SETTLE_MS;
  }
}

/* The batch's dump: goroutines beyond the tolerance send it to hunt. */
static void batch_end(fb_run *r, gl *x) {
  cgofuzz_fb_goleak_set after = {0};
  cgofuzz_err err = {0};
  x->settling = false;
  if (probe_finish(&x->pw, &after, &err) != 0) {
    batch_failed(x);
  } else {
    x->fails = 0;
    x->probed += x->bn;
    if (excess(&after, &x->tol, 1))
      hunt(r, x, x->bv, x->bn, &after);
    x->next += x->bk;
  }
  cgofuzz_fb_goleak_set_free(&after);
}

bool cgofuzz_fb_goleak_step(fb_run *r) {
  gl *x = r->goleak;
  if (!x)
    return false;
  int64_t t0 = cgofuzz_mono_ms();
  if (x->settling) { /* the loop polls until its time has come */
    if (t0 < x->settle_until)
      return false;
    batch_end(r, x);
    x->budget.spent_ms += cgofuzz_mono_ms() - t0;
    return x->budget.counted && x->next < cgofuzz_coord_host_corpus(r->h);
  }
  size_t have = cgofuzz_coord_host_corpus(r->h);
  if (x->fails >= GOLEAK_FAILS_MAX || !cgofuzz_coord_host_fuzzing(r->h) ||
      x->next >= have || !fb_replay_may(&x->budget, t0))
    return false;
  if (!x->have_base) {
    cgofuzz_fb_goleak_set idle = {0};
    size_t bad;
    cgofuzz_err err = {0};
    if (probe(&x->tg, NULL, 0, 1, 0, &idle, &bad, &err) == 0) {
      tolerate(x, &idle);
      x->have_base = true;
    } else if (++x->fails >= GOLEAK_FAILS_MAX && cgofuzz_coord_host_says(r->h))
      fprintf(stderr, "cgofuzz: -goleaks: no goroutine dump of %s: %s\n",
              x->tg.binary, err.msg);
    cgofuzz_fb_goleak_set_free(&idle);
  } else {
    size_t k = have - x->next;
    if (k > GOLEAK_BATCH)
      k = GOLEAK_BATCH;
    if (x->next < x->single_until)
      k = 1;
    batch_begin(r, x, k);
  }
  x->budget.spent_ms += cgofuzz_mono_ms() - t0;
  return !x->settling && x->budget.counted &&
         x->next < cgofuzz_coord_host_corpus(r->h);
}

void cgofuzz_fb_goleak_stop(fb_run *r) {
  gl *x = r->goleak;
  if (!x)
    return;
  if (cgofuzz_coord_host_says(r->h))
    fprintf(stderr,
            "cgofuzz: -goleaks: %llu of %zu corpus entries probed for "
            "goroutine leaks, %llu leak%s%s\n",
            (unsigned long long)x->probed, cgofuzz_coord_host_corpus(r->h),
            (unsigned long long)x->leaks, x->leaks == 1 ? "" : "s",
            x->fails >= GOLEAK_FAILS_MAX
                ? " (probes stopped: the last ones failed)"
                : "");
  if (x->settling)
    probe_drop(&x->pw);
  cgofuzz_fb_goleak_set_free(&x->tol);
  free(x);
  r->goleak = NULL;
}
