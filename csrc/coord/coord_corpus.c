/*
 * coord_corpus.c: the coordinator's corpus: loading seed and cache
 * directories, type-checking entries against the target's arguments, and
 * writing new entries under Go's names.
 *
 * Invariants kept from Go: entries are deduplicated by the SHA-256 of their
 * encoded bytes; a file's name is the first 16 hex digits of that hash;
 * testdata files that do not match the target's types are fatal, cache
 * files that do not are skipped (Go silently; the coordinator names them
 * in one warning).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec.h"
#include "coord_internal.h"
#include "dir.h"
#include "file.h"
#include "sha256.h"
#include "wire.h"

int cgofuzz_coord_corpus_add(cgofuzz_coord_corpus *c, const uint8_t *data,
                             size_t len, bool is_seed, const char *name) {
  uint8_t sha[32];
  cgofuzz_sha256(data, len, sha);
  for (size_t i = 0; i < c->n; i++)
    if (memcmp(c->e[i].sha, sha, 32) == 0)
      return 0;
  if (c->n == c->cap) {
    size_t ncap = c->cap ? c->cap * 2 : 16;
    cgofuzz_centry *ne = realloc(c->e, ncap * sizeof *ne);
    if (!ne)
      return -1;
    c->e = ne;
    c->cap = ncap;
  }
  cgofuzz_centry *e = &c->e[c->n];
  memset(e, 0, sizeof *e);
  e->data = malloc(len ? len : 1);
  e->name = strdup(name ? name : "");
  if (!e->data || !e->name) {
    free(e->data);
    free(e->name);
    return -1;
  }
  memcpy(e->data, data, len);
  e->len = len;
  memcpy(e->sha, sha, 32);
  e->is_seed = is_seed;
  c->n++;
  return 1;
}

void cgofuzz_coord_corpus_free(cgofuzz_coord_corpus *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->e[i].data);
    free(c->e[i].name);
  }
  free(c->e);
  memset(c, 0, sizeof *c);
}

/* Go prints argument types as reflect does: byte is uint8, rune int32. */
static const char *reflect_name(cgofuzz_kind k) {
  if (k == CGOFUZZ_BYTES)
    return "[]uint8";
  return cgofuzz_kind_name(k);
}

static void append_kinds(cgofuzz_buf *msg, const cgofuzz_value *v,
                         const cgofuzz_kind *k, size_t n) {
  cgofuzz_buf_putc(msg, '[');
  for (size_t i = 0; i < n; i++) {
    if (i)
      cgofuzz_buf_putc(msg, ' ');
    cgofuzz_buf_puts(msg, reflect_name(v ? v[i].kind : k[i]));
  }
  cgofuzz_buf_putc(msg, ']');
}

int cgofuzz_coord_corpus_typecheck(const uint8_t *data, size_t len,
                                   const cgofuzz_kind *kinds, size_t n,
                                   int gover, cgofuzz_buf *msg) {
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  int rc = -1;
  if (cgofuzz_codec_decode_v(data, len, gover, &vals, &err) != 0) {
    cgofuzz_buf_printf(msg, "unmarshal: %s", err.msg);
    goto done;
  }
  if (vals.n != n) {
    cgofuzz_buf_printf(msg,
                       "wrong number of values in corpus entry: %zu, want %zu",
                       vals.n, n);
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    if (vals.v[i].kind != kinds[i]) {
      cgofuzz_buf_puts(msg, "mismatched types in corpus entry: ");
      append_kinds(msg, vals.v, NULL, n);
      cgofuzz_buf_puts(msg, ", want ");
      append_kinds(msg, NULL, kinds, n);
      goto done;
    }
  }
  rc = 0;
done:
  cgofuzz_values_free(&vals);
  return rc;
}

