/*
 * lf_exec.c: runs one input at a time in a worker process, for every mode
 * but fuzzing (reproduce, merge, minimize, cleanse).
 *
 * The worker is the same process the coordinator would start (same argv,
 * same protocol), so a C target and a Go test binary are run alike: the
 * input goes into shared memory and a warm-up Fuzz call (Limit 1) runs it
 * exactly once and answers with its coverage, or with Go's error text. A
 * worker that dies took its input with it: that input crashed (or hung, or
 * ran out of memory: its exit status says which, see worker_watchdog.c);
 * the next input gets a new process. A worker that does not answer within
 * the per-input timeout (plus a grace for the worker's own watchdog) is
 * killed and its input is a timeout, which is how a Go target's hang is
 * caught.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coord.h"
#include "exact.h"
#include "lf_internal.h"
#include "mutator.h"
#include "shm.h"
#include "wire.h"

#define LF_PING_MS 120000 /* TestMain and init may be slow */
#define LF_GRACE_MS 5000  /* the C watchdog fires first */
#define LF_MAX_LINE ((size_t)512 << 20)

extern char **environ;

int cgofuzz_lf_exec_init(lf_exec *x, const cgofuzz_lf_target *t,
                         const lf_opts *o, int output_fd) {
  memset(x, 0, sizeof *x);
  x->t = t;
  x->o = o;
  /* -close_fd_mask: 1 closes the target's stdout, 2 its stderr. */
  x->output_fd = (o->close_fd_mask & 2) ? -1 : output_fd;
  x->stdout_fd = (o->close_fd_mask & 1) ? -1 : output_fd;
  x->status = -1;
  cgofuzz_err err = {0};
  if (cgofuzz_coord_worker_init(&x->w, CGOFUZZ_SHM_VALUE_CAP, &err) != 0) {
    fprintf(stderr, "ERROR: %s\n", err.msg);
    return -1;
  }
  char **extra = NULL;
  size_t n_extra = 0;
  cgofuzz_coord_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.binary = t->binary;
  cfg.target = t->name;
  cfg.cache_root = "/nonexistent"; /* a worker never reads the cache */
  cfg.gover = t->gover;
  if (cgofuzz_lf_worker_flags(o, t, &extra, &n_extra) == 0) {
    cfg.extra_args = extra;
    cfg.n_extra = n_extra;
    x->argv = cgofuzz_coord_worker_argv(&cfg, &x->nargv);
  }
  cgofuzz_coord_free_names(extra, n_extra);
  size_t ne = 0;
  while (environ[ne])
    ne++;
  x->envp = calloc(ne + 2, sizeof *x->envp);
  if (!x->argv || !x->envp) {
    fprintf(stderr, "ERROR: out of memory\n");
    return -1;
  }
  memcpy(x->envp, environ, ne * sizeof *x->envp); /* borrowed */
  x->envp[ne] = (char *)CGOFUZZ_LF_ENV "=1";
  return 0;
}

void cgofuzz_lf_exec_free(lf_exec *x) {
  cgofuzz_coord_worker_free(&x->w);
  cgofuzz_coord_free_names(x->argv, x->nargv);
  free(x->envp);
  free(x->cov);
  cgofuzz_buf_free(&x->line);
  cgofuzz_buf_free(&x->msg);
  memset(x, 0, sizeof *x);
}

static int start(lf_exec *x) {
  cgofuzz_err err = {0};
  const uint8_t *l;
  size_t n;
  if (cgofuzz_coord_worker_start(&x->w, x->t->binary, x->argv, x->envp, NULL,
                                 x->stdout_fd, x->output_fd, &err) != 0) {
    fprintf(stderr, "ERROR: %s\n", err.msg);
    return -1;
  }
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_PING};
  x->line.len = 0;
  cgofuzz_wire_encode_call(&call, &x->line);
  if (cgofuzz_coord_worker_send(&x->w, &x->line, &err) != 0 ||
      cgofuzz_coord_worker_recv(&x->w, LF_PING_MS, LF_MAX_LINE, &l, &n, &err) !=
          1 ||
      cgofuzz_wire_decode_ping_resp(l, n, &err) != 0) {
    int st = cgofuzz_coord_worker_stop(&x->w, 1000);
    char sts[128];
    cgofuzz_coord_wait_status_string(st, sts, sizeof sts);
    fprintf(stderr,
            "ERROR: the fuzz target %s of %s did not start as a worker "
            "(%s)\n",
            x->t->name, x->t->binary, sts);
    return -1;
  }
  x->have_worker = true;
  return 0;
}

