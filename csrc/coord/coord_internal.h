/*
 * coord_internal.h: pieces shared by the coord_*.c files (not installed).
 *
 * The corpus holds encoded "go test fuzz v1" files in insertion order:
 * f.Add seeds, testdata files, cache files, then inputs found while
 * fuzzing. Entries are never removed and their data never moves, so a
 * worker's in-flight call can refer to an entry by index.
 */
#ifndef CGOFUZZ_COORD_INTERNAL_H
#define CGOFUZZ_COORD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "clock.h"
#include "coord.h"
#include "coord_discover.h"
#include "coord_feedback.h"
#include "coord_report.h"
#include "coord_worker.h"
#include "gobin.h"
#include "gobin_patch.h"
#include "gover.h"

typedef struct cgofuzz_centry {
  uint8_t *data; /* encoded corpus file, owned */
  size_t len;
  uint8_t sha[32];
  bool is_seed;
  char *name; /* "seed#N" or the file's base name, for messages */
} cgofuzz_centry;

typedef struct cgofuzz_coord_corpus {
  cgofuzz_centry *e;
  size_t n, cap;
} cgofuzz_coord_corpus;

/* Adds a copy of data unless an entry with the same SHA-256 exists.
 * Returns 1 if added, 0 if a duplicate, -1 when out of memory. */
int cgofuzz_coord_corpus_add(cgofuzz_coord_corpus *c, const uint8_t *data,
                             size_t len, bool is_seed, const char *name);
void cgofuzz_coord_corpus_free(cgofuzz_coord_corpus *c);

/* Checks that data decodes to values of exactly these kinds. On mismatch
 * returns -1 and writes Go's message ("mismatched types in corpus entry:
 * [..], want [..]", "wrong number of values ...", "unmarshal: ...") to msg.*/
int cgofuzz_coord_corpus_typecheck(const uint8_t *data, size_t len,
                                   const cgofuzz_kind *kinds, size_t n,
                                   int gover, cgofuzz_buf *msg);

/* Loads the regular files of dir (sorted by name, as Go's ReadDir) into c.
 * strict: a malformed file is an error (appended to *errors as one
 * "\"path\": reason" line each) as for testdata; otherwise it is skipped, as
 * for the cache, and named in *skipped ("\tpath: reason\n" each) if
 * skipped is not NULL. A missing dir is empty. Returns -1 only on I/O
 * errors (message in *errors). */
int cgofuzz_coord_corpus_load_dir(cgofuzz_coord_corpus *c, const char *dir,
                                  const cgofuzz_kind *kinds, size_t n,
                                  int gover, bool strict, bool is_seed,
                                  cgofuzz_buf *errors, cgofuzz_buf *skipped);

/* mkdir -p dir, then writes data to dir/<Go's name> atomically (written in
 * a hidden temporary subdirectory of dir, then renamed) with mode 0666 &
 * ~umask; dir never holds a partial file. On success *path is the malloc'd
 * path; on failure err names the file, the step and the reason. */
int cgofuzz_coord_corpus_write(const char *dir, const uint8_t *data, size_t len,
                               char **path, cgofuzz_err *err);
/* The same, named as release gover names it (64 hex digits in go1.18 and
 * go1.19, 16 from go1.20; 0: the newest), with file_flags of
 * cgofuzz_file_write_atomic (CGOFUZZ_FILE_NO_SYNC for the cache's new
 * inputs; 0, synced, for a failing input). */
int cgofuzz_coord_corpus_write_v(const char *dir, const uint8_t *data,
                                 size_t len, int gover, unsigned file_flags,
                                 char **path, cgofuzz_err *err);

/* The release cfg follows (cfg->gover, 0 meaning the newest). Used for
 * every codec call, file name and timer that differs between releases. */
static inline int coord_gover(const cgofuzz_coord_config *cfg) {
  return cfg->gover ? cfg->gover : CGOFUZZ_GOVER_NEWEST;
}

/* The per-exec hang limit in force: -fuzztimeout when given (negative: no
 * limit), else the hang timer of the Go worker of cfg's release (10 s up to
 * go1.26, 60 s in go1.27), after which that worker panics itself. */
static inline int64_t coord_hang_ns(const cgofuzz_coord_config *cfg) {
  if (cfg->exec_timeout_ns)
    return cfg->exec_timeout_ns;
  if (!cfg->gover_unknown)
    return cgofuzz_gover_hang_timeout_ns(coord_gover(cfg));
  int64_t least = INT64_MAX;
  for (int g = CGOFUZZ_GOVER_OLDEST; g <= CGOFUZZ_GOVER_NEWEST; g++)
    if (cgofuzz_gover_hang_timeout_ns(g) < least)
      least = cgofuzz_gover_hang_timeout_ns(g);
  return least;
}

