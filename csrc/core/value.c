/*
 * value.c: fuzz argument values and lists of them.
 *
 * A BYTES or STRING value either owns its bytes (CGOFUZZ_VAL_OWNED) or
 * borrows them; only owned bytes are ever freed here. Lists own the
 * storage of the value array itself.
 */
#include "cgofuzz/value.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[CGOFUZZ_NKINDS] = {
    [CGOFUZZ_BYTES] = "[]byte",    [CGOFUZZ_STRING] = "string",
    [CGOFUZZ_BOOL] = "bool",       [CGOFUZZ_INT] = "int",
    [CGOFUZZ_INT8] = "int8",       [CGOFUZZ_INT16] = "int16",
    [CGOFUZZ_INT32] = "int32",     [CGOFUZZ_INT64] = "int64",
    [CGOFUZZ_UINT] = "uint",       [CGOFUZZ_UINT8] = "uint8",
    [CGOFUZZ_UINT16] = "uint16",   [CGOFUZZ_UINT32] = "uint32",
    [CGOFUZZ_UINT64] = "uint64",   [CGOFUZZ_FLOAT32] = "float32",
    [CGOFUZZ_FLOAT64] = "float64",
};

const char *cgofuzz_kind_name(cgofuzz_kind k) {
  return (unsigned)k < CGOFUZZ_NKINDS ? kind_names[k] : "?";
}

int cgofuzz_kind_parse(const char *name, cgofuzz_kind *out) {
  if (strcmp(name, "rune") == 0) {
    *out = CGOFUZZ_INT32;
    return 0;
  }
  if (strcmp(name, "byte") == 0) {
    *out = CGOFUZZ_UINT8;
    return 0;
  }
  for (int k = 0; k < CGOFUZZ_NKINDS; k++) {
    if (strcmp(name, kind_names[k]) == 0) {
      *out = (cgofuzz_kind)k;
      return 0;
    }
  }
  return -1;
}

static bool has_bytes(const cgofuzz_value *v) {
  return v->kind == CGOFUZZ_BYTES || v->kind == CGOFUZZ_STRING;
}

int cgofuzz_value_own(cgofuzz_value *v) {
  if (!has_bytes(v) || (v->flags & CGOFUZZ_VAL_OWNED))
    return 0;
  /* Always allocate at least one byte so an owned value has a pointer. */
  uint8_t *p = malloc(v->s.len ? v->s.len : 1);
  if (!p)
    return -1;
  if (v->s.len)
    memcpy(p, v->s.data, v->s.len);
  v->s.data = p;
  v->flags |= CGOFUZZ_VAL_OWNED;
  return 0;
}

void cgofuzz_value_release(cgofuzz_value *v) {
  if (has_bytes(v) && (v->flags & CGOFUZZ_VAL_OWNED))
    free(v->s.data);
  if (has_bytes(v)) {
    v->s.data = NULL;
    v->s.len = 0;
  }
  v->flags &= (uint8_t)~CGOFUZZ_VAL_OWNED;
}

int cgofuzz_values_push(cgofuzz_values *vs, const cgofuzz_value *v) {
  if (vs->n == vs->cap) {
    size_t cap = vs->cap ? vs->cap * 2 : 4;
    cgofuzz_value *p = realloc(vs->v, cap * sizeof *p);
    if (!p)
      return -1;
    vs->v = p;
    vs->cap = cap;
  }
  cgofuzz_value *dst = &vs->v[vs->n];
  *dst = *v;
  dst->flags &= (uint8_t)~CGOFUZZ_VAL_OWNED;
  if (cgofuzz_value_own(dst) != 0)
    return -1;
  vs->n++;
  return 0;
}

void cgofuzz_values_clear(cgofuzz_values *vs) {
  for (size_t i = 0; i < vs->n; i++)
    cgofuzz_value_release(&vs->v[i]);
  vs->n = 0;
}

void cgofuzz_values_free(cgofuzz_values *vs) {
  cgofuzz_values_clear(vs);
  free(vs->v);
  vs->v = NULL;
  vs->cap = 0;
}

int cgofuzz_values_copy(cgofuzz_values *dst, const cgofuzz_values *src) {
  for (size_t i = 0; i < src->n; i++) {
    if (cgofuzz_values_push(dst, &src->v[i]) != 0)
      return -1;
  }
  return 0;
}

static bool value_equal(const cgofuzz_value *a, const cgofuzz_value *b) {
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case CGOFUZZ_BYTES:
  case CGOFUZZ_STRING:
    return a->s.len == b->s.len &&
           (a->s.len == 0 || memcmp(a->s.data, b->s.data, a->s.len) == 0);
  case CGOFUZZ_BOOL:
    return a->b == b->b;
  case CGOFUZZ_FLOAT32:
    return memcmp(&a->f32, &b->f32, sizeof a->f32) == 0;
  case CGOFUZZ_FLOAT64:
    return memcmp(&a->f64, &b->f64, sizeof a->f64) == 0;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT8:
  case CGOFUZZ_INT16:
  case CGOFUZZ_INT32:
  case CGOFUZZ_INT64:
    return a->i == b->i;
  default:
    return a->u == b->u;
  }
}

bool cgofuzz_values_equal(const cgofuzz_values *a, const cgofuzz_values *b) {
  if (a->n != b->n)
    return false;
  for (size_t i = 0; i < a->n; i++) {
    if (!value_equal(&a->v[i], &b->v[i]))
      return false;
  }
  return true;
}
