/*
 * fb_tokens.c: a dictionary's token store (cgofuzz_fb_dict): tokens
 * without duplicates, each with where it came from (CGOFUZZ_DICT_*), an
 * integer's width and byte order, and the uses and finds that weigh it
 * when dictionary calls pick tokens (fb_dict.c); reading -dict files and
 * writing the store back in their format.
 *
 * The sources of tokens fill it (the binary's constants: gobin_godict.c;
 * the corpus: fb_dict.c) and the dictionary calls read it; it calls
 * neither, so they do not call each other through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dictfile.h"
#include "fb_internal.h"
#include "file.h"

cgofuzz_fb_dict *cgofuzz_fb_dict_new(void) {
  return calloc(1, sizeof(cgofuzz_fb_dict));
}

void cgofuzz_fb_dict_free(cgofuzz_fb_dict *d) {
  if (!d)
    return;
  for (size_t i = 0; i < d->n; i++)
    free(d->t[i].b);
  free(d->t);
  free(d->ht);
  free(d);
}

static uint32_t hash(const uint8_t *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 16777619u;
  return h;
}

static int rehash(cgofuzz_fb_dict *d, size_t cap) {
  uint32_t *ht = calloc(cap, sizeof *ht);
  if (!ht)
    return -1;
  for (size_t i = 0; i < d->n; i++) {
    size_t k = hash(d->t[i].b, d->t[i].len) & (cap - 1);
    while (ht[k])
      k = (k + 1) & (cap - 1);
    ht[k] = (uint32_t)i + 1;
  }
  free(d->ht);
  d->ht = ht;
  d->ht_cap = cap;
  return 0;
}

int cgofuzz_fb_dict_add(cgofuzz_fb_dict *d, const uint8_t *p, size_t n, int src,
                        int int_width, bool big_endian) {
  if (n == 0 || n > CGOFUZZ_DICT_MAX_TOKEN || src < 0 ||
      src >= CGOFUZZ_DICT_NSRC)
    return 0;
  if ((d->n + 1) * 2 > d->ht_cap &&
      rehash(d, d->ht_cap ? d->ht_cap * 2 : 256) != 0)
    return -1;
  size_t k = hash(p, n) & (d->ht_cap - 1);
  for (; d->ht[k]; k = (k + 1) & (d->ht_cap - 1)) {
    dtok *t = &d->t[d->ht[k] - 1];
    if (t->len == n && memcmp(t->b, p, n) == 0) {
      if (int_width && !t->int_width) { /* now known to be an integer too */
        t->int_width = (uint8_t)int_width;
        t->be = big_endian;
      }
      return 0;
    }
  }
  if (d->n == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 64;
    dtok *t = realloc(d->t, cap * sizeof *t);
    if (!t)
      return -1;
    d->t = t;
    d->cap = cap;
  }
  dtok *t = &d->t[d->n];
  memset(t, 0, sizeof *t);
  if (!(t->b = malloc(n)))
    return -1;
  memcpy(t->b, p, n);
  t->len = (uint32_t)n;
  t->src = (uint8_t)src;
  t->int_width = (uint8_t)int_width;
  t->be = big_endian;
  d->ht[k] = (uint32_t)++d->n;
  return 1;
}

dtok *cgofuzz_fb_dict_find(cgofuzz_fb_dict *d, const uint8_t *p, size_t n) {
  if (!d->ht_cap)
    return NULL;
  for (size_t k = hash(p, n) & (d->ht_cap - 1); d->ht[k];
       k = (k + 1) & (d->ht_cap - 1)) {
    dtok *t = &d->t[d->ht[k] - 1];
    if (t->len == n && memcmp(t->b, p, n) == 0)
      return t;
  }
  return NULL;
}

static int add_user(void *ctx, const uint8_t *p, size_t n) {
  return cgofuzz_fb_dict_add(ctx, p, n, CGOFUZZ_DICT_USER, 0, false) < 0 ? -1
                                                                         : 0;
}

int cgofuzz_fb_dict_load(cgofuzz_fb_dict *d, const char *path,
                         cgofuzz_err *err) {
  return cgofuzz_dictfile_load(path, add_user, d, err);
}

size_t cgofuzz_fb_dict_count(const cgofuzz_fb_dict *d, int src) {
  if (!d)
    return 0;
  if (src < 0)
    return d->n;
  size_t k = 0;
  for (size_t i = 0; i < d->n; i++)
    k += d->t[i].src == src;
  return k;
}

int cgofuzz_fb_dict_write(const cgofuzz_fb_dict *d, const char *path,
                          const char *target, cgofuzz_err *err) {
  static const char *what[CGOFUZZ_DICT_NSRC] = {
      "from -dict files",
      "constants of the target's package",
      "constants elsewhere in the target's module",
      ("the seeds', testdata's and cache's printable runs, parts and integers "
       "(and decimal limits when they hold numbers)"),
  };
  cgofuzz_buf b = {0};
  cgofuzz_buf_printf(&b, "# cgofuzz dictionary of %s: %zu tokens\n", target,
                     d->n);
  for (int src = 0; src < CGOFUZZ_DICT_NSRC; src++) {
    if (!cgofuzz_fb_dict_count(d, src))
      continue;
    cgofuzz_buf_printf(&b, "# %s\n", what[src]);
    for (size_t i = 0; i < d->n; i++) {
      const dtok *t = &d->t[i];
      if (t->src != src)
        continue;
      if (t->int_width)
        cgofuzz_buf_printf(&b, "int%d%s=", t->int_width, t->be ? "be" : "le");
      cgofuzz_dictfile_quote(&b, t->b, t->len);
      cgofuzz_buf_putc(&b, '\n');
    }
  }
  int rc = 0;
  if (b.failed || cgofuzz_file_write_atomic(path, b.data, b.len, 0666,
                                            CGOFUZZ_FILE_KEEP_MODE, NULL) != 0)
    rc = cgofuzz_errf(err, 0, "cannot write the dictionary to %s", path);
  cgofuzz_buf_free(&b);
  return rc;
}

static int sink_add(void *ctx, const uint8_t *p, size_t n, int src,
                    int int_width, bool big_endian) {
  return cgofuzz_fb_dict_add(ctx, p, n, src, int_width, big_endian);
}

cgofuzz_gobin_sink cgofuzz_fb_dict_sink(cgofuzz_fb_dict *d) {
  cgofuzz_gobin_sink s = {.ctx = d,
                          .add = sink_add,
                          .pkg_src = CGOFUZZ_DICT_BINARY,
                          .module_src = CGOFUZZ_DICT_MODULE};
  return s;
}

int cgofuzz_fb_dict_add_int(cgofuzz_fb_dict *d, uint64_t v, int width,
                            int src) {
  cgofuzz_gobin_sink s = cgofuzz_fb_dict_sink(d);
  return cgofuzz_gobin_sink_int(&s, v, width, src);
}

int cgofuzz_fb_godict_attach(cgofuzz_fb *fb, const char *binary,
                             const char *target, cgofuzz_fb_dict *d, bool wait,
                             cgofuzz_err *err) {
  size_t added = 0;
  cgofuzz_gobin_sink sink = cgofuzz_fb_dict_sink(d);
  int r = wait ? cgofuzz_gobin_godict_all(&sink, binary, target, &added, err)
               : cgofuzz_gobin_godict_data(&sink, binary, target, &added, err);
  fb->dict_code = !wait && r == 0;
  fb->dict_corpus = true;
  return r;
}
