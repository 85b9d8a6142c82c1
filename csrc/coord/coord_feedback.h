/*
 * coord_feedback.h: how the coordinator asks feedback strategies for
 * calls (csrc/feedback: dictionaries, comparison feedback), and what it
 * lets them ask of the run (coord_host.c).
 *
 * Invariants:
 *  - the coordinator names no strategy: a caller (cli, lf) registers one
 *    table (cgofuzz_coord_config.feedback), NULL for Go's calls only;
 *  - start is called once per run, after the workers were started and
 *    before any is pinged; stop once at its end, whether or not start
 *    ran or succeeded; step once per turn of the loop, after the idle
 *    workers got their calls; next for an idle worker slot once the
 *    warm-up is over; done when a fuzz call of a slot ended (its reply,
 *    or the worker's death), a plain one too;
 *  - each slot has at most one call in flight, so a strategy may keep
 *    per-slot notes of the call it made (slots are 0..workers-1); the
 *    value of its call (call->value) is kept by the coordinator until
 *    the call ends, since what the worker found is rebuilt from it;
 *  - the host functions may be called between start and stop, from the
 *    coordinator's thread only (it is single-threaded); the corpus only
 *    grows, and an entry's bytes never move; only
 *    cgofuzz_coord_host_failure changes what the run does.
 */
#ifndef CGOFUZZ_COORD_FEEDBACK_H
#define CGOFUZZ_COORD_FEEDBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "coord.h"
#include "shm.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run, as a strategy sees it. */
typedef struct coord cgofuzz_coord_host;

/* A call a strategy made for a slot. */
typedef struct cgofuzz_coord_fbcall {
  /* 0: a plain call of corpus entry `entry` (Go's mutator from its value);
   * else the strategy's own kind, and the value sent is `value`. */
  int kind;
  size_t entry;      /* the corpus entry it was made from (< its size) */
  cgofuzz_buf value; /* kind != 0: an encoded corpus file */
  bool exact;        /* run the value once as it is (Limit 1, Warmup: its
                        coverage comes back with the reply) */
  int64_t limit;     /* > 0: at most this Limit (else the coordinator's) */
  const char *what;  /* kind != 0: where a failing input came from, for
                        -v ("a dictionary call (an exact run)") */
} cgofuzz_coord_fbcall;

typedef struct cgofuzz_coord_feedback {
  void *ctx;
  /* 0, or -1 with err: the run fails with that message. */
  int (*start)(void *ctx, cgofuzz_coord_host *h, cgofuzz_err *err);
  /* true: there is more to do at once (the loop's wait does not block). */
  bool (*step)(void *ctx, cgofuzz_coord_host *h);
  /* The next call for slot (died: its last call killed its worker): 1 with
   * *call filled, 0 when the coordinator is to choose, -1 out of memory. */
  int (*next)(void *ctx, cgofuzz_coord_host *h, size_t slot, bool died,
              cgofuzz_coord_fbcall *call);
  /* Slot's fuzz call ended after count execs; found: it found new
   * coverage or a failure. */
  void (*done)(void *ctx, cgofuzz_coord_host *h, size_t slot,
               const cgofuzz_coord_fbcall *call, int64_t count, bool found);
  void (*stop)(void *ctx, cgofuzz_coord_host *h);
} cgofuzz_coord_feedback;

/* --- what a strategy may ask of the run (coord_host.c) */

const cgofuzz_coord_config *
cgofuzz_coord_host_config(const cgofuzz_coord_host *h);
/* The Go release the run follows (cfg->gover, 0 meaning the newest). */
int cgofuzz_coord_host_gover(const cgofuzz_coord_host *h);
/* Whether cgofuzz's own "cgofuzz: ..." lines are printed (-v, not quiet,
 * no observer). */
bool cgofuzz_coord_host_says(const cgofuzz_coord_host *h);
/* Worker slots, and the coverage mask's length (0: none known yet). */
size_t cgofuzz_coord_host_workers(const cgofuzz_coord_host *h);
size_t cgofuzz_coord_host_mask_len(const cgofuzz_coord_host *h);
/* Whether the run is fuzzing: the warm-up is over, no crasher is being
 * minimized, and the run is not ending. */