/* --- coverage (coord_cov.c) */

/* Number of bits set in snap and not in mask (Go's countNewCoverageBits). */
size_t cgofuzz_coord_cov_new_bits(const uint8_t *mask, const uint8_t *snap,
                                  size_t n);
/* mask |= snap. */
void cgofuzz_coord_cov_merge(uint8_t *mask, const uint8_t *snap, size_t n);

/* --- scheduling (coord_sched.c) */

/* Chooses which corpus entry the next fuzz call mutates. Go hands entries
 * out in plain round robin; this gives each entry an energy instead:
 *  - rarity: the sum over the coverage bytes it hits of 1/(entries hitting
 *    that byte), relative to the corpus mean, clamped to [1/4, 4];
 *  - recency: up to x4 for an entry that was added or found new coverage
 *    recently, decaying as 1 + 3*T/(T+age) with T = 10 s;
 *  - fatigue: divided by 1 + (calls since its last find)/256 (a call is
 *    at most FUZZ_SLICE_NS, so 256 calls are up to 2.6 s of fuzzing), so
 *    that an entry that found nothing for long yields to others, never
 *    below 1/16;
 *  - speed: AFL's steps on the entry's time per exec (measured over its
 *    own calls) against the mean of the timed entries' times: x3, x2,
 *    x1.5 under 1/4, 1/3, 1/2 of it; x1/2, x1/4, x1/10 over 2, 3, 4 times
 *    it. Weighted by rarity alone, the slow inputs that reach the most
 *    code took more of the picks (Magma's lua: a quarter of the execs);
 *  - focus (-focus=REV): in the rarity sum, a coverage byte of code
 *    changed since REV (cfg->focus) counts 8 times: an entry that reaches
 *    changed code few others reach weighs most (the changed function's
 *    first block, which every caller runs, adds little), for fuzzing a
 *    pull request;
 *  - redundancy: /8 for a starting entry (seed, testdata, cache) whose
 *    warm-up run added no coverage to what the entries run before it had,
 *    until it is the parent of a find (libFuzzer keeps only the inputs that
 *    add features; such an entry is kept, but gets little energy).
 * Every pick is by weight, a new entry's included: nothing is queued. New
 * entries used to go first, in insertion order; while finds came every
 * few hundred execs that queue never emptied, and an older entry with rare
 * coverage waited seconds for its turn (Magma's libpng: the one seed with
 * a PLTE chunk, where PNG003 is, got under 0.1% of the first second's
 * execs; weighted picks of 10 ms calls brought PNG003's median time to
 * trigger from 2.45 s to 0.25 s, libFuzzer's being 0.45 s:
 * bench/results/magma/2026-11-27-sched-ab.md).
 * A new entry still weighs much: its new coverage is rare, its recency x4,
 * and x64 while untried (unless redundant): until its plain calls ran 256
 * execs or one slice of it, none of them in flight (a call that ends at a
 * find after a few execs does not use its turn up):
 * with weights alone tests/lf's TWO harness, a 4-byte chain that
 * comparison feedback solves one byte per find, needed a median of 170k
 * execs against 14k with the queue, as the next byte's entry waited its
 * turn; with the x64 its counts are the queue's again, and libpng's
 * PNG003/PNG006 stay ahead of libFuzzer's (bench/results/
 * 2026-11-27-sched-ab.md). Weights are recomputed at most every 500 ms or when
 * the corpus grows, so a pick costs one O(entries) scan; the coordinator makes
 * up to ~100 picks/s per worker (FUZZ_SLICE_NS). */
typedef struct cgofuzz_coord_sched_entry {
  uint32_t *feat; /* indexes of nonzero coverage bytes, owned */
  size_t n_feat;
  uint64_t calls, calls_at_find;
  uint64_t answered;    /* plain calls of it whose reply was timed */
  int64_t last_find_ms; /* when added, or last found new coverage */
  uint64_t execs;       /* execs of its plain calls, and their time: */
  int64_t ns;           /* its speed (0 execs: not known, counts 1) */
  double weight;
  bool redundant; /* its warm-up added no coverage (and no find since) */
  bool focus;     /* -focus: it hits a counter of changed code */
  bool failing;   /* it fails itself (a run that goes on after failures) */
  bool first;     /* a seed whose first turn is not over (sched_first) */
} cgofuzz_coord_sched_entry;

