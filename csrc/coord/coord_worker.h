/*
 * coord_worker.h: the coordinator's end of one worker process.
 *
 * A worker is a child process started with three extra descriptors, as Go's
 * posix worker expects:
 *
 *   fd 3  read end of the "fuzz_in" pipe: calls from the coordinator
 *   fd 4  write end of the "fuzz_out" pipe: responses to the coordinator
 *   fd 5  the shared-memory file (see shm.h)
 *   fd 6  with a control page only: that page (CGOFUZZ_CTL_SIZE bytes,
 *         core/ctlpage.h)
 *         and after it a copy of the coverage mask this worker process was
 *         last sent (zero before any), which the copy of a Go binary the
 *         fuzzing workers run maps (gobin_patch.c); its first byte says
 *         what kind of call is in flight (CGOFUZZ_CTL_*), written before
 *         the call is sent, as the mask copy is. Go's own worker code
 *         never looks at it.
 *
 * Calls and responses strictly alternate, one JSON message per line (see
 * wire.h). The coordinator keeps only its own pipe ends (close-on-exec), so
 * when a worker dies, its fuzz_out end closes and reading it gives EOF;
 * when the coordinator dies, the worker reads EOF on fd 3 and exits, and a
 * parent-death signal makes sure even a busy worker does not outlive it.
 *
 * The shared memory outlives worker processes: after a crash, it still holds
 * the input and the PCG state needed to rebuild the failing value, and the
 * next process started for the same slot reuses it.
 *
 * With keep_stderr, the worker's stderr is a pipe the coordinator drains
 * (cgofuzz_coord_worker_drain_stderr; recv and reap drain it while they wait),
 * so a worker never blocks on a full stderr; the last CGOFUZZ_COORD_WORKER_TAIL
 * bytes are kept in tail (from the start of the current process until the
 * next start: they survive stop, for explaining a death), and everything
 * read is also written to the stderr_fd given to start (-1: nowhere).
 */
#ifndef CGOFUZZ_COORD_WORKER_H
#define CGOFUZZ_COORD_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "gobin_patch.h"
#include "lines.h"
#include "shm.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_coord_worker {
  cgofuzz_shm
      mem;   /* created by cgofuzz_coord_worker_init, kept across restarts */
  pid_t pid; /* 0 when no process is running */
  int in_w;  /* our end of fuzz_in, -1 when closed */
  int out_r; /* our end of fuzz_out, -1 when closed */
  cgofuzz_lines in; /* replies read from out_r, framed by newlines */
  bool exited;      /* the process has been reaped */
  int wait_status;  /* its status from waitpid, valid when exited */
  bool keep_stderr; /* set before start: capture stderr into tail */
  int err_r;        /* our end of its stderr pipe, -1 when none or closed */
  int err_tee;      /* where captured stderr is copied to, -1: nowhere */
  uint8_t *tail;    /* the last tail_len bytes of its stderr, malloc'd */
  size_t tail_len;  /* <= CGOFUZZ_COORD_WORKER_TAIL */
  int ctl_fd;       /* the control page's memfd, -1: none */
  uint8_t *ctl;     /* our mapping of it, NULL: none */
  size_t ctl_size;  /* its size: cgofuzz_ctl_size(mask length) */
} cgofuzz_coord_worker;

/* The protocol's timings and sizes, for every process that talks to a
 * worker (the run's slots, a strategy's own worker). */
#define CGOFUZZ_COORD_WORKER_CALL_NS 100000000LL /* Go's workerFuzzDuration */
#define CGOFUZZ_COORD_WORKER_PING_MS                                           \
  120000 /* generous: TestMain/init may be slow                                \
          */
#define CGOFUZZ_COORD_WORKER_MAX_LINE                                          \
  ((size_t)512 << 20)                      /* Err and coverage                 \
                                            */
#define CGOFUZZ_COORD_WORKER_GRACE_MS 1000 /* Go's workerTimeoutDuration */

/* How much of a worker's stderr is kept (the end of it). */
#define CGOFUZZ_COORD_WORKER_TAIL ((size_t)64 << 10)

/* Creates the shared memory (value capacity value_cap) for one worker slot.*/
int cgofuzz_coord_worker_init(cgofuzz_coord_worker *w, size_t value_cap,
                              cgofuzz_err *err);

