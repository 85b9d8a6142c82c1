/*
 * file.c: reading whole files and replacing files atomically (file.h).
 *
 * The only place in csrc/ where a file is renamed into place or a
 * temporary file is made (tools/check_layers.py fails the build on a
 * rename or mkstemp anywhere else), so that every writer gets the same
 * guarantees: a whole file or the old one, fsynced (unless the caller
 * asked for CGOFUZZ_FILE_NO_SYNC), and no temporary that a corpus reader
 * could take for an entry. The unnamed file of a new unsynced one comes
 * from the OS layer (cgofuzz_os_unnamed_file).
 */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os.h"

int cgofuzz_file_read(const char *path, cgofuzz_buf *out) {
  size_t was = out->len;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) != 0)
    goto fail;
  if (S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    goto fail;
  }
  /* A regular file's size, and a byte more to see its end without
   * growing; what grows while it is read, or has no size (a pipe), in
   * 64 KiB steps. */
  size_t want = S_ISREG(st.st_mode) && st.st_size > 0 &&
                        (uint64_t)st.st_size < SIZE_MAX / 4
                    ? (size_t)st.st_size + 1
                    : 64 << 10;
  for (;;) {
    if (cgofuzz_buf_reserve(out, want) != 0) {
      errno = ENOMEM;
      goto fail;
    }
    ssize_t k = read(fd, out->data + out->len, out->cap - out->len);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      goto fail;
    if (k == 0)
      break;
    out->len += (size_t)k;
    want = 64 << 10;
  }
  close(fd);
  return 0;
fail:;
  int e = errno;
  close(fd);
  out->len = was;
  errno = e;
  return -1;
}

/* A temporary beside path: dir/.NAME.tmp-XXXXXX/NAME (file.h says why a
 * directory). */
typedef struct tmp {
  char *dir;  /* the directory path is in ("." for a bare name) */
  char *sub;  /* the private subdirectory, once made */
  char *file; /* the temporary in it */
  bool made;  /* file exists */
} tmp;

/* The longest part of NAME in the subdirectory's name, so that it stays
 * within NAME_MAX (255 on every system cgofuzz runs on) whatever NAME. */
#define TMP_NAME_PART 200

static void tmp_free(tmp *t) {
  free(t->dir);
  free(t->sub);
  free(t->file);
  memset(t, 0, sizeof *t);
}

/* Removes what tmp_make made, errno kept. */
static void tmp_abort(tmp *t) {
  int e = errno;
  if (t->made)
    unlink(t->file);
  if (t->sub)
    rmdir(t->sub);
  tmp_free(t);
  errno = e;
}

/* The directory path is in, malloc'd: "." for a bare name, "/" for a
 * name in the root. NULL when memory ran out (errno ENOMEM). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  if (slash == path)
    return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

/* The file name at the end of path ("" for "dir/"). */
static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Makes t's subdirectory (mode 0700, a name no one else has: mkdtemp) for
 * a temporary of path. 0, or -1 with errno set and nothing made. */
static int tmp_make(tmp *t, const char *path) {
  memset(t, 0, sizeof *t);
  const char *name = base_of(path);
  size_t nl = strlen(name);
  if (nl == 0) {
    errno = EISDIR; /* "dir/": no file name */
    return -1;
  }
  size_t part = nl < TMP_NAME_PART ? nl : TMP_NAME_PART;
  t->dir = dir_of(path);
  size_t dl = t->dir ? strlen(t->dir) : 0;
  t->sub = malloc(dl + part + 16);
  t->file = malloc(dl + part + nl + 18);
  if (!t->dir || !t->sub || !t->file) {
    tmp_free(t);
    errno = ENOMEM;
    return -1;
  }
  snprintf(t->sub, dl + part + 16, "%s/.%.*s.tmp-XXXXXX",
           strcmp(t->dir, "/") == 0 ? "" : t->dir, (int)part, name);
  if (!mkdtemp(t->sub)) {
    free(t->sub);
    t->sub = NULL;
    tmp_abort(t);
    return -1;
  }
  snprintf(t->file, dl + part + nl + 18, "%s/%s", t->sub, name);
  return 0;
}

/* fsync of the directory dir, so that a rename in it is on disk. File
 * systems that cannot sync a directory (EINVAL, ENOTSUP) have nothing to
 * do. 0, or -1 with errno set. */
static int sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int r = fsync(fd);
  int e = errno;
  close(fd);
  if (r != 0 && (e == EINVAL || e == ENOTSUP))
    r = 0;
  errno = e;
  return r;
}

/* Renames t's temporary to path, removes the subdirectory and, if sync,
 * syncs the directory. On a failed rename t is removed; *step names what
 * failed. */