typedef struct cgofuzz_coord_sched {
  cgofuzz_coord_sched_entry *e;
  size_t n, cap;
  uint32_t *hits; /* per coverage byte: entries hitting it */
  size_t hits_len;
  const uint8_t *focus; /* -focus: per coverage byte, in changed code */
  size_t focus_len;
  double total;
  int64_t computed_ms;
  bool dirty;
  uint64_t rng;
  /* The seeds' first turns (cgofuzz_coord_sched_first): how many are left,
   * the entries [0, first_end) they are among, each one's time. */
  size_t first_left, first_end;
  int64_t first_ns;
} cgofuzz_coord_sched;

/* Gives entry i, a seed (f.Add or testdata), a first turn: before any
 * weighted pick, each such entry in order gets plain calls until they
 * ran FIRST_EXECS of Go's mutations of it, or its share of FIRST_TOTAL_NS
 * (at most FIRST_NS), one call of it at a time. Go's worker ends a call at
 * the first new coverage, which early in a run comes every few execs, and
 * each find's new entry weighed 64 times a seed: a seed one mutation from
 * a bug (x/image/tiff's palette index, ~130 execs of Go's mutator) ran a
 * few hundred times in the first seconds. The turn is AFL's and LibAFL's
 * first cycle over the initial queue, kept short. */
void cgofuzz_coord_sched_first(cgofuzz_coord_sched *s, size_t i);
/* Makes room for entries [0, n) (new ones start with no coverage). */
int cgofuzz_coord_sched_grow(cgofuzz_coord_sched *s, size_t n, int64_t now_ms);
/* Records the coverage snapshot of entry i (its features). */
int cgofuzz_coord_sched_set_cov(cgofuzz_coord_sched *s, size_t i,
                                const uint8_t *snap, size_t len);
/* Entry i's warm-up run added no coverage. */
void cgofuzz_coord_sched_redundant(cgofuzz_coord_sched *s, size_t i);
/* Entry i fails when run (a starting input, in a run that goes on after
 * failures): it is never picked while another can be, since its mutants
 * mostly fail the same way and each failure costs a worker. */
void cgofuzz_coord_sched_failing(cgofuzz_coord_sched *s, size_t i);
/* Whether entry i failed (cgofuzz_coord_sched_failing). */
bool cgofuzz_coord_sched_is_failing(const cgofuzz_coord_sched *s, size_t i);
/* A plain call of entry i ran execs inputs in ns nanoseconds. */
void cgofuzz_coord_sched_timed(cgofuzz_coord_sched *s, size_t i, int64_t execs,
                               int64_t ns);
/* Entry i was the parent of an input that found new coverage. */
void cgofuzz_coord_sched_found(cgofuzz_coord_sched *s, size_t i,
                               int64_t now_ms);
/* Seeds the weighted picks. Without it the first weighted pick seeds from
 * GODEBUG=fuzzseed=N if set, else from an address (random per run). */
void cgofuzz_coord_sched_seed(cgofuzz_coord_sched *s, uint64_t seed);
/* The next entry to fuzz, among [0, s->n), counted as a call of it. */
size_t cgofuzz_coord_sched_pick(cgofuzz_coord_sched *s, int64_t now_ms);
/* A pick by weight alone, for a call that is not a fuzz call of the entry
 * (a built value's base): nothing is counted. */
size_t cgofuzz_coord_sched_pick_weighted(cgofuzz_coord_sched *s,
                                         int64_t now_ms);
void cgofuzz_coord_sched_free(cgofuzz_coord_sched *s);

/* --- failure dedup (coord_dedup.c) */

/* The failure site of a worker's error text, for -fuzzcontinue: the
 * file:line of the first stack frame outside the Go runtime, testing and
 * reflect; else the "file.go:N:" prefix of a t.Error/t.Fatal line; else the
 * first line of the message (a dead worker's "exit status 3"). */
int cgofuzz_coord_fail_site(const char *msg, size_t len, cgofuzz_buf *key);

/* --- formatting (coord_fmt.c) */

/* Appends a duration of whole seconds as Go prints a time.Duration rounded
 * to 1s: "0s", "59s", "1m0s", "2h3m4s". */
int cgofuzz_coord_fmt_secs(cgofuzz_buf *b, int64_t secs);

/* --- the coordinator's state (coord_loop.c, coord_min.c) */

