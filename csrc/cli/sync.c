/*
 * sync.c: -syncdir DIR, several cgofuzz runs (on several machines, or
 * processes with caches of their own) sharing their inputs through one
 * directory: a shared file system, or a directory that a bucket is synced
 * into and out of (as ClusterFuzz's corpus storage is).
 *
 * Layout: DIR/<Target>/ holds the inputs of every run's cache for that
 * target; DIR/failures/<Target>/ every failing input a run wrote to its
 * testdata. Files are Go corpus files named as Go names cache and testdata
 * files (the first 16 hex digits of their sha256), so a name present is
 * its content present: a file is copied only where its name is missing,
 * through a temporary and a rename (cli_write_file_atomic), and two runs
 * copying one input at once both leave the same whole file.
 *
 * When (campaign.c): before each slice of a target, the inputs of DIR not
 * in its cache are copied into the cache, where the slice's warm-up gathers
 * their coverage (Go keeps every cache file, as it does after `go test
 * -fuzz` runs that shared a GOCACHE); after each slice, the cache's inputs
 * and testdata's failures not in DIR go there. A run with -syncdir fuzzes
 * in slices of -syncevery (60 s unless given), one target too, so what one
 * run finds reaches the others within about two slices. Failures are not
 * copied back into a run's testdata: there a failing input stops the
 * warm-up, and another machine's failure is for its owner to look at.
 *
 * Only names that are plain (no '/', not hidden) are copied, and only
 * regular files; a copy that fails is reported with its path and the
 * run goes on (its own cache and testdata are untouched by the failure).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "dir.h"

/* Copies every regular file of dir from that has no namesake in dir to
 * (made if missing). Returns how many were copied, or -1 when from could
 * not be listed for a reason other than its absence (printed). */
static int copy_missing(const char *from, const char *to) {
  char **have = NULL, **want = NULL;
  size_t nhave = 0, nwant = 0;
  if (cgofuzz_dir_names(from, true, &want, &nwant) != 0) {
    if (errno == ENOENT)
      return 0; /* nothing there yet */
    fprintf(stderr, "cgofuzz: -syncdir: reading %s: %s\n", from,
            strerror(errno));
    return -1;
  }
  if (nwant && cgofuzz_dir_make_all(to, 0755) != 0) {
    fprintf(stderr, "cgofuzz: -syncdir: making %s: %s\n", to, strerror(errno));
    cgofuzz_dir_names_free(want, nwant);
    return -1;
  }
  if (nwant && cgofuzz_dir_names(to, true, &have, &nhave) != 0) {
    fprintf(stderr, "cgofuzz: -syncdir: reading %s: %s\n", to, strerror(errno));
    cgofuzz_dir_names_free(want, nwant);
    return -1;
  }
  int copied = 0;
  cgofuzz_buf path = {0}, data = {0};
  /* Both lists are sorted by strcmp: one walk finds what to lacks. */
  for (size_t i = 0, j = 0; i < nwant; i++) {
    while (j < nhave && strcmp(have[j], want[i]) < 0)
      j++;
    if (j < nhave && strcmp(have[j], want[i]) == 0)
      continue;
    path.len = 0;
    cgofuzz_buf_printf(&path, "%s/%s", from, want[i]);
    cgofuzz_buf_putc(&path, 0);
    struct stat st;
    if (path.failed || lstat((const char *)path.data, &st) != 0 ||
        !S_ISREG(st.st_mode))
      continue;
    data.len = 0;
    if (cli_read_file((const char *)path.data, &data) != 0)
      continue;
    path.len = 0;
    cgofuzz_buf_printf(&path, "%s/%s", to, want[i]);
    cgofuzz_buf_putc(&path, 0);
    if (!path.failed && cli_write_file_atomic((const char *)path.data,
                                              data.data, data.len, 0644) == 0)
      copied++;
  }
  cgofuzz_buf_free(&path);
  cgofuzz_buf_free(&data);
  cgofuzz_dir_names_free(want, nwant);
  cgofuzz_dir_names_free(have, nhave);
  return copied;
}

/* DIR/<sub><target> into out (NUL-terminated); false out of memory. */
static bool sync_path(const char *syncdir, const char *sub, const char *target,
                      cgofuzz_buf *out) {
  out->len = 0;
  cgofuzz_buf_printf(out, "%s/%s%s", syncdir, sub, target);
  cgofuzz_buf_putc(out, 0);
  return !out->failed;
}

int cli_sync_in(const char *syncdir, const char *target,
                const char *cache_dir) {
  cgofuzz_buf from = {0};
  int n = sync_path(syncdir, "", target, &from)
              ? copy_missing((const char *)from.data, cache_dir)
              : -1;
  cgofuzz_buf_free(&from);
  return n;
}

int cli_sync_out(const char *syncdir, const char *target, const char *cache_dir,
                 const char *testdata_dir) {
  cgofuzz_buf to = {0};
  int n = -1, f = -1;
  if (sync_path(syncdir, "", target, &to))
    n = copy_missing(cache_dir, (const char *)to.data);
  if (sync_path(syncdir, "failures/", target, &to))
    f = copy_missing(testdata_dir, (const char *)to.data);
  cgofuzz_buf_free(&to);
  return n < 0 || f < 0 ? -1 : n + f;
}
