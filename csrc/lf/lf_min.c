/*
 * lf_min.c: -minimize_crash=1 and -cleanse_crash=1 on one crashing input.
 *
 * Both work on the raw bytes (core/rawargs.h: every byte string is a valid
 * input, so any candidate can run) and ask a worker whether a candidate
 * still fails: crash, timeout or OOM alike, as libFuzzer's minimizer
 * accepts any failure. Candidates run with the workers' output discarded
 * (each failing candidate would print a full report); the input given is
 * run first with its report shown.
 *  - minimize: Go's minimizer (core/minimize.h: remove chunks, then bytes,
 *    then replace bytes with printable ones), bounded by -max_total_time
 *    and -runs; the result goes to -exact_artifact_path, else to
 *    <artifact_prefix>minimized-from-<sha1 of the input>;
 *  - cleanse: libFuzzer's CleanseCrashInput: each byte in turn becomes ' '
 *    or 0xff when the input still fails with it, so the bytes left are the
 *    ones that matter; the result goes to -exact_artifact_path (required,
 *    as in libFuzzer).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "lf_internal.h"
#include "minimize.h"
#include "rawargs.h"
#include "sha1.h"

typedef struct trial {
  const cgofuzz_lf_target *t;
  const lf_opts *o;
  lf_exec x;
  cgofuzz_buf enc;
  int64_t deadline_ms; /* 0: none */
  int64_t runs_left;   /* -1: no limit */
  bool broken;         /* the worker cannot run: stop */
  int64_t tries;
} trial;

/* Whether raw[0..len) still fails. */
static bool fails(trial *tr, const uint8_t *raw, size_t len) {
  cgofuzz_err err = {0};
  tr->enc.len = 0;
  if (tr->broken ||
      cgofuzz_rawargs_to_corpus_v(tr->t->kinds, tr->t->n_kinds, raw, len,
                                  lf_gover(tr->t), &tr->enc, &err) != 0)
    return false;
  lf_outcome oc;
  tr->tries++;
  if (tr->runs_left > 0)
    tr->runs_left--;
  if (cgofuzz_lf_exec_run(&tr->x, tr->enc.data, tr->enc.len, &oc) != 0) {
    tr->broken = true;
    return false;
  }
  return oc != LF_OK;
}

static bool try_fn(void *ctx, const uint8_t *cand, size_t len) {
  return fails(ctx, cand, len);
}

static bool stop_fn(void *ctx) {
  trial *tr = ctx;
  return tr->broken || tr->runs_left == 0 ||
         (tr->deadline_ms && cgofuzz_mono_ms() >= tr->deadline_ms);
}

/* Frees what setup made. */
static void teardown(trial *tr, cgofuzz_buf *raw) {
  cgofuzz_buf_free(raw);
  cgofuzz_buf_free(&tr->enc);
  cgofuzz_lf_exec_free(&tr->x);
}

static int setup_(trial *tr, const cgofuzz_lf_target *t, const lf_opts *o,
                  cgofuzz_buf *raw);

/* Reads the one input, runs it once showing its report, and sets up tr
 * for candidates. Returns 0, 1 if it does not fail, -1 on errors; on
 * anything but 0, tr and raw hold nothing. */
static int setup(trial *tr, const cgofuzz_lf_target *t, const lf_opts *o,
                 cgofuzz_buf *raw) {
  int rc = setup_(tr, t, o, raw);
  if (rc != 0)
    teardown(tr, raw);
  return rc;
}

