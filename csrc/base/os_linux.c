/*
 * os_linux.c: os.h on Linux: /proc, prctl, close_range, memfd, on_exit.
 */
#ifdef __linux__
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "os.h"

int cgofuzz_os_self_exe(char *buf, size_t size) {
  if (size < 2) {
    errno = ENAMETOOLONG;
    return -1;
  }
  ssize_t k = readlink("/proc/self/exe", buf, size - 1);
  if (k <= 0)
    return -1;
  if ((size_t)k == size - 1) {
    errno = ENAMETOOLONG; /* perhaps cut short */
    return -1;
  }
  buf[k] = '\0';
  return 0;
}

/* statm's second field, resident pages, from an open descriptor: plain
 * syscalls only, as the target may hold malloc's locks. */
static int64_t statm_rss(int fd) {
  char buf[128];
  ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
  if (k <= 0)
    return -1;
  buf[k] = 0;
  const char *p = strchr(buf, ' ');
  return p ? strtoll(p + 1, NULL, 10) * (int64_t)sysconf(_SC_PAGESIZE) : -1;
}

int64_t cgofuzz_os_rss_bytes(pid_t pid) {
  if (pid == 0) {
    static int self = -1; /* kept open: the watchdog reads it often */
    if (self < 0 && (self = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)) < 0)
      return -1;
    return statm_rss(self);
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int64_t r = statm_rss(fd);
  close(fd);
  return r;
}

int64_t cgofuzz_os_run_delay_ms(pid_t pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *d = opendir(path);
  if (!d)
    return -1;
  long long total = 0, runtime, delay;
  bool any = false;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9')
      continue;
    char stat[96];
    snprintf(stat, sizeof stat, "/proc/%d/task/%.16s/schedstat", (int)pid,
             e->d_name);
    FILE *f = fopen(stat, "re");
    if (!f)
      continue; /* the thread ended meanwhile */
    if (fscanf(f, "%lld %lld", &runtime, &delay) == 2 && delay >= 0) {
      total += delay;
      any = true;
    }
    fclose(f);
  }
  closedir(d);
  return any ? total / 1000000 : -1;
}

int64_t cgofuzz_os_oom_kills(void) {
  /* A memory cgroup's kills raise oom_kill too. */
  FILE *f = fopen("/proc/vmstat", "re");
  if (!f)
    return -1;
  char line[128];
  long long v = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "oom_kill %lld", &v) == 1)
      break;
  fclose(f);
  return v;
}

const char *cgofuzz_os_oom_kills_source(void) {
  return "oom_kill in /proc/vmstat";
}

int cgofuzz_os_die_with_parent(int sig) {
  return prctl(PR_SET_PDEATHSIG, sig) == 0 ? 0 : -1;
}

int cgofuzz_os_cloexec_from(int lowfd) {
  /* close_range is Linux 5.11's (older kernels say ENOSYS), and glibc's
   * wrapper 2.34's: the system call itself, so that a build against an
   * older glibc (zig's for aarch64-linux-gnu) links. */
#ifdef SYS_close_range
  return syscall(SYS_close_range, (unsigned)lowfd, ~0U, CLOSE_RANGE_CLOEXEC) ==
                 0
             ? 0
             : -1;
#else
  (void)lowfd;
  errno = ENOSYS;
  return -1;
#endif
}

int cgofuzz_os_pipe(int fds[2], int nonblock) {
  return pipe2(fds, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
}

int cgofuzz_os_anon_file(const char *name) {
  return memfd_create(name, MFD_CLOEXEC);
}

int cgofuzz_os_unnamed_file(const char *dir, unsigned mode) {
  return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)(mode & 0777));
}

/* By the descriptor's /proc path: linkat's AT_EMPTY_PATH on the
 * descriptor itself needs CAP_DAC_READ_SEARCH. */
int cgofuzz_os_link_unnamed(int fd, const char *path) {
  char self[64];
  if (cgofuzz_os_fd_path(0, fd, self, sizeof self) != 0)
    return -1;
  return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

int cgofuzz_os_fd_path(pid_t pid, int fd, char *buf, size_t size) {
  int n = pid ? snprintf(buf, size, "/proc/%d/fd/%d", (int)pid, fd)
              : snprintf(buf, size, "/proc/self/fd/%d", fd);
  if (n < 0 || (size_t)n >= size) {
    errno = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

#ifdef __GLIBC__
int cgofuzz_os_on_exit(void (*fn)(int status, void *arg), void *arg) {
  return on_exit(fn, arg) == 0 ? 0 : -1;
}
#else
/* musl has no on_exit: atexit, without the status, as on Darwin. */
int cgofuzz_os_on_exit(void (*fn)(int status, void *arg), void *arg) {
  return cgofuzz_os_on_exit_no_status_(fn, arg);
}
#endif

/* key_of[fd] is the key fd is watched under, plus 1 (0: not watched), so
 * that unwatch can leave a reused number alone. */
struct cgofuzz_os_waitset {
  int epfd;
  uint64_t *key_of;
  size_t cap;
};

cgofuzz_os_waitset *cgofuzz_os_waitset_new(void) {
  cgofuzz_os_waitset *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->epfd = epoll_create1(EPOLL_CLOEXEC);
  if (ws->epfd < 0) {
    free(ws);
    return NULL;
  }
  return ws;
}

int cgofuzz_os_waitset_watch(cgofuzz_os_waitset *ws, int fd, uint64_t key) {
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  if ((size_t)fd >= ws->cap) {
    size_t cap = ws->cap ? ws->cap : 64;
    while (cap <= (size_t)fd)
      cap *= 2;
    uint64_t *k = realloc(ws->key_of, cap * sizeof *k);
    if (!k)
      return -1;
    memset(k + ws->cap, 0, (cap - ws->cap) * sizeof *k);
    ws->key_of = k;
    ws->cap = cap;
  }
  struct epoll_event ev = {.events = EPOLLIN, .data.u64 = key};
  /* EEXIST: the same pipe under another key (or a close the kernel has
   * not seen yet: a forked child still holds it). */
  if (epoll_ctl(ws->epfd, EPOLL_CTL_ADD, fd, &ev) != 0 &&
      (errno != EEXIST || epoll_ctl(ws->epfd, EPOLL_CTL_MOD, fd, &ev) != 0))
    return -1;
  ws->key_of[fd] = key + 1;
  return 0;
}

void cgofuzz_os_waitset_unwatch(cgofuzz_os_waitset *ws, int fd, uint64_t key) {
  if (fd < 0 || (size_t)fd >= ws->cap || ws->key_of[fd] != key + 1)
    return;
  ws->key_of[fd] = 0;
  struct epoll_event ev = {0};
  epoll_ctl(ws->epfd, EPOLL_CTL_DEL, fd, &ev); /* closed: already gone */
}

int cgofuzz_os_waitset_wait(cgofuzz_os_waitset *ws, uint64_t *keys, int max,
                            int timeout_ms) {
  struct epoll_event ev[64];
  if (max > (int)(sizeof ev / sizeof ev[0]))
    max = (int)(sizeof ev / sizeof ev[0]);
  int n = epoll_wait(ws->epfd, ev, max, timeout_ms);
  for (int i = 0; i < n; i++)
    keys[i] = ev[i].data.u64;
  return n;
}

void cgofuzz_os_waitset_free(cgofuzz_os_waitset *ws) {
  if (!ws)
    return;
  close(ws->epfd);
  free(ws->key_of);
  free(ws);
}

#else
typedef int cgofuzz_os_linux_empty_; /* ISO C: no empty file */
#endif
