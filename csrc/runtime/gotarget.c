/*
 * gotarget.c: C targets run from Go (package gofuzz), see gotarget.h.
 *
 * Values cross from Go as flat records because cgo cannot write C unions;
 * the bytes they point to are copied by the Go side into C memory first
 * (cgo forbids C memory holding Go pointers), so a target that keeps a
 * pointer past the call reads stale bytes, never freed Go memory.
 */
#include <stdlib.h>
#include <string.h>

#include "gotarget.h"
#include "runtime.h"

cgofuzz_f *cgofuzz_go_target(const char *name) {
  for (cgofuzz_f *f = cgofuzz_targets_(); f; f = f->next)
    if (strcmp(f->name, name) == 0)
      return f;
  return NULL;
}

const char *cgofuzz_go_target_name(size_t i) {
  cgofuzz_f *f = cgofuzz_targets_();
  while (f && i--)
    f = f->next;
  return f ? f->name : NULL;
}

size_t cgofuzz_go_nargs(const cgofuzz_f *f) { return f->nkinds; }

int cgofuzz_go_kind(const cgofuzz_f *f, size_t i) {
  return i < f->nkinds ? (int)f->kinds[i] : -1;
}

size_t cgofuzz_go_nseeds(cgofuzz_f *f) {
  cgofuzz_target_seed_(f);
  return f->nseeds;
}

/* Which field of a cgofuzz_go_arg carries a kind's value. */
typedef enum { ARG_P, ARG_BOOL, ARG_F32, ARG_F64, ARG_I, ARG_U } arg_field;

static arg_field field_of(cgofuzz_kind k) {
  switch (k) {
  case CGOFUZZ_BYTES:
  case CGOFUZZ_STRING:
    return ARG_P;
  case CGOFUZZ_BOOL:
    return ARG_BOOL;
  case CGOFUZZ_FLOAT32:
    return ARG_F32;
  case CGOFUZZ_FLOAT64:
    return ARG_F64;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT8:
  case CGOFUZZ_INT16:
  case CGOFUZZ_INT32:
  case CGOFUZZ_INT64:
    return ARG_I;
  default:
    return ARG_U;
  }
}

static void to_arg(const cgofuzz_value *v, cgofuzz_go_arg *a) {
  memset(a, 0, sizeof *a);
  switch (field_of(v->kind)) {
  case ARG_P:
    a->p = v->s.data;
    a->n = v->s.len;
    break;
  case ARG_BOOL:
    a->i = v->b;
    break;
  case ARG_F32:
    a->f = v->f32;
    break;
  case ARG_F64:
    a->f = v->f64;
    break;
  case ARG_I:
    a->i = v->i;
    break;
  case ARG_U:
    a->u = v->u;
    break;
  }
}

static void from_arg(const cgofuzz_go_arg *a, cgofuzz_kind k,
                     cgofuzz_value *v) {
  memset(v, 0, sizeof *v);
  v->kind = k;
  switch (field_of(k)) {
  case ARG_P:
    v->s.data = (uint8_t *)a->p;
    v->s.len = a->n;
    break;
  case ARG_BOOL:
    v->b = a->i != 0;
    break;
  case ARG_F32:
    v->f32 = (float)a->f;
    break;
  case ARG_F64:
    v->f64 = a->f;
    break;
  case ARG_I:
    v->i = a->i;
    break;
  case ARG_U:
    v->u = a->u;
    break;
  }
}

void cgofuzz_go_seed(const cgofuzz_f *f, size_t k, cgofuzz_go_arg *out) {
  const cgofuzz_values *s = &f->seeds[k];
  for (size_t i = 0; i < s->n; i++)
    to_arg(&s->v[i], &out[i]);
}

/* The handle and value array of the running exec, reused. */
static cgofuzz_t go_t;
static cgofuzz_value *go_vals;
static size_t go_cap;

/* The report of the last leak (cgofuzz_go_exec's status 3). Leak
 * detection itself is package gofuzz's: its init installs the counting
 * (cgofuzz_leak_init_, a no-op without LeakSanitizer) before any exec;
 * ASAN_OPTIONS=detect_leaks=0 turns LeakSanitizer's check, and so this
 * one, off. */
static cgofuzz_buf go_leak_report;

int cgofuzz_go_exec(cgofuzz_f *f, const cgofuzz_go_arg *args, const char **log,
                    size_t *loglen) {
  if (go_cap < f->nkinds) {
    cgofuzz_value *v = realloc(go_vals, f->nkinds * sizeof *v);
    if (!v) {
      static const char oom[] = "cgofuzz: out of memory\n";
      *log = oom;
      *loglen = sizeof oom - 1;
      return 1;
    }
    go_vals = v;
    go_cap = f->nkinds;
  }
  for (size_t i = 0; i < f->nkinds; i++)
    from_arg(&args[i], f->kinds[i], &go_vals[i]);
  cgofuzz_leak_begin_();
  cgofuzz_run r = cgofuzz_target_exec_(f, &go_t, go_vals);
  bool suspect = cgofuzz_leak_end_();
  /* As a C worker does (worker_exec.c), but the report becomes the
   * failure's message instead of ending the process. */
  if (suspect && r != CGOFUZZ_RUN_FAIL &&
      cgofuzz_leak_rerun_(f, &go_t, go_vals)) {
    go_leak_report.len = 0;
    if (cgofuzz_leak_check_report_(&go_leak_report)) {
      *log = (const char *)go_leak_report.data;
      *loglen = go_leak_report.len;
      return 3;
    }
  }
  *log = (const char *)go_t.log.data;
  *loglen = go_t.log.len;
  return r == CGOFUZZ_RUN_FAIL ? 1 : r == CGOFUZZ_RUN_SKIP ? 2 : 0;
}

int cgofuzz_go_serve(cgofuzz_f *f, const char *name, int64_t timeout_ns) {
  cgofuzz_worker_opts_ o = {.dict = NULL,
                            .timeout_ns = timeout_ns,
                            .rss_limit_mb = -1,
                            .malloc_limit_mb = -1,
                            .wait_for_mask = true,
                            .name = name,
                            .detect_leaks = true};
  return cgofuzz_serve_worker_(f, &o);
}
