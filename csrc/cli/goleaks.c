/*
 * goleaks.c: go test -run with CGOFUZZ_FLAGS=-goleaks under -exec=cgofuzz
 * (what a -goleaks failure's re-run line says): after the binary's own
 * run passed, every corpus file of testdata/fuzz that its -test.run
 * pattern names is checked as the fuzzing run checked it
 * (cgofuzz_fb_goleak_check), and one that leaks goroutines fails the run.
 *
 * Invariants: -test.run's first element picks the targets (directories of
 * testdata/fuzz), its second the files, each an unanchored POSIX extended
 * regular expression (Go's -run is RE2, the same for the names Go writes);
 * without a second element every file of the targets is checked; without
 * -test.run, none. Checks run in the binary's working directory, where go
 * test runs it.
 */
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "coord.h"
#include "dir.h"
#include "fb.h"
#include "file.h"
#include "scratch.h"

/* -test.run's value among args, or NULL (the last one wins). */
static const char *run_pattern(char *const *args, size_t n) {
  const char *v = NULL;
  for (size_t i = 0; i < n; i++) {
    const char *a = args[i];
    if (strcmp(a, "--") == 0)
      break;
    a += a[0] == '-' && a[1] == '-';
    if (strncmp(a, "-test.run=", 10) == 0)
      v = a + 10;
    else if (strcmp(a, "-test.run") == 0 && i + 1 < n)
      v = args[++i];
  }
  return v;
}

/* Checks file name of target t (its directory dir). 1: it leaks (said on
 * stdout as go test says a failure), 0: not, -1: it could not be checked
 * (said on stderr). */
static int check_file(const char *binary, const char *t, const char *dir,
                      const char *name) {
  cgofuzz_buf path = {0}, data = {0}, msg = {0}, cache = {0};
  cgofuzz_err err = {0};
  cgofuzz_buf_printf(&path, "%s/%s", dir, name);
  cgofuzz_buf_printf(&cache, "%s/cgofuzz-goleaks",
                     cgofuzz_scratch_dir() ? cgofuzz_scratch_dir()
                                           : cgofuzz_tmpdir());
  cgofuzz_coord_config cfg = {
      .binary = binary, .target = t, .cache_root = cgofuzz_buf_cstr(&cache)};
  size_t na = 0;
  char **argv = cgofuzz_coord_worker_argv(&cfg, &na);
  int rc = -1;
  if (!argv || path.failed || cache.failed)
    fprintf(stderr, "cgofuzz: -goleaks: out of memory\n");
  else if (cgofuzz_file_read(cgofuzz_buf_cstr(&path), &data) != 0)
    fprintf(stderr, "cgofuzz: -goleaks: cannot read %s\n",
            cgofuzz_buf_cstr(&path));
  else {
    cgofuzz_fb_goleak_target tg = {binary, argv, NULL};
    rc = cgofuzz_fb_goleak_check(&tg, data.data, data.len, &msg, &err);
    if (rc < 0)
      fprintf(stderr, "cgofuzz: -goleaks: %s: %s\n", cgofuzz_buf_cstr(&path),
              err.msg);
    else if (rc > 0)
      printf("--- FAIL: %s/%s (goroutine leak)\n    %s\n%s", t, name,
             cgofuzz_buf_cstr(&path), cgofuzz_buf_cstr(&msg));
  }
  if (argv)
    cgofuzz_coord_free_names(argv, na);
  cgofuzz_buf *bufs[] = {&path, &data, &msg, &cache};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
    cgofuzz_buf_free(bufs[i]);
  return rc;
}

/* Compiles the element of pattern p up to its first '/' (or all of it)
 * into re; *rest: what follows the '/', or NULL. 0, or -1 (said). */
static int element(const char *p, regex_t *re, const char **rest) {
  const char *slash = strchr(p, '/');
  size_t n = slash ? (size_t)(slash - p) : strlen(p);
  char *e = strndup(p, n);
  int rc = e ? regcomp(re, e, REG_EXTENDED | REG_NOSUB) : -1;
  if (rc != 0)
    fprintf(stderr,
            "cgofuzz: -goleaks: -test.run=%s: cannot read it as a "
            "regular expression\n",
            p);
  free(e);
  *rest = slash ? slash + 1 : NULL;
  return rc == 0 ? 0 : -1;
}

int cli_goleaks_rerun(const char *binary, char *const *args, size_t n) {
  const char *pat = run_pattern(args, n), *files, *rest;
  static const char root[] = "testdata/fuzz";
  regex_t tre, fre;
  if (!pat || element(pat, &tre, &files) != 0)
    return pat ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  bool by_name = files != NULL; /* else every file of the targets */
  if (by_name && element(files, &fre, &rest) != 0) {
    regfree(&tre);
    return CLI_EXIT_FAIL;
  }
  char **targets = NULL;
  size_t nt = 0;
  int rc = CLI_EXIT_OK;
  if (cgofuzz_dir_names(root, true, &targets, &nt) != 0)
    nt = 0; /* no corpus: nothing to check */
  for (size_t i = 0; i < nt; i++) {
    if (regexec(&tre, targets[i], 0, NULL, 0) != 0)
      continue;
    cgofuzz_buf dir = {0};
    char **names = NULL;
    size_t nn = 0;
    cgofuzz_buf_printf(&dir, "%s/%s", root, targets[i]);
    if (dir.failed ||
        cgofuzz_dir_names(cgofuzz_buf_cstr(&dir), true, &names, &nn) != 0)
      nn = 0;
    for (size_t k = 0; k < nn; k++) {
      if (by_name && regexec(&fre, names[k], 0, NULL, 0) != 0)
        continue;
      /* One that cannot be checked (a directory of no target of this
       * binary, a file that is no input) is said, not failed. */
      if (check_file(binary, targets[i], cgofuzz_buf_cstr(&dir), names[k]) > 0)
        rc = CLI_EXIT_FAIL;
    }
    cgofuzz_dir_names_free(names, nn);
    cgofuzz_buf_free(&dir);
  }
  cgofuzz_dir_names_free(targets, nt);
  regfree(&tre);
  if (by_name)
    regfree(&fre);
  return rc;
}
