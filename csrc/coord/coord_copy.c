/*
 * coord_copy.c: the patched copies of the user's binary that cgofuzz runs
 * (coord_cmppatch.c makes their bytes), and where they live.
 *
 *  - a copy lives in memory (a memfd), executed through our descriptor's
 *    /proc path, so that nothing is left on disk even when we are
 *    SIGKILLed; where a memfd cannot be made (or has no path others can
 *    exec it by: Darwin), and for a binary with a sanitizer runtime (which
 *    symbolizes its reports from the file the process maps), in a private
 *    directory inside the scratch directory (scratch.h: removed however
 *    we end) removed by cgofuzz_coord_copy_free;
 *  - the user's binary is never written, and every message names it, not
 *    the copy: a copy differs only by a segment added at the end (the text
 *    and the symbols are the user's), so addresses, reports and reproduce
 *    lines hold for both; a report quoted from a worker's stderr has the
 *    copy's file name replaced by the binary's (cgofuzz_coord_copy_unname);
 *  - the fuzzing workers run the "fast" copy, whose coverage snapshot goes
 *    eight counters at a time and, in a fuzz call, stops at the last
 *    non-zero counter (CGOFUZZ_CMP_PATCH_SNAPSHOT); each slot then has a
 *    control page (coord_worker.h) that tells the copy which calls those
 *    are, and a fuzz call's coverage may come back shorter than the
 *    counter range (coord_resp.c pads it). Where the copy cannot be made,
 *    the workers run the binary itself, as Go's coordinator does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coord_internal.h"
#include "coord_obj_internal.h"
#include "coord_worker.h"
#include "dir.h"
#include "os.h"
#include "scratch.h"
#include "text.h"

int cgofuzz_coord_copy_path(cgofuzz_coord_copy *cp, const char *binary,
                            const char *tag, bool on_disk, cgofuzz_buf *out,
                            cgofuzz_err *err) {
  char selfpath[64], pidpath[64];
  memset(cp, 0, sizeof *cp);
  cp->mfd = on_disk ? -1 : cgofuzz_os_anon_file(tag);
  if (cp->mfd >= 0 &&
      (cgofuzz_os_fd_path(0, cp->mfd, selfpath, sizeof selfpath) != 0 ||
       cgofuzz_os_fd_path(getpid(), cp->mfd, pidpath, sizeof pidpath) != 0)) {
    close(cp->mfd);
    cp->mfd = -1;
  }
  out->len = 0;
  if (cp->mfd >= 0) {
    cgofuzz_buf_puts(out, selfpath);
    cp->path = strdup(pidpath);
  } else {
    const char *home = cgofuzz_scratch_dir();
    cgofuzz_buf_printf(out, "%s/%s-XXXXXX", home ? home : cgofuzz_tmpdir(),
                       tag);
    if (!(cp->dir = strdup(coord_cstr(out))) || !mkdtemp(cp->dir)) {
      int e = errno;
      free(cp->dir);
      cp->dir = NULL;
      return cgofuzz_errf(err, 0, "cannot make a temporary directory: %s",
                          strerror(e));
    }
    const char *base = strrchr(binary, '/');
    out->len = 0;
    cgofuzz_buf_printf(out, "%s/%s", cp->dir, base ? base + 1 : binary);
    cp->path = strdup(coord_cstr(out));
  }
  if (!cp->path || coord_cstr(out)[0] == 0) {
    cgofuzz_coord_copy_free(cp);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  return 0;
}

void cgofuzz_coord_copy_free(cgofuzz_coord_copy *cp) {
  if (cp->dir)
    cgofuzz_dir_remove_all(cp->dir);
  if (cp->mfd >= 0)
    close(cp->mfd);
  free(cp->dir);
  free(cp->path);
  memset(cp, 0, sizeof *cp);
  cp->mfd = -1;
}

void cgofuzz_coord_copy_unname(const cgofuzz_coord_copy *cp, const char *binary,
                               cgofuzz_worker *w) {
  size_t k = cp->dir && cp->path ? strlen(cp->path) : 0;
  if (!k || !w->tail || w->tail_len < k)
    return;
  cgofuzz_buf b = {0};
  const uint8_t *t = w->tail, *end = t + w->tail_len, *q;
  while ((q = cgofuzz_text_find(t, (size_t)(end - t), cp->path, k)) != NULL) {
    cgofuzz_buf_append(&b, t, (size_t)(q - t));
    cgofuzz_buf_puts(&b, binary);
    t = q + k;
  }
  cgofuzz_buf_append(&b, t, (size_t)(end - t));
  if (!b.failed && t != w->tail) { /* the newest bytes, as the tail keeps */
    size_t n = b.len < CGOFUZZ_WORKER_TAIL ? b.len : CGOFUZZ_WORKER_TAIL;
    memcpy(w->tail, b.data + (b.len - n), n);
    w->tail_len = n;
  }
  cgofuzz_buf_free(&b);
}