/* Gives the slot a control page with room for a mask of mask_len bytes
 * (fd 6 of every process started from now on). -1 with err when no memfd
 * or mapping can be had: the slot then runs without one. */
int cgofuzz_coord_worker_ctl_init(cgofuzz_coord_worker *w, size_t mask_len,
                                  cgofuzz_err *err);
/* Sets the control page's first byte, a CGOFUZZ_CTL_* (no-op without a
 * page). */
void cgofuzz_coord_worker_set_ctl(cgofuzz_coord_worker *w, uint8_t kind);
/* Copies the mask about to be sent to the worker after the control page
 * (no-op without a page or room for it). Only while no call is in flight:
 * the copy must be the worker's own mask whenever it runs a fuzz call. */
void cgofuzz_coord_worker_set_ctl_mask(cgofuzz_coord_worker *w,
                                       const uint8_t *mask, size_t len);

/* Starts a worker process: path with argv (NULL-terminated; argv[0] is what
 * the worker sees as its name), envp (NULL: inherit), in directory dir (NULL:
 * ours). stdout_fd/stderr_fd become its fd 1/2 (-1: /dev/null); with
 * keep_stderr its fd 2 is a pipe instead and stderr_fd gets a copy. */
int cgofuzz_coord_worker_start(cgofuzz_coord_worker *w, const char *path,
                               char *const argv[], char *const envp[],
                               const char *dir, int stdout_fd, int stderr_fd,
                               cgofuzz_err *err);

/* Reads whatever the worker's stderr pipe holds now, without blocking:
 * appends it to the tail (dropping the oldest bytes beyond
 * CGOFUZZ_COORD_WORKER_TAIL) and copies it to err_tee. Returns 1 while the pipe
 * is open, 0 once it reached EOF (err_r is then closed) or there is none. */
int cgofuzz_coord_worker_drain_stderr(cgofuzz_coord_worker *w);

/* Writes one encoded call (a full line). Returns 0, or -1 when the worker
 * cannot take it (it has closed its end: it died). */
int cgofuzz_coord_worker_send(cgofuzz_coord_worker *w, const cgofuzz_buf *line,
                              cgofuzz_err *err);

/* Waits up to timeout_ms (-1: forever) for one complete response line.
 * Returns 1 and sets *line and *len (valid until the next call) when a line is
 * there, 0 on time-out, -1 on EOF or error (the worker died or closed its
 * pipe: see cgofuzz_coord_worker_reap), -3 when we had no memory to read into
 * (the worker is not to blame). Lines
 * longer than max_line bytes are an error, so a worker that floods us cannot
 * exhaust our memory. A timeout of 0 reads what is available without blocking,
 * for poll-driven loops. */
int cgofuzz_coord_worker_recv(cgofuzz_coord_worker *w, int timeout_ms,
                              size_t max_line, const uint8_t **line,
                              size_t *len, cgofuzz_err *err);

/* Waits up to timeout_ms for the process to exit and reaps it. Returns 1 if
 * it has exited (status in w->wait_status), 0 if still running. */
int cgofuzz_coord_worker_reap(cgofuzz_coord_worker *w, int timeout_ms);

/* Stops the process the way Go does: close fuzz_in (a worker exits when it
 * reads EOF), wait grace_ms, then SIGINT, wait grace_ms, then SIGKILL.
 * Returns the wait status. Safe to call on a dead or stopped worker. */
int cgofuzz_coord_worker_stop(cgofuzz_coord_worker *w, int grace_ms);

/* Stops any process, frees the tail and removes the shared memory. */
void cgofuzz_coord_worker_free(cgofuzz_coord_worker *w);

/* Describes a wait status as Go's os/exec does ("exit status 2",
 * "signal: segmentation fault (core dumped)"). */
void cgofuzz_coord_wait_status_string(int status, char *out, size_t outlen);

/* Whether a worker killed by this signal crashed on its input (SIGILL,
 * SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGPIPE), as opposed to being
 * stopped from outside (SIGKILL, SIGINT, SIGTERM, SIGHUP...). */
bool cgofuzz_coord_is_crash_signal(int sig);

#ifdef __cplusplus
}
#endif
#endif
