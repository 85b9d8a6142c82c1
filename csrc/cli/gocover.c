/*
 * gocover.c: OSS-Fuzz's coverage run of a Go fuzz target launcher.
 *
 * OSS-Fuzz's base-runner `coverage` script runs each Go fuzz target of a
 * SANITIZER=coverage build as
 *
 *   FUZZ_CORPUS_DIR=$CORPUS_DIR/NAME/ $OUT/NAME -test.coverprofile FILE
 *
 * and expects FILE to be a Go coverage profile of the corpus (it then maps
 * the module's import path to its directory with $OUT/NAME.gocovpath,
 * which `cgofuzz compile-go-fuzzer` writes, and merges the profiles with
 * gocovmerge). OSS-Fuzz's own build adds a test that reads the directory;
 * a launcher's test binary is the package's own, built with -cover, so
 * here the corpus's files (raw libFuzzer inputs, or "go test fuzz v1"
 * files as they are) become Go corpus files of the target in a directory
 * of our own, where the test binary runs them with its seeds as `go test
 * -run=^FuzzX$` does. -test.outputdir is the caller's directory, so that a
 * relative FILE lands where it would have.
 *
 * An input that panics ends a Go test binary before it writes the
 * profile. Then each input is run alone, and the profiles of those runs
 * are merged into FILE (a block's count summed, or OR'd in "set" mode),
 * so one crashing input costs its own coverage only, as libFuzzer's
 * -merge=1 run of a C target's corpus does.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "coord.h"
#include "dir.h"
#include "file.h"
#include "gobin.h"
#include "gocover.h"
#include "rawargs.h"
#include "scratch.h"
#include "spawn.h"

/* Whether arg is the flag -test.NAME (one or two dashes): 1 for
 * "-test.NAME=V", 2 for "-test.NAME" (its value the next argument), 0 for
 * anything else. */
static int is_flag(const char *a, const char *name) {
  size_t n = strlen(name);
  if (a[0] != '-')
    return 0;
  a += a[1] == '-' ? 2 : 1;
  if (strncmp(a, "test.", 5) != 0 || strncmp(a + 5, name, n) != 0)
    return 0;
  return a[5 + n] == '=' ? 1 : a[5 + n] == '\0' ? 2 : 0;
}

/* The value of -test.NAME (the last one given), or NULL. */
static const char *test_flag(int argc, char **argv, const char *name) {
  const char *v = NULL;
  for (int i = 1; i < argc; i++) {
    int f = is_flag(argv[i], name);
    if (f == 1)
      v = strchr(argv[i], '=') + 1;
    else if (f == 2 && i + 1 < argc)
      v = argv[++i];
  }
  return v;
}

bool cli_gocover_wanted(int argc, char **argv) {
  const char *dir = getenv("FUZZ_CORPUS_DIR");
  return dir && *dir && !test_flag(argc, argv, "fuzz");
}

/* --- profiles (gocover.h; the short names are this file's own) */

typedef cli_prof_line prof_line;
typedef cli_prof prof;

void cli_prof_free(prof *p) {
  for (size_t i = 0; i < p->n; i++)
    free(p->l[i].key);
  free(p->l);
  memset(p, 0, sizeof *p);
}

static int by_key(const void *a, const void *b) {
  return strcmp(((const prof_line *)a)->key, ((const prof_line *)b)->key);
}

