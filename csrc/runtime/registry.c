/*
 * registry.c: registered fuzz targets, their seeds, and one exec.
 *
 * Targets register from constructors, before main, so the registry is a
 * plain list with no locking. An exec runs the target function under
 * setjmp: fatalf/failnow/skip longjmp back here, the way Go's t.FailNow and
 * t.SkipNow end the test goroutine. Log text is collected per exec and only
 * formatted into Go's "--- FAIL" layout by the callers, which know the name
 * to print.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static cgofuzz_f *registry, **registry_tail = &registry;

cgofuzz_f *cgofuzz_targets_(void) { return registry; }

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(2);
}

cgofuzz_f *cgofuzz_register(const char *name, cgofuzz_fn fn,
                            const cgofuzz_kind *kinds, size_t nkinds,
                            cgofuzz_seed_fn seeds) {
  if (!name || strncmp(name, "Fuzz", 4) != 0)
    die("cgofuzz: target name %s must start with Fuzz", name ? name : "");
  if (nkinds == 0)
    die("cgofuzz: target %s needs at least one argument", name);
  if (!fn)
    die("cgofuzz: target %s has no function", name);
  for (size_t i = 0; i < nkinds; i++)
    if ((unsigned)kinds[i] >= CGOFUZZ_NKINDS)
      die("cgofuzz: target %s has an unknown argument kind", name);
  for (cgofuzz_f *g = registry; g; g = g->next)
    if (strcmp(g->name, name) == 0)
      die("cgofuzz: target %s registered twice", name);
  cgofuzz_f *f = calloc(1, sizeof *f);
  if (!f || !(f->name = strdup(name)) ||
      !(f->kinds = malloc((nkinds ? nkinds : 1) * sizeof *kinds)))
    die("cgofuzz: out of memory registering %s", name);
  memcpy(f->kinds, kinds, nkinds * sizeof *kinds);
  f->nkinds = nkinds;
  f->fn = fn;
  f->seed_fn = seeds;
  *registry_tail = f;
  registry_tail = &f->next;
  return f;
}

void cgofuzz_target_seed_(cgofuzz_f *f) {
  if (f->seeded)
    return;
  f->seeded = true;
  if (f->seed_fn)
    f->seed_fn(f);
}

/* Go's reflect spelling, used in its type-mismatch messages. */
static const char *reflect_name(cgofuzz_kind k) {
  return k == CGOFUZZ_BYTES ? "[]uint8" : cgofuzz_kind_name(k);
}

static void kinds_list(cgofuzz_buf *b, const cgofuzz_kind *k, size_t n,
                       const cgofuzz_value *v) {
  cgofuzz_buf_putc(b, '[');
  for (size_t i = 0; i < n; i++)
    cgofuzz_buf_printf(b, "%s%s", i ? " " : "",
                       reflect_name(v ? v[i].kind : k[i]));
  cgofuzz_buf_putc(b, ']');
}

int cgofuzz_target_check_(const cgofuzz_f *f, const cgofuzz_values *vals,
                          cgofuzz_err *err) {
  if (vals->n != f->nkinds)
    return cgofuzz_errf(err, 0,
                        "wrong number of values in corpus entry: %zu, want %zu",
                        vals->n, f->nkinds);
  for (size_t i = 0; i < vals->n; i++) {
    if (vals->v[i].kind == f->kinds[i])
      continue;
    cgofuzz_buf b = {0};
    kinds_list(&b, NULL, vals->n, vals->v);
    cgofuzz_buf_puts(&b, ", want ");
    kinds_list(&b, f->kinds, f->nkinds, NULL);
    cgofuzz_buf_putc(&b, 0);
    cgofuzz_errf(err, 0, "mismatched types in corpus entry: %s",
                 b.data ? (char *)b.data : "");
    cgofuzz_buf_free(&b);
    return -1;
  }
  return 0;
}

void cgofuzz_add_values(cgofuzz_f *f, const cgofuzz_value *vals, size_t n) {
  cgofuzz_values src = {(cgofuzz_value *)vals, n, n}, copy = {0};
  cgofuzz_err err;
  if (cgofuzz_target_check_(f, &src, &err) != 0) {
    fprintf(stderr, "--- FAIL: %s\n    f.Add: %s\n", f->name, err.msg);
    exit(1);
  }
  cgofuzz_values *seeds = realloc(f->seeds, (f->nseeds + 1) * sizeof *seeds);
  if (!seeds || cgofuzz_values_copy(&copy, &src) != 0)
    die("cgofuzz: out of memory adding a seed to %s", f->name);
  f->seeds = seeds;
  f->seeds[f->nseeds++] = copy;
}

