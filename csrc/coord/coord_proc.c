/*
 * coord_proc.c: a run's worker processes: their command line and
 * environment, starting one (and again after a death, with a seed of its
 * own), the ping that makes it idle, and sending it a call.
 *
 *  - a worker is started with Go's worker flags (-test.fuzzworker, the
 *    cache, -test.fuzz and -test.run of the target) and our environment
 *    with CGOFUZZ_EXACT_SLOT=1; a C target's worker is also given the run's
 *    exec timeout and memory limit, so its own watchdog goes first;
 *  - a worker is idle only after it answered a ping; a new process has no
 *    coverage mask (slot.sent_gen 0);
 *  - a call whose write fails leaves the slot marked lost: the worker is
 *    dead, and the loop (coord_loop.c) hands its death to coord_resp.c
 *    before it does anything else with the slot. Nothing here calls back
 *    into the loop or the reply handling.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coord.h"
#include "coord_internal.h"
#include "coord_worker.h"
#include "exact.h"
#include "godebug.h"
#include "os.h"
#include "wire.h"

extern char **environ;

/* The kernel's count of OOM kills so far; -1 when unknown. */
int64_t cgofuzz_coord_oom_kills(void) { return cgofuzz_os_oom_kills(); }

/* Whether the workers are a Go test binary's (Go's counters, or Go's build
 * info section: a Go binary built without -fuzz has no counters). */
bool cgofuzz_coord_go_workers(coord *c) {
  if (!c->go_binary)
    c->go_binary =
        cgofuzz_gobin_go_counters(c->cfg->binary) ||
                cgofuzz_gobin_section_size(c->cfg->binary, ".go.buildinfo")
            ? 1
            : 2;
  return c->go_binary == 1;
}

/* "GODEBUG=" and godebug's settings with fuzzseed=seed in place of its
 * own, malloc'd; NULL when out of memory. */
static char *reseeded_godebug(const char *godebug, uint64_t seed) {
  char *v = cgofuzz_godebug_with_fuzzseed(godebug, seed);
  char *out = v ? malloc(strlen(v) + sizeof "GODEBUG=") : NULL;
  if (out)
    sprintf(out, "GODEBUG=%s", v);
  free(v);
  return out;
}

/* Starts s's worker process without waiting for it: the run's workers
 * start side by side (each takes 10-20 ms to reach its first read, which
 * greet_worker waits for). 0, or -1 with the run failed. */
