/*
 * coord_exact.c: the coordinator's side of the exact-input slot
 * (cgofuzz/exact.h). A C worker told through CGOFUZZ_EXACT_SLOT=1 that we
 * read the slot may run inputs Go's mutator cannot replay (trace-cmp,
 * dictionary); the input that ended a call is then taken from the slot.
 */
#include <stdio.h>
#include <string.h>

#include "coord_internal.h"
#include "exact.h"

int cgofuzz_coord_set_value(cgofuzz_shm *m, const uint8_t *b, size_t len,
                            cgofuzz_err *err) {
  if (cgofuzz_shm_set_value(m, b, len, err) != 0)
    return -1;
  /* A worker that dies before its first exec must not leave the previous
   * call's slot looking valid for this value. */
  uint64_t off = CGOFUZZ_EXACT_OFF(len);
  if (off + 8 <= cgofuzz_shm_value_cap(m))
    memset(cgofuzz_shm_value(m) + off, 0, 8);
  return 0;
}

/* Locates the slot after the value in s's shared memory, if a header of
 * hdr bytes fits there; *room is what follows it. NULL if it does not. */
static const uint8_t *slot_at(slot *s, size_t hdr, uint64_t *room) {
  const cgofuzz_shm *m = &s->w.mem;
  const cgofuzz_shm_header *h = cgofuzz_shm_hdr(m);
  size_t cap = cgofuzz_shm_value_cap(m);
  if (h->value_len < 0 || (uint64_t)h->value_len > cap)
    return NULL;
  uint64_t off = CGOFUZZ_EXACT_OFF(h->value_len);
  if (off > cap || cap - off < hdr)
    return NULL;
  *room = cap - off - hdr;
  return cgofuzz_shm_value(m) + off;
}

/* A slot that fails a check is not used: the input is rebuilt by replay,
 * as for a Go worker. Says why with -v; returns 0 (no exact input). */
static int ignore_slot(const coord *c, const char *why) {
  if (c->cfg->verbose)
    fprintf(stderr,
            "cgofuzz: ignoring the worker's exact-input slot (%s); "
            "replaying the mutations instead\n",
            why);
  return 0;
}

int cgofuzz_coord_exact_input(coord *c, slot *s, cgofuzz_buf *out) {
  const cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  uint64_t room;
  const uint8_t *p = slot_at(s, CGOFUZZ_EXACT_HDR, &room);
  if (!p)
    return 0;
  uint64_t magic, len;
  int64_t count;
  memcpy(&magic, p, 8);
  memcpy(&count, p + 8, 8);
  memcpy(&len, p + 16, 8);
  if (magic != CGOFUZZ_EXACT_MAGIC)
    return 0; /* a Go worker, or a replayable input: replay */
  const char *why = NULL;
  cgofuzz_buf msg = {0};
  if (count != h->count)
    why = "its count is stale";
  else if (len > room)
    why = "its length exceeds the shared memory";
  else if (cgofuzz_coord_corpus_typecheck(p + CGOFUZZ_EXACT_HDR, (size_t)len,
                                          c->cfg->kinds, c->cfg->n_kinds,
                                          &msg) != 0)
    why = coord_cstr(&msg);
  if (why) {
    ignore_slot(c, why);
    cgofuzz_buf_free(&msg);
    return 0;
  }
  cgofuzz_buf_free(&msg);
  out->len = 0;
  if (cgofuzz_buf_append(out, p + CGOFUZZ_EXACT_HDR, (size_t)len) != 0)
    return -1;
  return 1;
}

int cgofuzz_coord_exact_raw(coord *c, slot *s, size_t *index,
                            const uint8_t **data, size_t *len) {
  const cgofuzz_shm_header *h = cgofuzz_shm_hdr(&s->w.mem);
  uint64_t room;
  const uint8_t *p = slot_at(s, CGOFUZZ_EXACT_RAW_HDR, &room);
  if (!p)
    return 0;
  uint64_t magic, l, idx;
  int64_t count;
  memcpy(&magic, p, 8);
  memcpy(&count, p + 8, 8);
  memcpy(&l, p + 16, 8);
  memcpy(&idx, p + 24, 8);
  if (magic != CGOFUZZ_EXACT_RAW_MAGIC)
    return 0;
  const char *why = NULL;
  if (count != h->count)
    why = "its count is stale";
  else if (l > room)
    why = "its length exceeds the shared memory";
  else if (idx >= c->cfg->n_kinds || (c->cfg->kinds[idx] != CGOFUZZ_BYTES &&
                                      c->cfg->kinds[idx] != CGOFUZZ_STRING))
    why = "it names an argument that is not []byte or string";
  if (why)
    return ignore_slot(c, why);
  *index = (size_t)idx;
  *data = p + CGOFUZZ_EXACT_RAW_HDR;
  *len = (size_t)l;
  return 1;
}
