/*
 * lf_jobs.c: libFuzzer's -jobs=N: N whole fuzzing runs of this binary,
 * each a process of its own, at most -workers of them at a time (default
 * min(N, cores / 2)).
 *
 * As libFuzzer runs them: every job gets this command line without its
 * -jobs= and -workers= flags, its stdout and stderr in fuzz-<i>.log in the
 * working directory; the command is printed as a job starts ("CMD
 * >fuzz-<i>.log 2>&1"), and when a job ends, a banner with its exit code
 * and then its log are copied to stderr. The jobs share their corpus
 * directories (each writes its finds there; a job that starts later reads
 * what the earlier ones found). The exit status is 1 if any job failed,
 * else 0. A -fork run is different: one coordinator whose workers share
 * one corpus in memory (lf_fuzz.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file.h"
#include "lf_internal.h"
#include "os.h"
#include "spawn.h"

/* Copies the file at path to stderr. */
static void copy_to_stderr(const char *path) {
  cgofuzz_buf b = {0};
  if (cgofuzz_file_read(path, &b) != 0)
    fprintf(stderr, "ERROR: cannot read %s: %s\n", path, strerror(errno));
  else
    fwrite(b.data, 1, b.len, stderr);
  cgofuzz_buf_free(&b);
}

static bool is_jobs_flag(const char *a) {
  return strncmp(a, "-jobs=", 6) == 0 || strncmp(a, "-workers=", 9) == 0;
}

int cgofuzz_lf_jobs(int argc, char **argv, const lf_opts *o) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int64_t workers = o->workers;
  if (workers <= 0) {
    workers = (cores > 1 ? cores : 1) / 2;
    workers = workers < o->jobs ? workers : o->jobs;
    if (workers < 1)
      workers = 1;
    if (workers > 1)
      fprintf(stderr, "Running %lld workers\n", (long long)workers);
  }
  char self[PATH_MAX];
  if (cgofuzz_os_self_exe(self, sizeof self) != 0) {
    fprintf(stderr, "ERROR: cannot find our own executable: %s\n",
            strerror(errno));
    return LF_EXIT_USAGE;
  }
  char **av = calloc((size_t)argc + 1, sizeof *av);
  pid_t *pids = calloc((size_t)workers, sizeof *pids);
  int64_t *ids = calloc((size_t)workers, sizeof *ids);
  if (!av || !pids || !ids) {
    fprintf(stderr, "ERROR: out of memory\n");
    free(av);
    free(pids);
    free(ids);
    return LF_EXIT_USAGE;
  }
  size_t n = 0;
  for (int i = 0; i < argc; i++)
    if (i == 0 || !is_jobs_flag(argv[i]))
      av[n++] = argv[i];
  av[n] = NULL;
  bool failed = false;
  int64_t next = 0, running = 0;
  while (next < o->jobs || running > 0) {
    /* Start jobs while a worker is free. */
    for (int64_t w = 0; w < workers && next < o->jobs; w++) {
      if (pids[w] > 0)
        continue;
      char log[64];
      snprintf(log, sizeof log, "fuzz-%lld.log", (long long)next);
      for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i ? " " : "", av[i]);
      fprintf(stderr, " >%s 2>&1\n", log);
      fflush(stderr);
      int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) {
        fprintf(stderr, "ERROR: cannot write %s: %s\n", log, strerror(errno));
        failed = true;
        next = o->jobs; /* no job can write its log: stop starting them */
        break;
      }
      cgofuzz_spawn sp = {.path = self,
                          .argv = av,
                          .stdout_fd = fd,
                          .stderr_fd = fd,
                          .die_with_parent = true};
      pid_t pid = cgofuzz_spawn_start(&sp);
      int e = errno;
      close(fd);
      if (pid < 0) {
        fprintf(stderr, "ERROR: starting job %lld: %s\n", (long long)next,
                strerror(e));
        failed = true;
        next = o->jobs;
        break;
      }
      pids[w] = pid;
      ids[w] = next++;
      running++;
    }
    if (running == 0)
      break;
    int st;
    pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int64_t w = 0; w < workers; w++) {
      if (pids[w] != pid)
        continue;
      int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      failed = failed || code != 0;
      fprintf(stderr,
              "================== Job %lld exited with exit code %d "
              "============\n",
              (long long)ids[w], code);
      char log[64];
      snprintf(log, sizeof log, "fuzz-%lld.log", (long long)ids[w]);
      copy_to_stderr(log);
      fflush(stderr);
      pids[w] = 0;
      running--;
    }
  }
  free(av);
  free(pids);
  free(ids);
  return failed ? 1 : 0;
}
