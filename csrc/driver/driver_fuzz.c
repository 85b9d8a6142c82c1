/*
 * driver_fuzz.c: -test.fuzz in a C target binary: the binary coordinates
 * its own workers with cgofuzz's coordinator, as a Go test binary does with
 * Go's.
 *
 * Invariants:
 *  - workers are argv[0] with -test.fuzzworker prepended to our arguments
 *    (the coordinator adds its own flags first, then argv[1..]), so
 *    starting this binary under another argv[0] (the discovery trick of
 *    `cgofuzz fuzz`, Go's exec -a) makes that program the worker;
 *  - the target's kinds and f.Add seeds come from the registry, not from
 *    discovery, and seeds are handed over encoded exactly as Go would
 *    encode them (they become warm-up inputs and cache-file names);
 *  - the default cache is $GOCACHE/fuzz/cgofuzz/<binary name> (or
 *    $XDG_CACHE_HOME, or ~/.cache, /cgofuzz/fuzz/<binary name>), so runs
 *    resume each other's corpus like `go test -fuzz`.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"
#include "coord.h"
#include "driver_internal.h"
#include "flags.h"

static char *default_cache(const char *argv0) {
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  cgofuzz_buf b = {0};
  const char *gc = getenv("GOCACHE"), *xdg = getenv("XDG_CACHE_HOME"),
             *home = getenv("HOME");
  if (gc && *gc && strcmp(gc, "off") != 0)
    cgofuzz_buf_printf(&b, "%s/fuzz/cgofuzz/%s", gc, base);
  else if (xdg && *xdg)
    cgofuzz_buf_printf(&b, "%s/cgofuzz/fuzz/%s", xdg, base);
  else
    cgofuzz_buf_printf(&b, "%s/.cache/cgofuzz/fuzz/%s", home ? home : "/tmp",
                       base);
  char *s = strndup(b.len ? (char *)b.data : "", b.len);
  cgofuzz_buf_free(&b);
  return s;
}

int cgofuzz_target_fuzz_(cgofuzz_f *f, int argc, char **argv,
                         const cgofuzz_fuzz_opts_ *o) {
  cgofuzz_coord_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.minimize_ns = 60LL * 1000000000;
  /* The values come from the flag table (driver.c), which has checked them
   * already; they are converted here with the same rules. */
  cgofuzz_flag_dur d;
  const char *reason;
  if (o->fuzztime) {
    if (cgofuzz_flag_parse_duration_or_count(o->fuzztime, false, &d, &reason) !=
        0) {
      fprintf(stderr, "invalid value \"%s\" for flag -test.fuzztime: %s\n",
              o->fuzztime, reason);
      return 2;
    }
    cfg.fuzz_ns = d.ns;
    cfg.fuzz_count = d.count;
  }
  if (o->mintime) {
    if (cgofuzz_flag_parse_duration_or_count(o->mintime, true, &d, &reason) !=
        0) {
      fprintf(stderr,
              "invalid value \"%s\" for flag -test.fuzzminimizetime: %s\n",
              o->mintime, reason);
      return 2;
    }
    cfg.minimize_off = d.ns == 0 && d.count == 0;
    cfg.minimize_ns = d.ns;
    cfg.minimize_count = d.count;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  cfg.parallel = o->parallel > 0 ? o->parallel : (int)(cpus > 0 ? cpus : 1);
  cfg.verbose = o->verbose;
  /* execv needs a path; a bare argv[0] came from a PATH lookup. */
  char self[PATH_MAX];
  const char *bin = argv[0];
  if (!strchr(bin, '/')) {
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k > 0) {
      self[k] = 0;
      bin = self;
    }
  }
  cfg.binary = bin;
  cfg.extra_args = argv + 1;
  cfg.n_extra = (size_t)(argc - 1);
  cfg.target = f->name;
  char *cache = o->cachedir ? NULL : default_cache(argv[0]);
  cfg.cache_root = o->cachedir ? o->cachedir : cache;

  cgofuzz_target_seed_(f);
  cfg.kinds = f->kinds;
  cfg.n_kinds = f->nkinds;
  cfg.seeds = calloc(f->nseeds ? f->nseeds : 1, sizeof *cfg.seeds);
  int rc = 1;
  if (!cfg.seeds || !cfg.cache_root)
    goto out;
  for (size_t i = 0; i < f->nseeds; i++) {
    cgofuzz_err err = {0};
    if (cgofuzz_codec_encode(f->seeds[i].v, f->seeds[i].n, &cfg.seeds[i],
                             &err) != 0) {
      fprintf(stderr, "cgofuzz: seed#%zu of %s: %s\n", i, f->name, err.msg);
      goto out;
    }
    cfg.n_seeds = i + 1;
  }
  rc = cgofuzz_coord_run(&cfg);
out:
  for (size_t i = 0; i < cfg.n_seeds; i++)
    cgofuzz_buf_free(&cfg.seeds[i]);
  free(cfg.seeds);
  free(cache);
  return rc;
}
