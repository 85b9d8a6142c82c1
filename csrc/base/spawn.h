/* spawn.h: the one way cgofuzz starts another program.
 *
 * Workers, discovery runs of a test binary, the test pass before fuzzing:
 * all are fork+exec with the same rules, kept here once.
 *  - Every descriptor is remapped in the child from a copy numbered 100 or
 *    above, so no dup2 can clobber another source (a caller's stdout may be
 *    fd 3 while fd 3 is also a target).
 *  - A failed exec (or chdir, dup2) is reported to the parent through a
 *    close-on-exec pipe: spawn returns -1 with the child's errno, instead of
 *    a child that "exits 127" and looks like a crash.
 *  - Only async-signal-safe calls run in the child, except setenv for
 *    `add_env`, which is safe only because the caller is single-threaded
 *    (cgofuzz's coordinator is).
 */
#ifndef CGOFUZZ_SPAWN_H
#define CGOFUZZ_SPAWN_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_spawn {
  const char *path;    /* the executable; not looked up in PATH */
  char *const *argv;   /* NULL-terminated */
  char *const *envp;   /* NULL: the caller's environment */
  const char *add_env; /* "NAME=VALUE" added to the caller's env, or NULL */
  /* A directory the program gets as TMPDIR and GOTMPDIR (scratch.h), so
   * that its temporary files are removed with ours; NULL: the caller's. */
  const char *tmpdir;
  const char *dir;    /* working directory, or NULL: the caller's */
  int stdout_fd;      /* -1: /dev/null (stdin is always /dev/null) */
  int stderr_fd;      /* -1: /dev/null */
  const int *fd_from; /* extra descriptors: fd_to[i] gets fd_from[i] */
  const int *fd_to;
  size_t n_fds;
  bool die_with_parent; /* SIGKILL when the caller dies (PR_SET_PDEATHSIG) */
  int death_signal;     /* that signal instead of SIGKILL, if nonzero */
  bool reset_signals;   /* default dispositions and an empty signal mask */
  bool close_others;    /* close every descriptor above the ones set up */
} cgofuzz_spawn;

/* Starts the program: its pid, or -1 with errno set (from the child's
 * failed exec, chdir or dup2, or from fork/pipe). */
pid_t cgofuzz_spawn_start(const cgofuzz_spawn *s);

/* Waits for pid, up to timeout_ms (-1: forever); when the time is up it
 * is SIGKILLed and reaped, and -1 is returned with *timed_out set (if
 * given). Otherwise returns the wait status. */
int cgofuzz_spawn_wait(pid_t pid, int timeout_ms, bool *timed_out);

/* Runs the program to its end with its stdout (and its stderr too, if
 * merge_stderr) appended to out, within timeout_ms (-1: no limit; output
 * is read until then, then the program is killed). Returns the wait
 * status, or -1 if it could not start or timed out, or with errno ENOMEM
 * when its output could not all be kept (the program is killed: a caller
 * never reads a short output as the whole). */
int cgofuzz_spawn_run(const cgofuzz_spawn *s, cgofuzz_buf *out,
                      bool merge_stderr, int timeout_ms);

#ifdef __cplusplus
}
#endif
#endif