static int tmp_finish(tmp *t, const char *path, bool sync, const char **step) {
  if (rename(t->file, path) != 0) {
    *step = "rename";
    tmp_abort(t);
    return -1;
  }
  t->made = false;
  rmdir(t->sub); /* empty now; if it stays, every reader skips it */
  int r = sync ? sync_dir(t->dir) : 0;
  int e = errno;
  tmp_free(t);
  if (r != 0)
    *step = "sync";
  errno = e;
  return r;
}

/* A new file without a temporary name (file.h, CGOFUZZ_FILE_NO_SYNC): an
 * unnamed file in path's directory (O_TMPFILE), written, then given its
 * name by linkat, which never replaces one (an existing file, whose mode
 * KEEP_MODE would keep, is replaced the other way). Neither the mkdtemp and
 * rmdir of a named temporary (half a millisecond on ext4) nor anything left
 * behind by a writer killed before the link. 1: written; 0: not taken
 * (no O_TMPFILE on this system or file system, no /proc, or path exists
 * and must be replaced the other way), nothing made; -1: the write
 * failed, errno and *step set. */
static int write_unnamed(const char *path, const void *data, size_t len,
                         unsigned mode, unsigned flags, const char **step) {
  char *dir = *base_of(path) ? dir_of(path) : NULL;
  if (!dir)
    return 0; /* "dir/" or no memory: the other way names the error */
  int fd = cgofuzz_os_unnamed_file(dir, mode);
  free(dir);
  if (fd < 0)
    return 0;
  const char *what = NULL;
  if ((flags & CGOFUZZ_FILE_EXACT_MODE) && fchmod(fd, (mode_t)(mode & 0777)))
    what = "chmod";
  else if (cgofuzz_write_all(fd, data, len) != 0)
    what = "write";
  int e = errno;
  int linked = what ? -1 : cgofuzz_os_link_unnamed(fd, path);
  close(fd); /* an unnamed file is gone with its last descriptor */
  if (what) {
    *step = what;
    errno = e;
    return -1;
  }
  return linked == 0 ? 1 : 0;
}

int cgofuzz_file_write_atomic(const char *path, const void *data, size_t len,
                              unsigned mode, unsigned flags,
                              const char **step) {
  const char *unused;
  if (!step)
    step = &unused;
  *step = "create";
  if (flags & CGOFUZZ_FILE_NO_SYNC) {
    int r = write_unnamed(path, data, len, mode, flags, step);
    if (r != 0)
      return r > 0 ? 0 : -1;
    *step = "create";
  }
  tmp t;
  if (tmp_make(&t, path) != 0)
    return -1;
  /* O_EXCL and O_NOFOLLOW although the directory is ours alone: nothing
   * is ever opened that was there before. The kernel applies the umask,
   * as for any new file (reading the umask would mean setting it, which
   * is not safe beside other threads). */
  int fd = open(t.file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                (mode_t)(mode & 0777));
  if (fd < 0) {
    tmp_abort(&t);
    return -1;
  }
  t.made = true;
  struct stat st;
  mode_t m = (mode_t)(mode & 0777);
  bool chmod_ = flags & CGOFUZZ_FILE_EXACT_MODE;
  /* lstat, not stat: what a symlink at path points at must not lend its
   * mode, nor may a file someone else planted there. Set-uid, set-gid and
   * sticky are never carried over: they would turn corpus bytes into a
   * set-uid program. */
  if ((flags & CGOFUZZ_FILE_KEEP_MODE) && lstat(path, &st) == 0 &&
      S_ISREG(st.st_mode) && st.st_uid == geteuid()) {
    m = st.st_mode & 0777;
    chmod_ = true;
  }
  const char *what = NULL;
  if (chmod_ && fchmod(fd, m) != 0)
    what = "chmod";
  else if (cgofuzz_write_all(fd, data, len) != 0)
    what = "write";
  else if (!(flags & CGOFUZZ_FILE_NO_SYNC) && fsync(fd) != 0)
    what = "fsync";
  int e = errno;
  if (close(fd) != 0 && !what) {
    what = "close";
    e = errno;
  }
  if (what) {
    *step = what;
    errno = e;
    tmp_abort(&t);
    return -1;
  }
  return tmp_finish(&t, path, !(flags & CGOFUZZ_FILE_NO_SYNC), step);
}

int cgofuzz_file_symlink_atomic(const char *target, const char *path) {
  tmp t;
  const char *step;
  if (tmp_make(&t, path) != 0)
    return -1;
  if (symlink(target, t.file) != 0) {
    tmp_abort(&t);
    return -1;
  }
  t.made = true;
  return tmp_finish(&t, path, true, &step);
}

int cgofuzz_file_move(const char *from, const char *to) {
  return rename(from, to) == 0 ? 0 : -1;
}