int cgofuzz_coord_spawn_worker(coord *c, slot *s) {
  cgofuzz_err err = {0};
  int out = c->cfg->observer ? c->cfg->worker_output_fd : -1;
  int sout = c->cfg->observer && c->cfg->worker_stdout_fd
                 ? c->cfg->worker_stdout_fd
                 : out;
  /* A C target's worker has a watchdog of its own (10 s, 2048 MiB): give
   * it our limits, so that it does not stop an input before we would. A Go
   * test binary would reject these flags. */
  if (!c->go_binary && !cgofuzz_coord_go_workers(c) &&
      (c->cfg->exec_timeout_ns > 0 || c->cfg->rss_limit_mb > 0)) {
    char **v = realloc(c->wargv, (c->nwargv + 3) * sizeof *v);
    if (v) {
      char tmp[64];
      c->wargv = v;
      if (c->cfg->exec_timeout_ns > 0) {
        snprintf(tmp, sizeof tmp, "-test.fuzztimeout=%" PRId64 "ms",
                 c->cfg->exec_timeout_ns / 1000000);
        if ((v[c->nwargv] = strdup(tmp)))
          c->nwargv++;
      }
      if (c->cfg->rss_limit_mb > 0) {
        snprintf(tmp, sizeof tmp, "-test.fuzzrsslimitmb=%" PRId64,
                 c->cfg->rss_limit_mb);
        if ((v[c->nwargv] = strdup(tmp)))
          c->nwargv++;
      }
      v[c->nwargv] = NULL;
    }
  }
  /* The worker's stderr is drained into a tail that explains its death
   * (coord_death.c); under a front end it is also copied to out, so
   * reports still reach the front end's stderr. */
  s->w.keep_stderr = true;
  /* A worker started again (after a death) with the run's fixed
   * GODEBUG=fuzzseed would replay its predecessor's mutations from the
   * start and meet the same failure again: with -fuzzcontinue (libFuzzer's
   * fork mode, which goes on after crashes) the run never got past it. Each
   * restart takes a seed of its own, derived from the run's, so a run is
   * still the same every time. */
  char **env = c->wenv, *godebug = NULL;
  uint64_t seed;
  if (s->started && cgofuzz_godebug_fuzzseed(getenv("GODEBUG"), &seed)) {
    size_t n = 0;
    while (c->wenv[n])
      n++;
    env = malloc((n + 2) * sizeof *env);
    /* Go reads the seed with strconv.Atoi: it must fit an int64. */
    godebug = reseeded_godebug(
        getenv("GODEBUG"),
        (seed ^ (++c->respawns * 0x9E3779B97F4A7C15ull)) & INT64_MAX);
    if (!env || !godebug) {
      free(env);
      free(godebug);
      cgofuzz_coord_failf(c, "%s", "out of memory");
      return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (strncmp(c->wenv[i], "GODEBUG=", 8) != 0)
        env[k++] = c->wenv[i];
    env[k++] = godebug;
    env[k] = NULL;
  }
  s->started = true;
  int rc = cgofuzz_coord_worker_start(
      &s->w, c->fast.path ? c->fast.path : c->cfg->binary, c->wargv, env, NULL,
      sout, out, &err);
  if (env != c->wenv) {
    free(env);
    free(godebug);
  }
  if (rc != 0) {
    cgofuzz_coord_failf(c, "fuzzing process terminated without fuzzing: %s",
                        err.msg);
    return -1;
  }
  return 0;
}

/* Pings s's started worker and waits for its answer: then it is idle. 0,
 * or -1 with the run failed. */
static int greet_worker(coord *c, slot *s) {
  cgofuzz_err err = {0};
  const uint8_t *l;
  size_t n;
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_PING};
  c->line.len = 0;
  if (cgofuzz_wire_encode_call(&call, &c->line) != 0) {
    cgofuzz_coord_failf(c, "%s", "out of memory making a call to a worker");
    return -1;
  }
  int got = cgofuzz_coord_worker_send(&s->w, &c->line, &err) != 0
                ? -1
                : cgofuzz_coord_worker_recv(&s->w, PING_TIMEOUT_MS, MAX_LINE,
                                            &l, &n, &err);
  if (got != 1 || cgofuzz_wire_decode_ping_resp(l, n, &err) != 0) {
    /* Go's words when it died or closed its pipe; when it answered
     * something else, or nothing, say that: it is the worker's fault,
     * and it is alive. */
    cgofuzz_buf msg = {0};
    if (got == 1) {
      cgofuzz_buf_printf(&msg,
                         "communicating with fuzzing process (pid %d): its "
                         "answer to the first call (ping) is not Go's: %s: ",
                         (int)s->w.pid, err.msg);
      cgofuzz_coord_put_bytes(&msg, l, n);
    } else if (got == 0) {
      cgofuzz_buf_printf(&msg,
                         "fuzzing process (pid %d) did not answer the first "
                         "call (ping) in %d s",
                         (int)s->w.pid, PING_TIMEOUT_MS / 1000);
      if (cgofuzz_lines_pending(&s->w.in)) {
        cgofuzz_buf_puts(&msg, "; it sent part of a line: ");
        cgofuzz_coord_put_pending(&msg, &s->w);
      }
    } else if (got == -3) {
      cgofuzz_buf_puts(&msg, err.msg); /* our memory, not its fault */
    } else {
      cgofuzz_buf_puts(&msg, "fuzzing process terminated without fuzzing: EOF");
    }
    cgofuzz_coord_worker_stop(&s->w, STOP_GRACE_MS);
    s->state = W_DOWN;
    cgofuzz_coord_fail_buf(c, &msg);
    return -1;
  }
  s->state = W_IDLE;
  s->sent_gen = 0; /* a new process has no mask yet */
  /* Each call takes the watch's last count (cgofuzz_coord_send_call); a
   * death before the first compares with this. */
  s->oom_base = cgofuzz_coord_oom_kills();
  return 0;
}

int cgofuzz_coord_start_worker(coord *c, slot *s) {
  if (s->w.pid == 0 && cgofuzz_coord_spawn_worker(c, s) != 0)
    return -1;
  return greet_worker(c, s);
}