#define FUZZ_CALL_NS CGOFUZZ_COORD_WORKER_CALL_NS
/* A plain fuzz call's time on its entry (the worker stops sooner at a
 * find). Go's coordinator gives each call 100 ms; at a C target's 500k
 * execs/s that is 50k execs of one entry, and a young corpus got a handful
 * of picks in its first second. 10 ms keeps the call's round trip (tens of
 * microseconds for a C worker, about a hundred for a Go one) near 1% and
 * gives 100 picks/s per worker (Magma's libpng, weighted picks in both:
 * PNG003 and PNG006 came 2-5 times sooner with 10 ms calls than with
 * 100 ms ones, bench/results/magma/2026-11-27-sched-ab.md). */
#define FUZZ_SLICE_NS 10000000LL
#define PING_TIMEOUT_MS CGOFUZZ_COORD_WORKER_PING_MS
#define MAX_LINE CGOFUZZ_COORD_WORKER_MAX_LINE
#define STOP_GRACE_MS CGOFUZZ_COORD_WORKER_GRACE_MS
#define MAX_JOBS 8                      /* pending minimizations; more: as is */
#define INTERESTING_MIN_NS 2000000000LL /* cap per interesting input */
/* New interesting inputs are minimized (as Go does: smaller entries run
 * faster and mutate to the point) only within 1/MIN_SHARE of the workers'
 * time since the start: each Minimize call of one gets at most the share
 * left (and at least MIN_FLOOR_NS), and once it is spent the inputs
 * waiting are kept as they are, as libFuzzer keeps them. On Magma's lua
 * (10 KB inputs, each candidate a Lua run) minimization took 9 s of a
 * one-worker 15 s run, which fuzzed for 5; where finds come every few
 * execs, a free first second (Go minimizes each for up to a minute) gave
 * minimization most of the execs when shallow bugs are found
 * (x/image/tiff's palette index: the seed that is one byte from it ran
 * under a hundred times in 20k execs). */
#define MIN_SHARE 5
#define MIN_FLOOR_NS 2000000LL
#define MAX_DEATHS_IN_ROW 10 /* restarts without one good reply: give up */

/* W_MIN: a Minimize call of the active job is in flight. */
enum { W_DOWN, W_IDLE, W_BUSY, W_MIN };

typedef struct slot {
  cgofuzz_coord_worker w;
  int state;
  size_t entry; /* corpus index of the input in flight */
  bool warmup;
  /* A warm-up entry to hand this slot again, plus one (0: none): its
   * worker died of something that was not the entry's doing (coord_resp.c
   * killed_from_outside), so its coverage is still to be had. */
  size_t warmup_redo;
  int64_t limit;     /* Limit of the call in flight (for the Nx budget) */
  uint64_t sent_gen; /* mask version this process has, 0: none */
  int deaths;        /* deaths since its last good reply */
  bool started;      /* a worker process was started for it before */
  bool lost; /* the last call's write failed: the worker is dead, and its
                death is handled next (coord_proc.c) */
  /* The call in flight as the feedback made it (coord_feedback.h):
   * call.kind 0 is a plain call of corpus entry `entry`; else the value
   * sent is call.value (built from that entry), kept for the replay. */
  cgofuzz_coord_fbcall call;
  /* The watch on a busy worker (coord_resp.c, cgofuzz_coord_watch): the
   * shm count last seen and when it last moved; what the coordinator
   * stopped it for (CGOFUZZ_COORD_DEATH_HANG/_OOM, else _NONE) and the resident
   * set it saw; the kernel's OOM-kill count when the call began. Once
   * the count has stood still for a look, the worker's run delay then
   * (watch_delay, ms; watch_delay_at when read, 0: not yet), so that time
   * it waited for a CPU is not counted as time it ran. */
  int64_t watch_count, watch_ms;
  int64_t watch_delay, watch_delay_at;
  /* An input run a while without its count moving: its early re-run
   * (coord_suspect.c; NULL: none running) and, once over, its verdict
   * (SUSPECT_*, 0: none this call) and the time it ran on a CPU. */
  struct coord_suspect *sus;
  int sus_verdict;
  int64_t sus_ran_ms;
  int stopped_for;
  int64_t rss_mb;
  int64_t rss_over_ms; /* when the resident set was first seen over */
  /* The OOM killer's count when its worker started, or at the watch's look
   * before its last call was sent (-1: not known): a kill since may have
   * been of it, busy or idle. */
  int64_t oom_base;
  /* The pipes the loop's waitset watches for it (responses, stderr; -1:
   * none) and their keys (coord_loop.c, sync_watch). */
  int watch_fd[2];
  uint64_t watch_key[2];
} slot;

