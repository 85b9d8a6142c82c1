/*
 * cmd_merge.c: `cgofuzz corpus merge` and `cgofuzz corpus prune`: corpus
 * minimization for Go test binaries and C targets, like libFuzzer's
 * -merge=1 and afl-cmin (docs/corpus-tools.md).
 *
 *   cgofuzz corpus merge -o OUTDIR [flags] BINARY [-fuzz RE] DIR...
 *   cgofuzz corpus prune [flags] BINARY [-fuzz RE] DIR...
 *
 * Both run the merge of the libFuzzer front end (lf.h,
 * cgofuzz_lf_merge_run): every input of the DIRs (`go test fuzz v1` files
 * or raw bytes, core/rawargs.h) runs once in the target's own worker, and
 * an input is kept when it adds coverage the smaller ones before it did
 * not reach. merge writes the kept inputs to OUTDIR (whose own files are
 * the initial set: they stay and count first), as Go corpus files written
 * and named as the binary's Go release writes and names them (-to go; a C
 * target: the newest release) or raw files named by SHA-1 (-to raw). prune
 * deletes, from the DIRs, the inputs the merge proved redundant (ran fine,
 * added nothing) or duplicate (same values as one that ran fine) and
 * nothing else: a file that crashed, hung, could not be read or decoded,
 * or changed since it was read stays.
 *
 * Crash safety: the control file (-control, by default a dot file in
 * OUTDIR, or in the first DIR for prune, removed after a successful run)
 * records every input run; running the same command again after a kill
 * replays the records and ends with the same files.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "codec.h"
#include "coord.h"
#include "gobin.h"
#include "lf.h"
#include "os.h"
#include "sha1.h"

#define MERGE_CONTROL ".cgofuzz-merge-control"
#define PRUNE_CONTROL ".cgofuzz-prune-control"

enum { MERGE_NFLAGS = 8 }; /* the flags of merge_parse */

typedef struct merge_cli {
  const char *cmd; /* "corpus merge" or "corpus prune" */
  bool prune;
  const char *outdir, *to, *control, *fuzz;
  int64_t timeout, rss_limit_mb;
  bool dry_run, verbose;
  int gover; /* the binary's Go release (cgofuzz_gobin_gover) */
  /* prune: the inputs it may delete, and how many it did */
  struct doomed {
    char *path;
    uint8_t sha[32];
    int disp;
  } * doomed;
  size_t n_doomed, cap_doomed;
  size_t written;
  /* The run's state, shared by its steps (cli_cmd_merge): what it owns is
   * NULL or zero until a step makes it, so merge_free releases whatever
   * the steps made. */
  cgofuzz_flag flags[MERGE_NFLAGS];
  char **pos; /* BINARY and the DIRs */
  size_t npos;
  char bin[PATH_MAX], self[PATH_MAX];
  char *target, *ctl_alloc;
  bool own_control; /* the control file is ours to remove at the end */
  cgofuzz_coord_config cfg;
} merge_cli;

static void usage(const merge_cli *m, const cgofuzz_flag *flags, size_t n) {
  if (m->prune)
    fprintf(stderr,
            "usage: cgofuzz corpus prune [flags] BINARY [-fuzz RE] DIR...\n"
            "Deletes from the DIRs the inputs that add no coverage to the "
            "others (a minimal set stays).\n");
  else
    fprintf(stderr,
            "usage: cgofuzz corpus merge -o OUTDIR [flags] BINARY [-fuzz RE] "
            "DIR...\n"
            "Writes to OUTDIR a minimal set of the DIRs' inputs with all "
            "their coverage.\n");
  cli_print_flags(flags, n);
}

static int keep_one(void *ctx, const cgofuzz_lf_merge_input *in) {
  merge_cli *m = ctx;
  if (m->prune)
    return 0; /* the input stays where it is */
  bool go = strcmp(m->to, "go") == 0;
  char name[CGOFUZZ_CODEC_NAME_MAX]; /* a SHA-1 (40 digits) fits too */
  if (go) /* as the binary's release names it, encoded as it encodes it */
    cgofuzz_codec_name_v(in->enc, in->enc_len, m->gover, name);
  else
    cgofuzz_sha1_hex(in->raw, in->raw_len, name);
  cgofuzz_buf path = {0};
  if (cgofuzz_buf_printf(&path, "%s/%s%c", m->outdir, name, 0) != 0) {
    fprintf(stderr, "cgofuzz %s: out of memory\n", m->cmd);
    return -1;
  }
  int rc = 0;
  struct stat st;
  /* Content-named: an existing file is this input (an earlier run's). */
  if (stat((const char *)path.data, &st) != 0) {
    rc = go ? cli_write_file_atomic((const char *)path.data, in->enc,
                                    in->enc_len, 0644)
            : cli_write_file_atomic((const char *)path.data, in->raw,
                                    in->raw_len, 0644);
    m->written += rc == 0;
  }
  if (rc == 0 && m->verbose)
    fprintf(stderr, "kept %s as %s\n", in->path, (const char *)path.data);
  cgofuzz_buf_free(&path);
  return rc;
}