void cgofuzz_coord_send_call(coord *c, slot *s, const cgofuzz_call *call,
                             int state, int64_t limit) {
  cgofuzz_err err = {0};
  c->line.len = 0;
  if (cgofuzz_wire_encode_call(call, &c->line) != 0) {
    /* Not the worker's death: the run ends, saying why. */
    cgofuzz_coord_failf(c, "%s", "out of memory making a call to a worker");
    return;
  }
  s->state = state;
  s->limit = limit;
  c->outstanding += limit;
  /* Only a fuzz call's snapshot may come back shortened (gobin_copy.c),
   * and only one that is no warm-up (whose reply is its snapshot) empty. */
  cgofuzz_coord_worker_set_ctl(&s->w, call->kind != CGOFUZZ_CALL_FUZZ
                                          ? CGOFUZZ_CTL_FULL
                                      : call->fuzz.warmup ? CGOFUZZ_CTL_CUT
                                                          : c->fuzz_ctl);
  if (call->kind == CGOFUZZ_CALL_FUZZ && call->fuzz.coverage_data.has)
    cgofuzz_coord_worker_set_ctl_mask(&s->w, call->fuzz.coverage_data.data,
                                      call->fuzz.coverage_data.len);
  int64_t oom_before = s->oom_base;
  s->oom_base = c->oom_seen;
  s->lost = cgofuzz_coord_worker_send(&s->w, &c->line, &err) != 0;
  if (s->lost) /* it died before this call: since its last one */
    s->oom_base = oom_before;
  /* A new call is progress: the input before it finished. The watch
   * starts over at its next look; the shm count alone cannot tell, since
   * each call starts it from 0 again (a target whose every input takes
   * longer than a call's time runs one input per call: the count seen at
   * every look was 1, and a busy worker was judged hung). */
  s->watch_ms = 0;
  s->sus_verdict = 0; /* an early re-run's verdict was the last call's */
}

char **cgofuzz_coord_worker_argv(const cgofuzz_coord_config *cfg, size_t *np) {
  char **v = calloc(8 + cfg->n_extra, sizeof *v);
  if (!v)
    return NULL;
  cgofuzz_buf b = {0};
  size_t n = 0;
  v[n++] = strdup(cfg->binary);
  v[n++] = strdup("-test.fuzzworker");
  v[n++] = strdup("-test.paniconexit0");
  cgofuzz_buf_printf(&b, "-test.fuzzcachedir=%s", cfg->cache_root);
  v[n++] = strdup(cgofuzz_buf_cstr(&b));
  b.len = 0;
  cgofuzz_buf_printf(&b, "-test.fuzz=^%s$", cfg->target);
  v[n++] = strdup(cgofuzz_buf_cstr(&b));
  b.len = 0;
  cgofuzz_buf_printf(&b, "-test.run=^%s$", cfg->target);
  v[n++] = strdup(cgofuzz_buf_cstr(&b));
  for (size_t i = 0; i < cfg->n_extra; i++) /* cli warns of the dropped */
    if (cgofuzz_gobin_test_flag_ok(cfg->gover, cfg->extra_args[i]))
      v[n++] = strdup(cfg->extra_args[i]);
  bool ok = !b.failed; /* else an argument above is cut or empty */
  cgofuzz_buf_free(&b);
  for (size_t i = 0; i < n; i++)
    ok = ok && v[i];
  if (!ok) {
    cgofuzz_coord_free_names(v, n);
    return NULL;
  }
  *np = n;
  return v;
}

int cgofuzz_coord_worker_args(coord *c) {
  const cgofuzz_coord_config *cfg = c->cfg;
  c->wargv = cgofuzz_coord_worker_argv(cfg, &c->nwargv);
  if (!c->wargv)
    return -1;
  /* Every worker is told we read the exact-input slot: a C worker then
   * uses trace-cmp and dictionary mutations; a Go worker ignores it. */
  size_t ne = 0;
  while (environ[ne])
    ne++;
  c->wenv =
      calloc(ne + cfg->n_worker_env + cfg->n_disc_env + 2, sizeof *c->wenv);
  if (!c->wenv)
    return -1;
  size_t k = 0, klen = strlen(CGOFUZZ_EXACT_ENV);
  for (size_t i = 0; i < ne; i++) {
    bool replaced = false; /* by what the target's body set */
    size_t nl = strcspn(environ[i], "=");
    for (size_t j = 0; j < cfg->n_disc_env && !replaced; j++)
      replaced = strncmp(cfg->disc_env[j], environ[i], nl + 1) == 0;
    if (!replaced && (strncmp(environ[i], CGOFUZZ_EXACT_ENV, klen) != 0 ||
                      environ[i][klen] != '='))
      c->wenv[k++] = environ[i]; /* borrowed */
  }
  for (size_t j = 0; j < cfg->n_disc_env; j++)
    c->wenv[k++] = cfg->disc_env[j]; /* borrowed */
  c->wenv[k++] = (char *)CGOFUZZ_EXACT_ENV "=1";
  for (size_t i = 0; i < cfg->n_worker_env; i++)
    c->wenv[k++] = cfg->worker_env[i]; /* borrowed */
  return 0;
}