/* Sets c->fast to the fuzzing workers' copy of the binary (gobin_copy.c),
 * or leaves it empty (coord_fast.c). -1 with the run failed when
 * -panic-on's functions cannot be trapped (the run would not see them). */
int cgofuzz_coord_fast_copy(struct coord *c);
/* With -v, what the cgo loop did in the workers (their control pages'
 * counts, core/ctlpage.h): nothing when it never ran. */
void cgofuzz_coord_fast_report(const struct coord *c);
/* -panic-on: when msg[0..len) is the panic of a trapped function, out
 * gets a line naming it, then the message; true then (coord_fast.c). */
bool cgofuzz_coord_trap_note(const struct coord *c, const char *msg, size_t len,
                             cgofuzz_buf *out);

/* A minimization: of a crasher (keep == NULL) or of a new interesting
 * input (keep = the new bits it must still hit). One Minimize call per
 * string/[]byte argument, in order, as Go's workerClient.minimize. */
typedef struct mjob {
  bool crash;
  cgofuzz_buf data;           /* current (best) value, an encoded corpus file */
  cgofuzz_buf msg;            /* crasher: the error to print */
  cgofuzz_buf orig, orig_msg; /* -fuzzcontinue crasher: before minimizing */
  uint8_t *keep;              /* interesting: new bits (mask_len) */
  uint8_t *snap;              /* interesting: its coverage, for the scheduler */
  size_t arg;                 /* next argument to minimize */
  int64_t timeout;            /* what is left, ns; 0: no limit */
  int64_t limit;              /* execs left; 0: no limit */
} mjob;

typedef struct coord {
  const cgofuzz_coord_config *cfg;
  cgofuzz_gobin_copy fast; /* what the workers run, path NULL: the binary */
  /* -panic-on: the functions trapped in fast, and where */
  char **trap_names;
  size_t n_traps;
  cgofuzz_gobin_patched trapped;
  /* go test flags the re-run line of the failure being recorded needs
   * ("-race": cgofuzz_coord_host_failure), and cgofuzz's flags it needs
   * under go test -exec=cgofuzz ("-goleaks"); NULL: none */
  const char *rerun_flags, *rerun_cgofuzz;
  uint8_t fuzz_ctl; /* a fuzz call's control byte (no warm-up): NEW or CUT */
  slot *slots;
  size_t np;
  size_t n_init; /* slots whose worker_init ran */
  char **wargv;
  size_t nwargv;
  char **wenv; /* our environment plus CGOFUZZ_EXACT_SLOT=1 */
  cgofuzz_coord_corpus corpus;
  uint8_t *mask;
  size_t mask_len;
  size_t cgo_from;   /* cgofuzz_gobin_cgo_from: mask[cgo_from..] is cgo's C */
  uint64_t mask_gen; /* bumped whenever mask changes */
  uint64_t looped;   /* cgo loop finds that joined the corpus as found */
  bool cov_expected; /* Go counters, or a C target's (size told later) */
  cgofuzz_coord_sched sched;
  mjob jobs[MAX_JOBS]; /* jobs[0] runs first; crashers are put in front */
  size_t n_jobs;
  bool job_running; /* jobs[0] has a call in flight */
  int64_t min_ns;   /* time Minimize calls of interesting inputs took */
  char **fail_keys; /* -fuzzcontinue: sites already recorded */
  size_t n_fail_keys;
  size_t warmup_count, warmup_left, warmup_next;
  int64_t count, outstanding, count_last_log;
  int64_t start_ms, last_log_ms;
  int64_t oom_seen; /* the OOM kill count at the watch's last look */
  size_t interesting;
  /* Hangs the watch saw that did not come again when their input ran
   * alone (coord_resp.c, hangs_again): not recorded. */
  size_t false_hangs;
  bool minimizing; /* a crasher is being minimized: no fuzz calls */
  char *cache_dir;
  char *testdata_dir;
  cgofuzz_buf line;
  bool done;
  bool failed; /* the verdict is FAIL */
  bool fatal;  /* cgofuzz_coord_fail ended the run; fail_msg is its error */
  cgofuzz_buf fail_msg; /* text of the error, printed indented */
  /* fail_msg's data points here when it could not be allocated. */
  char fail_short[256];
  char *crash_path;  /* written crasher, if any */
  bool cache_warned; /* said once that the cache is not writable */
  int death_status;  /* wait status of the worker whose death is being
                        handled, -1 while handling a reply */
  /* Worker processes started after the first np (restarts after deaths):
   * with GODEBUG=fuzzseed each restart gets a seed of its own (spawn). */
  uint64_t respawns;
  int go_binary; /* workers are a Go test binary's: 1 yes, 2 no, 0
                    not known yet (coord_proc.c) */
} coord;

