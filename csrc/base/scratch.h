/*
 * scratch.h: one private temporary directory per process, removed however
 * the process ends, SIGKILL included.
 *
 * cgofuzz's own children make temporary files as well (the go command's
 * work directory when it builds objdump, a Go test binary's shared-memory
 * file while its targets' arguments are discovered); they are pointed into
 * this directory (spawn.h's tmpdir), so that nothing of them is left in
 * $TMPDIR. Workers are not: their $TMPDIR is the user's.
 */
#ifndef CGOFUZZ_BASE_SCRATCH_H
#define CGOFUZZ_BASE_SCRATCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* $TMPDIR, or /tmp when it is unset or empty (Go's os.TempDir): where
 * every temporary file or directory of cgofuzz's is made. */
const char *cgofuzz_tmpdir(void);

/* The directory, $TMPDIR/cgofuzz-<pid>-XXXXXX (or under /tmp), mode 0700,
 * made at the first call. With it a janitor process is started, which
 * removes the directory once this process has ended, however it ended; a
 * normal exit removes it at once (cgofuzz_os_on_exit). NULL with errno set when
 * it cannot be made: callers then use $TMPDIR as before. Not for a forked
 * child; the process must be single-threaded at the first call. */
const char *cgofuzz_scratch_dir(void);

#ifdef __cplusplus
}
#endif
#endif
