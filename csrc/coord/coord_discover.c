/*
 * coord_discover.c: a run's fuzz target as its Go test binary told it
 * (gobin_discover.c learns it), put into the run's config: the argument
 * kinds, the f.Add seeds in order, the environment the target's body set.
 *
 * Discovery runs in the real directory (a target may read files before
 * f.Fuzz), so the warm-up Go sent also carried the testdata/fuzz/<target>
 * files: they are dropped here, because the engine loads testdata itself.
 */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "coord.h"
#include "coord_internal.h"
#include "gobin_discover.h"

void cgofuzz_coord_free_names(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

/* The input re-encoded by our encoder, so that a file and the bytes Go
 * sent for it compare equal whatever literal forms the file used. */
static int canonical(const uint8_t *data, size_t len, int g, cgofuzz_buf *out) {
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  out->len = 0;
  int rc = cgofuzz_codec_decode_v(data, len, g, &vals, &err);
  if (rc == 0)
    rc = cgofuzz_codec_encode_v(vals.v, vals.n, g, out, &err);
  cgofuzz_values_free(&vals);
  return rc;
}

/* Drops the seeds that are testdata/fuzz/<target> files, keeping the f.Add
 * seeds in order. */
static void drop_testdata(cgofuzz_coord_config *cfg) {
  cgofuzz_coord_corpus td = {0};
  cgofuzz_buf dir = {0}, errs = {0}, a = {0}, b = {0};
  cgofuzz_buf_printf(&dir, "testdata/fuzz/%s", cfg->target);
  cgofuzz_coord_corpus_load_dir(&td, cgofuzz_buf_cstr(&dir), cfg->kinds,
                                cfg->n_kinds, coord_gover(cfg), false, true,
                                &errs, NULL);
  bool *used = td.n ? calloc(td.n, sizeof *used) : NULL;
  size_t k = 0;
  for (size_t i = 0; i < cfg->n_seeds; i++) {
    bool drop = false;
    if (used && canonical(cfg->seeds[i].data, cfg->seeds[i].len,
                          coord_gover(cfg), &a) == 0)
      for (size_t j = 0; j < td.n && !drop; j++)
        if (!used[j] &&
            canonical(td.e[j].data, td.e[j].len, coord_gover(cfg), &b) == 0 &&
            a.len == b.len && memcmp(a.data, b.data, a.len) == 0)
          drop = used[j] = true;
    if (drop)
      cgofuzz_buf_free(&cfg->seeds[i]);
    else
      cfg->seeds[k++] = cfg->seeds[i];
  }
  cfg->n_seeds = k;
  free(used);
  cgofuzz_coord_corpus_free(&td);
  cgofuzz_buf *bufs[] = {&dir, &errs, &a, &b};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    cgofuzz_buf_free(bufs[i]);
}

/* Moves what discovery found into cfg (f left empty). */
static void take_found(cgofuzz_coord_config *cfg, cgofuzz_gobin_found *f) {
  cfg->kinds = f->kinds;
  cfg->n_kinds = f->n_kinds;
  cfg->seeds = f->seeds;
  cfg->n_seeds = f->n_seeds;
  cfg->disc_env = f->env;
  cfg->n_disc_env = f->n_env;
  memset(f, 0, sizeof *f);
}

int cgofuzz_coord_discover(cgofuzz_coord_config *cfg, const char *self_exe,
                           cgofuzz_err *err) {
  cgofuzz_gobin_run run = {.binary = cfg->binary,
                           .target = cfg->target,
                           .self_exe = self_exe,
                           .gover = cfg->gover,
                           .extra_args = cfg->extra_args,
                           .n_extra = cfg->n_extra};
  cgofuzz_gobin_found f = {0};
  if (cgofuzz_gobin_discover(&run, &f, err) != 0)
    return -1;
  take_found(cfg, &f);
  drop_testdata(cfg);
  return 0;
}

int cgofuzz_coord_discovered(cgofuzz_coord_config *cfg, const char *records,
                             const char *target, cgofuzz_err *err) {
  cgofuzz_gobin_found f = {0};
  int rc = cgofuzz_gobin_read_records(records, cfg->gover, &f, err);
  if (rc != 0)
    return rc;
  cfg->target = target;
  take_found(cfg, &f);
  drop_testdata(cfg);
  return 0;
}

void cgofuzz_coord_free_discovery(cgofuzz_coord_config *cfg) {
  /* take_found's fields, freed as gobin frees what it found. */
  cgofuzz_gobin_found f = {.kinds = cfg->kinds,
                           .n_kinds = cfg->n_kinds,
                           .seeds = cfg->seeds,
                           .n_seeds = cfg->n_seeds,
                           .env = cfg->disc_env,
                           .n_env = cfg->n_disc_env};
  cgofuzz_gobin_found_free(&f);
  cfg->seeds = NULL;
  cfg->kinds = NULL;
  cfg->disc_env = NULL;
  cfg->n_seeds = cfg->n_kinds = cfg->n_disc_env = 0;
}