/* --- services every part of the run uses (coord_svc.c) */

/* Appends n bytes a worker sent, in quotes, printable ASCII as it is and
 * other bytes as \xNN, at most 120 of them (then the length), for messages
 * that say what a worker said. */
void cgofuzz_coord_put_bytes(cgofuzz_buf *b, const uint8_t *p, size_t n);
/* The same for the part of a line worker w has sent and not ended. */
void cgofuzz_coord_put_pending(cgofuzz_buf *b, const cgofuzz_coord_worker *w);
/* cgofuzz_coord_fail with msg's text ("out of memory" when it has none),
 * then frees msg. */
void cgofuzz_coord_fail_buf(coord *c, cgofuzz_buf *msg);

/* The run's figures for an observer (coord.h). */
void cgofuzz_coord_stats_get(coord *c, cgofuzz_coord_stats *st);
/* Ends the run with a failure whose text is msg (printed indented). */
void cgofuzz_coord_fail(coord *c, const char *msg, size_t len);
void cgofuzz_coord_failf(coord *c, const char *fmt, const char *arg);
/* Whether cgofuzz's own "cgofuzz: ..." lines are printed: -v, not quiet,
 * and no observer (which prints what it wants itself). */
bool cgofuzz_coord_says(const coord *c);
/* Appends the elapsed time as Go prints it in progress lines. */
void cgofuzz_coord_put_elapsed(coord *c, cgofuzz_buf *b);
/* One of Go's GODEBUG=fuzzdebug=1 lines on stderr: the local time as Go
 * formats "2006-01-02 15:04:05.999999999", " DEBUG ", the message. */
