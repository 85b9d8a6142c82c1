/*
 * coord_worker.c: starting, talking to and stopping one worker process.
 *
 * Descriptor hygiene is what makes death detection work: every descriptor
 * the coordinator keeps is close-on-exec, so a worker holds only its own
 * pipe ends, and EOF on fuzz_out means that this worker (and no sibling)
 * is gone. Starting the process (descriptors 3/4/5, exec errors) is
 * spawn.c's. A kept stderr is drained whenever we wait for the worker
 * (recv, reap), so a worker writing megabytes of it never blocks.
 */
#include "coord_worker.h"
#include "clock.h"
#include "os.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int cgofuzz_coord_worker_init(cgofuzz_coord_worker *w, size_t value_cap,
                              cgofuzz_err *err) {
  memset(w, 0, sizeof *w);
  w->in_w = w->out_r = w->err_r = w->err_tee = w->ctl_fd = -1;
  w->mem.fd = -1;
  return cgofuzz_shm_create(&w->mem, value_cap, err);
}

int cgofuzz_coord_worker_ctl_init(cgofuzz_coord_worker *w, size_t mask_len,
                                  cgofuzz_err *err) {
  int fd = cgofuzz_os_anon_file("cgofuzz-ctl");
  size_t size = cgofuzz_ctl_size(mask_len);
  void *p = MAP_FAILED;
  /* The copy maps all of it: the file must be as long (past its end a
   * read is SIGBUS). */
  if (fd >= 0 && ftruncate(fd, (off_t)size) == 0)
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return cgofuzz_errf(err, 0, "cannot make a worker's control page: %s",
                        strerror(e));
  }
  w->ctl_fd = fd;
  w->ctl = p;
  w->ctl_size = size;
  uint64_t magic = CGOFUZZ_CTL_MAGIC;
  memcpy(w->ctl + CGOFUZZ_CTL_MAGIC_AT, &magic, sizeof magic);
  return 0;
}

void cgofuzz_coord_worker_set_ctl(cgofuzz_coord_worker *w, uint8_t kind) {
  if (w->ctl)
    w->ctl[0] = kind;
}

void cgofuzz_coord_worker_set_ctl_mask(cgofuzz_coord_worker *w,
                                       const uint8_t *mask, size_t len) {
  if (w->ctl && len <= w->ctl_size - CGOFUZZ_CTL_SIZE)
    memcpy(w->ctl + CGOFUZZ_CTL_SIZE, mask, len);
}

int cgofuzz_coord_worker_start(cgofuzz_coord_worker *w, const char *path,
                               char *const argv[], char *const envp[],
                               const char *dir, int stdout_fd, int stderr_fd,
                               cgofuzz_err *err) {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, errp[2] = {-1, -1};
  if (w->pid != 0)
    return cgofuzz_errf(err, 0, "worker already running (pid %d)", w->pid);
  if (cgofuzz_os_pipe(in, 0) != 0 || cgofuzz_os_pipe(out, 0) != 0 ||
      (w->keep_stderr && cgofuzz_os_pipe(errp, 1) != 0)) {
    int e = errno;
    int *ps[] = {in, out, errp};
    for (size_t i = 0; i < 3; i++)
      if (ps[i][0] >= 0) {
        close(ps[i][0]);
        close(ps[i][1]);
      }
    return cgofuzz_errf(err, 0, "starting worker %s: %s", path, strerror(e));
  }
  if (w->keep_stderr) {
    /* The worker's end blocks as usual; only ours is non-blocking. */
    fcntl(errp[1], F_SETFL, fcntl(errp[1], F_GETFL) & ~O_NONBLOCK);
    if (w->err_r >= 0)
      close(w->err_r);
    w->err_tee = stderr_fd;
    stderr_fd = errp[1];
  }
  w->tail_len = 0;
  /* fds 3, 4, 5 as Go's worker expects them (and the control page on 6);
   * only these and 0-2 reach the worker
   * (close_others), and it dies with us (die_with_parent). */
  int from[] = {in[0], out[1], w->mem.fd, w->ctl_fd};
  int to[] = {CGOFUZZ_FUZZ_IN_FD, CGOFUZZ_FUZZ_OUT_FD, CGOFUZZ_SHM_FD,
              CGOFUZZ_CTL_FD};
  cgofuzz_spawn s = {.path = path,
                     .argv = argv,
                     .envp = envp,
                     .dir = dir,
                     .stdout_fd = stdout_fd,
                     .stderr_fd = stderr_fd,
                     .fd_from = from,
                     .fd_to = to,
                     .n_fds = w->ctl_fd >= 0 ? 4 : 3,
                     .die_with_parent = true,
                     .reset_signals = true,
                     .close_others = true};
  pid_t pid = cgofuzz_spawn_start(&s);
  int e = errno;
  close(in[0]);
  close(out[1]);
  if (errp[1] >= 0)
    close(errp[1]);
  w->err_r = errp[0];
  if (pid < 0) {
    close(in[1]);
    close(out[0]);
    if (w->err_r >= 0)
      close(w->err_r);
    w->err_r = -1;
    return cgofuzz_errf(err, 0, "starting worker %s: %s", path, strerror(e));
  }
  w->pid = pid;
  w->in_w = in[1];
  w->out_r = out[0];
  cgofuzz_lines_free(&w->in);
  w->exited = false;
  w->wait_status = 0;
  return 0;
}