lf_outcome cgofuzz_lf_outcome_of_status(int st) {
  if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == LF_EXIT_TIMEOUT)
    return LF_TIMEOUT;
  if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == LF_EXIT_OOM)
    return LF_OOM;
  if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == CGOFUZZ_LEAK_EXIT)
    return LF_LEAK;
  return LF_CRASH;
}

const char *cgofuzz_lf_outcome_kind(lf_outcome oc) {
  return oc == LF_TIMEOUT ? "timeout"
         : oc == LF_OOM   ? "oom"
         : oc == LF_LEAK  ? "leak"
                          : "crash";
}

/* The worker died or hung on its input: reap it and say how. */
static void died(lf_exec *x, bool hung, lf_outcome *out) {
  int st;
  if (hung) {
    kill(x->w.pid, SIGKILL);
    st = cgofuzz_coord_worker_stop(&x->w, 0);
  } else {
    if (!cgofuzz_coord_worker_reap(&x->w, 5000))
      cgofuzz_coord_worker_stop(&x->w, 1000);
    st = x->w.wait_status;
    cgofuzz_coord_worker_stop(&x->w, 0);
  }
  x->have_worker = false;
  x->status = st;
  char sts[128];
  cgofuzz_coord_wait_status_string(st, sts, sizeof sts);
  x->msg.len = 0;
  if (hung) {
    *out = LF_TIMEOUT;
    cgofuzz_buf_printf(&x->msg, "the input ran longer than %lld seconds",
                       (long long)x->o->timeout);
  } else {
    *out = cgofuzz_lf_outcome_of_status(st);
    cgofuzz_buf_printf(&x->msg, "fuzzing process terminated: %s", sts);
  }
}

int cgofuzz_lf_exec_run(lf_exec *x, const uint8_t *enc, size_t len,
                        lf_outcome *out) {
  x->status = -1;
  x->msg.len = 0;
  if (!x->have_worker && start(x) != 0)
    return -1;
  cgofuzz_err err = {0};
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&x->w.mem);
  h->count = 0;
  if (cgofuzz_shm_set_value(&x->w.mem, enc, len, &err) != 0) {
    fprintf(stderr, "ERROR: %s\n", err.msg);
    return -1;
  }
  cgofuzz_exact_clear(&x->w.mem);
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_FUZZ};
  call.fuzz.timeout_ns = 100000000;
  call.fuzz.limit = 1;
  call.fuzz.warmup = true;
  x->line.len = 0;
  cgofuzz_wire_encode_call(&call, &x->line);
  if (cgofuzz_coord_worker_send(&x->w, &x->line, &err) != 0) {
    died(x, false, out);
    return 0;
  }
  int wait_ms =
      x->o->timeout > 0 ? (int)(x->o->timeout * 1000) + LF_GRACE_MS : -1;
  const uint8_t *l;
  size_t n;
  int got =
      cgofuzz_coord_worker_recv(&x->w, wait_ms, LF_MAX_LINE, &l, &n, &err);
  if (got != 1) {
    died(x, got == 0, out);
    return 0;
  }
  cgofuzz_fuzz_resp r;
  memset(&r, 0, sizeof r);
  if (cgofuzz_wire_decode_fuzz_resp(l, n, &r, &err) != 0) {
    fprintf(stderr, "ERROR: communicating with the worker: %s\n", err.msg);
    return -1;
  }
  int rc = 0;
  if (r.internal_err) {
    fprintf(stderr, "ERROR: the worker failed: %.*s\n", (int)r.internal_err_len,
            r.internal_err);
    rc = -1;
  } else if (r.err) {
    *out = LF_CRASH;
    cgofuzz_buf_append(&x->msg, r.err, r.err_len);
  } else {
    *out = LF_OK;
    if (r.coverage_data.has) {
      if (x->cov_len != r.coverage_data.len) {
        free(x->cov);
        x->cov = malloc(r.coverage_data.len ? r.coverage_data.len : 1);
        x->cov_len = x->cov ? r.coverage_data.len : 0;
      }
      if (x->cov)
        memcpy(x->cov, r.coverage_data.data, x->cov_len);
    }
  }
  cgofuzz_fuzz_resp_free(&r);
  return rc;
}

