/*
 * lf_corpus.c: libFuzzer's files: corpus directories of raw testcases named
 * by their SHA-1, and crash artifacts.
 *
 * Inside, every input is an encoded `go test fuzz v1` file, the form the
 * coordinator and the workers speak; on disk it is raw bytes
 * (core/rawargs.h), what libFuzzer and the engines around it expect. A file
 * that already is a corpus file (a Go seed, testdata/fuzz/...) is taken as
 * it is, so Go corpora can be handed to the engines unchanged.
 * Writes are atomic (file.h: a temporary beside the file, then rename) and
 * a failed artifact write prints the bytes, so nothing found is ever lost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base64.h"
#include "codec.h"
#include "dir.h"
#include "file.h"
#include "lf_internal.h"
#include "rawargs.h"
#include "sha1.h"

int cgofuzz_lf_read_input(const cgofuzz_lf_target *t, const char *path,
                          int64_t max_len, lf_input *out) {
  cgofuzz_buf data = {0};
  memset(out, 0, sizeof *out);
  if (cgofuzz_file_read(path, &data) != 0) {
    fprintf(stderr, "ERROR: %s: %s\n", path, strerror(errno));
    cgofuzz_buf_free(&data);
    return -1;
  }
  cgofuzz_err err = {0};
  int rc = 0;
  if (cgofuzz_rawargs_is_corpus_file(data.data, data.len)) {
    /* Taken as it is; the coordinator checks its types. */
    out->enc = data;
    out->raw_len = data.len;
    data = (cgofuzz_buf){0};
  } else {
    size_t len = data.len;
    if (max_len > 0 && (int64_t)len > max_len)
      len = (size_t)max_len;
    out->raw_len = len;
    rc = cgofuzz_rawargs_to_corpus_v(t->kinds, t->n_kinds, data.data, len,
                                     lf_gover(t), &out->enc, &err);
    if (rc != 0)
      fprintf(stderr, "ERROR: %s: %s\n", path, err.msg);
  }
  cgofuzz_buf_free(&data);
  if (rc == 0 && !(out->path = strdup(path)))
    rc = -1;
  if (rc != 0) {
    cgofuzz_buf_free(&out->enc);
    free(out->path);
    memset(out, 0, sizeof *out);
  }
  return rc;
}

