/*
 * gobin_discover.c: learning about a Go test binary from the outside.
 *
 * A test binary does not export its fuzz targets' argument types, but its
 * own coordinator sends them: the first fuzz call of a warm-up carries an
 * encoded corpus file with one typed literal per argument. So discovery
 * runs the binary as a coordinator, in our directory (a target may read
 * files before f.Fuzz) but with an empty private cache, with argv[0] set
 * to this program. Go starts its workers as
 * os.Args[0] -test.fuzzworker ..., so the workers are us, in fake-worker
 * mode (selected by CGOFUZZ_DISCOVER_OUT in the environment, which Go
 * passes on unchanged). The fake worker records each input it is sent:
 * warm-up inputs are the f.Add seeds in order, then the testdata files
 * (which coord_discover.c drops again); a first non-warm-up call
 * without any warm-up means there were no seeds and carries zero values.
 * It reports every call as complete without running anything, so the
 * -test.fuzztime=Nx budget runs out at once and the binary exits PASS.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "dir.h"
#include "file.h"
#include "gobin.h"
#include "gobin_discover.h"
#include "gover.h"
#include "lines.h"
#include "scratch.h"
#include "shm.h"
#include "spawn.h"
#include "wire.h"

#define DISCOVER_TIMEOUT_MS 120000

extern char **environ;

/* Runs path with argv, stdout into *out (if out) or to out_fd, stderr to
 * err_fd (-1: /dev/null), in dir (NULL: ours), with add_env ("NAME=VALUE")
 * added to the environment. Returns the wait status, or -1 on failure or
 * time-out. */
static int run_child(const char *path, char *const argv[], const char *dir,
                     const char *add_env, cgofuzz_buf *out, int out_fd,
                     int err_fd, int timeout_ms) {
  /* The child dies with us: SIGINT, which a Go test binary answers by
   * stopping its fuzzing and removing its shared-memory file. */
  cgofuzz_spawn s = {.path = path,
                     .argv = argv,
                     .dir = dir,
                     .add_env = add_env,
                     .stdout_fd = out_fd,
                     .stderr_fd = err_fd,
                     .die_with_parent = true,
                     .death_signal = SIGINT,
                     .tmpdir = cgofuzz_scratch_dir()};
  if (out)
    return cgofuzz_spawn_run(&s, out, false, timeout_ms);
  pid_t pid = cgofuzz_spawn_start(&s);
  return pid < 0 ? -1 : cgofuzz_spawn_wait(pid, timeout_ms, NULL);
}

int cgofuzz_gobin_cmd_line(char *const argv[], char **out) {
  /* execv needs a path: look argv[0] up in PATH ourselves. */
  const char *pathenv = getenv("PATH");
  if (!pathenv)
    pathenv = "/usr/local/bin:/usr/bin:/bin";
  cgofuzz_buf full = {0}, res = {0};
  int rc = -1;
  const char *p = pathenv;
  while (*p) {
    const char *e = strchr(p, ':');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    full.len = 0;
    cgofuzz_buf_printf(&full, "%.*s/%s", (int)l, p, argv[0]);
    if (access(cgofuzz_buf_cstr(&full), X_OK) == 0)
      break;
    full.len = 0;
    p += l + (e ? 1 : 0);
  }
  if (full.len == 0)
    goto done;
  int st =
      run_child(cgofuzz_buf_cstr(&full), argv, NULL, NULL, &res, -1, -1, 60000);
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || res.len == 0)
    goto done;
  size_t n = 0;
  while (n < res.len && res.data[n] != '\n' && res.data[n] != '\r')
    n++;
  if (n == 0 || !(*out = malloc(n + 1)))
    goto done;
  memcpy(*out, res.data, n);
  (*out)[n] = '\0';
  rc = 0;
done:
  cgofuzz_buf_free(&full);
  cgofuzz_buf_free(&res);
  return rc;
}

