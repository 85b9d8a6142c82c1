/*
 * gobin_copy.c: the patched copies of the user's binary that cgofuzz runs
 * (gobin_patch.c makes their bytes), and where they live.
 *
 *  - a copy lives in memory (a memfd), executed through our descriptor's
 *    /proc path, so that nothing is left on disk even when we are
 *    SIGKILLed; where a memfd cannot be made (or has no path others can
 *    exec it by: Darwin), and for a binary with a sanitizer runtime (which
 *    symbolizes its reports from the file the process maps), in a private
 *    directory inside the scratch directory (scratch.h: removed however
 *    we end) removed by cgofuzz_gobin_copy_free;
 *  - the user's binary is never written, and every message names it, not
 *    the copy: a copy differs only by a segment added at the end (the text
 *    and the symbols are the user's), so addresses, reports and reproduce
 *    lines hold for both; a report quoted from a worker's stderr has the
 *    copy's file name replaced by the binary's (cgofuzz_gobin_copy_unname);
 *  - the fuzzing workers run the "fast" copy, whose coverage snapshot goes
 *    eight counters at a time and, in a fuzz call, stops at the last
 *    non-zero counter (CGOFUZZ_GOBIN_PATCH_SNAPSHOT); each slot then has a
 *    control page (gobin_patch.h) that tells the copy which calls those
 *    are, and a fuzz call's coverage may come back shorter than the
 *    counter range (the coordinator pads it). Where the copy cannot be made,
 *    the workers run the binary itself, as Go's coordinator does
 *    (csrc/coord/coord_fast.c chooses).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dir.h"
#include "gobin.h"
#include "os.h"
#include "scratch.h"
#include "text.h"

int cgofuzz_gobin_copy_path(cgofuzz_gobin_copy *cp, const char *binary,
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
    if (!(cp->dir = strdup(cgofuzz_buf_cstr(out))) || !mkdtemp(cp->dir)) {
      int e = errno;
      free(cp->dir);
      cp->dir = NULL;
      return cgofuzz_errf(err, 0, "cannot make a temporary directory: %s",
                          strerror(e));
    }
    const char *base = strrchr(binary, '/');
    out->len = 0;
    cgofuzz_buf_printf(out, "%s/%s", cp->dir, base ? base + 1 : binary);
    cp->path = strdup(cgofuzz_buf_cstr(out));
  }
  if (!cp->path || cgofuzz_buf_cstr(out)[0] == 0) {
    cgofuzz_gobin_copy_free(cp);
    return cgofuzz_errf(err, 0, "out of memory");
  }
  return 0;
}

void cgofuzz_gobin_copy_free(cgofuzz_gobin_copy *cp) {
  if (cp->dir)
    cgofuzz_dir_remove_all(cp->dir);
  if (cp->mfd >= 0)
    close(cp->mfd);
  free(cp->dir);
  free(cp->path);
  memset(cp, 0, sizeof *cp);
  cp->mfd = -1;
}

void cgofuzz_gobin_copy_unname(const cgofuzz_gobin_copy *cp, const char *binary,
                               uint8_t *tail, size_t *tail_len, size_t cap) {
  size_t k = cp->dir && cp->path ? strlen(cp->path) : 0;
  if (!k || !tail || *tail_len < k)
    return;
  cgofuzz_buf b = {0};
  const uint8_t *t = tail, *end = t + *tail_len, *q;
  while ((q = cgofuzz_text_find(t, (size_t)(end - t), cp->path, k)) != NULL) {
    cgofuzz_buf_append(&b, t, (size_t)(q - t));
    cgofuzz_buf_puts(&b, binary);
    t = q + k;
  }
  cgofuzz_buf_append(&b, t, (size_t)(end - t));
  if (!b.failed && t != tail) { /* the newest bytes, as the tail keeps */
    size_t n = b.len < cap ? b.len : cap;
    memcpy(tail, b.data + (b.len - n), n);
    *tail_len = n;
  }
  cgofuzz_buf_free(&b);
}

void cgofuzz_gobin_copy_note(const cgofuzz_gobin_copy *cp, const uint8_t *tail,
                             size_t tail_len, cgofuzz_buf *why) {
  static const char poison[] = "AddressSanitizer: use-after-poison";
  if (!cp->redzone || !tail ||
      !cgofuzz_text_find(tail, tail_len, poison, sizeof poison - 1))
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