int cli_prof_read(const char *path, prof *p) {
  memset(p, 0, sizeof *p);
  cgofuzz_buf text = {0};
  if (cgofuzz_file_read(path, &text) != 0 || cgofuzz_buf_putc(&text, 0) != 0) {
    int oom = text.failed;
    cgofuzz_buf_free(&text);
    return oom ? -1 : 1;
  }
  int rc = 1;
  char *line = (char *)text.data, *end = line + text.len - 1;
  for (char *next; line < end && rc != -1; line = next) {
    char *eol = memchr(line, '\n', (size_t)(end - line));
    next = eol ? eol + 1 : end;
    size_t len = (size_t)((eol ? eol : end) - line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      len--;
    line[len] = '\0';
    if (rc == 1) {
      if (sscanf(line, "mode: %15s", p->mode) != 1)
        break;
      rc = 0;
      continue;
    }
    char *sp = strrchr(line, ' ');
    if (!sp)
      continue;
    if (p->n == p->cap) {
      size_t nc = p->cap ? p->cap * 2 : 1024;
      prof_line *nl = realloc(p->l, nc * sizeof *nl);
      if (!nl) {
        rc = -1;
        break;
      }
      p->l = nl;
      p->cap = nc;
    }
    *sp = '\0';
    if (!(p->l[p->n].key = strdup(line))) {
      rc = -1;
      break;
    }
    p->l[p->n++].count = strtoull(sp + 1, NULL, 10);
  }
  cgofuzz_buf_free(&text);
  /* A profile of no blocks (a package with no statements) has no array,
   * and qsort's may not be NULL even for 0 elements. */
  if (rc == 0 && p->n)
    qsort(p->l, p->n, sizeof *p->l, by_key);
  return rc;
}

/* acc gets q's blocks: counts summed, or OR'd in "set" mode. 0 or -1. */
static int prof_merge(prof *acc, prof *q) {
  if (!acc->mode[0]) {
    cli_prof_free(acc);
    *acc = *q;
    memset(q, 0, sizeof *q);
    return 0;
  }
  bool set = strcmp(acc->mode, "set") == 0;
  prof out = {0};
  memcpy(out.mode, acc->mode, sizeof out.mode);
  out.cap = acc->n + q->n;
  if (out.cap && !(out.l = malloc(out.cap * sizeof *out.l)))
    return -1;
  size_t i = 0, j = 0;
  while (i < acc->n || j < q->n) {
    int c = i == acc->n ? 1
            : j == q->n ? -1
                        : strcmp(acc->l[i].key, q->l[j].key);
    if (c < 0) {
      out.l[out.n++] = acc->l[i++];
    } else if (c > 0) {
      out.l[out.n++] = q->l[j++];
    } else {
      prof_line m = acc->l[i++];
      unsigned long long b = q->l[j].count;
      m.count = set ? (m.count || b) : m.count + b;
      free(q->l[j++].key);
      out.l[out.n++] = m;
    }
  }
  free(acc->l);
  free(q->l);
  memset(q, 0, sizeof *q);
  *acc = out;
  return 0;
}

static int prof_write(const char *path, const prof *p) {
  cgofuzz_buf b = {0};
  int rc = cgofuzz_buf_printf(&b, "mode: %s\n", p->mode);
  for (size_t i = 0; i < p->n && rc == 0; i++)
    rc = cgofuzz_buf_printf(&b, "%s %llu\n", p->l[i].key, p->l[i].count);
  if (rc == 0)
    rc = cli_write_file_atomic(path, b.data, b.len, 0644);
  cgofuzz_buf_free(&b);
  return rc;
}

/* --- the run */

typedef struct cover_run {
  const char *bin, *target;
  char dir[PATH_MAX]; /* ours: dir/testdata/fuzz/<target> */
  char fuzzdir[PATH_MAX + 512];
  char cwd[PATH_MAX];
  char **names; /* the corpus files written (their Go names) */
  size_t n;
} cover_run;

/* Writes one Go corpus file into fuzzdir; its name to *name (if given). */
static int put_file(cover_run *r, const uint8_t *data, size_t len, int gover,
                    char **name) {
  char h[CGOFUZZ_CODEC_NAME_MAX];
  cgofuzz_codec_name_v(data, len, (cgofuzz_gover)gover, h);
  cgofuzz_buf path = {0};
  int rc = cgofuzz_buf_printf(&path, "%s/%s%c", r->fuzzdir, h, 0);
  if (rc == 0)
    rc = cli_write_file_atomic((const char *)path.data, data, len, 0644);
  cgofuzz_buf_free(&path);
  if (rc == 0 && name && !(*name = strdup(h)))
    rc = -1;
  return rc;
}

/* The corpus directory's files into fuzzdir, each converted to the
 * target's Go corpus file unless it is one already. */
static int put_corpus(cover_run *r, const char *corpus, const cli_golaunch *g,
                      int gover) {
  char **names;
  size_t n;
  if (cgofuzz_dir_names(corpus, false, &names, &n) != 0) {
    fprintf(stderr, "cgofuzz: FUZZ_CORPUS_DIR=%s: %s\n", corpus,
            strerror(errno));
    return -1;
  }
  if (!(r->names = calloc(n ? n : 1, sizeof *r->names))) {
    cgofuzz_dir_names_free(names, n);
    return -1;
  }
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    cgofuzz_buf path = {0}, in = {0}, out = {0};
    cgofuzz_err err = {0};
    struct stat st;
    rc = cgofuzz_buf_printf(&path, "%s/%s%c", corpus, names[i], 0);
    if (rc != 0 || stat((const char *)path.data, &st) != 0 ||
        !S_ISREG(st.st_mode)) {
      /* directories and vanished files are not inputs */
    } else if (cli_read_file((const char *)path.data, &in) != 0) {
      rc = -1;
    } else if (cgofuzz_rawargs_is_corpus_file(in.data, in.len)) {
      rc = put_file(r, in.data, in.len, gover, &r->names[r->n]);
      r->n += rc == 0;
    } else if (cgofuzz_rawargs_to_corpus_v(g->kinds, g->n_kinds, in.data,
                                           in.len, (cgofuzz_gover)gover, &out,
                                           &err) != 0) {
      fprintf(stderr, "cgofuzz: %s: %s\n", (const char *)path.data, err.msg);
      rc = -1;
    } else {
      rc = put_file(r, out.data, out.len, gover, &r->names[r->n]);
      r->n += rc == 0;
    }
    cgofuzz_buf_free(&path);
    cgofuzz_buf_free(&in);
    cgofuzz_buf_free(&out);
  }
  cgofuzz_dir_names_free(names, n);
  return rc;
}

