/*
 * scratch.c: the process's private temporary directory (scratch.h).
 *
 * A process killed by SIGKILL runs no cleanup of its own, so a janitor
 * does it: a child forked to make the directory (so that no directory is
 * ever without one), which reports its name back. It holds the read
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

#include "buf.h"
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

/* What the janitor tells its maker: mkdtemp's errno (0: made) and the
 * directory's path. One fixed-size record, so the maker reads it whole or
 * knows the janitor said nothing. */
typedef struct janitor_answer {
  int err;
  char path[sizeof scratch_path];
} janitor_answer;

/* The janitor's life: it makes the directory (scratch_path holds the
 * template) and tells the maker through back, waits for end-of-file on
 * life, then removes the directory. Making it here, not in the maker,
 * leaves no moment at which a directory exists that no janitor will
 * remove: a maker killed before the fork made nothing, one killed after
 * it leaves the janitor an end-of-file. */
static void janitor(int life, int back) {
  int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], SIG_IGN);
  setsid();
  janitor_answer a = {.err = mkdtemp(scratch_path) ? 0 : errno};
  memcpy(a.path, scratch_path, sizeof a.path);
  cgofuzz_write_all(back, &a, sizeof a);
  for (int i = 0; i < 4096; i++)
    if (i != life)
      close(i);
  for (;;) {
    char b;
    ssize_t k = read(life, &b, 1);
    if (k == 0 || (k < 0 && errno != EINTR))
      break;
  }
  if (a.err == 0) {
    /* Children that die with the maker may still be ending: a second
     * pass takes what they wrote meanwhile. */
    cgofuzz_dir_remove_all(scratch_path);
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    cgofuzz_dir_remove_all(scratch_path);
  }
  _exit(0);
}

/* Reads the janitor's answer from fd into scratch_path: 0, or -1 with
 * errno set (the janitor's, or EIO when it said nothing whole). */
static int read_answer(int fd) {
  janitor_answer a;
  size_t got = 0;
  while (got < sizeof a) {
    ssize_t k = read(fd, (char *)&a + got, sizeof a - got);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    got += (size_t)k;
  }
  errno = got < sizeof a ? EIO : a.err;
  if (errno != 0)
    return -1;
  memcpy(scratch_path, a.path, sizeof scratch_path);
  scratch_path[sizeof scratch_path - 1] = 0;
  return 0;
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
  int life[2] = {-1, -1}, back[2] = {-1, -1};
  if (n < 0 || (size_t)n >= sizeof scratch_path) {
    errno = ENAMETOOLONG;
  } else if (cgofuzz_os_pipe(life, 0) == 0 && cgofuzz_os_pipe(back, 0) == 0) {
    pid_t pid = fork();
    if (pid == 0)
      janitor(life[0], back[1]);
    int e = errno;
    close(life[0]);
    close(back[1]);
    if (pid > 0 && read_answer(back[0]) == 0) {
      close(back[0]); /* life[1] stays open, unused, until we end */
      scratch_made = 1;
      scratch_owner = getpid();
      cgofuzz_os_on_exit(remove_at_exit, NULL);
      return scratch_path;
    }
    if (pid > 0)
      e = errno;
    close(back[0]);
    close(life[1]); /* the janitor, if any, made nothing or removes it */
    errno = e;
  } else {
    int e = errno;
    for (int i = 0; i < 2; i++) {
      if (life[i] >= 0)
        close(life[i]);
      if (back[i] >= 0)
        close(back[i]);
    }
    errno = e;
  }
  scratch_errno = errno;
  scratch_made = -1;
  return NULL;
}
