/*
 * coord_fast.c: which binary the fuzzing workers run: the "fast" copy of a
 * Go test binary (gobin_copy.c, gobin_patch.c), whose coverage snapshot
 * goes eight counters at a time and, in a fuzz call, stops at the last
 * non-zero counter, or the binary itself.
 *
 * Invariants: the copy is made before the first worker starts, and each
 * slot's control page (gobin_patch.h) exists before its first call, so a
 * worker process never runs the copy without one; a copy that cannot be
 * made leaves the workers on the user's binary, as Go's coordinator runs
 * it (-v says why). CGOFUZZ_GO_SNAPSHOT=go keeps Go's own loop, =cut cuts
 * every fuzz call's snapshot (for comparisons: bench/cgo/cgo_cost.py).
 * Under -panic-on the copy also traps the functions listed (gobin_patch.h),
 * and is made even where the snapshot cannot be: a run that cannot trap
 * them fails before any worker starts, never runs without the check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coord_internal.h"
#include "gobin.h"
#include "gobin_obj.h"
#include "gobin_patch.h"
#include "text.h"

/* A sanitizer's runtime symbolizes its reports from the file the process
 * maps, which for a memfd copy is not there to read: such a binary's copy
 * is a file (its reports must name the C functions, docs/cgo.md). Which
 * sanitizers the binary has: 1, any; 2, AddressSanitizer (its inputs get
 * a red zone, gobin_patch.c). A binary that cannot be read counts as
 * sanitized. */
static unsigned sanitizers(const char *binary) {
  static const char *const names[] = {"AddressSanitizer", "MemorySanitizer",
                                      "ThreadSanitizer",
                                      "UndefinedBehaviorSanitizer"};
  cgofuzz_gobin_obj o;
  if (cgofuzz_gobin_obj_open(&o, binary, false, NULL) != 0)
    return 1;
  unsigned found = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (cgofuzz_text_find(o.map, o.len, names[i], strlen(names[i])))
      found |= i == 0 ? 3 : 1;
  cgofuzz_gobin_obj_close(&o);
  return found;
}

bool cgofuzz_coord_trap_note(const coord *c, const char *msg, size_t len,
                             cgofuzz_buf *out) {
  cgofuzz_gobin_traps t = {(const char *const *)c->trap_names, c->n_traps};
  int k = cgofuzz_gobin_trap_hit(msg, len, &t, &c->trapped);
  if (k < 0)
    return false;
  cgofuzz_buf_printf(
      out,
      "panic-on-call: %s (cgofuzz -panic-on: the fault below, a nil "
      "dereference at its entry or a SIGTRAP where it was "
      "inlined, is that call)\n",
      c->trap_names[k]);
  cgofuzz_buf_append(out, msg, len);
  return !out->failed;
}

/* The copy's patches: the snapshot (unless CGOFUZZ_GO_SNAPSHOT=go), a
 * red zone for an ASan binary (san & 2), -panic-on's traps. */
static int patch_fast(coord *c, unsigned san, bool snapshot, const char *out,
                      cgofuzz_gobin_patched *info, cgofuzz_err *err) {
  cgofuzz_gobin_traps traps = {(const char *const *)c->trap_names, c->n_traps};
  unsigned flags = !snapshot ? 0
                             : CGOFUZZ_GOBIN_PATCH_SNAPSHOT |
                                   (san & 2 ? CGOFUZZ_GOBIN_PATCH_REDZONE : 0);
  return cgofuzz_gobin_patch(c->cfg->binary, out, 0, 0, flags, &traps, info,
                             err);
}

