/*
 * scratch.c: the process's private temporary directory (scratch.h).
 *
 * A process killed by SIGKILL runs no cleanup of its own, so a janitor
 * does it: a child forked when the directory is made. It holds the read
 * end of a pipe whose write end only this process has (close-on-exec, so
 * no program started later inherits it), and waits for end-of-file, which
 * comes when this process is gone, however it went. Then it removes the
 * directory and exits. It runs in a session of its own and ignores the
 * signals a terminal or a harness sends a process group, so that it
 * outlives ^C and a group kill, and it closes every other descriptor, so
 * that it keeps no pipe of ours open (a reader of our output would wait
 * for it).
 */
#include "scratch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dir.h"
#include "os.h"

static char scratch_path[4096];
static int scratch_made; /* 1: made; -1: failed (errno in scratch_errno) */
static int scratch_errno;
static pid_t scratch_owner; /* the process that made it */

/* At exit, in the process that made it only: a forked child that calls
 * exit() inherits the handler, and must not take the directory along. */
static void remove_at_exit(int status, void *arg) {
  (void)status;
  (void)arg;
  if (scratch_made == 1 && getpid() == scratch_owner)
    cgofuzz_dir_remove_all(scratch_path);
}

/* The janitor's life: wait for end-of-file on fd, then remove the path. */
static void janitor(int fd) {
  int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], SIG_IGN);
  setsid();
  for (int i = 0; i < 4096; i++)
    if (i != fd)
      close(i);
  for (;;) {
    char b;
    ssize_t k = read(fd, &b, 1);
    if (k == 0 || (k < 0 && errno != EINTR))
      break;
  }
  /* Children that die with the parent may still be ending: a second pass
   * takes what they wrote meanwhile. */
  cgofuzz_dir_remove_all(scratch_path);
  struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  cgofuzz_dir_remove_all(scratch_path);
  _exit(0);
}

const char *cgofuzz_tmpdir(void) {
  const char *t = getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

const char *cgofuzz_scratch_dir(void) {
  if (scratch_made == 1)
    return scratch_path;
  if (scratch_made == -1) {
    errno = scratch_errno;
    return NULL;
  }
  int n = snprintf(scratch_path, sizeof scratch_path, "%s/cgofuzz-%d-XXXXXX",
                   cgofuzz_tmpdir(), (int)getpid());
  int fds[2] = {-1, -1};
  if (n < 0 || (size_t)n >= sizeof scratch_path) {
    errno = ENAMETOOLONG;
  } else if (mkdtemp(scratch_path)) {
    pid_t pid = cgofuzz_os_pipe(fds, 0) == 0 ? fork() : -1;
    if (pid == 0)
      janitor(fds[0]);
    if (pid > 0) {
      close(fds[0]); /* the write end stays open, unused, until we end */
      scratch_made = 1;
      scratch_owner = getpid();
      cgofuzz_os_on_exit(remove_at_exit, NULL);
      return scratch_path;
    }
    int e = errno;
    if (fds[0] >= 0) {
      close(fds[0]);
      close(fds[1]);
    }
    rmdir(scratch_path);
    errno = e;
  }
  scratch_errno = errno;
  scratch_made = -1;
  return NULL;
}
