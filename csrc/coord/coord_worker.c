/*
 * worker_client.c: starting, talking to and stopping one worker process.
 *
 * Descriptor hygiene is what makes death detection work: every descriptor
 * the coordinator keeps is close-on-exec, so a worker holds only its own
 * pipe ends, and EOF on fuzz_out means that this worker (and no sibling)
 * is gone. Descriptors destined for 3/4/5 are first moved to 10 or above so
 * the dup2 calls in the child can never clobber one another.
 */
#include "coord_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int cgofuzz_worker_init(cgofuzz_worker *w, size_t value_cap, cgofuzz_err *err) {
  memset(w, 0, sizeof *w);
  w->in_w = w->out_r = -1;
  w->mem.fd = -1;
  return cgofuzz_shm_create(&w->mem, value_cap, err);
}

/* Moves fd to a close-on-exec descriptor numbered 10 or above. */
static int lift_fd(int fd) {
  int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  int saved = errno;
  close(fd);
  errno = saved;
  return nfd;
}

int cgofuzz_worker_start(cgofuzz_worker *w, const char *path,
                         char *const argv[], char *const envp[],
                         const char *dir, int stdout_fd, int stderr_fd,
                         cgofuzz_err *err) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, memfd = -1;
  if (w->pid != 0)
    return cgofuzz_errf(err, 0, "worker already running (pid %d)", w->pid);
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    goto fail_errno;
  if ((in[0] = lift_fd(in[0])) < 0 || (out[1] = lift_fd(out[1])) < 0 ||
      (memfd = fcntl(w->mem.fd, F_DUPFD_CLOEXEC, 10)) < 0)
    goto fail_errno;
  int devnull = -1;
  if (stdout_fd < 0 || stderr_fd < 0) {
    devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    /* Lifted like the pipe ends: at 3..5 it would be clobbered by the dup2
     * of fds 3/4/5 below, and the worker's stderr would become the shm. */
    if (devnull < 0 || (devnull = lift_fd(devnull)) < 0)
      goto fail_errno;
  }
  /* Reported back by the child if exec fails, through a close-on-exec pipe:
   * EOF with no data means exec succeeded. */
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    if (devnull >= 0)
      close(devnull);
    goto fail_errno;
  }
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(report[0]);
    close(report[1]);
    if (devnull >= 0)
      close(devnull);
    goto fail_errno;
  }
  if (pid == 0) {
    /* Child: only async-signal-safe calls from here on. */
    int e;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127); /* the coordinator died before we got here */
    int o = stdout_fd >= 0 ? stdout_fd : devnull;
    int r = stderr_fd >= 0 ? stderr_fd : devnull;
    /* stdio first: a caller's stdout_fd/stderr_fd may be 3..5, and the
     * sources of 3/4/5 are all at 10 or above, so no dup2 undoes another. */
    if (dup2(o, 1) < 0 || dup2(r, 2) < 0 ||
        dup2(in[0], CGOFUZZ_FUZZ_IN_FD) < 0 ||
        dup2(out[1], CGOFUZZ_FUZZ_OUT_FD) < 0 ||
        dup2(memfd, CGOFUZZ_SHM_FD) < 0 || (dir && chdir(dir) != 0))
      goto child_fail;
    /* Start from default dispositions and an empty mask, whatever the
     * coordinator inherited (a shell's background job ignores SIGINT), so
     * that stopping with SIGINT works and crashes are real crashes. */
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* Only 0-5 reach the worker, even descriptors the coordinator itself
     * inherited without close-on-exec. The report pipe is close-on-exec. */
    if (close_range(6, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      for (int fd = 6; fd < 4096; fd++)
        if (fd != report[1])
          close(fd);
    }
    if (envp)
      execve(path, argv, envp);
    else
      execv(path, argv);
  child_fail:
    e = errno;
    (void)!write(report[1], &e, sizeof e);
    _exit(127);
  }
  close(report[1]);
  int child_errno = 0;
  ssize_t n;
  do {
    n = read(report[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  close(report[0]);
  if (devnull >= 0)
    close(devnull);
  close(in[0]);
  close(out[1]);
  close(memfd);
  if (n > 0) {
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
      ;
    close(in[1]);
    close(out[0]);
    return cgofuzz_errf(err, 0, "starting worker %s: %s", path,
                        strerror(child_errno));
  }
  w->pid = pid;
  w->in_w = in[1];
  w->out_r = out[0];
  w->rbuf.len = 0;
  w->rscan = 0;
  w->consumed = 0;
  w->exited = false;
  w->wait_status = 0;
  return 0;

fail_errno : {
  int e = errno;
  int fds[] = {in[0], in[1], out[0], out[1], memfd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  return cgofuzz_errf(err, 0, "starting worker %s: %s", path, strerror(e));
}
}

int cgofuzz_worker_send(cgofuzz_worker *w, const cgofuzz_buf *line,
                        cgofuzz_err *err) {
  if (w->in_w < 0)
    return cgofuzz_errf(err, 0, "worker is not running");
  const uint8_t *p = line->data;
  size_t left = line->len;
  while (left > 0) {
    /* SIGPIPE is ignored by the coordinator, so a dead reader gives EPIPE. */
    ssize_t k = write(w->in_w, p, left);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return cgofuzz_errf(err, 0, "sending call to worker %d: %s", w->pid,
                          strerror(errno));
    p += k;
    left -= (size_t)k;
  }
  return 0;
}

/* Returns the length of the first complete line in rbuf (with its '\n'),
 * or 0 if there is none yet. */
static size_t line_ready(cgofuzz_worker *w) {
  if (w->rscan == w->rbuf.len)
    return 0; /* nothing unscanned (rbuf.data may still be NULL) */
  uint8_t *nl = memchr(w->rbuf.data + w->rscan, '\n', w->rbuf.len - w->rscan);
  if (!nl) {
    w->rscan = w->rbuf.len;
    return 0;
  }
  return (size_t)(nl - w->rbuf.data) + 1;
}

/* Drops the line returned last time from the front of rbuf. */
static void drop_consumed(cgofuzz_worker *w) {
  size_t n = w->consumed;
  if (n == 0)
    return;
  memmove(w->rbuf.data, w->rbuf.data + n, w->rbuf.len - n);
  w->rbuf.len -= n;
  w->rscan = 0;
  w->consumed = 0;
}

/* Reads what one read() returns. 1: a complete line is buffered; 0: not
 * yet; -1: EOF or error. */
static int pump(cgofuzz_worker *w, size_t max_line, cgofuzz_err *err) {
  if (line_ready(w))
    return 1;
  if (w->out_r < 0)
    return cgofuzz_errf(err, 0, "worker is not running");
  for (;;) {
    if (cgofuzz_buf_reserve(&w->rbuf, 64 << 10) != 0)
      return cgofuzz_errf(err, 0, "out of memory reading from worker");
    ssize_t k =
        read(w->out_r, w->rbuf.data + w->rbuf.len, w->rbuf.cap - w->rbuf.len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0 && errno == EAGAIN)
      return 0;
    if (k < 0)
      return cgofuzz_errf(err, 0, "reading from worker %d: %s", w->pid,
                          strerror(errno));
    if (k == 0)
      return cgofuzz_errf(err, 0, "worker %d closed its pipe", w->pid);
    w->rbuf.len += (size_t)k;
    if (line_ready(w))
      return 1;
    if (w->rbuf.len > max_line)
      return cgofuzz_errf(err, 0,
                          "worker %d sent a message longer than %zu bytes",
                          w->pid, max_line);
    /* Read only what one read returned; the caller polls again. */
    return 0;
  }
}

int cgofuzz_worker_recv(cgofuzz_worker *w, int timeout_ms, size_t max_line,
                        const uint8_t **line, size_t *len, cgofuzz_err *err) {
  drop_consumed(w);
  int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
  for (;;) {
    size_t n = line_ready(w);
    if (n) {
      *line = w->rbuf.data;
      *len = n - 1;
      w->consumed = n;
      return 1;
    }
    if (w->out_r < 0)
      return cgofuzz_errf(err, 0, "worker is not running");
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - now_ms();
      wait = left > 0 ? (int)left : 0;
    }
    struct pollfd p = {.fd = w->out_r, .events = POLLIN};
    int r = poll(&p, 1, wait);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return cgofuzz_errf(err, 0, "poll: %s", strerror(errno));
    if (r == 0) {
      if (deadline >= 0 && now_ms() >= deadline)
        return 0;
      continue;
    }
    if (pump(w, max_line, err) < 0)
      return -1;
  }
}

int cgofuzz_worker_reap(cgofuzz_worker *w, int timeout_ms) {
  if (w->exited || w->pid == 0)
    return 1;
  int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
  for (;;) {
    int st;
    pid_t r = waitpid(w->pid, &st, WNOHANG);
    if (r == w->pid) {
      w->exited = true;
      w->wait_status = st;
      return 1;
    }
    if (r < 0 && errno != EINTR) {
      w->exited = true; /* not our child any more: nothing to wait for */
      w->wait_status = 0;
      return 1;
    }
    if (deadline >= 0 && now_ms() >= deadline)
      return 0;
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

int cgofuzz_worker_stop(cgofuzz_worker *w, int grace_ms) {
  if (w->pid == 0)
    return w->wait_status;
  if (w->in_w >= 0) {
    close(w->in_w); /* EOF on fd 3 asks the worker to exit */
    w->in_w = -1;
  }
  if (!cgofuzz_worker_reap(w, grace_ms)) {
    kill(w->pid, SIGINT);
    if (!cgofuzz_worker_reap(w, grace_ms)) {
      kill(w->pid, SIGKILL);
      cgofuzz_worker_reap(w, -1);
    }
  }
  if (w->out_r >= 0) {
    close(w->out_r);
    w->out_r = -1;
  }
  w->pid = 0;
  w->rbuf.len = 0;
  w->rscan = 0;
  w->consumed = 0;
  return w->wait_status;
}

void cgofuzz_worker_free(cgofuzz_worker *w) {
  cgofuzz_worker_stop(w, 1000);
  cgofuzz_buf_free(&w->rbuf);
  cgofuzz_shm_close(&w->mem);
}

static const char *signal_text(int sig) {
  /* The wording of Go's syscall.Signal.String on Linux. */
  switch (sig) {
  case SIGHUP:
    return "hangup";
  case SIGINT:
    return "interrupt";
  case SIGQUIT:
    return "quit";
  case SIGILL:
    return "illegal instruction";
  case SIGTRAP:
    return "trace/breakpoint trap";
  case SIGABRT:
    return "aborted";
  case SIGBUS:
    return "bus error";
  case SIGFPE:
    return "floating point exception";
  case SIGKILL:
    return "killed";
  case SIGUSR1:
    return "user defined signal 1";
  case SIGSEGV:
    return "segmentation fault";
  case SIGUSR2:
    return "user defined signal 2";
  case SIGPIPE:
    return "broken pipe";
  case SIGALRM:
    return "alarm clock";
  case SIGTERM:
    return "terminated";
  case SIGXCPU:
    return "CPU time limit exceeded";
  case SIGXFSZ:
    return "file size limit exceeded";
  case SIGSYS:
    return "bad system call";
  default:
    return NULL;
  }
}

void cgofuzz_wait_status_string(int status, char *out, size_t outlen) {
  if (WIFEXITED(status)) {
    snprintf(out, outlen, "exit status %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char *t = signal_text(sig);
    char num[32];
    if (!t) {
      snprintf(num, sizeof num, "signal %d", sig);
      t = num;
    }
    snprintf(out, outlen, "signal: %s%s", t,
             WCOREDUMP(status) ? " (core dumped)" : "");
  } else {
    snprintf(out, outlen, "unknown wait status 0x%x", (unsigned)status);
  }
}

bool cgofuzz_is_crash_signal(int sig) {
  switch (sig) {
  case SIGILL:
  case SIGTRAP:
  case SIGABRT:
  case SIGBUS:
  case SIGFPE:
  case SIGSEGV:
  case SIGPIPE:
    return true;
  default:
    return false;
  }
}
