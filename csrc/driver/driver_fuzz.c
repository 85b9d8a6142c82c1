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
 *    resume each other's corpus like `go test -fuzz`; with none of the
 *    three set there is no default, as in Go.
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
#include "os.h"

/* The default cache directory, or NULL (said on stderr) when there is
 * none. Without GOCACHE, XDG_CACHE_HOME and HOME there is no user's cache:
 * Go's os.UserCacheDir fails then, and `go test -fuzz` stops with an
 * error. cgofuzz does the same rather than fall back on a shared
 * directory (/tmp/.cache, as it once did), where another user could
 * plant the corpus that is run, or read the one that is written. */
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
  else if (home && *home)
    cgofuzz_buf_printf(&b, "%s/.cache/cgofuzz/fuzz/%s", home, base);
  else {
    fprintf(stderr, "cgofuzz: no cache directory for the fuzzing corpus: "
                    "GOCACHE, XDG_CACHE_HOME and HOME are all unset or "
                    "empty; set one of them or pass -test.fuzzcachedir\n");
    return NULL;
  }
  char *s = b.len ? strndup((char *)b.data, b.len) : NULL;
  if (!s)
    fprintf(stderr, "cgofuzz: the cache directory's name: out of memory\n");
  cgofuzz_buf_free(&b);
  return s;
}

int cgofuzz_driver_fuzz_(cgofuzz_f *f, int argc, char **argv,
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
  char self[PATH_MAX];
  cfg.binary = cgofuzz_driver_self_path_(argv[0], self, sizeof self);
  cfg.extra_args = argv + 1;
  cfg.n_extra = (size_t)(argc - 1);
  cfg.target = f->name;
  char *cache = o->cachedir ? NULL : default_cache(argv[0]);
  cfg.cache_root = o->cachedir ? o->cachedir : cache;

  cfg.kinds = f->kinds;
  cfg.n_kinds = f->nkinds;
  int rc = 1;
  if (cfg.cache_root &&
      cgofuzz_driver_encode_seeds_(f, &cfg.seeds, &cfg.n_seeds) == 0)
    rc = cgofuzz_coord_run(&cfg);
  cgofuzz_driver_free_seeds_(cfg.seeds, cfg.n_seeds);
  free(cache);
  return rc;
}

const char *cgofuzz_driver_self_path_(const char *argv0, char *buf, size_t n) {
  /* execv needs a path; a bare argv[0] came from a PATH lookup. A path is
   * kept as given, so that starting this binary under another argv[0]
   * (Go's exec -a, the discovery trick) makes that program the worker. */
  if (strchr(argv0, '/'))
    return argv0;
  return cgofuzz_os_self_exe(buf, n) == 0 ? buf : argv0;
}

int cgofuzz_driver_encode_seeds_(cgofuzz_f *f, cgofuzz_buf **out, size_t *n) {
  cgofuzz_target_seed_(f);
  *n = 0;
  *out = calloc(f->nseeds ? f->nseeds : 1, sizeof **out);
  if (!*out) {
    fprintf(stderr, "cgofuzz: out of memory\n");
    return -1;
  }
  for (size_t i = 0; i < f->nseeds; i++) {
    cgofuzz_err err = {0};
    if (cgofuzz_codec_encode(f->seeds[i].v, f->seeds[i].n, &(*out)[i], &err) !=
        0) {
      fprintf(stderr, "cgofuzz: seed#%zu of %s: %s\n", i, f->name, err.msg);
      return -1;
    }
    *n = i + 1;
  }
  return 0;
}

void cgofuzz_driver_free_seeds_(cgofuzz_buf *seeds, size_t n) {
  for (size_t i = 0; i < n; i++)
    cgofuzz_buf_free(&seeds[i]);
  free(seeds);
}
