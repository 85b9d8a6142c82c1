/*
 * coord_side.c: a strategy's own worker beside the run's (the race
 * replay's -race build, the goroutine-leak probes): started and pinged
 * before it is used, then sent exact runs one at a time, each awaited
 * while its stderr is drained (a worker that prints must not block on a
 * full pipe, and its report is read from the kept tail).
 *
 * Invariants: these calls block the caller, as the strategies that use
 * them account their own time; a worker that does not answer its ping
 * within CGOFUZZ_COORD_WORKER_PING_MS, dies, or answers garbage is
 * stopped before the call returns, so the caller only restarts it.
 */
#include <string.h>

#include "clock.h"
#include "coord_feedback.h"
#include "coord_worker.h"

int cgofuzz_coord_side_start(cgofuzz_coord_worker *w, const char *path,
                             char *const argv[], char *const envp[],
                             cgofuzz_buf *line, cgofuzz_err *err) {
  const uint8_t *l;
  size_t n;
  w->keep_stderr = true;
  if (cgofuzz_coord_worker_start(w, path, argv, envp, NULL, -1, -1, err) != 0)
    return -1;
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_PING};
  line->len = 0;
  cgofuzz_wire_encode_call(&call, line);
  int got = 0;
  if (cgofuzz_coord_worker_send(w, line, err) == 0)
    got = cgofuzz_coord_worker_recv(w, CGOFUZZ_COORD_WORKER_PING_MS,
                                    CGOFUZZ_COORD_WORKER_MAX_LINE, &l, &n, err);
  if (got != 1 || cgofuzz_wire_decode_ping_resp(l, n, err) != 0) {
    if (got == 0)
      cgofuzz_errf(err, 0, "%s did not answer its ping", path);
    cgofuzz_coord_worker_stop(w, CGOFUZZ_COORD_WORKER_GRACE_MS);
    return -1;
  }
  return 0;
}

int cgofuzz_coord_side_run(cgofuzz_coord_worker *w, const uint8_t *v,
                           size_t len, int timeout_ms, cgofuzz_buf *line,
                           cgofuzz_fuzz_resp *resp, cgofuzz_err *err) {
  const uint8_t *l = NULL;
  size_t n = 0;
  memset(resp, 0, sizeof *resp);
  if (cgofuzz_coord_exact_call(&w->mem, v, len, (int64_t)timeout_ms * 1000000LL,
                               line, err) != 0 ||
      cgofuzz_coord_worker_send(w, line, err) != 0) {
    cgofuzz_coord_worker_stop(w, CGOFUZZ_COORD_WORKER_GRACE_MS);
    return -1;
  }
  int64_t until = cgofuzz_mono_ms() + timeout_ms;
  int got;
  for (;;) {
    got = cgofuzz_coord_worker_recv(w, 50, CGOFUZZ_COORD_WORKER_MAX_LINE, &l,
                                    &n, err);
    if (got != 0 || cgofuzz_mono_ms() >= until)
      break;
    cgofuzz_coord_worker_drain_stderr(w);
  }
  cgofuzz_coord_worker_drain_stderr(w); /* what it wrote before replying */
  if (got == 1 && cgofuzz_wire_decode_fuzz_resp(l, n, resp, err) == 0 &&
      !resp->internal_err)
    return 1;
  cgofuzz_fuzz_resp_free(resp);
  if (got == 0)
    cgofuzz_errf(err, 0, "no reply within %d ms", timeout_ms);
  else if (got == 1 && !err->msg[0])
    cgofuzz_errf(err, 0, "the worker's internal error");
  cgofuzz_coord_worker_stop(w, CGOFUZZ_COORD_WORKER_GRACE_MS);
  return got == 0 ? 0 : -1;
}
