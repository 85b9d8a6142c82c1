/*
 * coord_exact.c: the coordinator's side of the exact-input slot
 * (csrc/core/exact.h). A C worker told through CGOFUZZ_EXACT_SLOT=1 that
 * we read the slot may run inputs Go's mutator cannot replay (trace-cmp,
 * dictionary); the input that ended a call is then taken from the slot.
 * Where the slot lies and what its fields are is exact.h's business (the
 * worker, csrc/runtime/worker_exact.c, uses the same accessors); this file
 * only decides whether a slot is trustworthy: its count must be this
 * call's, its length must fit, and its input must have the target's types
 * (the raw form: it must replace a []byte or string argument). And what
 * input a worker ran (cgofuzz_coord_rebuild): the slot's, else the value
 * sent replayed with the worker's mutations.
 */
#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "coord_internal.h"
#include "exact.h"
#include "mutator.h"

int cgofuzz_coord_set_value(cgofuzz_shm *m, const uint8_t *b, size_t len,
                            cgofuzz_err *err) {
  if (cgofuzz_shm_set_value(m, b, len, err) != 0)
    return -1;
  /* A worker that dies before its first exec must not leave the previous
   * call's slot looking valid for this value. */
  cgofuzz_exact_clear(m);
  return 0;
}

int cgofuzz_coord_exact_call(cgofuzz_shm *m, const uint8_t *v, size_t len,
                             int64_t timeout_ns, cgofuzz_buf *line,
                             cgofuzz_err *err) {
  cgofuzz_shm_hdr(m)->count = 0;
  if (cgofuzz_coord_set_value(m, v, len, err) != 0)
    return -1;
  cgofuzz_call call = {.kind = CGOFUZZ_CALL_FUZZ};
  call.fuzz.timeout_ns = timeout_ns;
  call.fuzz.limit = 1;
  call.fuzz.warmup = true;
  line->len = 0;
  if (cgofuzz_wire_encode_call(&call, line) != 0)
    return cgofuzz_errf(err, 0, "out of memory");
  return 0;
}

/* A slot that fails a check is not used: the input is rebuilt by replay,
 * as for a Go worker. Says why with -v; returns 0 (no exact input). */
static int ignore_slot(const coord *c, const char *why) {
  if (c->cfg->verbose && !c->cfg->quiet)
    fprintf(stderr,
            "cgofuzz: ignoring the worker's exact-input slot (%s); "
            "replaying the mutations instead\n",
            why);
  return 0;
}

int cgofuzz_coord_exact_input(coord *c, slot *s, cgofuzz_buf *out) {
  const cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  size_t room;
  const uint8_t *p = cgofuzz_exact_slot(&s->w.mem, CGOFUZZ_EXACT_HDR, &room);
  if (!p)
    return 0;
  cgofuzz_exact_hdr e;
  cgofuzz_exact_read(p, CGOFUZZ_EXACT_HDR, &e);
  if (e.magic != CGOFUZZ_EXACT_MAGIC)
    return 0; /* a Go worker, or a replayable input: replay */
  const uint8_t *data = cgofuzz_exact_data(p, CGOFUZZ_EXACT_HDR);
  const char *why = NULL;
  cgofuzz_buf msg = {0};
  if (e.count != h->count)
    why = "its count is stale";
  else if (e.len > room)
    why = "its length exceeds the shared memory";
  else if (cgofuzz_coord_corpus_typecheck(data, (size_t)e.len, c->cfg->kinds,
                                          c->cfg->n_kinds, coord_gover(c->cfg),
                                          &msg) != 0)
    why = cgofuzz_buf_cstr(&msg);
  if (why) {
    ignore_slot(c, why);
    cgofuzz_buf_free(&msg);
    return 0;
  }
  cgofuzz_buf_free(&msg);
  out->len = 0;
  if (cgofuzz_buf_append(out, data, (size_t)e.len) != 0)
    return -1;
  return 1;
}