int cgofuzz_coord_worker_drain_stderr(cgofuzz_coord_worker *w) {
  uint8_t chunk[16 << 10];
  if (w->err_r < 0)
    return 0;
  for (;;) {
    ssize_t k = read(w->err_r, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return 1;
    if (k <= 0) {
      close(w->err_r);
      w->err_r = -1;
      return 0;
    }
    if (w->err_tee >= 0) {
      /* Best effort: a front end's stderr that fails loses only a copy. */
      for (ssize_t off = 0; off < k;) {
        ssize_t m = write(w->err_tee, chunk + off, (size_t)(k - off));
        if (m < 0 && errno == EINTR)
          continue;
        if (m <= 0)
          break;
        off += m;
      }
    }
    if (!w->tail && !(w->tail = malloc(CGOFUZZ_COORD_WORKER_TAIL)))
      continue; /* out of memory: drained, not kept */
    size_t n = (size_t)k;
    const uint8_t *p = chunk;
    if (n >= CGOFUZZ_COORD_WORKER_TAIL) {
      p += n - CGOFUZZ_COORD_WORKER_TAIL;
      n = CGOFUZZ_COORD_WORKER_TAIL;
      w->tail_len = 0;
    } else if (w->tail_len + n > CGOFUZZ_COORD_WORKER_TAIL) {
      size_t drop = w->tail_len + n - CGOFUZZ_COORD_WORKER_TAIL;
      memmove(w->tail, w->tail + drop, w->tail_len - drop);
      w->tail_len -= drop;
    }
    memcpy(w->tail + w->tail_len, p, n);
    w->tail_len += n;
  }
}

int cgofuzz_coord_worker_send(cgofuzz_coord_worker *w, const cgofuzz_buf *line,
                              cgofuzz_err *err) {
  if (w->in_w < 0)
    return cgofuzz_errf(err, 0, "worker is not running");
  /* Callers encode into line and send it unchecked: an encoder out of
   * memory leaves no message, which must not be a silent wait. */
  if (line->len == 0 || line->data[line->len - 1] != '\n')
    return cgofuzz_errf(err, 0,
                        "out of memory: no call could be made for worker %d",
                        (int)w->pid);
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

/* Reads what one read() returns. 1: a complete line is buffered; 0: not
 * yet; -1: EOF or error; -3: no memory to read into (ours, not the
 * worker's fault). */
static int pump(cgofuzz_coord_worker *w, size_t max_line, cgofuzz_err *err) {
  if (w->out_r < 0)
    return cgofuzz_errf(err, 0, "worker is not running");
  long k = cgofuzz_lines_fill(&w->in, w->out_r, 64 << 10);
  if (k < 0 && errno == EAGAIN)
    return 0;
  if (k < 0 && errno == ENOMEM) {
    cgofuzz_errf(err, 0, "out of memory reading from worker %d", w->pid);
    return -3;
  }
  if (k < 0)
    return cgofuzz_errf(err, 0, "reading from worker %d: %s", w->pid,
                        strerror(errno));
  if (k == 0)
    return cgofuzz_errf(err, 0, "worker %d closed its pipe", w->pid);
  /* scanned - consumed: the part of a partial line known to hold no '\n'
   * (as of the caller's last look for a line). */
  if (w->in.scanned > w->in.consumed &&
      w->in.scanned - w->in.consumed > max_line)
    return cgofuzz_errf(err, 0,
                        "worker %d sent a message longer than %zu bytes",
                        w->pid, max_line);
  return 0; /* the caller looks for a line, then polls again */
}

int cgofuzz_coord_worker_recv(cgofuzz_coord_worker *w, int timeout_ms,
                              size_t max_line, const uint8_t **line,
                              size_t *len, cgofuzz_err *err) {
  int64_t deadline = timeout_ms < 0 ? -1 : cgofuzz_mono_ms() + timeout_ms;
  for (;;) {
    if (cgofuzz_lines_next(&w->in, line, len))
      return 1;
    if (w->out_r < 0)
      return cgofuzz_errf(err, 0, "worker is not running");
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - cgofuzz_mono_ms();
      wait = left > 0 ? (int)left : 0;
    }
    struct pollfd p[2] = {{.fd = w->out_r, .events = POLLIN},
                          {.fd = w->err_r, .events = POLLIN}};
    int r = poll(p, w->err_r >= 0 ? 2 : 1, wait);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return cgofuzz_errf(err, 0, "poll: %s", strerror(errno));
    if (r == 0) {
      if (deadline >= 0 && cgofuzz_mono_ms() >= deadline)
        return 0;
      continue;
    }
    if (w->err_r >= 0 && p[1].revents)
      cgofuzz_coord_worker_drain_stderr(w);
    int k = p[0].revents ? pump(w, max_line, err) : 0;
    if (k < 0)
      return k == -3 ? -3 : -1;
  }
}

int cgofuzz_coord_worker_reap(cgofuzz_coord_worker *w, int timeout_ms) {
  if (w->exited || w->pid == 0)
    return 1;
  int64_t deadline = timeout_ms < 0 ? -1 : cgofuzz_mono_ms() + timeout_ms;
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
    if (deadline >= 0 && cgofuzz_mono_ms() >= deadline)
      return 0;
    /* A dying worker may still be writing its report: keep draining. */
    if (w->err_r >= 0) {
      struct pollfd p = {.fd = w->err_r, .events = POLLIN};
      if (poll(&p, 1, 2) > 0)
        cgofuzz_coord_worker_drain_stderr(w);
      continue;
    }
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

int cgofuzz_coord_worker_stop(cgofuzz_coord_worker *w, int grace_ms) {
  if (w->pid == 0)
    return w->wait_status;
  if (w->in_w >= 0) {
    close(w->in_w); /* EOF on fd 3 asks the worker to exit */
    w->in_w = -1;
  }
  if (!cgofuzz_coord_worker_reap(w, grace_ms)) {
    kill(w->pid, SIGINT);
    if (!cgofuzz_coord_worker_reap(w, grace_ms)) {
      kill(w->pid, SIGKILL);
      cgofuzz_coord_worker_reap(w, -1);
    }
  }
  if (w->out_r >= 0) {
    close(w->out_r);
    w->out_r = -1;
  }
  /* What it wrote before it ended is kept; a descendant that still holds
   * the pipe's other end does not keep us waiting. */
  cgofuzz_coord_worker_drain_stderr(w);
  if (w->err_r >= 0) {
    close(w->err_r);
    w->err_r = -1;
  }
  w->pid = 0;
  cgofuzz_lines_free(&w->in);
  return w->wait_status;
}

void cgofuzz_coord_worker_free(cgofuzz_coord_worker *w) {
  cgofuzz_coord_worker_stop(w, 1000);
  cgofuzz_lines_free(&w->in);
  free(w->tail);
  w->tail = NULL;
  w->tail_len = 0;
  cgofuzz_shm_close(&w->mem);
  if (w->ctl)
    munmap(w->ctl, w->ctl_size);
  if (w->ctl_fd >= 0)
    close(w->ctl_fd);
  w->ctl = NULL;
  w->ctl_fd = -1;
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

void cgofuzz_coord_wait_status_string(int status, char *out, size_t outlen) {
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

bool cgofuzz_coord_is_crash_signal(int sig) {
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
