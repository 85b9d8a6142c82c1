/* spawn.c: fork+exec with descriptor remapping and exec-error reporting
 * (see spawn.h for the rules). */
#include "spawn.h"
#include "clock.h"
#include "os.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SPAWN_MAX_FDS 8
#define HIGH_FD 100

extern char **environ;

/* In the child: report errno to the parent and exit. */
static void child_fail(int report) {
  int e = errno;
  (void)!write(report, &e, sizeof e);
  _exit(127);
}

pid_t cgofuzz_spawn_start(const cgofuzz_spawn *s) {
  if (s->n_fds > SPAWN_MAX_FDS) {
    errno = EINVAL;
    return -1;
  }
  int report[2];
  if (cgofuzz_os_pipe(report, 0) != 0)
    return -1;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(report[0]);
    close(report[1]);
    errno = e;
    return -1;
  }
  if (pid == 0) {
    if (s->die_with_parent) {
      cgofuzz_os_die_with_parent(s->death_signal ? s->death_signal : SIGKILL);
      if (getppid() != parent)
        _exit(127); /* the parent died before we got here */
    }
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0)
      child_fail(report[1]);
    /* Copies of every source at HIGH_FD or above first, then the dup2s:
     * no target can be the source of a later one. */
    int src[3 + SPAWN_MAX_FDS], dst[3 + SPAWN_MAX_FDS];
    size_t n = 0;
    src[n] = devnull, dst[n++] = 0;
    src[n] = s->stdout_fd >= 0 ? s->stdout_fd : devnull, dst[n++] = 1;
    src[n] = s->stderr_fd >= 0 ? s->stderr_fd : devnull, dst[n++] = 2;
    for (size_t i = 0; i < s->n_fds; i++)
      src[n] = s->fd_from[i], dst[n++] = s->fd_to[i];
    int top = 2;
    for (size_t i = 0; i < n; i++) {
      if ((src[i] = fcntl(src[i], F_DUPFD_CLOEXEC, HIGH_FD)) < 0)
        child_fail(report[1]);
      if (dst[i] > top)
        top = dst[i];
    }
    for (size_t i = 0; i < n; i++)
      if (dup2(src[i], dst[i]) < 0) /* dup2 clears close-on-exec */
        child_fail(report[1]);
    if (s->dir && chdir(s->dir) != 0)
      child_fail(report[1]);
    if (s->reset_signals) {
      /* Whatever the caller inherited (a shell's background job ignores
       * SIGINT), so that stopping works and crashes are real crashes. */
      int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};
      for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
    }
    /* Only 0..top reach the program, even descriptors the caller inherited
     * without close-on-exec. Where that cannot be done in one call (Linux
     * before 5.11, Darwin), close them here; the HIGH_FD copies have
     * served their dup2s, and only the report pipe must stay open until
     * exec. */
    if (s->close_others && cgofuzz_os_cloexec_from(top + 1) != 0) {
      for (int fd = top + 1; fd < 4096; fd++)
        if (fd != report[1])
          close(fd);
    }
    if (s->add_env && putenv((char *)s->add_env) != 0)
      child_fail(report[1]);
    if (s->tmpdir && (setenv("TMPDIR", s->tmpdir, 1) != 0 ||
                      setenv("GOTMPDIR", s->tmpdir, 1) != 0))
      child_fail(report[1]);
    execve(s->path, s->argv, s->envp ? s->envp : environ);
    child_fail(report[1]);
  }
  close(report[1]);
  int child_errno = 0;
  ssize_t k;
  do {
    k = read(report[0], &child_errno, sizeof child_errno);
  } while (k < 0 && errno == EINTR);
  close(report[0]);
  if (k > 0) { /* the child could not exec: reap it, say why */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
      ;
    errno = child_errno;
    return -1;
  }
  return pid;
}

int cgofuzz_spawn_wait(pid_t pid, int timeout_ms, bool *timed_out) {
  int64_t deadline = timeout_ms < 0 ? -1 : cgofuzz_mono_ms() + timeout_ms;
  if (timed_out)
    *timed_out = false;
  for (;;) {
    int st;
    pid_t r = waitpid(pid, &st, deadline < 0 ? 0 : WNOHANG);
    if (r == pid)
      return st;
    if (r < 0 && errno != EINTR)
      return -1;
    if (deadline >= 0 && cgofuzz_mono_ms() >= deadline) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
      if (timed_out)
        *timed_out = true;
      return -1;
    }
    if (r == 0) {
      struct timespec ts = {0, 2 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
}

int cgofuzz_spawn_run(const cgofuzz_spawn *s, cgofuzz_buf *out,
                      bool merge_stderr, int timeout_ms) {
  int p[2];
  if (cgofuzz_os_pipe(p, 0) != 0)
    return -1;
  cgofuzz_spawn c = *s;
  c.stdout_fd = p[1];
  if (merge_stderr)
    c.stderr_fd = p[1];
  pid_t pid = cgofuzz_spawn_start(&c);
  close(p[1]);
  if (pid < 0) {
    close(p[0]);
    return -1;
  }
  int64_t deadline = timeout_ms < 0 ? -1 : cgofuzz_mono_ms() + timeout_ms;
  bool full = false;
  for (;;) {
    int left = -1;
    if (deadline >= 0) {
      int64_t l = deadline - cgofuzz_mono_ms();
      left = l > 0 ? (int)l : 0;
    }
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    int r = poll(&pf, 1, left);
    if (r < 0 && errno == EINTR)
      continue;
    if (r > 0 && cgofuzz_buf_reserve(out, 4096) != 0) {
      full = true;
      kill(pid, SIGKILL);
      break;
    }
    if (r <= 0)
      break; /* time is up: the wait below kills it */
    ssize_t k = read(p[0], out->data + out->len, out->cap - out->len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    out->len += (size_t)k;
  }
  close(p[0]);
  int left = -1;
  if (deadline >= 0) {
    int64_t l = deadline - cgofuzz_mono_ms();
    left = l > 0 ? (int)l : 0;
  }
  int st = cgofuzz_spawn_wait(pid, left, NULL);
  if (full) {
    errno = ENOMEM;
    return -1;
  }
  return st;
}