static void account_one(void *ctx, const cgofuzz_lf_merge_input *in) {
  merge_cli *m = ctx;
  if (!m->prune || (in->disposition != CGOFUZZ_LF_MERGE_REDUNDANT &&
                    in->disposition != CGOFUZZ_LF_MERGE_DUP))
    return;
  if (m->n_doomed == m->cap_doomed) {
    size_t nc = m->cap_doomed ? 2 * m->cap_doomed : 64;
    struct doomed *nd = realloc(m->doomed, nc * sizeof *nd);
    if (!nd)
      return; /* not recorded: not deleted */
    m->doomed = nd;
    m->cap_doomed = nc;
  }
  struct doomed *d = &m->doomed[m->n_doomed];
  if (!(d->path = strdup(in->path)))
    return;
  memcpy(d->sha, in->sha256, 32);
  d->disp = in->disposition;
  m->n_doomed++;
}

static void loaded(void *ctx, size_t n, size_t n_initial, size_t recorded) {
  merge_cli *m = ctx;
  fprintf(stderr, "cgofuzz %s: %zu inputs", m->cmd, n - n_initial);
  if (n_initial)
    fprintf(stderr, ", %zu already in %s", n_initial, m->outdir);
  if (recorded)
    fprintf(stderr, ", %zu of them recorded by an earlier run (%s)", recorded,
            m->control);
  fprintf(stderr, "\n");
}

/* Deletes the inputs the merge accounted for, each only if its content is
 * still what was accounted. Returns how many were deleted. */
static size_t delete_doomed(merge_cli *m, const cgofuzz_lf_target *t,
                            size_t *changed) {
  size_t deleted = 0;
  for (size_t i = 0; i < m->n_doomed; i++) {
    struct doomed *d = &m->doomed[i];
    uint8_t sha[32];
    if (cgofuzz_lf_merge_file_sha(t, d->path, 0, sha) != 0 ||
        memcmp(sha, d->sha, 32) != 0) {
      fprintf(stderr, "cgofuzz %s: %s changed since it was read; kept\n",
              m->cmd, d->path);
      (*changed)++;
      continue;
    }
    if (m->dry_run) {
      printf("would remove %s\n", d->path);
      continue;
    }
    if (unlink(d->path) != 0) {
      fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, d->path, strerror(errno));
      continue;
    }
    if (m->verbose)
      fprintf(stderr, "removed %s (%s)\n", d->path,
              d->disp == CGOFUZZ_LF_MERGE_DUP ? "duplicate" : "redundant");
    deleted++;
  }
  return deleted;
}

/* The one target of binary that re matches (all of them without -fuzz). */
static int pick_target(const merge_cli *m, const char *bin, char **out) {
  char **names = NULL;
  size_t n = 0;
  cgofuzz_err err = {0};
  int rc = -1;
  const char *want = m->fuzz ? m->fuzz : ".";
  if (cgofuzz_gobin_list_targets(bin, want, &names, &n, &err) != 0) {
    fprintf(stderr, "cgofuzz %s: %s\n", m->cmd, err.msg);
  } else if (n != 1) {
    fprintf(stderr, "cgofuzz %s: -fuzz %s matches %zu fuzz targets of %s",
            m->cmd, want, n, bin);
    for (size_t i = 0; i < n; i++)
      fprintf(stderr, "%s%s", i ? " " : ": ", names[i]);
    fprintf(stderr, "%s\n", n ? "; name one" : "");
  } else if ((*out = strdup(names[0]))) {
    rc = 0;
  }
  cgofuzz_coord_free_names(names, n);
  return rc;
}

/* The flags, which may come before and after BINARY (go test style
 * -fuzz), and the positional arguments in m->pos. */