int cgofuzz_coord_fast_copy(coord *c) {
  const char *snap = getenv("CGOFUZZ_GO_SNAPSHOT");
  c->fast.mfd = -1;
  /* "cut": every fuzz call's snapshot as long as its last counter, even
   * without a new bit (for comparisons: bench/cgo/cgo_cost.py). */
  c->fuzz_ctl =
      snap && strcmp(snap, "cut") == 0 ? CGOFUZZ_CTL_CUT : CGOFUZZ_CTL_NEW;
  bool snapshot = c->mask_len && !(snap && strcmp(snap, "go") == 0);
  if (cgofuzz_gobin_traps_split(c->cfg->panic_on, &c->trap_names,
                                &c->n_traps) != 0) {
    cgofuzz_coord_failf(c, "%s", "out of memory");
    return -1;
  }
  if (!snapshot && !c->n_traps)
    return 0; /* not a Go binary built with -fuzz, or asked not to */
  unsigned san = sanitizers(c->cfg->binary);
  cgofuzz_buf out = {0};
  cgofuzz_err err = {0};
  cgofuzz_gobin_patched info = {0};
  int rc = 0;
  if (cgofuzz_gobin_copy_path(&c->fast, c->cfg->binary, "cgofuzz-fast",
                              san != 0, &out, &err) != 0 ||
      patch_fast(c, san, snapshot, cgofuzz_buf_cstr(&out), &info, &err) != 0 ||
      (!info.snapshots && !info.traps)) {
    cgofuzz_gobin_copy_free(&c->fast);
    if (c->n_traps) { /* asked for: never a run that cannot see them */
      cgofuzz_coord_failf(c, "%s", err.msg[0] ? err.msg : "-panic-on: no copy");
      rc = -1;
    } else if (cgofuzz_coord_says(c)) {
      fprintf(stderr, "cgofuzz: coverage snapshot: Go's own loop (%s)\n",
              err.msg[0] ? err.msg : "its SnapshotCoverage was not found");
    }
  } else {
    c->fast.redzone = info.redzone;
    c->trapped = info; /* its sites are the run's now */
    info.sites = NULL;
    /* Without a page a slot's snapshot keeps its full length: slower, as
     * right. */
    for (size_t i = 0; info.snapshots && i < c->n_init; i++)
      cgofuzz_coord_worker_ctl_init(&c->slots[i].w, c->mask_len, &err);
    if (cgofuzz_coord_says(c) && info.snapshots)
      fprintf(stderr,
              "cgofuzz: coverage snapshot: the workers run a copy of %s that "
              "snapshots its %zu counters eight at a time%s\n",
              c->cfg->binary, c->mask_len,
              info.redzone ? ", and poisons the bytes after each []byte "
                             "input (AddressSanitizer)"
                           : "");
    for (size_t k = 0; cgofuzz_coord_says(c) && k < info.traps; k++)
      fprintf(stderr,
              "cgofuzz: -panic-on: a call of %s panics in the workers' copy "
              "(%s, %zu inlined call%s)\n",
              c->trap_names[k],
              info.trap_pc[k] ? "its entry"
                              : "not compiled "
                                "on its own",
              info.trap_inlined[k], info.trap_inlined[k] == 1 ? "" : "s");
  }
  cgofuzz_gobin_patched_free(&info);
  cgofuzz_buf_free(&out);
  return rc;
}

void cgofuzz_coord_fast_report(const coord *c) {
  uint64_t execs = 0, finds = 0, sized = 0, picked = 0, pooled = 0;
  for (size_t i = 0; i < c->n_init; i++) {
    const uint8_t *ctl = c->slots[i].w.ctl;
    uint64_t e, f, z, p, q;
    if (!ctl)
      continue;
    memcpy(&e, ctl + CGOFUZZ_CTL_LOOP_EXECS, 8);
    memcpy(&f, ctl + CGOFUZZ_CTL_LOOP_FINDS, 8);
    memcpy(&z, ctl + CGOFUZZ_CTL_LOOP_SIZED, 8);
    memcpy(&p, ctl + CGOFUZZ_CTL_LOOP_PICKED, 8);
    memcpy(&q, ctl + CGOFUZZ_CTL_LOOP_POOLED, 8);
    execs += e, finds += f, sized += z, picked += p, pooled += q;
  }
  if (execs && cgofuzz_coord_says(c))
    fprintf(stderr,
            "cgofuzz: cgo loop: %llu inputs run again at the cgo boundary, "
            "%llu of them new C coverage (%llu joined the corpus "
            "unminimized), %llu with an output buffer sized by their own "
            "size query, %llu mutants of the coordinator's pick, %llu of "
            "its picks crossed in\n",
            (unsigned long long)execs, (unsigned long long)finds,
            (unsigned long long)c->looped, (unsigned long long)sized,
            (unsigned long long)picked, (unsigned long long)pooled);
}