void cgofuzz_coord_copy_note(const cgofuzz_coord_copy *cp,
                             const cgofuzz_worker *w, cgofuzz_buf *why) {
  static const char poison[] = "AddressSanitizer: use-after-poison";
  if (!cp->redzone || !w->tail ||
      !cgofuzz_text_find(w->tail, w->tail_len, poison, sizeof poison - 1))
    return;
  if (why->len && why->data[why->len - 1] != '\n')
    cgofuzz_buf_puts(why, "\n");
  cgofuzz_buf_puts(
      why, "this may be C code reading or writing past the end of a []byte "
           "input: cgofuzz's workers poison up to 64 bytes after each one, "
           "where Go gives the slice room past its length; `go test -asan "
           "-run` may then pass, and `cgofuzz fuzz`, whose warm-up runs "
           "every testdata input in such workers, replays it");
}

/* A sanitizer's runtime symbolizes its reports from the file the process
 * maps, which for a memfd copy is not there to read: such a binary's copy
 * is a file (its reports must name the C functions, docs/cgo.md). Which
 * sanitizers the binary has: 1, any; 2, AddressSanitizer (its inputs get
 * a red zone, coord_cmppatch.c). A binary that cannot be read counts as
 * sanitized. */
static unsigned sanitizers(const char *binary) {
  static const char *const names[] = {"AddressSanitizer", "MemorySanitizer",
                                      "ThreadSanitizer",
                                      "UndefinedBehaviorSanitizer"};
  cgofuzz_obj o;
  if (cgofuzz_obj_open(&o, binary, false, NULL) != 0)
    return 1;
  unsigned found = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (cgofuzz_text_find(o.map, o.len, names[i], strlen(names[i])))
      found |= i == 0 ? 3 : 1;
  cgofuzz_obj_close(&o);
  return found;
}

void cgofuzz_coord_fast_copy(coord *c) {
  const char *snap = getenv("CGOFUZZ_GO_SNAPSHOT");
  c->fast.mfd = -1;
  /* "cut": every fuzz call's snapshot as long as its last counter, even
   * without a new bit (for comparisons: bench/cgo_cost.py). */
  c->fuzz_ctl =
      snap && strcmp(snap, "cut") == 0 ? CGOFUZZ_CTL_CUT : CGOFUZZ_CTL_NEW;
  if (!c->mask_len || (snap && strcmp(snap, "go") == 0))
    return; /* not a Go binary built with -fuzz, or asked not to */
  unsigned san = sanitizers(c->cfg->binary);
  cgofuzz_buf out = {0};
  cgofuzz_err err = {0};
  cgofuzz_cmp_patched info;
  if (cgofuzz_coord_copy_path(&c->fast, c->cfg->binary, "cgofuzz-fast",
                              san != 0, &out, &err) != 0 ||
      cgofuzz_cmp_patch(c->cfg->binary, coord_cstr(&out), 0, 0,
                        CGOFUZZ_CMP_PATCH_SNAPSHOT |
                            (san & 2 ? CGOFUZZ_CMP_PATCH_REDZONE : 0),
                        &info, &err) != 0 ||
      !info.snapshots) {
    cgofuzz_coord_copy_free(&c->fast);
    if (cgofuzz_coord_says(c))
      fprintf(stderr, "cgofuzz: coverage snapshot: Go's own loop (%s)\n",
              err.msg[0] ? err.msg : "its SnapshotCoverage was not found");
  } else {
    c->fast.redzone = info.redzone;
    /* Without a page a slot's snapshot keeps its full length: slower, as
     * right. */
    for (size_t i = 0; i < c->n_init; i++)
      cgofuzz_worker_ctl_init(&c->slots[i].w, c->mask_len, &err);
    if (cgofuzz_coord_says(c))
      fprintf(stderr,
              "cgofuzz: coverage snapshot: the workers run a copy of %s that "
              "snapshots its %zu counters eight at a time%s\n",
              c->cfg->binary, c->mask_len,
              info.redzone ? ", and poisons the bytes after each []byte "
                             "input (AddressSanitizer)"
                           : "");
  }
  cgofuzz_buf_free(&out);
}
