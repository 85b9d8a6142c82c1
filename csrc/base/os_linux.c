/*
 * os_linux.c: os.h on Linux: /proc, prctl, close_range, memfd, on_exit.
 */
#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#else
typedef int cgofuzz_os_linux_empty_; /* ISO C: no empty file */
#endif