/* The slot's header when it is in the raw form (its magic), else NULL. */
static const uint8_t *raw_slot(const slot *s, cgofuzz_exact_hdr *e,
                               size_t *room) {
  const uint8_t *p = cgofuzz_exact_slot(&s->w.mem, CGOFUZZ_EXACT_RAW_HDR, room);
  if (!p)
    return NULL;
  cgofuzz_exact_read(p, CGOFUZZ_EXACT_RAW_HDR, e);
  return e->magic == CGOFUZZ_EXACT_RAW_MAGIC ? p : NULL;
}

bool cgofuzz_coord_exact_looped(const slot *s) {
  size_t room;
  cgofuzz_exact_hdr e;
  return s->w.ctl && raw_slot(s, &e, &room) &&
         e.count == cgofuzz_shm_hdr(&s->w.mem)->count;
}

int cgofuzz_coord_exact_raw(coord *c, slot *s, size_t *index,
                            const uint8_t **data, size_t *len) {
  const cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  size_t room;
  cgofuzz_exact_hdr e;
  const uint8_t *p = raw_slot(s, &e, &room);
  if (!p)
    return 0;
  const char *why = NULL;
  if (e.count != h->count)
    why = "its count is stale";
  else if (e.len > room)
    why = "its length exceeds the shared memory";
  else if (e.index >= c->cfg->n_kinds ||
           (c->cfg->kinds[e.index] != CGOFUZZ_BYTES &&
            c->cfg->kinds[e.index] != CGOFUZZ_STRING))
    why = "it names an argument that is not []byte or string";
  if (why)
    return ignore_slot(c, why);
  *index = (size_t)e.index;
  *data = cgofuzz_exact_data(p, CGOFUZZ_EXACT_RAW_HDR);
  *len = (size_t)e.len;
  return 1;
}

/* Rebuilds the input a worker ran: the exact input a C worker left in the
 * slot, else the value sent (the entry's, or a feedback call's own),
 * mutated as the worker did from the PCG state it saved in shm (none for a
 * warm-up call or a feedback call's exact run). */
int cgofuzz_coord_rebuild(coord *c, slot *s, int64_t count, cgofuzz_buf *out) {
  int ex = cgofuzz_coord_exact_input(c, s, out);
  if (ex != 0) {
    if (ex < 0)
      cgofuzz_coord_failf(c, "%s", "out of memory");
    return ex > 0 ? 0 : -1;
  }
  const cgofuzz_centry *e = &c->corpus.e[s->entry];
  const uint8_t *base = s->call.kind ? s->call.value.data : e->data;
  size_t base_len = s->call.kind ? s->call.value.len : e->len;
  cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, h->rand_state, h->rand_inc);
  int rc = -1;
  if (cgofuzz_codec_decode_v(base, base_len, coord_gover(c->cfg), &vals,
                             &err) != 0)
    goto done;
  if (!s->warmup) {
    int64_t k = ((count - 1) % CGOFUZZ_CHAINED_MUTATIONS) + 1;
    for (int64_t i = 0; i < k; i++)
      if (cgofuzz_mutate(&m, vals.v, vals.n, cgofuzz_shm_value_cap(&s->w.mem),
                         &err) != 0)
        goto done;
  }
  /* A raw slot: the replayed values with one argument replaced. */
  size_t idx, rlen;
  const uint8_t *raw;
  if (cgofuzz_coord_exact_raw(c, s, &idx, &raw, &rlen) == 1 && idx < vals.n) {
    cgofuzz_value v = vals.v[idx];
    v.flags = 0;
    v.s.data = (uint8_t *)raw;
    v.s.len = rlen;
    if (cgofuzz_value_own(&v) != 0) {
      snprintf(err.msg, sizeof err.msg, "out of memory");
      goto done;
    }
    cgofuzz_value_release(&vals.v[idx]);
    vals.v[idx] = v;
  }
  out->len = 0;
  if (cgofuzz_codec_encode_v(vals.v, vals.n, coord_gover(c->cfg), out, &err) !=
      0)
    goto done;
  rc = 0;
done:
  if (rc != 0)
    cgofuzz_coord_failf(c, "rebuilding the fuzzed input: %s", err.msg);
  cgofuzz_values_free(&vals); /* before the mutator: values borrow scratch */
  cgofuzz_mutator_free(&m);
  return rc;
}