void cgofuzz_coord_debugf(coord *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The handler of SIGINT, SIGTERM and SIGHUP during a run (coord_loop.c
 * installs it); cgofuzz_coord_interrupted says whether one came since the
 * last reset. */
void cgofuzz_coord_on_signal(int sig);
void cgofuzz_coord_signal_reset(void);

/* --- the worker processes (coord_proc.c) */

/* Builds c->wargv and c->wenv, the workers' command line and environment.
 * -1 when out of memory. */
int cgofuzz_coord_worker_args(coord *c);
/* Starts s's worker process without waiting for it (the run's workers
 * start side by side). 0, or -1 with the run failed. */
int cgofuzz_coord_spawn_worker(coord *c, slot *s);
/* Starts s's worker if it is not running and pings it: then it is idle.
 * 0, or -1 with the run failed. */
int cgofuzz_coord_start_worker(coord *c, slot *s);
/* Sends call to s's worker, which is then in state (W_BUSY or W_MIN) with
 * limit execs counted as outstanding. A failed write sets s->lost: the
 * worker died, and the caller's caller (the loop) hands that to
 * cgofuzz_coord_on_death. */
void cgofuzz_coord_send_call(coord *c, slot *s, const cgofuzz_call *call,
                             int state, int64_t limit);
/* The kernel's count of OOM kills so far (oom_kill in /proc/vmstat, which
 * a memory cgroup's kills raise too); -1 when unknown. */
int64_t cgofuzz_coord_oom_kills(void);
/* Whether the workers are a Go test binary's (else a C target's). */
bool cgofuzz_coord_go_workers(coord *c);

/* --- replies and deaths (coord_resp.c) */

/* The worker closed its pipe: it died. Classify it by wait status. */
void cgofuzz_coord_on_death(coord *c, slot *s);
/* A fuzz or minimize reply of a busy worker. */
void cgofuzz_coord_on_reply(coord *c, slot *s, const uint8_t *l, size_t n);

/* --- why a worker died (coord_death.c) */

enum {
  CGOFUZZ_COORD_DEATH_NONE,
  CGOFUZZ_COORD_DEATH_HANG,  /* no progress for the timeout, or a worker's own
                          timer ("panic: deadlocked!") */
  CGOFUZZ_COORD_DEATH_OOM,   /* resident set over the limit, the Go runtime out
                          of memory, the kernel's OOM killer */
  CGOFUZZ_COORD_DEATH_PANIC, /* a Go panic no goroutine recovered */
  CGOFUZZ_COORD_DEATH_FATAL, /* a Go "fatal error:" (concurrent map writes) */
  CGOFUZZ_COORD_DEATH_SANITIZER, /* ASan, UBSan, MSan, TSan, LSan report */
  CGOFUZZ_COORD_DEATH_SIGNAL,    /* a crash signal (SIGSEGV, SIGABRT...) */
  CGOFUZZ_COORD_DEATH_EXIT,      /* an exit status and no report */
  CGOFUZZ_COORD_DEATH_EXTERNAL,  /* SIGKILL, SIGTERM... from outside: Go records
                              nothing */
  CGOFUZZ_COORD_DEATH_LEAK,      /* LeakSanitizer found that the input leaked
                              (a C worker's check, runtime/leak.c) */
};

/* What is known of a dead worker. */
typedef struct cgofuzz_coord_death {
  int status;         /* its wait status */
  int stopped_for;    /* CGOFUZZ_COORD_DEATH_HANG/_OOM: the coordinator stopped
                         it for that; else CGOFUZZ_COORD_DEATH_NONE */
  int64_t timeout_ns; /* the per-exec timeout in force (coord_hang_ns) */
  int64_t rss_mb;     /* _OOM: the resident set seen */
  int64_t rss_limit_mb;
  int64_t oom_kills;   /* kernel OOM kills while its call ran, -1: unknown */
  bool reproduced;     /* a signal from outside came again when its input
                          was re-run alone */
  const uint8_t *tail; /* the end of its stderr (may be NULL) */
  size_t tail_len;
  /* A signal in C code (cgofuzz_coord_death_cgo_pc): the C function it came in,
   * from the binary's symbol table ("count_tag+0x19"), or NULL. */
  const char *c_frame;
} cgofuzz_coord_death;

/* Go's report of a signal that arrived in C code ("PC=0x... m=..." and
 * "signal arrived during cgo execution", the runtime's sighandler): true
 * with the PC. Go's traceback shows only the Go frames; the PC names the
 * C function. */
bool cgofuzz_coord_death_cgo_pc(const uint8_t *tail, size_t n, uint64_t *pc);

/* The C frames Go's report of that signal lists before the Go ones (their
 * "pc=0x..." lines, innermost first; present when the binary's runtime
 * gave Go a C traceback, csrc/runtime/cgo/cgo_stack.c): up to max in pcs,
 * the number found. */
size_t cgofuzz_coord_death_cgo_callers(const uint8_t *tail, size_t n,
                                       uint64_t *pcs, size_t max);

/* Whether line, a frame's second line without its indentation, is a C
 * frame's ("pc=0x..." or "FILE:LINE pc=0x...", without the " +0x" offset
 * and "fp=" of a Go frame's). */
bool cgofuzz_coord_death_c_frame_line(const uint8_t *line, size_t n);

/* Explains a death: appends to msg the class's headline, Go's own line
 * ("fuzzing process hung or terminated unexpectedly: exit status 2", or
 * "... no crash will be recorded: ..." for a signal from outside), the
 * report found at the end of the tail, and how to reproduce a hang or a
 * memory blow-up; no newline at the end. Returns the class
 * (CGOFUZZ_COORD_DEATH_*); *record says whether the input is a failure to write
 * (everything but a signal from outside that did not come again). */
int cgofuzz_coord_death_explain(const cgofuzz_coord_death *d, cgofuzz_buf *msg,
                                bool *record);
/* A short name of a class ("hang", "out of memory", "Go panic"...). */
const char *cgofuzz_coord_death_class_name(int cls);

/* Checks every busy worker (every WATCH_MS): stops one whose shm count has
 * not moved for the exec timeout, or whose resident set is over the
 * limit, and handles its death (coord_resp.c). */
void cgofuzz_coord_watch(coord *c);
#define WATCH_MS 100

/* --- suspected hangs re-run early (coord_suspect.c) */

typedef struct coord_suspect coord_suspect;
enum { SUSPECT_ANSWERED = 1, SUSPECT_HUNG, SUSPECT_UNSURE };
/* An input's count still for a fifth of the hang timer (a second at
 * least): re-run it. Hang timers under SUSPECT_MIN_MS: no early re-run. */
#define SUSPECT_SHARE 5
#define SUSPECT_MIN_MS 4000
/* Whether busy slot s's input is to be re-run early now (its count has
 * stood still since s->watch_ms; timeout_ms is the hang timer). */
bool cgofuzz_coord_suspect_due(coord *c, const slot *s, int64_t now,
                               int64_t timeout_ms);
/* Stops s's worker and re-runs its input (count execs into the call) in a
 * process of its own; s->sus_verdict is UNSURE when that cannot start. */
void cgofuzz_coord_suspect_begin(coord *c, slot *s, int64_t count);
/* Looks at s's re-run: 0 while it runs, else its verdict (the re-run is
 * over and s's worker running again). */
int cgofuzz_coord_suspect_poll(slot *s, int64_t now, int64_t timeout_ms);
/* Ends s's re-run, if any, as UNSURE, and resumes s's worker. */
void cgofuzz_coord_suspect_end(slot *s);
/* Rebuilds the input s's worker ran at count (coord_exact.c): 0, or -1
 * with the run failed. */
int cgofuzz_coord_rebuild(coord *c, slot *s, int64_t count, cgofuzz_buf *out);
#define C_WATCHDOG_GRACE_MS 1000 /* a C worker's own watchdog goes first */

/* --- the exact-input slot (coord_exact.c, cgofuzz/exact.h) */

/* After a fuzz call or a worker's death: 1 and the slot's input in out
 * when the slot is valid for this call and decodes to the target's types,
 * 0 when the input must be replayed (said with -v if the slot was set but
 * unusable), -1 when out of memory. */
int cgofuzz_coord_exact_input(coord *c, slot *s, cgofuzz_buf *out);
/* The slot's raw form (cgofuzz/exact.h): 1 and the argument to replace
 * after the replay, 0 when the slot is not in that form (or not valid). */
int cgofuzz_coord_exact_raw(coord *c, slot *s, size_t *index,
                            const uint8_t **data, size_t *len);
/* Whether the slot holds, for this call, an input the cgo loop of a Go
 * binary's worker published (the raw form in a worker with a control
 * page: core/ctlpage.h); no side effects. */
bool cgofuzz_coord_exact_looped(const slot *s);

/* --- minimization jobs and failure records (coord_min.c) */

bool cgofuzz_coord_can_minimize(coord *c);
/* What is left at now_ms of the workers' time interesting inputs may be
 * minimized in (MIN_SHARE), in ns; none at or below 0. */
int64_t cgofuzz_coord_min_allowance(const coord *c, int64_t now_ms);
/* Appends Go's "--- FAIL" block for msg (and the written file) to b:
 * paths and commands from cfg->display_dir when cfg->display_block. */
void cgofuzz_coord_fail_block(coord *c, cgofuzz_buf *b, const char *msg,
                              size_t len, const char *path);
/* Shell command lines ('\n'-terminated) that re-run the failing input at
 * path, from the run's directory (display: from where cgofuzz started,
 * cfg->display_dir of coord.h): Go's `go test -run=T/NAME` (a C target: the
 * binary with -test.run) when path is in testdata; otherwise the binary
 * run in a temporary directory given testdata's layout, then (Go
 * binaries) the copy back and go test. */
void cgofuzz_coord_repro(coord *c, const char *path, bool display,
                         cgofuzz_buf *out);
/* Appends a failure to cfg->report (if any), once per failure. */
void cgofuzz_coord_report_failure(coord *c, const char *path, const char *msg,
                                  size_t len);
/* Writes a crasher to testdata; ends the run unless -fuzzcontinue. */
void cgofuzz_coord_record_failure(coord *c, const cgofuzz_buf *data,
                                  const cgofuzz_buf *msg);
/* Adds a new interesting input to the corpus, the cache, the scheduler. */
void cgofuzz_coord_add_interesting(coord *c, const cgofuzz_buf *data,
                                   const uint8_t *snap);
/* -fuzzcontinue: whether this failure's site was recorded; remembers it. */
bool cgofuzz_coord_seen_failure(coord *c, const char *msg, size_t len);
/* Queues a minimization (keep NULL: a crasher). -1: not queued. */
int cgofuzz_coord_mjob_queue(coord *c, bool crash, const cgofuzz_buf *data,
                             const cgofuzz_buf *msg, const uint8_t *keep,
                             const uint8_t *snap);
/* Sends the next Minimize call of jobs[0] to s, or finishes the job. */
void cgofuzz_coord_mjob_step(coord *c, slot *s);
void cgofuzz_coord_mjob_on_reply(coord *c, slot *s, const uint8_t *l, size_t n);
/* Ends jobs[0] with its current value and drops it from the queue. */
void cgofuzz_coord_mjob_finish(coord *c);
/* Time up or ^C: finishes every pending job with its current value. */
void cgofuzz_coord_mjob_flush(coord *c);
void cgofuzz_coord_mjob_free(mjob *j);

#endif
