/*
 * cmd_stats.c: `cgofuzz corpus stats [-v] DIR...`: what is in fuzz corpus
 * directories (testdata/fuzz/<Target>, Go's cache dir, a libFuzzer or AFL
 * corpus), so a corpus can be checked before it is merged, converted or
 * committed (docs/corpus-tools.md).
 *
 * Per directory (its regular files, not recursive, dot files skipped as
 * the engines skip them): the number of files, `go test fuzz v1` ones and
 * raw ones; total, min, median and max size; the argument type signatures
 * with their counts; duplicate contents (files with the same values: the
 * sha256 of the canonical encoding of a corpus file, of the bytes of a raw
 * file); and the files Go would reject, as FILE:LINE: reason (the codec's
 * error, Go's own rule). Raw files are counted, and listed among the
 * rejected only with -v (Go rejects every one of them in testdata, which
 * is expected of a libFuzzer corpus). Lists stop after 20 entries
 * without -v. With several directories a last block sums them all.
 * Files are decoded (and duplicates told) as Go release -go 1.N does, by
 * default the user's (cli_gover_default): go1.18 rejects a few files later
 * releases accept (gover.h).
 * Exit status 0 unless a directory cannot be read (2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "codec.h"
#include "dir.h"
#include "rawargs.h"
#include "sha256.h"

#define LIST_CAP 20

typedef struct entry {
  char *path;
  size_t size;
  bool raw, rejected;
  char *sig; /* "([]byte, int)" for a corpus file that decodes */
  uint8_t sha[32];
} entry;

typedef struct entries {
  entry *v;
  size_t n, cap;
} entries;

static int by_size(const void *a, const void *b) {
  size_t x = ((const entry *)a)->size, y = ((const entry *)b)->size;
  return x < y ? -1 : x > y;
}
static int by_sha_then_path(const void *a, const void *b) {
  const entry *x = *(entry *const *)a, *y = *(entry *const *)b;
  int c = memcmp(x->sha, y->sha, 32);
  return c ? c : strcmp(x->path, y->path);
}
static int by_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads and classifies one file; a reject is printed into rejects. */
static int add_file(entries *es, const char *path, cgofuzz_buf *rejects,
                    size_t *n_rejects, bool verbose, cgofuzz_gover gover) {
  cgofuzz_buf in = {0}, enc = {0}, sig = {0};
  cgofuzz_values vals = {0};
  cgofuzz_err err = {0};
  if (cli_read_file(path, &in) != 0)
    return 0; /* said; not counted */
  if (es->n == es->cap) {
    size_t nc = es->cap ? 2 * es->cap : 64;
    entry *nv = realloc(es->v, nc * sizeof *nv);
    if (!nv)
      goto oom;
    es->v = nv;
    es->cap = nc;
  }
  entry *e = &es->v[es->n];
  memset(e, 0, sizeof *e);
  if (!(e->path = strdup(path)))
    goto oom;
  es->n++;
  e->size = in.len;
  e->raw = !cgofuzz_rawargs_is_corpus_file(in.data, in.len);
  int drc = cgofuzz_codec_decode_v(in.data, in.len, gover, &vals, &err);
  if (drc == 0 && vals.n == 0) {
    drc = -1;
    err.line = 0;
    snprintf(err.msg, sizeof err.msg,
             "no values after the header line (no fuzz target takes it)");
  }
  if (drc != 0) {
    e->rejected = true;
    cgofuzz_sha256(in.data, in.len, e->sha);
    if (!e->raw || verbose) {
      (*n_rejects)++;
      if (verbose || *n_rejects <= LIST_CAP) {
        if (err.line > 0)
          cgofuzz_buf_printf(rejects, "    %s:%d: %s\n", path, err.line,
                             err.msg);
        else
          cgofuzz_buf_printf(rejects, "    %s: %s%s\n", path, err.msg,
                             e->raw ? " (raw bytes)" : "");
      }
    }
  } else {
    if (cgofuzz_codec_encode_v(vals.v, vals.n, gover, &enc, &err) != 0)
      goto oom;
    cgofuzz_sha256(enc.data, enc.len, e->sha);
    cgofuzz_buf_putc(&sig, '(');
    for (size_t i = 0; i < vals.n; i++)
      cgofuzz_buf_printf(&sig, "%s%s", i ? ", " : "",
                         cgofuzz_kind_name(vals.v[i].kind));
    if (cgofuzz_buf_printf(&sig, ")%c", 0) != 0)
      goto oom;
    e->sig = (char *)sig.data;
    sig = (cgofuzz_buf){0};
  }
  cgofuzz_values_free(&vals);
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&enc);
  return 0;
