/*
 * coord_svc.c: the services every part of a run's coordinator shares:
 * ending the run with a failure, its figures, the elapsed time as Go prints
 * it, GODEBUG=fuzzdebug lines, and whether ^C (or SIGTERM, SIGHUP) came.
 *
 * They call nothing else of the coordinator, so the parts that handle
 * replies (coord_resp.c), minimize (coord_min.c) and answer the feedback
 * strategies (coord_host.c) use them without calling back into the loop
 * (coord_loop.c) that calls them.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coord_internal.h"

static volatile sig_atomic_t got_signal;

void cgofuzz_coord_on_signal(int sig) { got_signal = sig; }

void cgofuzz_coord_signal_reset(void) { got_signal = 0; }

bool cgofuzz_coord_interrupted(void) { return got_signal != 0; }

bool cgofuzz_coord_says(const coord *c) {
  return c->cfg->verbose && !c->cfg->quiet && !c->cfg->observer;
}

void cgofuzz_coord_put_elapsed(coord *c, cgofuzz_buf *b) {
  /* Go rounds half away from zero. */
  cgofuzz_coord_fmt_secs(b, (cgofuzz_mono_ms() - c->start_ms + 500) / 1000);
}

void cgofuzz_coord_debugf(coord *c, const char *fmt, ...) {
  (void)c;
  struct timespec ts;
  struct tm tm;
  char when[64];
  clock_gettime(CLOCK_REALTIME, &ts);
  localtime_r(&ts.tv_sec, &tm);
  size_t n = strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
  if (ts.tv_nsec) { /* .999999999: the fraction without trailing zeros */
    n += (size_t)snprintf(when + n, sizeof when - n, ".%09ld", ts.tv_nsec);
    while (when[n - 1] == '0')
      when[--n] = '\0';
  }
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s DEBUG ", when);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  fflush(stderr);
  va_end(ap);
}

void cgofuzz_coord_stats_get(coord *c, cgofuzz_coord_stats *st) {
  memset(st, 0, sizeof *st);
  st->execs = c->count;
  st->elapsed_ms = cgofuzz_mono_ms() - c->start_ms;
  st->corpus = c->corpus.n;
  st->new_inputs = c->interesting;
  st->workers = c->np;
  for (size_t i = 0; i < c->mask_len; i++) {
    size_t bits = 0;
    for (unsigned v = c->mask[i]; v; v &= v - 1) /* no libgcc popcount */
      bits++;
    st->cov_bytes += c->mask[i] != 0;
    st->cov_bits += bits;
    if (i >= c->cgo_from) {
      st->c_cov_bytes += c->mask[i] != 0;
      st->c_cov_bits += bits;
    }
  }
  if (c->cgo_from < c->mask_len)
    st->c_counters = c->mask_len - c->cgo_from;
}

/* Ends the run with a failure whose text is msg (printed indented). */
void cgofuzz_coord_fail(coord *c, const char *msg, size_t len) {
  if (c->fatal)
    return;
  c->fatal = true;
  c->failed = true;
  c->done = true;
  if (cgofuzz_buf_append(&c->fail_msg, msg, len) != 0) {
    /* No memory for the whole: its head, in room kept for this. */
    static const char cut[] = " ... (cut: out of memory)";
    size_t keep = sizeof c->fail_short - sizeof cut;
    size_t k = len < keep ? len : keep;
    memcpy(c->fail_short, msg, k);
    memcpy(c->fail_short + k, cut, sizeof cut);
    cgofuzz_buf_free(&c->fail_msg);
    c->fail_msg.data = (uint8_t *)c->fail_short;
    c->fail_msg.len = strlen(c->fail_short);
  }
}

void cgofuzz_coord_put_bytes(cgofuzz_buf *b, const uint8_t *p, size_t n) {
  size_t show = n > 120 ? 120 : n;
  cgofuzz_buf_putc(b, '"');
  for (size_t i = 0; i < show; i++) {
    if (p[i] == '"' || p[i] == '\\')
      cgofuzz_buf_printf(b, "\\%c", p[i]);
    else if (p[i] >= 0x20 && p[i] < 0x7f)
      cgofuzz_buf_putc(b, (char)p[i]);
    else
      cgofuzz_buf_printf(b, "\\x%02x", p[i]);
  }
  cgofuzz_buf_putc(b, '"');
  if (show < n)
    cgofuzz_buf_printf(b, " (%zu bytes in all)", n);
}

void cgofuzz_coord_fail_buf(coord *c, cgofuzz_buf *msg) {
  if (msg->data)
    cgofuzz_coord_fail(c, (const char *)msg->data, msg->len);
  else
    cgofuzz_coord_fail(c, "out of memory", strlen("out of memory"));
  cgofuzz_buf_free(msg);
}

void cgofuzz_coord_put_pending(cgofuzz_buf *b, const cgofuzz_coord_worker *w) {
  cgofuzz_coord_put_bytes(b, w->in.buf.data + w->in.consumed,
                          cgofuzz_lines_pending(&w->in));
}

void cgofuzz_coord_failf(coord *c, const char *fmt, const char *arg) {
  char tmp[1024];
  snprintf(tmp, sizeof tmp, fmt, arg);
  cgofuzz_coord_fail(c, tmp, strlen(tmp));
}