void cgofuzz_add(cgofuzz_f *f, ...) {
  cgofuzz_value *v = calloc(f->nkinds ? f->nkinds : 1, sizeof *v);
  if (!v)
    die("cgofuzz: out of memory adding a seed to %s", f->name);
  va_list ap;
  va_start(ap, f);
  for (size_t i = 0; i < f->nkinds; i++) {
    cgofuzz_kind k = f->kinds[i];
    v[i].kind = k;
    switch (k) {
    case CGOFUZZ_BYTES:
    case CGOFUZZ_STRING:
      v[i].s.data = (uint8_t *)va_arg(ap, const void *);
      v[i].s.len = va_arg(ap, size_t);
      break;
    case CGOFUZZ_BOOL:
      v[i].b = va_arg(ap, int) != 0;
      break;
    case CGOFUZZ_INT:
    case CGOFUZZ_INT64:
      v[i].i = va_arg(ap, int64_t);
      break;
    /* Narrow kinds keep Go's range: truncate as a Go conversion would. */
    case CGOFUZZ_INT8:
      v[i].i = (int8_t)va_arg(ap, int64_t);
      break;
    case CGOFUZZ_INT16:
      v[i].i = (int16_t)va_arg(ap, int64_t);
      break;
    case CGOFUZZ_INT32:
      v[i].i = (int32_t)va_arg(ap, int64_t);
      break;
    case CGOFUZZ_UINT:
    case CGOFUZZ_UINT64:
      v[i].u = va_arg(ap, uint64_t);
      break;
    case CGOFUZZ_UINT8:
      v[i].u = (uint8_t)va_arg(ap, uint64_t);
      break;
    case CGOFUZZ_UINT16:
      v[i].u = (uint16_t)va_arg(ap, uint64_t);
      break;
    case CGOFUZZ_UINT32:
      v[i].u = (uint32_t)va_arg(ap, uint64_t);
      break;
    case CGOFUZZ_FLOAT32:
      v[i].f32 = (float)va_arg(ap, double);
      break;
    case CGOFUZZ_FLOAT64:
      v[i].f64 = va_arg(ap, double);
      break;
    default:
      break;
    }
  }
  va_end(ap);
  cgofuzz_add_values(f, v, f->nkinds);
  free(v);
}

/* ---- the test handle ---- */

static void vlog(cgofuzz_t *t, const char *file, int line, const char *fmt,
                 va_list ap) {
  const char *base = strrchr(file, '/');
  cgofuzz_buf_printf(&t->log, "%s:%d: ", base ? base + 1 : file, line);
  char small[256];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n >= 0 && (size_t)n < sizeof small) {
    cgofuzz_buf_append(&t->log, small, (size_t)n);
  } else if (n >= 0 && cgofuzz_buf_reserve(&t->log, (size_t)n + 1) == 0) {
    vsnprintf((char *)t->log.data + t->log.len, (size_t)n + 1, fmt, ap2);
    t->log.len += (size_t)n;
  }
  va_end(ap2);
  /* Go ends every log entry with exactly one newline. */
  if (t->log.len == 0 || t->log.data[t->log.len - 1] != '\n')
    cgofuzz_buf_putc(&t->log, '\n');
}

void cgofuzz_fail(cgofuzz_t *t) { t->failed = true; }
int cgofuzz_failed(const cgofuzz_t *t) { return t->failed; }

_Noreturn void cgofuzz_failnow(cgofuzz_t *t) {
  t->failed = true;
  longjmp(t->jb, 1);
}

_Noreturn void cgofuzz_skip(cgofuzz_t *t) {
  t->skipped = true;
  longjmp(t->jb, 1);
}

void cgofuzz_logf_at(cgofuzz_t *t, const char *file, int line, const char *fmt,
                     ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(t, file, line, fmt, ap);
  va_end(ap);
}

void cgofuzz_errorf_at(cgofuzz_t *t, const char *file, int line,
                       const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(t, file, line, fmt, ap);
  va_end(ap);
  t->failed = true;
}

_Noreturn void cgofuzz_fatalf_at(cgofuzz_t *t, const char *file, int line,
                                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(t, file, line, fmt, ap);
  va_end(ap);
  cgofuzz_failnow(t);
}

cgofuzz_run cgofuzz_target_exec_(cgofuzz_f *f, cgofuzz_t *t,
                                 const cgofuzz_value *vals) {
  t->f = f;
  t->failed = false;
  t->skipped = false;
  t->log.len = 0;
  if (setjmp(t->jb) == 0)
    f->fn(t, vals);
  if (t->failed)
    return CGOFUZZ_RUN_FAIL;
  return t->skipped ? CGOFUZZ_RUN_SKIP : CGOFUZZ_RUN_PASS;
}
