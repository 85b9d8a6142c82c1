/*
 * file.h: whole files in and out, one way for all of cgofuzz (issue 37):
 * corpus entries, crashers, cache entries, reports, artifacts.
 *
 * A file is read whole, short reads and EINTR retried. A file is written
 * by replacing it atomically and durably: into a temporary in its
 * directory, fsynced, renamed over the file, the directory fsynced. So a
 * writer killed at any moment (SIGKILL, power loss, a full disk) leaves
 * the old file or the new one whole, never a part of one. A file the run
 * can make again and writes by the hundred a second (a new input of the
 * cache) may skip the two fsyncs (CGOFUZZ_FILE_NO_SYNC): still whole or
 * absent when the writer dies, as the kernel has it; only a crash of the
 * machine within the kernel's write-back delay may lose it or leave it
 * empty, and its readers skip a malformed file.
 *
 * The temporary is the file in a private subdirectory of the file's
 * directory, `.<name>.tmp-XXXXXX/<name>`: a subdirectory because go test
 * reads every file of testdata/fuzz/<Target> and fails the target on a
 * malformed one (a temporary file beside the entries, hidden or not,
 * would be read); hidden because libFuzzer-style readers recurse into
 * subdirectories but skip names starting with '.'. Every corpus reader of
 * cgofuzz skips one or the other (dir.h). A writer killed between making
 * the subdirectory and the rename leaves it behind; nothing cleans it up,
 * as nothing reads it: its name says what it is.
 *
 * Errors are returned with errno set, never printed: callers name the
 * file in their own words.
 */
#ifndef CGOFUZZ_BASE_FILE_H
#define CGOFUZZ_BASE_FILE_H

#include <stddef.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the whole of the file at path to out. Returns 0, or -1 with
 * errno set (open's or read's; EISDIR for a directory; ENOMEM when memory
 * ran out, out then marked failed) and out's length as it was. */
int cgofuzz_file_read(const char *path, cgofuzz_buf *out);

/* How cgofuzz_file_write_atomic sets the new file's permission bits. */
enum {
  /* mode less the umask, as open(O_CREAT) gives a new file (default). */
  CGOFUZZ_FILE_UMASK = 0,
  /* mode as it is: the umask does not apply (an executable that must be
   * one for whoever runs it). */
  CGOFUZZ_FILE_EXACT_MODE = 1,
  /* An existing regular file of this user's at path keeps its permission
   * bits (not set-uid, set-gid or sticky), as fopen(path, "w") keeps
   * them; else as CGOFUZZ_FILE_UMASK. A symlink at path is replaced, never
   * followed, and lends no mode. */
  CGOFUZZ_FILE_KEEP_MODE = 2,
  /* Neither the file nor the directory is fsynced (see above): for the
   * new inputs a fuzzing run finds, as Go's and libFuzzer's writers never
   * sync them. Their two fsyncs per input cost more than the fuzzing where
   * inputs are new a hundred times a second (expat's C target on ext4: a
   * fifth of the execs it ran with its cache on tmpfs). Never for a
   * failing input, an artifact or anything the user keeps. */
  CGOFUZZ_FILE_NO_SYNC = 4,
};

/* Replaces the file at path with len bytes of data, atomically (see
 * above), with permission bits mode (0777 at most) as flags say. The
 * directory must exist. Returns 0, or -1 with errno set and, if step is
 * not NULL, *step naming what failed: "create" (the temporary), "chmod",
 * "write", "fsync", "close", "rename" or "sync" (the directory, after the
 * rename: the new file is in place but may not survive a crash). On a
 * failure before the rename the temporary is removed and the old file is
 * untouched. */
int cgofuzz_file_write_atomic(const char *path, const void *data, size_t len,
                              unsigned mode, unsigned flags, const char **step);

/* Makes path a symbolic link to target, replacing whatever is at path
 * (a stale link) atomically: a link of a temporary name, renamed. 0, or -1
 * with errno set. */
int cgofuzz_file_symlink_atomic(const char *target, const char *path);

/* Moves the entry at from to to (rename(2): one file system, atomic, to
 * replaced). Nothing is written or synced: for shuffling a process's own
 * scratch files; what must survive a crash is written with
 * cgofuzz_file_write_atomic. 0, or -1 with errno set. */
int cgofuzz_file_move(const char *from, const char *to);

#ifdef __cplusplus
}
#endif
#endif