static int merge_parse(merge_cli *m, int argc, char **argv) {
  const cgofuzz_flag flags[] = {
      {.name = "o",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &m->outdir,
       .usage = "merge: the output `dir` (created; its files are kept and "
                "count first)"},
      {.name = "to",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &m->to,
       .usage = "merge: write `go` test fuzz v1 files (default) or raw files"},
      {.name = "fuzz",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &m->fuzz,
       .usage = "the fuzz target, a `regexp` matching one (default: the "
                "binary's only one)"},
      {.name = "control",
       .type = CGOFUZZ_FLAG_STRING,
       .dst = &m->control,
       .usage = "the control `file` that makes a killed run resumable "
                "(default: a dot file in OUTDIR or the first DIR, removed at "
                "the end)"},
      {.name = "timeout",
       .type = CGOFUZZ_FLAG_INT,
       .dst = &m->timeout,
       .usage = "`seconds` an input may run before it counts as a hang"},
      {.name = "rss_limit_mb",
       .type = CGOFUZZ_FLAG_INT,
       .dst = &m->rss_limit_mb,
       .usage = "a C worker's memory limit in `MB` (0: none)"},
      {.name = "n",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &m->dry_run,
       .usage = "prune: print what would be removed, remove nothing"},
      {.name = "v",
       .type = CGOFUZZ_FLAG_BOOL,
       .dst = &m->verbose,
       .usage = "say what is kept and removed"},
  };
  _Static_assert(sizeof flags == sizeof m->flags, "merge_cli.flags");
  memcpy(m->flags, flags, sizeof flags);
  if (!(m->pos = calloc((size_t)argc + 1, sizeof *m->pos)))
    return CLI_EXIT_FAIL;
  for (int i = 0; i < argc;) {
    int first =
        cli_parse_flags(m->cmd, m->flags, MERGE_NFLAGS, argc - i, argv + i);
    if (first < 0) {
      usage(m, m->flags, MERGE_NFLAGS);
      return first == CGOFUZZ_FLAGS_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
    }
    i += first;
    if (i < argc)
      m->pos[m->npos++] = argv[i++];
  }
  return CLI_GO_ON;
}

/* The flags' values, BINARY and the DIRs: a usage error when wrong. */
static int merge_check_args(merge_cli *m) {
  char **pos = m->pos;
  if (m->npos < 2) {
    fprintf(stderr, "cgofuzz %s: give BINARY and at least one DIR\n", m->cmd);
    usage(m, m->flags, MERGE_NFLAGS);
    return CLI_EXIT_USAGE;
  }
  if (!m->prune && !m->outdir) {
    fprintf(stderr, "cgofuzz %s: -o OUTDIR is required\n", m->cmd);
    return CLI_EXIT_USAGE;
  }
  if (strcmp(m->to, "go") != 0 && strcmp(m->to, "raw") != 0) {
    fprintf(stderr, "cgofuzz %s: -to must be go or raw, not %s\n", m->cmd,
            m->to);
    return CLI_EXIT_USAGE;
  }
  if (m->timeout < 0 || m->rss_limit_mb < 0) {
    fprintf(stderr, "cgofuzz %s: -timeout and -rss_limit_mb must be >= 0\n",
            m->cmd);
    return CLI_EXIT_USAGE;
  }
  if (!realpath(pos[0], m->bin)) {
    fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, pos[0], strerror(errno));
    return CLI_EXIT_USAGE;
  }
  for (size_t i = 1; i < m->npos; i++) {
    struct stat st;
    if (stat(pos[i], &st) != 0) {
      fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, pos[i], strerror(errno));
      return CLI_EXIT_USAGE;
    }
    if (m->prune && !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "cgofuzz %s: %s: not a directory\n", m->cmd, pos[i]);
      return CLI_EXIT_USAGE;
    }
  }
  return CLI_GO_ON;
}

/* The target, the Go release it follows, and its argument kinds. */
static int merge_discover(merge_cli *m) {
  if (cgofuzz_os_self_exe(m->self, sizeof m->self) != 0) {
    fprintf(stderr, "cgofuzz %s: cannot find our own executable\n", m->cmd);
    return CLI_EXIT_FAIL;
  }
  if (pick_target(m, m->bin, &m->target) != 0)
    return CLI_EXIT_FAIL;
  cgofuzz_err err = {0};
  /* The release to follow, as cgofuzz fuzz does: the one that built the
   * binary; a C target (or a binary whose build info cannot be read, with
   * a warning) follows the newest. */
  if (cgofuzz_gobin_gover(m->bin, &m->gover, &err) < 0)
    fprintf(stderr,
            "cgofuzz %s: warning: %s: cannot tell which Go release built it "
            "(%s); following go1.%d\n",
            m->cmd, m->pos[0], err.msg, m->gover);
  err = (cgofuzz_err){0};
  m->cfg.binary = m->bin;
  m->cfg.target = m->target;
  m->cfg.parallel = 1;
  m->cfg.gover = m->gover;
  if (cgofuzz_coord_discover(&m->cfg, m->self, &err) != 0) {
    fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, m->target, err.msg);
    return CLI_EXIT_FAIL;
  }
  if (!m->cfg.n_kinds) {
    fprintf(stderr, "cgofuzz %s: %s takes no arguments to fuzz\n", m->cmd,
            m->target);
    return CLI_EXIT_FAIL;
  }
  return CLI_GO_ON;
}

