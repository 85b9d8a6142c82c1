/*
 * dir.c: sorted directory listings (dir.h).
 */
#include "dir.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int cgofuzz_dir_names(const char *dir, bool skip_hidden, char ***names,
                      size_t *n) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  char **v = NULL;
  size_t k = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    const char *s = de->d_name;
    if (s[0] == '.' && (skip_hidden || s[1] == 0 || (s[1] == '.' && s[2] == 0)))
      continue;
    if (k == cap) {
      cap = cap ? 2 * cap : 32;
      char **nv = realloc(v, cap * sizeof *nv);
      if (!nv)
        goto oom;
      v = nv;
    }
    if (!(v[k] = strdup(s)))
      goto oom;
    k++;
  }
  closedir(d);
  if (k)
    qsort(v, k, sizeof *v, by_name);
  *names = v;
  *n = k;
  return 0;
oom:
  closedir(d);
  cgofuzz_dir_names_free(v, k);
  errno = ENOMEM;
  return -1;
}

void cgofuzz_dir_names_free(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

static int remove_entry(const char *p, const struct stat *sb, int flag,
                        struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  remove(p);
  return 0; /* go on: remove what can be removed */
}

int cgofuzz_dir_remove_all(const char *path) {
  return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

/* mkdir, where a directory already there is success. */
static int make_one(const char *p, unsigned mode) {
  struct stat st;
  if (mkdir(p, (mode_t)mode) == 0)
    return 0;
  if (errno != EEXIST)
    return -1;
  if (stat(p, &st) != 0)
    return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

int cgofuzz_dir_make_all(const char *path, unsigned mode) {
  char p[4096];
  size_t n = strlen(path);
  if (n >= sizeof p) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(p, path, n + 1);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/' || s[-1] == '/')
      continue;
    *s = '\0';
    int r = make_one(p, mode);
    *s = '/';
    if (r != 0)
      return -1;
  }
  return make_one(p, mode);
}