/* Runs the test binary in r->dir with args; its wait status or -1. */
static int run_test(const cover_run *r, char **args) {
  fflush(stdout);
  fflush(stderr);
  cgofuzz_spawn s = {.path = r->bin,
                     .argv = args,
                     .dir = r->dir,
                     .stdout_fd = 1,
                     .stderr_fd = 2};
  pid_t pid = cgofuzz_spawn_start(&s);
  if (pid < 0) {
    fprintf(stderr, "cgofuzz: %s: cannot run: %s\n", r->bin, strerror(errno));
    return -1;
  }
  return cgofuzz_spawn_wait(pid, -1, NULL);
}

/* Renames dir/name to other/name. */
static int move(const char *dir, const char *other, const char *name) {
  cgofuzz_buf a = {0}, b = {0};
  int rc = cgofuzz_buf_printf(&a, "%s/%s%c", dir, name, 0);
  if (rc == 0)
    rc = cgofuzz_buf_printf(&b, "%s/%s%c", other, name, 0);
  if (rc == 0 &&
      cgofuzz_file_move((const char *)a.data, (const char *)b.data) != 0) {
    fprintf(stderr, "cgofuzz: rename %s: %s\n", (const char *)a.data,
            strerror(errno));
    rc = -1;
  }
  cgofuzz_buf_free(&a);
  cgofuzz_buf_free(&b);
  return rc;
}

/* Each input alone (its file the only one in fuzzdir; the others wait in
 * dir/aside), their profiles merged into out. Returns 0 or -1. */
