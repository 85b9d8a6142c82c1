/*
 * fileio.c: reading whole files and replacing files atomically.
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

int cli_read_file(const char *path, cgofuzz_buf *out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "cgofuzz: %s: is a directory\n", path);
    close(fd);
    return -1;
  }
  for (;;) {
    if (cgofuzz_buf_reserve(out, 64 << 10) != 0) {
      fprintf(stderr, "cgofuzz: %s: out of memory\n", path);
      close(fd);
      return -1;
    }
    ssize_t n = read(fd, out->data + out->len, out->cap - out->len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      fprintf(stderr, "cgofuzz: %s: %s\n", path, strerror(errno));
      close(fd);
      return -1;
    }
    if (n == 0)
      break;
    out->len += (size_t)n;
  }
  close(fd);
  return 0;
}

/* The process's umask. POSIX reads it only by setting it, so this sets it
 * and puts it back: not thread-safe, which is fine in the CLI, a single
 * thread. */
static mode_t current_umask(void) {
  mode_t m = umask(0);
  umask(m);
  return m;
}

/* cli.h's "mode applies to a newly created file" is mode less the umask;
 * an existing regular file of this user's keeps its permission bits (not
 * set-uid, set-gid or sticky), and a symlink at path is replaced, never
 * followed. */
int cli_write_file_atomic(const char *path, const uint8_t *data, size_t len,
                          unsigned mode) {
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 16);
  if (!tmp) {
    fprintf(stderr, "cgofuzz: %s: out of memory\n", path);
    return -1;
  }
  /* The temporary lives in the same directory so rename is atomic. */
  snprintf(tmp, plen + 16, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "cgofuzz: %s: cannot create temporary file: %s\n", path,
            strerror(errno));
    free(tmp);
    return -1;
  }
  struct stat st;
  /* mkstemp made the temporary 0600; the new file gets mode less the
   * umask, as open(O_CREAT) would give it. */
  mode_t m = (mode_t)mode & 0777 & ~current_umask();
  /* An existing file of ours keeps its permissions (corpus fmt -w rewrites
   * in place). lstat, not stat: a symlink at path is replaced by the
   * rename, not followed, so what it points at must not lend its mode;
   * nor may a file someone else planted there. The set-uid, set-gid and
   * sticky bits are never carried over: they would turn corpus bytes into
   * a set-uid program. */
  if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid())
    m = st.st_mode & 0777;
  const char *what = "write";
  if (fchmod(fd, m) != 0)
    what = "chmod";
  else if (cgofuzz_write_all(fd, data, len) != 0)
    what = "write";
  else if (fsync(fd) != 0)
    what = "fsync";
  else
    what = NULL;
  int saved = errno;
  if (close(fd) != 0 && !what) {
    what = "close";
    saved = errno;
  }
  if (!what && rename(tmp, path) != 0) {
    what = "rename";
    saved = errno;
  }
  if (what) {
    unlink(tmp);
    fprintf(stderr, "cgofuzz: %s: %s failed: %s\n", path, what,
            strerror(saved));
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
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