/* Prints a worker's error text the way the engines' stack analyzers read a
 * Go crash: Go's worker reports a panic as a test failure,
 *   --- FAIL: FuzzX (0.00s)
 *       testing.go:1927: panic: runtime error: index out of range ...
 *           goroutine 17 [running]:
 *           pkg.Check(...)
 *           \t/src/pkg/x.go:11 +0x1d
 * while ClusterFuzz matches "^panic: runtime error: ..." and frames at the
 * start of a line, as an unrecovered panic prints them. So the "--- FAIL"
 * line goes, the first line loses its indentation and "file.go:N: " when
 * a panic follows, and the rest loses the failure's indentation. The
 * frames of the testing package's recovery (runtime/debug.Stack() down to
 * the panic(...) frame) go too, so the stack starts where the panic did,
 * as in an unrecovered panic: ClusterFuzz's crash state is its top frames,
 * which it recognizes by a pattern without '?' (see below). */
static void print_go_error(const char *msg, size_t len) {
  const char *p = msg, *end = msg + len;
  bool first = true;
  int skip = 0; /* 1: in the recovery frames; 2: the panic frame's file */
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    if (first && e - p >= 9 && memcmp(p, "--- FAIL:", 9) == 0) {
      p = nl ? nl + 1 : end;
      continue;
    }
    const char *q = p;
    size_t strip = first ? SIZE_MAX : 8;
    for (size_t k = 0; k < strip && q < e && *q == ' '; k++)
      q++;
    size_t n = (size_t)(e - q);
    if (!first && skip == 0 && n >= 21 &&
        memcmp(q, "runtime/debug.Stack()", 21) == 0)
      skip = 1;
    if (skip) {
      if (skip == 2)
        skip = 0;
      else if (n >= 6 && memcmp(q, "panic(", 6) == 0)
        skip = 2;
      p = nl ? nl + 1 : end;
      continue;
    }
    if (!first && n > 10 && memcmp(q, "goroutine ", 10) == 0)
      fputc('\n', stderr); /* as Go prints it */
    if (first) {
      /* "testing.go:1927: panic: ..." -> "panic: ..." */
      const char *pn = NULL;
      for (const char *r = q; r + 9 <= e && !pn; r++)
        if (memcmp(r, ": panic: ", 9) == 0)
          pn = r + 2;
      if (pn)
        q = pn;
      first = false;
    }
    /* A frame's arguments: Go marks uncertain ones with '?', which
     * ClusterFuzz's frame pattern does not allow; they go. */
    const char *paren = memchr(q, '(', (size_t)(e - q));
    if (paren && *q != '\t' && e > q && e[-1] == ')') {
      fprintf(stderr, "%.*s", (int)(paren - q), q);
      for (const char *r = paren; r < e; r++)
        if (*r != '?')
          fputc(*r, stderr);
      fputc('\n', stderr);
    } else {
      fprintf(stderr, "%.*s\n", (int)(e - q), q);
    }
    p = nl ? nl + 1 : end;
  }
}

int cgofuzz_lf_report_failure(const lf_opts *o, lf_outcome oc, const char *msg,
                              size_t msg_len, int status) {
  /* A dead worker has printed its own report (a sanitizer's, or the
   * watchdog's in libFuzzer's words); Go's error text (a panic and its
   * stack) came back in the reply and is printed here. */
  if (status == -1 && oc == LF_CRASH && msg_len)
    print_go_error(msg, msg_len);
  if (oc == LF_TIMEOUT && status == -1)
    fprintf(stderr,
            "==%d== ERROR: libFuzzer: timeout after %lld seconds\n"
            "SUMMARY: libFuzzer: timeout\n",
            (int)getpid(), (long long)o->timeout);
  else if (oc == LF_CRASH && (status == -1 || WIFSIGNALED(status)))
    fprintf(stderr, "==%d== ERROR: libFuzzer: deadly signal\n", (int)getpid());
  fflush(stderr);
  if (oc == LF_TIMEOUT)
    return (int)o->timeout_exitcode;
  if (oc == LF_OOM)
    return LF_EXIT_OOM;
  if (oc == LF_LEAK) /* LeakSanitizer's report came from the worker */
    return (int)o->error_exitcode;
  /* A sanitizer's own exit code (ClusterFuzz sets exitcode=77) passes
   * through; a signal or a Go panic gives -error_exitcode. */
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return WEXITSTATUS(status);
  return (int)o->error_exitcode;
}