bool cgofuzz_gobin_target_name_ok(const char *s) {
  if (!*s)
    return false;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if (*p < 0x80 && !(*p == '_' || (*p >= '0' && *p <= '9') ||
                       (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
      return false;
  return true;
}

int cgofuzz_gobin_list_targets(const char *binary, const char *re,
                               char ***names, size_t *n, cgofuzz_err *err) {
  regex_t rx;
  int rerr = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
  if (rerr == REG_ESPACE)
    return cgofuzz_errf(err, 0, "out of memory compiling -fuzz's regexp");
  if (rerr != 0)
    return cgofuzz_errf(err, 0, "invalid regexp for -fuzz: %s", re);
  char *argv[] = {(char *)binary, "-test.list=.*", NULL};
  cgofuzz_buf out = {0};
  errno = 0;
  int st = run_child(binary, argv, NULL, NULL, &out, -1, 2, 60000);
  *names = NULL;
  *n = 0;
  int rc = 0;
  if (st < 0 && errno == ENOMEM) {
    rc = cgofuzz_errf(err, 0, "%s -test.list: out of memory reading its list",
                      binary);
    goto done;
  }
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    rc = cgofuzz_errf(err, 0, "%s -test.list failed", binary);
    goto done;
  }
  size_t cap = 0;
  if (cgofuzz_buf_putc(&out, '\0') != 0) {
    rc = cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  for (char *line = cgofuzz_buf_cstr(&out); *line;) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    int m = strncmp(line, "Fuzz", 4) == 0 ? regexec(&rx, line, 0, NULL, 0)
                                          : REG_NOMATCH;
    /* glibc's regexec says "no match" when it runs out of memory: a
     * second look, and a test of memory, before a target is left out. */
    if (m == REG_NOMATCH && strncmp(line, "Fuzz", 4) == 0) {
      m = regexec(&rx, line, 0, NULL, 0);
      void *probe = m == REG_NOMATCH ? malloc(1 << 16) : NULL;
      if (m == REG_NOMATCH && !probe)
        m = REG_ESPACE;
      free(probe);
    }
    if (m != 0 && m != REG_NOMATCH) { /* REG_ESPACE: not "no match" */
      rc = cgofuzz_errf(err, 0, "out of memory matching -fuzz's regexp");
      goto done;
    }
    if (m == 0) {
      if (!cgofuzz_gobin_target_name_ok(line)) {
        cgofuzz_buf q = {0};
        cgofuzz_quote((const uint8_t *)line, strlen(line), &q);
        rc = cgofuzz_errf(err, 0,
                          "%s -test.list names a fuzz target %s, which is "
                          "no Go identifier: refused (it would name "
                          "directories under testdata/fuzz and the cache)",
                          binary, q.data ? cgofuzz_buf_cstr(&q) : "?");
        cgofuzz_buf_free(&q);
        goto done;
      }
      if (*n == cap) {
        cap = cap ? cap * 2 : 8;
        char **nn = realloc(*names, cap * sizeof *nn);
        if (!nn) {
          rc = cgofuzz_errf(err, 0, "out of memory");
          goto done;
        }
        *names = nn;
      }
      if (!((*names)[*n] = strdup(line))) {
        rc = cgofuzz_errf(err, 0, "out of memory");
        goto done;
      }
      (*n)++;
    }
    if (!nl)
      break;
    line = nl + 1;
  }
done:
  if (rc != 0) {
    for (size_t i = 0; i < *n; i++)
      free((*names)[i]);
    free(*names);
    *names = NULL;
    *n = 0;
  }
  regfree(&rx);
  cgofuzz_buf_free(&out);
  return rc;
}

/* A variable of the fake worker's environment ("NAME=value", len bytes):
 * kept in f->env when ours differs (the target's body set it before
 * f.Fuzz, and Go's coordinator passes that on to its workers). Ours are
 * what the binary started with, CGOFUZZ_DISCOVER_OUT aside. 0, or -1 when
 * out of memory. */
static int add_env_change(cgofuzz_gobin_found *f, const char *v, size_t len) {
  const char *eq = memchr(v, '=', len);
  if (!eq || eq == v || memchr(v, '\0', len))
    return 0;
  char *name = strndup(v, (size_t)(eq - v));
  if (!name)
    return -1;
  const char *ours = getenv(name);
  bool same = strcmp(name, CGOFUZZ_GOBIN_DISCOVER_ENV) == 0 ||
              (ours && strlen(ours) == len - (size_t)(eq + 1 - v) &&
               memcmp(ours, eq + 1, strlen(ours)) == 0);
  for (size_t i = 0; i < f->n_env && !same; i++)
    same = strncmp(f->env[i], v, (size_t)(eq + 1 - v)) == 0;
  free(name);
  if (same)
    return 0;
  char **ne = realloc(f->env, (f->n_env + 1) * sizeof *ne);
  if (!ne)
    return -1;
  f->env = ne;
  if (!(ne[f->n_env] = strndup(v, len)))
    return -1;
  f->n_env++;
  return 0;
}

/* The fake worker's records, one after another from *at: "T len\n",
 * len bytes, "\n", with T 'W' (a warm-up input), 'Z' (a fuzzing call's
 * input) or 'E' (a variable of its environment). 1 with *tag, *data and
 * *len set and *at moved past the record; 0 at the end; -1 when the
 * record is malformed. */
static int next_record(const cgofuzz_buf *rec, size_t *at, char *tag,
                       const uint8_t **data, size_t *len) {
  size_t i = *at, hl = 0;
  if (i >= rec->len)
    return 0;
  char head[64];
  while (i + hl < rec->len && rec->data[i + hl] != '\n' && hl < 63)
    hl++;
  memcpy(head, rec->data + i, hl);
  head[hl] = '\0';
  /* Exactly what the fake worker writes ("%c %zu\n"), the length checked
   * against what is left without a sum that can wrap: sscanf's %zu took
   * "-5" as 2^64-5, the sum wrapped round, and the record began again
   * where it began (a hang), or ran past the end of the file. */
  if (i + hl >= rec->len || rec->data[i + hl] != '\n' || hl < 3 ||
      head[1] != ' ' || head[2] < '0' || head[2] > '9')
    return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(head + 2, &end, 10);
  if (errno || *end || v > rec->len - (i + hl + 1))
    return -1;
  *tag = head[0];
  *len = (size_t)v;
  *data = rec->data + i + hl + 1;
  *at = i + hl + 1 + *len + 1;
  return 1;
}

/* Parses the fake worker's records (next_record) into f. */
static int parse_records(cgofuzz_gobin_found *f, const cgofuzz_buf *rec,
                         int gover, cgofuzz_err *err) {
  const uint8_t *typed = NULL;
  size_t typed_len = 0, at = 0;
  char tag;
  const uint8_t *data;
  size_t len;
  int got;
  while ((got = next_record(rec, &at, &tag, &data, &len)) != 0) {
    if (got < 0)
      return cgofuzz_errf(err, 0, "discovery: malformed record");
    if (tag == 'E') { /* the fake worker's environment, one variable */
      if (add_env_change(f, (const char *)data, len) != 0)
        return cgofuzz_errf(err, 0, "out of memory");
      continue;
    }
    if (!typed) {
      typed = data;
      typed_len = len;
    }
    if (tag == 'W') {
      cgofuzz_buf *ns = realloc(f->seeds, (f->n_seeds + 1) * sizeof *f->seeds);
      if (!ns)
        return cgofuzz_errf(err, 0, "out of memory");
      f->seeds = ns;
      memset(&ns[f->n_seeds], 0, sizeof *ns);
      if (cgofuzz_buf_append(&ns[f->n_seeds], data, len) != 0)
        return cgofuzz_errf(err, 0, "out of memory");
      f->n_seeds++;
    }
  }
  if (!typed)
    return cgofuzz_errf(err, 0, "discovery: the binary sent no input");
  cgofuzz_values vals = {0};
  if (cgofuzz_codec_decode_v(typed, typed_len, gover, &vals, err) != 0) {
    cgofuzz_values_free(&vals); /* what it decoded before the error */
    return -1;
  }
  f->kinds = malloc((vals.n ? vals.n : 1) * sizeof *f->kinds);
  if (!f->kinds) {
    cgofuzz_values_free(&vals);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  for (size_t k = 0; k < vals.n; k++)
    f->kinds[k] = vals.v[k].kind;
  f->n_kinds = vals.n;
  cgofuzz_values_free(&vals);
  return 0;
}

/* Whether the records hold an input (any record but the environment's). */
static bool has_input(const cgofuzz_buf *rec) {
  size_t at = 0, len;
  char tag;
  const uint8_t *data;
  while (next_record(rec, &at, &tag, &data, &len) == 1)
    if (tag != 'E')
      return true;
  return false;
}

/* Whether the file system of fd (a new file in $TMPDIR) can take a few
 * pages: Go's coordinator maps a sparse file there, and a full file system
 * would only show as a SIGBUS in it (or in a worker). 0, or -1 with errno
 * set; the file is left empty. */
static int tmpdir_has_room(int fd) {
  static const uint8_t zeros[64 << 10];
  int rc = cgofuzz_write_all(fd, zeros, sizeof zeros) == 0 && fsync(fd) == 0
               ? 0
               : -1;
  int e = errno;
  if ((ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) && rc == 0)
    return -1;
  errno = e;
  return rc;
}

int cgofuzz_gobin_discover(const cgofuzz_gobin_run *run, cgofuzz_gobin_found *f,
                           cgofuzz_err *err) {
  const char *tmpdir = cgofuzz_tmpdir();
  cgofuzz_buf root = {0}, cache = {0}, out = {0}, log = {0}, fz = {0},
              rec = {0}, logtxt = {0};
  int rc = -1, logfd = -1;
  /* In the run's own directory when there is one (scratch.h): then
   * nothing is left even when we are killed while the child runs. */
  const char *scratch = cgofuzz_scratch_dir();
  cgofuzz_buf_printf(&root, "%s/%sdiscover-XXXXXX", scratch ? scratch : tmpdir,
                     scratch ? "" : "cgofuzz-");
  cgofuzz_buf_cstr(&root); /* its NUL now: a failure shows in root.failed */
  if (root.failed) {
    cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  if (!mkdtemp(cgofuzz_buf_cstr(&root))) {
    cgofuzz_errf(err, 0, "creating a directory in $TMPDIR (%s): %s", tmpdir,
                 strerror(errno));
    root.len = 0; /* nothing to remove */
    goto done;
  }
  cgofuzz_buf_printf(&cache, "%s/cache", cgofuzz_buf_cstr(&root));
  cgofuzz_buf_printf(&out, "%s/inputs", cgofuzz_buf_cstr(&root));
  cgofuzz_buf_printf(&log, "%s/log", cgofuzz_buf_cstr(&root));
  cgofuzz_buf_printf(&fz, "-test.fuzz=^%s$", run->target);
  cgofuzz_buf *paths[] = {&cache, &out, &log, &fz};
  bool oom = false;
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    cgofuzz_buf_cstr(paths[i]); /* its NUL now, as for root */
    oom = oom || paths[i]->failed;
  }
  if (oom) {
    cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  char cachearg[4096];
  snprintf(cachearg, sizeof cachearg, "-test.fuzzcachedir=%s",
           cgofuzz_buf_cstr(&cache));
  if (mkdir(cgofuzz_buf_cstr(&cache), 0700) != 0) {
    cgofuzz_errf(err, 0, "mkdir %s: %s", cgofuzz_buf_cstr(&cache),
                 strerror(errno));
    goto done;
  }
  logfd =
      open(cgofuzz_buf_cstr(&log), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (logfd < 0 || tmpdir_has_room(logfd) != 0) {
    cgofuzz_errf(err, 0,
                 "$TMPDIR (%s) cannot hold the files fuzzing makes there "
                 "(Go's shared memory, the targets' discovery): %s",
                 tmpdir, strerror(errno));
    goto done;
  }
  size_t na = 0;
  char **argv = calloc(8 + run->n_extra, sizeof *argv);
  if (!argv) {
    cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  argv[na++] = (char *)run->self_exe; /* what Go will start as its workers */
  argv[na++] = cgofuzz_buf_cstr(&fz);
  argv[na++] = "-test.run=^$";
  argv[na++] = "-test.fuzztime=1000000000x";
  argv[na++] = "-test.parallel=1";
  argv[na++] = cachearg;
  for (size_t i = 0; i < run->n_extra; i++)
    if (cgofuzz_gobin_test_flag_ok(run->gover, run->extra_args[i]))
      argv[na++] = run->extra_args[i];
  argv[na] = NULL;
  /* In our directory: a target may read files relative to it before
   * f.Fuzz. The cache stays private and empty. */
  cgofuzz_buf env = {0};
  cgofuzz_buf_printf(&env, "%s=%s", CGOFUZZ_GOBIN_DISCOVER_ENV,
                     cgofuzz_buf_cstr(&out));
  cgofuzz_buf_cstr(&env);
  if (env.failed) {
    cgofuzz_buf_free(&env);
    free(argv);
    cgofuzz_errf(err, 0, "out of memory");
    goto done;
  }
  int st = run_child(run->binary, argv, NULL, cgofuzz_buf_cstr(&env), NULL,
                     logfd, logfd, DISCOVER_TIMEOUT_MS);
  cgofuzz_buf_free(&env);
  free(argv);
  /* No records file: no records; rec marked failed when memory ran out. */
  cgofuzz_file_read(cgofuzz_buf_cstr(&out), &rec);
  if (rec.failed) {
    cgofuzz_errf(err, 0, "out of memory reading the targets' discovery");
    goto done;
  }
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !has_input(&rec)) {
    /* Show what the binary said: an f.Add type mismatch, a TestMain
     * failure... */
    lseek(logfd, 0, SEEK_SET);
    char tmp[4096];
    ssize_t k;
    while ((k = read(logfd, tmp, sizeof tmp)) > 0)
      cgofuzz_buf_append(&logtxt, tmp, (size_t)k);
    char why[64] = "";
    if (st < 0)
      snprintf(why, sizeof why, " (timed out)");
    else if (WIFSIGNALED(st))
      snprintf(why, sizeof why, " (killed by signal %d: %s)", WTERMSIG(st),
               strsignal(WTERMSIG(st)));
    cgofuzz_errf(err, 0, "%s: finding the arguments of %s failed%s:\n%.*s",
                 run->binary, run->target, why,
                 (int)(logtxt.len > 400 ? 400 : logtxt.len),
                 logtxt.data ? cgofuzz_buf_cstr(&logtxt) : "");
    goto done;
  }
  rc = parse_records(f, &rec, run->gover ? run->gover : CGOFUZZ_GOVER_NEWEST,
                     err);
done:
  if (logfd >= 0)
    close(logfd);
  if (root.len)
    cgofuzz_dir_remove_all(cgofuzz_buf_cstr(&root));
  cgofuzz_buf *bufs[] = {&root, &cache, &out, &log, &fz, &rec, &logtxt};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
  if (rc != 0)
    cgofuzz_gobin_found_free(f);
  return rc;
}

bool cgofuzz_gobin_records_have_input(const char *records) {
  cgofuzz_buf rec = {0};
  cgofuzz_file_read(records, &rec);
  bool yes = has_input(&rec);
  cgofuzz_buf_free(&rec);
  return yes;
}

char *cgofuzz_gobin_cache_target(const char *cache_root) {
  char **names, *name = NULL;
  size_t n;
  if (cgofuzz_dir_names(cache_root, true, &names, &n) != 0)
    return NULL;
  if (n)
    name = strdup(names[0]);
  cgofuzz_dir_names_free(names, n);
  return name;
}

int cgofuzz_gobin_read_records(const char *records, int gover,
                               cgofuzz_gobin_found *f, cgofuzz_err *err) {
  cgofuzz_buf rec = {0};
  cgofuzz_file_read(records, &rec);
  int rc = 1;
  if (has_input(&rec))
    rc = parse_records(f, &rec, gover ? gover : CGOFUZZ_GOVER_NEWEST, err);
  cgofuzz_buf_free(&rec);
  if (rc < 0)
    cgofuzz_gobin_found_free(f);
  return rc;
}

void cgofuzz_gobin_found_free(cgofuzz_gobin_found *f) {
  for (size_t i = 0; i < f->n_seeds; i++)
    cgofuzz_buf_free(&f->seeds[i]);
  free(f->seeds);
  free(f->kinds);
  for (size_t i = 0; i < f->n_env; i++)
    free(f->env[i]);
  free(f->env);
  memset(f, 0, sizeof *f);
}

int cgofuzz_gobin_fake_worker(void) {
  const char *outpath = getenv(CGOFUZZ_GOBIN_DISCOVER_ENV);
  cgofuzz_shm mem;
  cgofuzz_err err = {0};
  if (!outpath || cgofuzz_shm_map_fd(&mem, CGOFUZZ_SHM_FD, &err) != 0)
    return 70;
  int outfd = open(outpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (outfd < 0)
    return 70;
  cgofuzz_lines in = {0};
  cgofuzz_buf reply = {0}, rec = {0};
  int rc = 0;
  bool env_sent = false;
  /* Name mode (go test -exec, the cli's cmd_exec.c): warm-up calls get the
   * coordinator's own coverage back, so warm-up ends as with a real
   * worker, and the first fuzzing call one new counter, so that Go's
   * coordinator writes that input to <its cache>/<target>/: the name of
   * that directory is the target's, which nothing else tells. */
  bool name_mode = getenv(CGOFUZZ_GOBIN_DISCOVER_NAME_ENV) != NULL;
  /* Fuzzing calls answered that way so far: Go drops an input its one
   * replayed mutation makes equal to a corpus entry, so a few are tried,
   * each from another random state. */
  int named = 0;
  /* With several workers, Go's coordinator hands warm-up inputs to any
   * free one, and their order (the seeds' order) would be lost. So in name
   * mode the first worker to start leads; the others answer their first
   * ping (which Go waits for, without a time limit, before it gives them
   * anything) only once the lead's warm-up is over. */
  cgofuzz_buf lead_path = {0}, warm_path = {0};
  cgofuzz_buf_printf(&lead_path, "%s.lead", outpath);
  cgofuzz_buf_printf(&warm_path, "%s.warm", outpath);
  bool lead = false, pinged = false;
  if (name_mode && lead_path.len && warm_path.len) {
    int fd =
        open(cgofuzz_buf_cstr(&lead_path), O_WRONLY | O_CREAT | O_EXCL, 0600);
    lead = fd >= 0;
    if (fd >= 0)
      close(fd);
  }
  pid_t parent = getppid();
  for (;;) {
    const uint8_t *line;
    size_t ll;
    if (cgofuzz_lines_read(&in, CGOFUZZ_FUZZ_IN_FD, &line, &ll) != 1)
      break; /* EOF: the coordinator is done with us */
    cgofuzz_call call;
    memset(&call, 0, sizeof call);
    if (cgofuzz_wire_decode_call(line, ll, &call, &err) != 0) {
      rc = 70;
      break;
    }
    reply.len = 0;
    if (name_mode && !lead && !pinged && call.kind == CGOFUZZ_CALL_PING)
      while (access(cgofuzz_buf_cstr(&warm_path), F_OK) != 0 &&
             getppid() == parent) {
        struct timespec ts = {0, 2000000}; /* 2 ms */
        nanosleep(&ts, NULL);
      }
    pinged = true;
    if (name_mode && lead && call.kind == CGOFUZZ_CALL_FUZZ &&
        !call.fuzz.warmup && access(cgofuzz_buf_cstr(&warm_path), F_OK) != 0) {
      int fd = open(cgofuzz_buf_cstr(&warm_path), O_WRONLY | O_CREAT, 0600);
      if (fd >= 0)
        close(fd);
    }
    if (call.kind == CGOFUZZ_CALL_FUZZ && !env_sent) {
      /* Our environment is the one Go's coordinator starts its workers
       * with, so it tells what the target's body set before f.Fuzz
       * (add_env_change keeps what differs). Sent before the first input,
       * so that a run with no input has no records at all. */
      env_sent = true;
      for (char **e = environ; *e; e++) {
        size_t el = strlen(*e);
        rec.len = 0;
        cgofuzz_buf_printf(&rec, "E %zu\n", el);
        cgofuzz_buf_append(&rec, *e, el);
        cgofuzz_buf_putc(&rec, '\n');
        cgofuzz_write_all(outfd, rec.data, rec.len);
      }
    }
    if (call.kind == CGOFUZZ_CALL_FUZZ) {
      cgofuzz_shm_header *h = cgofuzz_shm_hdr(&mem);
      size_t vl = (size_t)h->value_len;
      rec.len = 0;
      cgofuzz_buf_printf(&rec, "%c %zu\n", call.fuzz.warmup ? 'W' : 'Z', vl);
      cgofuzz_buf_append(&rec, cgofuzz_shm_value(&mem), vl);
      cgofuzz_buf_putc(&rec, '\n');
      cgofuzz_write_all(outfd, rec.data, rec.len);
      /* Claim the whole budget so the binary's run ends right away. */
      int64_t count = call.fuzz.limit > 0 ? call.fuzz.limit : 1;
      h->count = count;
      cgofuzz_fuzz_resp r;
      memset(&r, 0, sizeof r);
      r.count = count;
      cgofuzz_wire_bytes *m = &call.fuzz.coverage_data;
      if (name_mode && m->has && (call.fuzz.warmup || named < 64)) {
        r.coverage_data = *m; /* borrowed: freed with the call */
        size_t z = 0;
        while (z < m->len && m->data[z])
          z++;
        if (!call.fuzz.warmup && z < m->len) {
          m->data[z] = 1; /* a counter the coordinator has not seen */
          h->count = r.count = 1;
          /* Go's coordinator replays one mutation from this state to make
           * the input it writes: any state will do, but PCG needs an odd
           * increment (with 0 the mutator can spin for ever). */
          h->rand_state = 0x853c49e6748fea9bULL + (uint64_t)named;
          h->rand_inc = 0xda3e39cb94b95bdbULL;
          named++;
        }
      }
      cgofuzz_wire_encode_fuzz_resp(&r, &reply);
    } else if (call.kind == CGOFUZZ_CALL_MINIMIZE) {
      cgofuzz_minimize_resp r;
      memset(&r, 0, sizeof r);
      cgofuzz_wire_encode_minimize_resp(&r, &reply);
    } else {
      cgofuzz_wire_encode_ping_resp(&reply);
    }
    cgofuzz_call_free(&call);
    if (cgofuzz_write_all(CGOFUZZ_FUZZ_OUT_FD, reply.data, reply.len) != 0)
      break;
  }
  close(outfd);
  cgofuzz_lines_free(&in);
  cgofuzz_buf_free(&reply);
  cgofuzz_buf_free(&rec);
  cgofuzz_buf_free(&lead_path);
  cgofuzz_buf_free(&warm_path);
  cgofuzz_shm_close(&mem);
  return rc;
}
