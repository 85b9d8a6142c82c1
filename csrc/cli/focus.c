/*
 * focus.c: -focus=REV: the Go lines changed since a git revision (`git
 * diff --unified=0 REV`, the working tree against REV, every .go file of
 * the repository), and the mask of a test binary's coverage counters on
 * them (gobin_focus.c), which the run's scheduler weighs up
 * (coord_sched.c): fuzzing a pull request spends its time on the code it
 * changed.
 *
 * Invariants: a line is changed when a hunk adds or replaces it; a hunk
 * that only deletes marks the lines on both sides of the cut. A file of
 * the binary's line table matches a diff's path when it is that path
 * under the repository's top, or ends with "/" and the path (a -trimpath
 * build names files by module path). Anything git cannot answer (no git,
 * not a repository, an unknown revision) is an error naming the command,
 * never an empty focus.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "gobin.h"
#include "spawn.h"

typedef struct hunk {
  char *path; /* from the repository's top */
  long first, last;
} hunk;

typedef struct focus_diff {
  const char *top;
  hunk *h;
  size_t n;
  bool oom;
} focus_diff;

/* Runs git with args in dir (NULL: ours), its stdout into out. 0, or -1
 * with why. */
static int git(const char *dir, char *const *args, cgofuzz_buf *out,
               cgofuzz_buf *why) {
  char *path = cli_find_in_path("git");
  if (!path) {
    cgofuzz_buf_puts(why, "git is not in PATH");
    return -1;
  }
  /* git's own complaint goes to our stderr, above the line saying which
   * command failed */
  cgofuzz_spawn sp = {.path = path, .argv = args, .dir = dir, .stderr_fd = 2};
  int st = cgofuzz_spawn_run(&sp, out, false, -1);
  free(path);
  if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
    return 0;
  cgofuzz_buf_puts(why, "git");
  for (size_t i = 1; args[i]; i++)
    cgofuzz_buf_printf(why, " %s", args[i]);
  cgofuzz_buf_printf(why, " failed in %s", dir ? dir : ".");
  return -1;
}

static void add_hunk(focus_diff *d, const char *path, long first, long last) {
  hunk *h = realloc(d->h, (d->n + 1) * sizeof *h);
  char *p = path ? strdup(path) : NULL;
  if (!h || !p) {
    free(p);
    if (h)
      d->h = h;
    d->oom = true;
    return;
  }
  d->h = h;
  h[d->n++] = (hunk){p, first, last};
}

/* The hunks of git diff -U0's output, by the new file's lines. */
static void parse_diff(focus_diff *d, char *text) {
  char *path = NULL;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strncmp(line, "+++ ", 4) == 0) {
      path = strncmp(line + 4, "b/", 2) == 0 ? line + 6 : NULL; /* /dev/null */
      continue;
    }
    long c, k = 1;
    if (!path || strncmp(line, "@@ -", 4) != 0)
      continue;
    char *plus = strstr(line, " +");
    if (!plus || sscanf(plus + 2, "%ld,%ld", &c, &k) < 1)
      continue;
    if (k == 0) /* lines deleted after line c: both sides of the cut */
      add_hunk(d, path, c, c + 1);
    else
      add_hunk(d, path, c, c + k - 1);
  }
}

static bool on_changed_line(void *ctx, const char *file, int line) {
  const focus_diff *d = ctx;
  size_t tl = strlen(d->top), fl = strlen(file);
  for (size_t i = 0; i < d->n; i++) {
    const hunk *h = &d->h[i];
    if (line < h->first || line > h->last)
      continue;
    size_t pl = strlen(h->path);
    bool under_top = fl == tl + 1 + pl && strncmp(file, d->top, tl) == 0 &&
                     file[tl] == '/' && strcmp(file + tl + 1, h->path) == 0;
    bool suffix = fl > pl && file[fl - pl - 1] == '/' &&
                  strcmp(file + fl - pl, h->path) == 0;
    if (under_top || suffix)
      return true;
  }
  return false;
}

int cli_focus_mask(const char *dir, const char *rev, const char *binary,
                   uint8_t **mask, size_t *len, size_t *n_focus, size_t *sites,
                   cgofuzz_buf *why) {
  char *top_args[] = {"git", "rev-parse", "--show-toplevel", NULL};
  char *diff_args[] = {
      "git",         "diff",      "--no-color", "--no-ext-diff",
      "--unified=0", (char *)rev, "--",         ":(top)*.go",
      NULL};
  cgofuzz_buf top = {0}, diff = {0};
  focus_diff d = {0};
  int rc = -1;
  *mask = NULL;
  *n_focus = *len = 0;
  if (git(dir, top_args, &top, why) != 0 || git(dir, diff_args, &diff, why) ||
      cgofuzz_buf_putc(&diff, 0) != 0)
    goto done;
  while (top.len && (top.data[top.len - 1] == '\n'))
    top.len--;
  d.top = cgofuzz_buf_cstr(&top);
  parse_diff(&d, (char *)diff.data);
  *len = cgofuzz_gobin_go_counters(binary);
  cgofuzz_err err = {0};
  if (d.oom || !*len || !(*mask = malloc(*len))) {
    cgofuzz_buf_puts(why, *len ? "out of memory"
                               : "not a Go test binary built with -fuzz");
    goto done;
  }
  if (cgofuzz_gobin_focus(binary, on_changed_line, &d, *mask, *len, sites,
                          &err) != 0) {
    cgofuzz_buf_puts(why, err.msg);
    goto done;
  }
  for (size_t i = 0; i < *len; i++)
    *n_focus += (*mask)[i];
  rc = 0;
done:
  if (rc != 0) {
    free(*mask);
    *mask = NULL;
  }
  for (size_t i = 0; i < d.n; i++)
    free(d.h[i].path);
  free(d.h);
  cgofuzz_buf_free(&top);
  cgofuzz_buf_free(&diff);
  return rc;
}
