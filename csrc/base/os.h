/*
 * os.h: what differs between the operating systems cgofuzz runs on, in
 * one place (issue 25). The rest of the code makes no Linux- or
 * Darwin-only call; tools/check_layers.py fails the build if one appears
 * outside os_linux.c and os_darwin.c (each compiles to nothing elsewhere,
 * so both can be in every build's source list: package gofuzz compiles
 * the runtime's sources with cgo on whatever Go runs on).
 *
 * Every function is safe to call from a forked child before exec and from
 * the C worker's watchdog thread (no malloc, no stdio), unless it says
 * otherwise.
 */
#ifndef CGOFUZZ_BASE_OS_H
#define CGOFUZZ_BASE_OS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The path of the running executable into buf (NUL-terminated). 0, or -1
 * with errno set (ENAMETOOLONG when it does not fit). */
int cgofuzz_os_self_exe(char *buf, size_t size);

/* The resident set of process pid (0: this one) in bytes, or -1 when it
 * cannot be read. */
int64_t cgofuzz_os_rss_bytes(pid_t pid);

/* How long, in ms, the threads of process pid have waited, runnable, for
 * a CPU since they started (the sum over its threads; Linux: run_delay in
 * /proc/pid/task/TID/schedstat), or -1 when the system does not say. */
int64_t cgofuzz_os_run_delay_ms(pid_t pid);

/* How many processes the kernel's OOM killer has killed since boot, or -1
 * when the system does not say (Darwin). */
int64_t cgofuzz_os_oom_kills(void);

/* Where cgofuzz_os_oom_kills is read, for messages ("oom_kill in
 * /proc/vmstat"), or NULL. */
const char *cgofuzz_os_oom_kills_source(void);

/* In a child between fork and exec: have it get sig when the parent
 * exits. 0, or -1 where the system cannot (Darwin: a worker outlives a
 * coordinator that was SIGKILLed; it exits when its pipes close). */
int cgofuzz_os_die_with_parent(int sig);

/* Marks every descriptor from lowfd up close-on-exec. 0, or -1 when the
 * system cannot do it in one call (the caller then closes them). */
int cgofuzz_os_cloexec_from(int lowfd);

/* pipe(2) with both ends close-on-exec, and non-blocking with nonblock,
 * set atomically where the system can (Linux's pipe2). 0, or -1 with
 * errno set. */
int cgofuzz_os_pipe(int fds[2], int nonblock);

/* A new anonymous file, close-on-exec (Linux: a memfd; Darwin: a
 * temporary file unlinked at once), named name where names are shown.
 * Its descriptor, or -1 with errno set. Not for a forked child. */
int cgofuzz_os_anon_file(const char *name);

/* An unnamed regular file in directory dir, open for writing,
 * close-on-exec, with mode less the umask (Linux: O_TMPFILE): nothing
 * shows in dir until cgofuzz_os_link_unnamed names it, and it is gone
 * when closed unnamed. -1 with errno set, also where the system or dir's
 * file system makes none (Darwin: ENOTSUP; Linux: EOPNOTSUPP, EISDIR). */
int cgofuzz_os_unnamed_file(const char *dir, unsigned mode);

/* Gives fd, from cgofuzz_os_unnamed_file, the name path, which must not
 * exist: an existing file is never replaced (EEXIST). 0, or -1 with
 * errno set. */
int cgofuzz_os_link_unnamed(int fd, const char *path);

/* A path by which another process can open or exec descriptor fd of
 * process pid (0: this one) into buf. 0, or -1 (ENOSYS on Darwin for
 * another process; ENAMETOOLONG). */
int cgofuzz_os_fd_path(pid_t pid, int fd, char *buf, size_t size);

/* A set of file descriptors watched for input (data, end of file or an
 * error), each with a key the caller chooses: epoll on Linux, so a wait
 * costs what is ready, not what is watched (a coordinator of 256 workers
 * watches 512 pipes: poll(2) of them all cost 13.5 us a turn,
 * bench/results/coord/2026-11-28-coord_scale.md); poll(2) on Darwin. These
 * allocate: not for forked children. */
typedef struct cgofuzz_os_waitset cgofuzz_os_waitset;

/* A new empty set, or NULL with errno set. */
cgofuzz_os_waitset *cgofuzz_os_waitset_new(void);

/* Watches fd under key (an fd already watched gets the new key). The
 * kernel forgets an fd when it is closed, and its number may come back
 * for another pipe: callers put something that changes with the pipe in
 * the key (a worker's pid), and ignore keys they no longer expect. 0, or
 * -1 with errno set. */
int cgofuzz_os_waitset_watch(cgofuzz_os_waitset *ws, int fd, uint64_t key);

/* Stops watching fd if it is watched under key (so a number closed and
 * reused under another key stays watched). */
void cgofuzz_os_waitset_unwatch(cgofuzz_os_waitset *ws, int fd, uint64_t key);

/* Waits up to timeout_ms (-1: no limit) for watched fds to be readable;
 * the keys of up to max of them into keys. Their count (0: time-out), or
 * -1 with errno set (EINTR when a signal came). */
int cgofuzz_os_waitset_wait(cgofuzz_os_waitset *ws, uint64_t *keys, int max,
                            int timeout_ms);

void cgofuzz_os_waitset_free(cgofuzz_os_waitset *ws);

/* Has fn(status, arg) called when the process exits through exit(3) (not
 * _exit). status is exit's argument, or -1 where the system does not
 * pass it (Darwin's atexit). 0, or -1. */
int cgofuzz_os_on_exit(void (*fn)(int status, void *arg), void *arg);
/* The same through atexit, status -1 (os_atexit.c): for os_*.c where the
 * system passes no status. */
int cgofuzz_os_on_exit_no_status_(void (*fn)(int status, void *arg), void *arg);

#ifdef __cplusplus
}
#endif
#endif