/* OUTDIR (merge), and the control file's path. */
static int merge_prepare(merge_cli *m) {
  if (!m->prune && mkdir(m->outdir, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, m->outdir, strerror(errno));
    return CLI_EXIT_FAIL;
  }
  m->own_control = !m->control;
  if (m->own_control) {
    const char *dir = m->prune ? m->pos[1] : m->outdir;
    size_t l = strlen(dir) + sizeof MERGE_CONTROL + 2;
    if (!(m->ctl_alloc = malloc(l)))
      return CLI_EXIT_FAIL;
    snprintf(m->ctl_alloc, l, "%s/%s", dir,
             m->prune ? PRUNE_CONTROL : MERGE_CONTROL);
    m->control = m->ctl_alloc;
  }
  return CLI_GO_ON;
}

/* The closing lines: what ran, what was kept or removed, the coverage. */
static void merge_summary(const merge_cli *m, const cgofuzz_lf_merge_stats *st,
                          size_t deleted, size_t changed) {
  fprintf(stderr,
          "cgofuzz %s: %zu run (%zu replayed from the control file): %zu "
          "kept, %zu redundant, %zu duplicates, %zu failed, %zu "
          "unreadable as %s's arguments\n",
          m->cmd, st->executed, st->recorded, st->kept, st->redundant, st->dups,
          st->failed, st->bad, m->target);
  if (m->prune)
    fprintf(stderr, "cgofuzz %s: %s %zu files%s\n", m->cmd,
            m->dry_run ? "would remove" : "removed",
            m->dry_run ? m->n_doomed - changed : deleted,
            changed ? " (changed ones kept)" : "");
  else
    fprintf(stderr, "cgofuzz %s: %s: %zu files written\n", m->cmd, m->outdir,
            m->written);
  fprintf(stderr,
          "cgofuzz %s: coverage of the %s set: %zu features, %zu edges "
          "(of %zu counters)\n",
          m->cmd, m->prune ? "remaining" : "merged", st->bits, st->edges,
          st->counters);
}

/* The merge itself (lf_merge.c), then prune's deletions. */
static int merge_execute(merge_cli *m) {
  /* A Go test binary enforces none of the libFuzzer limits in its worker;
   * the merge's executor does (a C target gets them as flags). */
  cgofuzz_lf_target t = {.binary = m->bin,
                         .name = m->target,
                         .kinds = m->cfg.kinds,
                         .n_kinds = m->cfg.n_kinds,
                         .go = cgofuzz_gobin_go_counters(m->bin) > 0,
                         .gover = m->gover};
  char *outv[] = {(char *)m->outdir};
  cgofuzz_lf_merge_job job = {.t = &t,
                              .initial = outv,
                              .n_initial = m->prune ? 0 : 1,
                              .dirs = m->pos + 1,
                              .n_dirs = m->npos - 1,
                              .control = m->control,
                              .timeout_s = m->timeout,
                              .rss_limit_mb = m->rss_limit_mb,
                              .output_fd = -1,
                              .prefix = m->prune ? "cgofuzz corpus prune: "
                                                 : "cgofuzz corpus merge: ",
                              .loaded = loaded,
                              .keep = keep_one,
                              .account = account_one,
                              .ctx = m};
  cgofuzz_lf_merge_stats st;
  if (cgofuzz_lf_merge_run(&job, &st) != 0) {
    fprintf(stderr, "cgofuzz %s: failed; run it again to resume (%s)\n", m->cmd,
            m->control);
    return CLI_EXIT_FAIL;
  }
  size_t changed = 0, deleted = m->prune ? delete_doomed(m, &t, &changed) : 0;
  merge_summary(m, &st, deleted, changed);
  if (m->own_control && unlink(m->control) != 0)
    fprintf(stderr, "cgofuzz %s: %s: %s\n", m->cmd, m->control,
            strerror(errno));
  return CLI_EXIT_OK;
}

static void merge_free(merge_cli *m) {
  for (size_t i = 0; i < m->n_doomed; i++)
    free(m->doomed[i].path);
  free(m->doomed);
  cgofuzz_coord_free_discovery(&m->cfg);
  free(m->target);
  free(m->ctl_alloc);
  free(m->pos);
}

int cli_cmd_merge(int argc, char **argv, bool prune) {
  static int (*const steps[])(merge_cli *) = {merge_check_args, merge_discover,
                                              merge_prepare, merge_execute};
  merge_cli m;
  memset(&m, 0, sizeof m);
  m.cmd = prune ? "corpus prune" : "corpus merge";
  m.prune = prune;
  m.to = "go";
  m.timeout = 10;
  int rc = merge_parse(&m, argc, argv);
  if (rc == CLI_GO_ON) {
    for (size_t i = 0; rc == CLI_GO_ON && i < sizeof steps / sizeof *steps; i++)
      rc = steps[i](&m);
    /* stdout carries prune -n's list: a failure to write it fails the run */
    if (fflush(stdout) != 0)
      rc = CLI_EXIT_FAIL;
  }
  merge_free(&m);
  return rc;
}