static int run_each(cover_run *r, const char *run, const char *out) {
  cgofuzz_buf aside = {0}, one = {0}, flag = {0};
  prof acc = {0};
  size_t failed = 0;
  int rc = cgofuzz_buf_printf(&aside, "%s/aside%c", r->dir, 0);
  if (rc == 0)
    rc = cgofuzz_buf_printf(&one, "%s/one.cover%c", r->dir, 0);
  if (rc == 0)
    rc = cgofuzz_buf_printf(&flag, "-test.coverprofile=%s%c",
                            (const char *)one.data, 0);
  if (rc == 0 && mkdir((const char *)aside.data, 0700) != 0)
    rc = -1;
  for (size_t i = 0; i < r->n && rc == 0; i++)
    rc = move(r->fuzzdir, (const char *)aside.data, r->names[i]);
  if (rc == 0)
    fprintf(stderr,
            "cgofuzz: an input ended the run before the coverage profile "
            "was written: running the %zu inputs one at a time\n",
            r->n);
  char *args[] = {(char *)r->bin, (char *)run, (char *)flag.data, NULL};
  for (size_t i = 0; i < r->n && rc == 0; i++) {
    if (move((const char *)aside.data, r->fuzzdir, r->names[i]) != 0) {
      rc = -1;
      break;
    }
    unlink((const char *)one.data);
    int st = run_test(r, args);
    prof q;
    int pr = cli_prof_read((const char *)one.data, &q);
    if (pr < 0 || (pr == 0 && prof_merge(&acc, &q) != 0))
      rc = -1;
    cli_prof_free(&q);
    failed += st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    if (rc == 0)
      rc = move(r->fuzzdir, (const char *)aside.data, r->names[i]);
  }
  if (rc == 0 && acc.mode[0]) {
    rc = prof_write(out, &acc);
    fprintf(stderr,
            "cgofuzz: wrote %s: the coverage of %zu inputs (%zu failed; "
            "those that panicked are not in it)\n",
            out, r->n, failed);
  } else if (rc == 0) {
    fprintf(stderr, "cgofuzz: no run wrote a coverage profile\n");
    rc = -1;
  }
  cgofuzz_buf_free(&aside);
  cgofuzz_buf_free(&one);
  cgofuzz_buf_free(&flag);
  cli_prof_free(&acc);
  return rc;
}

/* Removes path and, if it is a directory, everything under it. */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    char **names;
    size_t n;
    if (cgofuzz_dir_names(path, false, &names, &n) == 0) {
      for (size_t i = 0; i < n; i++) {
        cgofuzz_buf c = {0};
        if (cgofuzz_buf_printf(&c, "%s/%s%c", path, names[i], 0) == 0)
          remove_tree((const char *)c.data);
        cgofuzz_buf_free(&c);
      }
      cgofuzz_dir_names_free(names, n);
    }
    rmdir(path);
  } else {
    unlink(path);
  }
}