static int setup_(trial *tr, const cgofuzz_lf_target *t, const lf_opts *o,
                  cgofuzz_buf *raw) {
  memset(tr, 0, sizeof *tr);
  /* First, so that tr->x is always safe to free. */
  if (cgofuzz_lf_exec_init(&tr->x, t, o, -1) != 0)
    return -1;
  tr->t = t;
  tr->o = o;
  tr->runs_left = o->runs >= 0 ? o->runs : -1;
  if (o->max_total_time > 0)
    tr->deadline_ms = cgofuzz_mono_ms() + o->max_total_time * 1000;
  if (o->n_inputs != 1) {
    fprintf(stderr, "ERROR: -%s_crash=1 requires exactly one input file\n",
            o->minimize_crash ? "minimize" : "cleanse");
    return -1;
  }
  lf_input in;
  if (cgofuzz_lf_read_input(t, o->inputs[0], 0, &in) != 0)
    return -1;
  int rc = cgofuzz_lf_raw(t, in.enc.data, in.enc.len, raw);
  lf_exec shown;
  lf_outcome oc = LF_OK;
  if (rc == 0 && cgofuzz_lf_exec_init(&shown, t, o, 2) == 0) {
    if (cgofuzz_lf_exec_run(&shown, in.enc.data, in.enc.len, &oc) != 0)
      rc = -1;
    else if (oc != LF_OK)
      cgofuzz_lf_report_failure(o, oc, (const char *)shown.msg.data,
                                shown.msg.len, shown.status);
  } else {
    rc = -1;
  }
  cgofuzz_lf_exec_free(&shown);
  free(in.path);
  cgofuzz_buf_free(&in.enc);
  if (rc != 0)
    return -1;
  if (oc == LF_OK) {
    fprintf(stderr, "INFO: the input %s did not crash\n", o->inputs[0]);
    return 1;
  }
  return 0;
}

int cgofuzz_lf_minimize_crash(const cgofuzz_lf_target *t, const lf_opts *o) {
  trial tr;
  cgofuzz_buf raw = {0};
  if (setup(&tr, t, o, &raw) != 0)
    return LF_EXIT_USAGE;
  int rc;
  fprintf(stderr, "CRASH_MIN: minimizing crash input: '%s' (%zu bytes)\n",
          o->inputs[0], raw.len);
  size_t before = raw.len;
  char hex[41]; /* the input given names the result, as in libFuzzer */
  cgofuzz_sha1_hex(raw.data, raw.len, hex);
  size_t n = cgofuzz_minimize_bytes(raw.data, raw.len, try_fn, stop_fn, &tr);
  if (n != (size_t)-1)
    raw.len = n;
  cgofuzz_buf path = {0};
  if (o->exact_artifact_path && *o->exact_artifact_path) {
    cgofuzz_buf_puts(&path, o->exact_artifact_path);
  } else {
    cgofuzz_buf_printf(&path, "%sminimized-from-%s", o->artifact_prefix, hex);
  }
  cgofuzz_buf_putc(&path, '\0');
  rc = cgofuzz_lf_write_file((const char *)path.data, raw.data, raw.len, 0) == 0
           ? 0
           : LF_EXIT_USAGE;
  fprintf(stderr,
          "CRASH_MIN: %zu bytes minimized to %zu in %" PRId64
          " runs; written to %s\n",
          before, raw.len, tr.tries, (const char *)path.data);
  fflush(stderr);
  cgofuzz_buf_free(&path);
  teardown(&tr, &raw);
  return rc;
}

int cgofuzz_lf_cleanse_crash(const cgofuzz_lf_target *t, const lf_opts *o) {
  if (!o->exact_artifact_path || !*o->exact_artifact_path) {
    fprintf(stderr, "ERROR: -cleanse_crash should be given one input file "
                    "and -exact_artifact_path\n");
    return LF_EXIT_USAGE;
  }
  trial tr;
  cgofuzz_buf raw = {0};
  if (setup(&tr, t, o, &raw) != 0)
    return LF_EXIT_USAGE;
  int rc;
  fprintf(stderr, "CLEANSE: cleansing crash input: '%s' (%zu bytes)\n",
          o->inputs[0], raw.len);
  static const uint8_t repl[] = {' ', 0xff};
  size_t changed = 0;
  for (size_t i = 0; i < raw.len && !stop_fn(&tr); i++) {
    uint8_t orig = raw.data[i];
    for (size_t k = 0; k < sizeof repl; k++) {
      if (orig == repl[k])
        continue;
      raw.data[i] = repl[k];
      if (fails(&tr, raw.data, raw.len)) {
        fprintf(stderr, "CLEANSE: Replaced byte %zu with 0x%x\n", i, repl[k]);
        changed++;
        break;
      }
      raw.data[i] = orig;
    }
  }
  rc = cgofuzz_lf_write_file(o->exact_artifact_path, raw.data, raw.len, 0) == 0
           ? 0
           : LF_EXIT_USAGE;
  fprintf(stderr, "CLEANSE: %zu of %zu bytes replaced; written to %s\n",
          changed, raw.len, o->exact_artifact_path);
  fflush(stderr);
  teardown(&tr, &raw);
  return rc;
}