int cgofuzz_coord_corpus_load_dir(cgofuzz_coord_corpus *c, const char *dir,
                                  const cgofuzz_kind *kinds, size_t n,
                                  int gover, bool strict, bool is_seed,
                                  cgofuzz_buf *errors, cgofuzz_buf *skipped) {
  char **names;
  size_t nn;
  if (cgofuzz_dir_names(dir, false, &names, &nn) != 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return 0;
    cgofuzz_buf_printf(errors, "open %s: %s", dir, strerror(errno));
    return -1;
  }
  int rc = 0;
  cgofuzz_buf path = {0}, data = {0}, msg = {0};
  for (size_t i = 0; rc == 0 && i < nn; i++) {
    path.len = 0;
    cgofuzz_buf_printf(&path, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(cgofuzz_buf_cstr(&path), &st) != 0 || !S_ISREG(st.st_mode))
      continue; /* Go ignores subdirectories */
    data.len = 0;
    if (cgofuzz_file_read(cgofuzz_buf_cstr(&path), &data) != 0) {
      cgofuzz_buf_printf(errors, "open %s: %s", cgofuzz_buf_cstr(&path),
                         strerror(errno));
      rc = -1;
      break;
    }
    msg.len = 0;
    if (cgofuzz_coord_corpus_typecheck(data.data, data.len, kinds, n, gover,
                                       &msg) != 0) {
      if (strict) {
        cgofuzz_buf_printf(errors, "%s\"%s\": %.*s", errors->len ? "\n" : "",
                           cgofuzz_buf_cstr(&path), (int)msg.len,
                           cgofuzz_buf_cstr(&msg));
      } else if (skipped) {
        cgofuzz_buf_printf(skipped, "\t%s: %.*s\n", cgofuzz_buf_cstr(&path),
                           (int)msg.len, cgofuzz_buf_cstr(&msg));
      }
      continue;
    }
    if (cgofuzz_coord_corpus_add(c, data.data, data.len, is_seed, names[i]) < 0)
      rc = -1;
  }
  cgofuzz_dir_names_free(names, nn);
  cgofuzz_buf_free(&path);
  cgofuzz_buf_free(&data);
  cgofuzz_buf_free(&msg);
  if (rc == 0 && strict && errors->len)
    rc = -1;
  return rc;
}

/* The file is written atomically (file.h): dir only ever holds whole
 * files. go test reads every file in testdata/fuzz/<Target> and fails the
 * target on a malformed one, so a partial file left there by a coordinator
 * killed mid-write would break the package's tests, and our next run. The
 * temporary is a hidden subdirectory, which Go and
 * cgofuzz_coord_corpus_load_dir skip. */
int cgofuzz_coord_corpus_write(const char *dir, const uint8_t *data, size_t len,
                               char **path, cgofuzz_err *err) {
  return cgofuzz_coord_corpus_write_v(dir, data, len, 0, 0, path, err);
}

int cgofuzz_coord_corpus_write_v(const char *dir, const uint8_t *data,
                                 size_t len, int gover, unsigned file_flags,
                                 char **path, cgofuzz_err *err) {
  char name[CGOFUZZ_CODEC_NAME_MAX];
  cgofuzz_codec_name_v(data, len, gover ? gover : CGOFUZZ_GOVER_NEWEST, name);
  size_t pl = strlen(dir) + 2 + CGOFUZZ_CODEC_NAME_MAX;
  char *p = malloc(pl);
  if (!p)
    return cgofuzz_errf(err, 0, "out of memory");
  snprintf(p, pl, "%s/%s", dir, name);
  const char *what = "mkdir";
  /* mode 0666 & ~umask, as Go's os.WriteFile. The directory is made when
   * the write finds none (its first entry), not before every write: a
   * mkdir of each of its parents costs about as much as the write. What
   * is in the way of the directory is then named by the mkdir. */
  unsigned fl = CGOFUZZ_FILE_UMASK | file_flags;
  int r = cgofuzz_file_write_atomic(p, data, len, 0666, fl, &what);
  if (r != 0 && (errno == ENOENT || errno == ENOTDIR)) {
    what = "mkdir";
    r = cgofuzz_dir_make_all(dir, 0777) != 0
            ? -1
            : cgofuzz_file_write_atomic(p, data, len, 0666, fl, &what);
  }
  if (r != 0) {
    cgofuzz_errf(err, 0, "writing %s: %s failed: %s", p, what, strerror(errno));
    free(p);
    return -1;
  }
  *path = p;
  return 0;
}