oom:
  cgofuzz_values_free(&vals);
  cgofuzz_buf_free(&in);
  cgofuzz_buf_free(&enc);
  cgofuzz_buf_free(&sig);
  fprintf(stderr, "cgofuzz corpus stats: out of memory\n");
  return -1;
}

static int read_dir(const char *dir, entries *es, cgofuzz_buf *rejects,
                    size_t *n_rejects, bool verbose, cgofuzz_gover gover) {
  char **names;
  size_t n;
  if (cgofuzz_dir_names(dir, true, &names, &n) != 0) {
    fprintf(stderr, "cgofuzz corpus stats: %s: %s\n", dir, strerror(errno));
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
    struct stat st;
    if (stat((const char *)path.data, &st) == 0 && S_ISREG(st.st_mode))
      rc = add_file(es, (const char *)path.data, rejects, n_rejects, verbose,
                    gover);
  }
  cgofuzz_dir_names_free(names, n);
  cgofuzz_buf_free(&path);
  return rc;
}

/* Prints the block of one directory (or of all: title). */
static int report(const char *title, entries *es, const cgofuzz_buf *rejects,
                  size_t n_rejects, bool verbose) {
  size_t raw = 0, total = 0;
  for (size_t i = 0; i < es->n; i++) {
    raw += es->v[i].raw;
    total += es->v[i].size;
  }
  printf("%s\n  files: %zu (%zu go test fuzz v1, %zu raw)\n", title, es->n,
         es->n - raw, raw);
  if (!es->n)
    return 0;
  qsort(es->v, es->n, sizeof *es->v, by_size);
  printf("  bytes: total %zu, min %zu, median %zu, max %zu\n", total,
         es->v[0].size, es->v[(es->n - 1) / 2].size, es->v[es->n - 1].size);
  /* Type signatures, by count then name. */
  char **sigs = calloc(es->n, sizeof *sigs);
  entry **byh = calloc(es->n, sizeof *byh);
  if (!sigs || !byh) {
    free(sigs);
    free(byh);
    return -1;
  }
  size_t ns = 0;
  for (size_t i = 0; i < es->n; i++)
    if (es->v[i].sig)
      sigs[ns++] = es->v[i].sig;
  qsort(sigs, ns, sizeof *sigs, by_str);
  printf("  types:");
  if (!ns)
    printf(" none (no file decodes as go test fuzz v1)");
  for (size_t i = 0; i < ns;) {
    size_t j = i;
    while (j < ns && strcmp(sigs[j], sigs[i]) == 0)
      j++;
    printf("%s %zu %s", i ? "," : "", j - i, sigs[i]);
    i = j;
  }
  printf("\n");
  /* Duplicates: groups of files with the same sha. */
  for (size_t i = 0; i < es->n; i++)
    byh[i] = &es->v[i];
  qsort(byh, es->n, sizeof *byh, by_sha_then_path);
  size_t dups = 0, groups = 0, listed = 0;
  cgofuzz_buf lines = {0};
  for (size_t i = 0; i < es->n;) {
    size_t j = i + 1;
    while (j < es->n && memcmp(byh[j]->sha, byh[i]->sha, 32) == 0)
      j++;
    if (j - i > 1) {
      dups += j - i - 1;
      groups++;
      if (verbose || listed++ < LIST_CAP) {
        cgofuzz_buf_printf(&lines, "    %s", byh[i]->path);
        for (size_t k = i + 1; k < j; k++)
          cgofuzz_buf_printf(&lines, " = %s", byh[k]->path);
        cgofuzz_buf_putc(&lines, '\n');
      }
    }
    i = j;
  }
  printf("  duplicates: %zu files repeat the contents of another (%zu "
         "groups)\n",
         dups, groups);
  if (lines.len)
    fwrite(lines.data, 1, lines.len, stdout);
  if (!verbose && groups > LIST_CAP)
    printf("    ... and %zu more groups (-v lists all)\n", groups - LIST_CAP);
  cgofuzz_buf_free(&lines);
  size_t bad = 0;
  for (size_t i = 0; i < es->n; i++)
    bad += es->v[i].rejected && !es->v[i].raw;
  printf("  rejected by Go: %zu go test fuzz v1 files%s\n", bad,
         raw ? (verbose ? ", and the raw files" : " (and the raw files)") : "");
  if (rejects && rejects->len)
    fwrite(rejects->data, 1, rejects->len, stdout);
  if (rejects && !verbose && n_rejects > LIST_CAP)
    printf("    ... and %zu more (-v lists all)\n", n_rejects - LIST_CAP);
  free(sigs);
  free(byh);
  return 0;
}