bool cgofuzz_coord_host_fuzzing(const cgofuzz_coord_host *h);
/* The corpus: its size, and entry i's encoded bytes. */
size_t cgofuzz_coord_host_corpus(const cgofuzz_coord_host *h);
const uint8_t *cgofuzz_coord_host_entry(const cgofuzz_coord_host *h, size_t i,
                                        size_t *len);
/* Whether entry i fails when run (a run that goes on after failures). */
bool cgofuzz_coord_host_failing(const cgofuzz_coord_host *h, size_t i);
/* -focus: whether entry i reaches code changed since the revision. */
bool cgofuzz_coord_host_focus(const cgofuzz_coord_host *h, size_t i);
/* An entry picked by the scheduler's weights, not counted as a call. */
size_t cgofuzz_coord_host_pick(cgofuzz_coord_host *h);
/* The command line and environment the run's workers are started with. */
char *const *cgofuzz_coord_host_argv(const cgofuzz_coord_host *h);
char *const *cgofuzz_coord_host_envp(const cgofuzz_coord_host *h);

/* Records a failure a strategy found outside the user's workers (a race
 * replay: fb_race.c, a goroutine leak: fb_goleak.c): value (an encoded
 * corpus file) is written to testdata as the user's workers' failures
 * are, unminimized, with msg as its report; rerun_flags (e.g. "-race") go
 * into the re-run line's go test command, rerun_cgofuzz (e.g. "-goleaks")
 * make it run through cgofuzz with those flags (strings that outlive the
 * run; NULL: none). Under -fuzzcontinue a failure of the same site as an
 * earlier one is dropped; without it the run ends. */
void cgofuzz_coord_host_failure(cgofuzz_coord_host *h, const uint8_t *value,
                                size_t len, const char *msg, size_t msg_len,
                                const char *rerun_flags,
                                const char *rerun_cgofuzz);
/* cgofuzz_shm_set_value, and clears the exact-input slot's magic after the
 * value (coord_exact.c): how any input is put in a worker's shared memory. */
int cgofuzz_coord_set_value(cgofuzz_shm *m, const uint8_t *b, size_t len,
                            cgofuzz_err *err);

/* An exact run of v on a worker whose shared memory is m: the value put
 * there (coord_set_value), the exec count zeroed (Go's worker refuses a
 * call whose count is at its Limit already), and in line the call that
 * runs it once as it is (Warmup, Limit 1: its coverage comes back with
 * the reply) within timeout_ns. 0, or -1 with err. */
int cgofuzz_coord_exact_call(cgofuzz_shm *m, const uint8_t *v, size_t len,
                             int64_t timeout_ns, cgofuzz_buf *line,
                             cgofuzz_err *err);

/* --- a strategy's own worker (coord_side.c): blocking calls */

struct cgofuzz_coord_worker;
/* Starts w (initialized, not running) as path with argv and envp, its
 * stderr kept, and waits for its ping's answer (line is scratch). 0, or
 * -1 with err and w stopped. */
int cgofuzz_coord_side_start(struct cgofuzz_coord_worker *w, const char *path,
                             char *const argv[], char *const envp[],
                             cgofuzz_buf *line, cgofuzz_err *err);
/* Runs the encoded value v once on w and waits up to timeout_ms for the
 * reply, draining w's stderr meanwhile: 1 with *resp decoded (free it),
 * else w is stopped and 0 (no reply in time) or -1 (it died, or answered
 * garbage or an internal error), err saying which. */
int cgofuzz_coord_side_run(struct cgofuzz_coord_worker *w, const uint8_t *v,
                           size_t len, int timeout_ms, cgofuzz_buf *line,
                           cgofuzz_fuzz_resp *resp, cgofuzz_err *err);

#ifdef __cplusplus
}
#endif
#endif
