/*
 * dir.h: the entries of a directory, sorted, as Go's os.ReadDir lists them
 * (byte order of the names). One listing for every place that walks a
 * corpus directory: the coordinator's corpus, a C target's regression run,
 * libFuzzer's corpus directories, corpus stats and the Go launcher's seeds.
 */
#ifndef CGOFUZZ_BASE_DIR_H
#define CGOFUZZ_BASE_DIR_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The names (not paths) of dir's entries but "." and "..", sorted by
 * strcmp; with skip_hidden, every name starting with '.' is left out too
 * (libFuzzer's temporaries and ours). Types are not looked at: callers
 * stat what they need. Returns 0 with *names malloc'd (NULL when empty),
 * each name malloc'd too; -1 with errno set (opendir's, or ENOMEM) and
 * nothing to free. */
int cgofuzz_dir_names(const char *dir, bool skip_hidden, char ***names,
                      size_t *n);
void cgofuzz_dir_names_free(char **names, size_t n);

/* Removes path and everything below it, not following symbolic links
 * (rm -rf, for the temporary directories cgofuzz makes); what cannot be
 * removed is left. Returns 0, or -1 when path could not be walked. */
int cgofuzz_dir_remove_all(const char *path);

/* Makes path and every missing directory above it (mkdir -p), with mode
 * (less the umask). Returns 0 when path is a directory afterwards (made or
 * already there), else -1 with errno set: mkdir's, or ENOTDIR when path or
 * a parent is something else, ENAMETOOLONG when path has no room. */
int cgofuzz_dir_make_all(const char *path, unsigned mode);

#ifdef __cplusplus
}
#endif
#endif
