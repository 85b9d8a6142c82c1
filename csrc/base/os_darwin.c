/*
 * os_darwin.c: os.h on macOS, with documented Darwin interfaces only
 * (_NSGetExecutablePath, proc_pidinfo, atexit). Built by CI's
 * cross-compilation for aarch64-macos and x86_64-macos; not run there.
 */
#ifdef __APPLE__
#include <errno.h>
#include <fcntl.h>
#include <libproc.h>
#include <limits.h>
#include <mach-o/dyld.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/proc_info.h>
#include <unistd.h>

#include "os.h"
#include "scratch.h"

int cgofuzz_os_self_exe(char *buf, size_t size) {
  char raw[PATH_MAX];
  uint32_t n = sizeof raw;
  if (_NSGetExecutablePath(raw, &n) != 0) {
    errno = ENAMETOOLONG;
    return -1;
  }
  char real[PATH_MAX];
  const char *p = realpath(raw, real) ? real : raw;
  if (strlen(p) >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, p, strlen(p) + 1);
  return 0;
}

int64_t cgofuzz_os_rss_bytes(pid_t pid) {
  struct proc_taskinfo ti;
  int n = proc_pidinfo(pid ? pid : getpid(), PROC_PIDTASKINFO, 0, &ti,
                       (int)sizeof ti);
  return n == (int)sizeof ti ? (int64_t)ti.pti_resident_size : -1;
}

int64_t cgofuzz_os_run_delay_ms(pid_t pid) {
  (void)pid;
  return -1;
}

int64_t cgofuzz_os_oom_kills(void) { return -1; }

const char *cgofuzz_os_oom_kills_source(void) { return NULL; }

int cgofuzz_os_die_with_parent(int sig) {
  (void)sig;
  return -1;
}

int cgofuzz_os_cloexec_from(int lowfd) {
  (void)lowfd;
  return -1;
}

/* No pipe2: a fork between pipe and fcntl may leak the ends into that
 * child (only until its exec, which closes what is close-on-exec). */
int cgofuzz_os_pipe(int fds[2], int nonblock) {
  if (pipe(fds) != 0)
    return -1;
  for (int i = 0; i < 2; i++)
    if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
        (nonblock &&
         fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0)) {
      int e = errno;
      close(fds[0]);
      close(fds[1]);
      errno = e;
      return -1;
    }
  return 0;
}

int cgofuzz_os_unnamed_file(const char *dir, unsigned mode) {
  (void)dir, (void)mode;
  errno = ENOTSUP;
  return -1;
}

int cgofuzz_os_link_unnamed(int fd, const char *path) {
  (void)fd, (void)path;
  errno = ENOTSUP;
  return -1;
}

int cgofuzz_os_anon_file(const char *name) {
  (void)name;
  char path[PATH_MAX];
  int n =
      snprintf(path, sizeof path, "%s/cgofuzz-anon-XXXXXX", cgofuzz_tmpdir());
  if (n < 0 || (size_t)n >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  unlink(path);
  if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

int cgofuzz_os_fd_path(pid_t pid, int fd, char *buf, size_t size) {
  if (pid && pid != getpid()) {
    errno = ENOSYS;
    return -1;
  }
  int n = snprintf(buf, size, "/dev/fd/%d", fd);
  if (n < 0 || (size_t)n >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

/* atexit passes no status (os_atexit.c). */
int cgofuzz_os_on_exit(void (*fn)(int status, void *arg), void *arg) {
  return cgofuzz_os_on_exit_no_status_(fn, arg);
}

/* poll(2) over the fds watched, their keys beside them. */
struct cgofuzz_os_waitset {
  struct pollfd *fds;
  uint64_t *keys;
  size_t n, cap;
};

cgofuzz_os_waitset *cgofuzz_os_waitset_new(void) {
  return calloc(1, sizeof(cgofuzz_os_waitset));
}

int cgofuzz_os_waitset_watch(cgofuzz_os_waitset *ws, int fd, uint64_t key) {
  for (size_t i = 0; i < ws->n; i++)
    if (ws->fds[i].fd == fd) {
      ws->keys[i] = key;
      return 0;
    }
  if (ws->n == ws->cap) {
    size_t cap = ws->cap ? 2 * ws->cap : 16;
    struct pollfd *f = realloc(ws->fds, cap * sizeof *f);
    if (!f)
      return -1;
    ws->fds = f;
    uint64_t *k = realloc(ws->keys, cap * sizeof *k);
    if (!k)
      return -1;
    ws->keys = k;
    ws->cap = cap;
  }
  ws->fds[ws->n] = (struct pollfd){.fd = fd, .events = POLLIN};
  ws->keys[ws->n++] = key;
  return 0;
}

void cgofuzz_os_waitset_unwatch(cgofuzz_os_waitset *ws, int fd, uint64_t key) {
  for (size_t i = 0; i < ws->n; i++)
    if (ws->fds[i].fd == fd && ws->keys[i] == key) {
      ws->fds[i] = ws->fds[--ws->n];
      ws->keys[i] = ws->keys[ws->n];
      return;
    }
}

int cgofuzz_os_waitset_wait(cgofuzz_os_waitset *ws, uint64_t *keys, int max,
                            int timeout_ms) {
  int r = poll(ws->fds, (nfds_t)ws->n, timeout_ms);
  int n = 0;
  for (size_t i = 0; r > 0 && i < ws->n && n < max; i++)
    if (ws->fds[i].revents)
      keys[n++] = ws->keys[i];
  return r < 0 ? -1 : n;
}

void cgofuzz_os_waitset_free(cgofuzz_os_waitset *ws) {
  if (!ws)
    return;
  free(ws->fds);
  free(ws->keys);
  free(ws);
}

#else
typedef int cgofuzz_os_darwin_empty_; /* ISO C: no empty file */
#endif