int cgofuzz_lf_read_dir(const cgofuzz_lf_target *t, const char *dir,
                        int64_t max_len, lf_inputs *out) {
  char **names;
  size_t n;
  /* Names starting with '.' are skipped: ., .., and our own temporaries. */
  if (cgofuzz_dir_names(dir, true, &names, &n) != 0) {
    if (errno == ENOENT)
      return 0; /* libFuzzer creates nothing either: an empty corpus */
    fprintf(stderr, "ERROR: %s: %s\n", dir, strerror(errno));
    return -1;
  }
  int rc = 0;
  cgofuzz_buf path = {0};
  for (size_t i = 0; rc == 0 && i < n; i++) {
    path.len = 0;
    if (cgofuzz_buf_printf(&path, "%s/%s%c", dir, names[i], 0) != 0) {
      rc = -1;
      break;
    }
    const char *file = (const char *)path.data;
    struct stat st;
    if (stat(file, &st) != 0)
      continue; /* vanished or a dangling link: libFuzzer skips it too */
    if (S_ISDIR(st.st_mode)) {
      rc = cgofuzz_lf_read_dir(t, file, max_len, out);
      continue;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    if (out->n == out->cap) {
      size_t nc = out->cap ? 2 * out->cap : 64;
      lf_input *nv = realloc(out->v, nc * sizeof *nv);
      if (!nv) {
        rc = -1;
        break;
      }
      out->v = nv;
      out->cap = nc;
    }
    /* An unreadable file is said and skipped: one bad file must not stop
     * a bot from fuzzing the rest. */
    if (cgofuzz_lf_read_input(t, file, max_len, &out->v[out->n]) == 0)
      out->n++;
  }
  cgofuzz_dir_names_free(names, n);
  cgofuzz_buf_free(&path);
  if (rc != 0)
    fprintf(stderr, "ERROR: reading %s: out of memory\n", dir);
  return rc;
}

void cgofuzz_lf_inputs_free(lf_inputs *in) {
  for (size_t i = 0; i < in->n; i++) {
    free(in->v[i].path);
    cgofuzz_buf_free(&in->v[i].enc);
  }
  free(in->v);
  memset(in, 0, sizeof *in);
}

int cgofuzz_lf_raw(const cgofuzz_lf_target *t, const uint8_t *enc, size_t len,
                   cgofuzz_buf *raw) {
  cgofuzz_err err = {0};
  if (cgofuzz_rawargs_from_corpus_v(t->kinds, t->n_kinds, enc, len, lf_gover(t),
                                    raw, &err) != 0) {
    fprintf(stderr, "ERROR: converting an input to raw bytes: %s\n", err.msg);
    return -1;
  }
  return 0;
}

int cgofuzz_lf_write_file(const char *path, const uint8_t *data, size_t len,
                          unsigned file_flags) {
  /* The temporary is a hidden subdirectory beside the file (file.h), so
   * corpus readers skip it; mode 0666 less the umask, as libFuzzer's
   * files. */
  const char *what;
  if (cgofuzz_file_write_atomic(path, data, len, 0666,
                                CGOFUZZ_FILE_UMASK | file_flags, &what) == 0)
    return 0;
  int e = errno;
  if (strcmp(what, "create") == 0)
    fprintf(stderr, "ERROR: writing %s: cannot create its temporary: %s\n",
            path, strerror(e));
  else
    fprintf(stderr, "ERROR: writing %s: %s\n", path, strerror(e));
  errno = e;
  return -1;
}

int cgofuzz_lf_write_named(const char *dir, const uint8_t *raw, size_t len,
                           unsigned file_flags, char **path) {
  char hex[41];
  cgofuzz_sha1_hex(raw, len, hex);
  size_t pl = strlen(dir) + 43;
  char *p = malloc(pl);
  if (!p)
    return -1;
  snprintf(p, pl, "%s/%s", dir, hex);
  int rc = 0;
  if (access(p, F_OK) != 0) {
    mkdir(dir, 0777); /* libFuzzer's first corpus dir may not exist yet */
    rc = cgofuzz_lf_write_file(p, raw, len, file_flags);
  }
  if (path && rc == 0)
    *path = p;
  else
    free(p);
  return rc;
}

/* raw as libFuzzer lists an input's bytes: 0x5a,0x51,... and a newline
 * (printf only: it serves when memory ran out too). */
static void print_bytes(const uint8_t *raw, size_t len) {
  for (size_t i = 0; i < len; i++)
    fprintf(stderr, "%s0x%x", i ? "," : "", raw[i]);
  fputc('\n', stderr);
}

int cgofuzz_lf_write_unit(const lf_opts *o, const char *kind,
                          const uint8_t *raw, size_t len) {
  cgofuzz_buf path = {0};
  if (o->exact_artifact_path && *o->exact_artifact_path) {
    cgofuzz_buf_puts(&path, o->exact_artifact_path);
  } else {
    char hex[41];
    cgofuzz_sha1_hex(raw, len, hex);
    cgofuzz_buf_printf(&path, "%s%s-%s", o->artifact_prefix, kind, hex);
  }
  cgofuzz_buf_putc(&path, '\0');
  int rc = -1;
  if (path.failed)
    fprintf(stderr, "ERROR: out of memory naming the %s file\n", kind);
  else
    rc = cgofuzz_lf_write_file((const char *)path.data, raw, len, 0);
  if (rc == 0)
    fprintf(stderr, "artifact_prefix='%s'; Test unit written to %s\n",
            o->artifact_prefix, (const char *)path.data);
  cgofuzz_buf b64 = {0};
  if (cgofuzz_base64_encode(raw, len, &b64) == 0) {
    fprintf(stderr, "%s%.*s\n",
            rc == 0 ? "Base64: " : "The input, in base64: ", (int)b64.len,
            (const char *)b64.data);
  } else if (rc != 0) { /* no memory: the bytes as libFuzzer lists them */
    fputs("The input:\n", stderr);
    print_bytes(raw, len);
  }
  cgofuzz_buf_free(&b64);
  cgofuzz_buf_free(&path);
  fflush(stderr);
  return rc;
}

int cgofuzz_lf_write_artifact(const lf_opts *o, const char *kind,
                              const uint8_t *raw, size_t len) {
  /* libFuzzer's lines: the bytes (short inputs), then as any unit. */
  if (len <= 64)
    print_bytes(raw, len);
  return cgofuzz_lf_write_unit(o, kind, raw, len);
}
