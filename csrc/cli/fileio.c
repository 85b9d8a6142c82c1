/*
 * fileio.c: reading whole files and replacing files atomically, the
 * CLI's messages around base's file.h, and small path helpers.
 *
 * Anything cgofuzz writes that a user relies on (a reformatted corpus file,
 * later a failing input) goes through cli_write_file_atomic, so a crash, a
 * ^C or a full disk never leaves a half-written file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "file.h"

int cli_read_file(const char *path, cgofuzz_buf *out) {
  if (cgofuzz_file_read(path, out) == 0)
    return 0;
  if (errno == EISDIR)
    fprintf(stderr, "cgofuzz: %s: is a directory\n", path);
  else if (errno == ENOMEM)
    fprintf(stderr, "cgofuzz: %s: out of memory\n", path);
  else
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
  return -1;
}

/* cli.h's "mode applies to a newly created file" is mode less the umask;
 * an existing regular file of this user's keeps its permission bits
 * (corpus fmt -w rewrites in place; file.h's CGOFUZZ_FILE_KEEP_MODE). */
int cli_write_file_atomic(const char *path, const uint8_t *data, size_t len,
                          unsigned mode) {
  const char *what;
  if (cgofuzz_file_write_atomic(path, data, len, mode, CGOFUZZ_FILE_KEEP_MODE,
                                &what) == 0)
    return 0;
  if (strcmp(what, "create") == 0)
    fprintf(stderr, "cgofuzz: %s: cannot create temporary file: %s\n", path,
            strerror(errno));
  else
    fprintf(stderr, "cgofuzz: %s: %s failed: %s\n", path, what,
            strerror(errno));
  return -1;
}

int cli_load_corpus_file(const char *path, cgofuzz_buf *in,
                         cgofuzz_values *vals) {
  return cli_load_corpus_file_v(path, in, vals, CGOFUZZ_GOVER_DEFAULT);
}

int cli_load_corpus_file_v(const char *path, cgofuzz_buf *in,
                           cgofuzz_values *vals, int g) {
  cgofuzz_err err = {0};
  if (cli_read_file(path, in) != 0)
    return -1;
  if (cgofuzz_codec_decode_v(in->data, in->len, g, vals, &err) != 0) {
    if (err.line > 0)
      fprintf(stderr, "%s:%d: %s\n", path, err.line, err.msg);
    else
      fprintf(stderr, "%s: %s\n", path, err.msg);
    return -1;
  }
  if (vals->n == 0) {
    /* Go decodes such a file, but no fuzz target can take it. */
    fprintf(stderr, "%s: no values after the header line\n", path);
    return -1;
  }
  return 0;
}

char *cli_find_in_path(const char *name) {
  const char *p = getenv("PATH");
  if (!p || !*p)
    p = "/usr/local/bin:/usr/bin:/bin";
  while (*p) {
    const char *e = strchr(p, ':');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    char *full = malloc(l + strlen(name) + 2);
    if (!full)
      return NULL;
    sprintf(full, "%.*s/%s", (int)l, l ? p : ".", name);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0)
      return full;
    free(full);
    p += l + (e ? 1 : 0);
  }
  return NULL;
}

int cli_enter_dir(const char *dir) {
  if (!dir)
    return -1;
  int home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (home < 0 || chdir(dir) != 0)
    fprintf(stderr, "cgofuzz fuzz: cannot change to %s: %s\n", dir,
            strerror(errno));
  return home;
}

void cli_leave_dir(int home) {
  if (home < 0)
    return;
  if (fchdir(home) != 0)
    fprintf(stderr, "cgofuzz fuzz: cannot change back: %s\n", strerror(errno));
  close(home);
}