static void free_entries(entries *es) {
  for (size_t i = 0; i < es->n; i++) {
    free(es->v[i].path);
    free(es->v[i].sig);
  }
  free(es->v);
  memset(es, 0, sizeof *es);
}

int cli_cmd_stats(int argc, char **argv) {
  bool verbose = false;
  cgofuzz_gover gover = 0; /* -go, else cli_gover_default() */
  cgofuzz_flag flags[] = {
      {.name = "v",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &verbose,
       .usage = "list every duplicate and rejected file (raw ones too)"},
      CLI_GOVER_FLAG(&gover),
  };
  size_t nflags = sizeof flags / sizeof flags[0];
  int first = cli_parse_flags("corpus stats", flags, nflags, argc, argv);
  if (first < 0 || first == argc) {
    fprintf(stderr, "usage: cgofuzz corpus stats [-v] [-go 1.N] DIR...\n"
                    "Counts, sizes, types, duplicates and files Go would "
                    "reject in fuzz corpus directories.\n");
    cli_print_flags(flags, nflags);
    return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (!gover)
    gover = cli_gover_default();
  int rc = CLI_EXIT_OK;
  entries all = {0};
  size_t all_rejects = 0;
  for (int i = first; i < argc; i++) {
    entries es = {0};
    cgofuzz_buf rejects = {0};
    size_t n_rejects = 0;
    if (read_dir(argv[i], &es, &rejects, &n_rejects, verbose, gover) != 0) {
      rc = CLI_EXIT_USAGE;
    } else {
      report(argv[i], &es, &rejects, n_rejects, verbose);
      all_rejects += n_rejects;
      /* Moved into the sum (paths and signatures change owner). */
      for (size_t k = 0; argc - first > 1 && k < es.n; k++) {
        if (all.n == all.cap) {
          size_t nc = all.cap ? 2 * all.cap : 64;
          entry *nv = realloc(all.v, nc * sizeof *nv);
          if (!nv)
            break;
          all.v = nv;
          all.cap = nc;
        }
        all.v[all.n++] = es.v[k];
        es.v[k].path = NULL;
        es.v[k].sig = NULL;
      }
    }
    free_entries(&es);
    cgofuzz_buf_free(&rejects);
  }
  if (argc - first > 1 && rc == CLI_EXIT_OK)
    report("all directories", &all, NULL, all_rejects, verbose);
  free_entries(&all);
  if (fflush(stdout) != 0) {
    fprintf(stderr, "cgofuzz: writing to stdout failed\n");
    rc = CLI_EXIT_FAIL;
  }
  return rc;
}