int cli_gocover_main(const char *bin, const cli_golaunch *g, int argc,
                     char **argv) {
  cover_run r = {.bin = bin, .target = g->target};
  int gover;
  cgofuzz_err err = {0};
  if (cgofuzz_gobin_gover(bin, &gover, &err) < 0)
    fprintf(stderr, "cgofuzz: %s (files encoded as the newest Go does)\n",
            err.msg);
  const char *corpus = getenv("FUZZ_CORPUS_DIR");
  int rc = CLI_EXIT_FAIL;
  char **args = NULL;
  cgofuzz_buf run = {0}, outdir = {0}, out = {0}, profflag = {0};
  if (!getcwd(r.cwd, sizeof r.cwd)) {
    fprintf(stderr, "cgofuzz: getcwd: %s\n", strerror(errno));
    return CLI_EXIT_FAIL;
  }
  snprintf(r.dir, sizeof r.dir, "%s/cgofuzz-cover-XXXXXX", cgofuzz_tmpdir());
  if (!mkdtemp(r.dir)) {
    fprintf(stderr, "cgofuzz: mkdtemp %s: %s\n", r.dir, strerror(errno));
    return CLI_EXIT_FAIL;
  }
  bool made = true;
  static const char *const sub[] = {"testdata", "testdata/fuzz", NULL};
  for (int i = 0; i < 3 && made; i++) {
    int n = snprintf(r.fuzzdir, sizeof r.fuzzdir, "%s/%s", r.dir,
                     sub[i] ? sub[i] : "testdata/fuzz/");
    if (!sub[i] && n >= 0 && (size_t)n < sizeof r.fuzzdir)
      n = snprintf(r.fuzzdir + n, sizeof r.fuzzdir - (size_t)n, "%s",
                   g->target) +
          n;
    made =
        n >= 0 && (size_t)n < sizeof r.fuzzdir && mkdir(r.fuzzdir, 0700) == 0;
  }
  if (!made) {
    fprintf(stderr, "cgofuzz: mkdir %s: %s\n", r.fuzzdir, strerror(errno));
    goto done;
  }
  if (put_corpus(&r, corpus, g, gover) != 0)
    goto done;
  /* The package's testdata/fuzz files, carried in the launcher, join them
   * (the f.Add seeds the test binary runs by itself). */
  char **nn = realloc(r.names, (r.n + g->n_seeds + 1) * sizeof *nn);
  if (!nn)
    goto oom;
  r.names = nn;
  for (size_t i = 0; i < g->n_seeds; i++) {
    if (put_file(&r, g->seeds[i].data, g->seeds[i].len, gover, &r.names[r.n]) !=
        0)
      goto done;
    r.n++;
  }
  const char *prof = test_flag(argc, argv, "coverprofile");
  const char *od = test_flag(argc, argv, "outputdir");
  if (cgofuzz_buf_printf(&run, "-test.run=^%s$%c", g->target, 0) != 0 ||
      cgofuzz_buf_printf(&outdir, "-test.outputdir=%s%c", r.cwd, 0) != 0)
    goto oom;
  if (prof && prof[0] != '/' &&
      cgofuzz_buf_printf(&out, "%s/", od && *od ? od : r.cwd) != 0)
    goto oom;
  if (prof && cgofuzz_buf_printf(&out, "%s%c", prof, 0) != 0)
    goto oom;
  if (!(args = calloc((size_t)argc + 3, sizeof *args)))
    goto oom;
  if (prof && cgofuzz_buf_printf(&profflag, "-test.coverprofile=%s%c",
                                 (const char *)out.data, 0) != 0)
    goto oom;
  size_t k = 0;
  args[k++] = (char *)bin;
  args[k++] = (char *)run.data;
  args[k++] = (char *)outdir.data; /* the caller's, if given, comes later */
  for (int i = 1; i < argc; i++) {
    /* -test.coverprofile made absolute: the test binary runs elsewhere, and
     * Go (1.20 on) writes it relative to its directory, not -outputdir. */
    int skip = is_flag(argv[i], "coverprofile");
    if (skip) {
      args[k++] = (char *)profflag.data;
      i += skip - 1;
    } else {
      args[k++] = argv[i];
    }
  }
  if (prof)
    unlink((const char *)out.data);
  int st = run_test(&r, args);
  if (st < 0)
    goto done;
  rc = WIFEXITED(st) ? WEXITSTATUS(st) : CLI_EXIT_FAIL;
  if (rc != 0 && prof && access((const char *)out.data, F_OK) != 0 && r.n &&
      run_each(&r, (const char *)run.data, (const char *)out.data) != 0)
    rc = CLI_EXIT_FAIL;
  goto done;
oom:
  fprintf(stderr, "cgofuzz: out of memory\n");
done:
  remove_tree(r.dir);
  for (size_t i = 0; i < r.n; i++)
    free(r.names[i]);
  free(r.names);
  free(args);
  cgofuzz_buf_free(&run);
  cgofuzz_buf_free(&outdir);
  cgofuzz_buf_free(&out);
  cgofuzz_buf_free(&profflag);
  return rc;
}
