/*
 * lf_merge.c: the corpus merge (lf.h: cgofuzz_lf_merge_run), shared by
 * -merge=1 DIR1 DIR2... and `cgofuzz corpus merge|prune` (cli/cmd_merge.c).
 *
 * -merge=1 adds to DIR1 the inputs of the other directories that reach
 * coverage DIR1's inputs do not, as libFuzzer does: DIR1 is the initial
 * set, and each kept input is copied into DIR1 under its SHA-1. An input
 * that crashes, hangs or runs out of memory is skipped after saying so,
 * and the merge goes on in a new worker, which is libFuzzer's
 * "crash-resistant merge"; -merge_control_file is accepted and not used
 * (the front end's merge keeps no state between runs, as before).
 * The summary line is what ClusterFuzz parses:
 *   MERGE-OUTER: N new files with F new features added; E new coverage edges
 *
 * Features are what the fuzzer itself counts: the bits of the coverage
 * counters (Go's countNewCoverageBits), edges the counters that are
 * nonzero.
 *
 * The control file (text, one record a line, appended and flushed before
 * the input's outcome is acted on; a last line without its newline is a
 * record cut short by a kill and is dropped):
 *   cgofuzz merge control v1
 *   target <name>
 *   counters <n>                        (once the first input ran)
 *   R <sha256> ok|crash|timeout|oom <k> <idx>:<hex> ... <path as Go %q>
 * where sha256 is that of the input's canonical encoding and the k pairs
 * are its nonzero coverage counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "codec.h"
#include "coord.h"
#include "lf_internal.h"
#include "rawargs.h"
#include "sha256.h"

#define CONTROL_MAGIC "cgofuzz merge control v1"

typedef struct feat {
  uint32_t idx;
  uint8_t val;
} feat;

enum { OC_OK, OC_CRASH, OC_TIMEOUT, OC_OOM };
static const char *const oc_names[] = {"ok", "crash", "timeout", "oom"};

/* A record: the outcome and features of one canonical input. */
typedef struct record {
  uint8_t sha[32];
  int oc;
  feat *f;
  size_t nf;
} record;

typedef struct item {
  lf_input *in;
  cgofuzz_buf raw, enc;
  uint8_t sha[32];
  bool initial, bad;
  int disp;
  int oc;        /* its outcome, once run or replayed */
  size_t leader; /* the first item (in merge order) with its sha */
} item;

static int by_size(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->raw.len != y->raw.len)
    return x->raw.len < y->raw.len ? -1 : 1;
  return strcmp(x->in->path, y->in->path);
}

/* For marking duplicates: items by sha, then merge order. */
static const item *sort_items;
static int by_item_sha(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  int c = memcmp(sort_items[x].sha, sort_items[y].sha, 32);
  return c ? c : x < y ? -1 : x > y;
}

static int by_sha(const void *a, const void *b) {
  return memcmp(((const record *)a)->sha, ((const record *)b)->sha, 32);
}

static void hex32(const uint8_t sha[32], char out[65]) {
  static const char d[] = "0123456789abcdef";
  for (int i = 0; i < 32; i++) {
    out[2 * i] = d[sha[i] >> 4];
    out[2 * i + 1] = d[sha[i] & 15];
  }
  out[64] = '\0';
}

static int unhex32(const char *s, uint8_t sha[32]) {
  for (int i = 0; i < 64; i++) {
    int c = s[i], v = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                             : -1;
    if (v < 0)
      return -1;
    sha[i / 2] = (uint8_t)(i % 2 ? sha[i / 2] | v : v << 4);
  }
  return 0;
}

/* Canonicalizes in: its raw bytes, then Go's encoding of those values. */
static int canon(const cgofuzz_lf_target *t, const lf_input *in,
                 cgofuzz_buf *raw, cgofuzz_buf *enc, uint8_t sha[32],
                 cgofuzz_err *err) {
  if (cgofuzz_rawargs_from_corpus_v(t->kinds, t->n_kinds, in->enc.data,
                                    in->enc.len, lf_gover(t), raw, err) != 0 ||
      cgofuzz_rawargs_to_corpus_v(t->kinds, t->n_kinds, raw->data, raw->len,
                                  lf_gover(t), enc, err) != 0)
    return -1;
  cgofuzz_sha256(enc->data, enc->len, sha);
  return 0;
}

int cgofuzz_lf_merge_file_sha(const cgofuzz_lf_target *t, const char *path,
                              int64_t max_len, uint8_t sha[32]) {
  lf_input in;
  cgofuzz_buf raw = {0}, enc = {0};
  cgofuzz_err err = {0};
  if (cgofuzz_lf_read_input(t, path, max_len, &in) != 0)
    return -1;
  int rc = canon(t, &in, &raw, &enc, sha, &err);
  if (rc != 0)
    fprintf(stderr, "%s: %s\n", path, err.msg);
  cgofuzz_buf_free(&raw);
  cgofuzz_buf_free(&enc);
  free(in.path);
  cgofuzz_buf_free(&in.enc);
  return rc;
}

/* --- the control file */
typedef struct control {
  const char *path;
  FILE *f;
  record *rec; /* sorted by sha after loading */
  size_t n, cap;
  size_t counters; /* 0: not known yet */
} control;

static void control_free(control *c) {
  if (c->f)
    fclose(c->f);
  for (size_t i = 0; i < c->n; i++)
    free(c->rec[i].f);
  free(c->rec);
}

static int parse_record(char *line, record *r) {
  memset(r, 0, sizeof *r);
  char *p = line + 2, *end;
  if (strlen(p) < 65 || unhex32(p, r->sha) != 0 || p[64] != ' ')
    return -1;
  p += 65;
  r->oc = -1;
  for (int i = 0; i < 4; i++) {
    size_t l = strlen(oc_names[i]);
    if (strncmp(p, oc_names[i], l) == 0 && p[l] == ' ') {
      r->oc = i;
      p += l + 1;
      break;
    }
  }
  if (r->oc < 0)
    return -1;
  errno = 0;
  unsigned long long k = strtoull(p, &end, 10);
  if (errno || end == p || *end != ' ' || k > (1ull << 32))
    return -1;
  p = end;
  /* Each pair takes 4 bytes at least (" 1:1"): a count the line cannot
   * hold is refused before it is allocated (2^32 pairs were 32 GiB). */
  if (k > strlen(p) / 4)
    return -1;
  if (k && !(r->f = malloc(k * sizeof *r->f)))
    return -1;
  for (size_t i = 0; i < k; i++) {
    unsigned long long idx = strtoull(p, &end, 10);
    if (end == p || *end != ':' || idx > UINT32_MAX)
      goto bad;
    p = end + 1;
    unsigned long v = strtoul(p, &end, 16);
    if (end == p || v == 0 || v > 255 || (*end != ' ' && *end != '\0'))
      goto bad;
    p = end;
    r->f[i] = (feat){(uint32_t)idx, (uint8_t)v};
  }
  r->nf = k;
  return 0;
bad:
  free(r->f);
  r->f = NULL;
  return -1;
}

/* Opens (creating or resuming) the control file for target. */
static int control_open(control *c, const char *path, const char *target) {
  memset(c, 0, sizeof *c);
  c->path = path;
  FILE *f = fopen(path, "r+");
  if (!f && errno != ENOENT) {
    fprintf(stderr, "ERROR: control file %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (!f) {
    if (!(c->f = fopen(path, "w"))) {
      fprintf(stderr, "ERROR: control file %s: %s\n", path, strerror(errno));
      return -1;
    }
    fprintf(c->f, CONTROL_MAGIC "\ntarget %s\n", target);
    return fflush(c->f) == 0 ? 0 : -1;
  }
  c->f = f;
  char *line = NULL;
  size_t cap = 0;
  ssize_t l;
  long good = 0; /* end of the last whole line */
  int lineno = 0, rc = 0;
  while ((l = getline(&line, &cap, f)) > 0) {
    if (line[l - 1] != '\n')
      break; /* cut short by a kill: dropped */
    line[l - 1] = '\0';
    lineno++;
    if (lineno == 1 && strcmp(line, CONTROL_MAGIC) != 0) {
      fprintf(stderr,
              "ERROR: %s is not a cgofuzz merge control file; remove it or "
              "name another\n",
              path);
      rc = -1;
      break;
    }
    if (lineno == 2 &&
        (strncmp(line, "target ", 7) != 0 || strcmp(line + 7, target) != 0)) {
      fprintf(stderr,
              "ERROR: control file %s is for another target (%s); remove it "
              "or name another\n",
              path, line);
      rc = -1;
      break;
    }
    if (strncmp(line, "counters ", 9) == 0) {
      /* The mask the records index is this long: a number, said once
       * (control_append writes it before the first record with a
       * feature), and indexable by a record's uint32 counter index. */
      char *end;
      errno = 0;
      unsigned long long n = strtoull(line + 9, &end, 10);
      if (errno || end == line + 9 || *end || line[9] == '-' || n == 0 ||
          n > (1ull << 32) || (c->counters && c->counters != n)) {
        fprintf(stderr, "ERROR: %s:%d: malformed counters line\n", path,
                lineno);
        rc = -1;
        break;
      }
      c->counters = (size_t)n;
    } else if (strncmp(line, "R ", 2) == 0) {
      if (c->n == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 256;
        record *nr = realloc(c->rec, nc * sizeof *nr);
        if (!nr) {
          rc = -1;
          break;
        }
        c->rec = nr;
        c->cap = nc;
      }
      if (parse_record(line, &c->rec[c->n]) != 0) {
        fprintf(stderr, "ERROR: %s:%d: malformed record\n", path, lineno);
        rc = -1;
        break;
      }
      c->n++;
      /* Every index is checked here, whatever lines there are: a record
       * is replayed into the mask without another look, and a file
       * without its counters line once let a record index past it. */
      const record *r = &c->rec[c->n - 1];
      for (size_t j = 0; j < r->nf; j++)
        if (r->f[j].idx >= c->counters) {
          if (c->counters)
            fprintf(stderr,
                    "ERROR: %s:%d: the record names counter %" PRIu32
                    ", but there are %zu\n",
                    path, lineno, r->f[j].idx, c->counters);
          else
            fprintf(stderr,
                    "ERROR: %s:%d: the record names counter %" PRIu32
                    " before any counters line\n",
                    path, lineno, r->f[j].idx);
          rc = -1;
          break;
        }
      if (rc != 0)
        break;
    } else if (lineno > 2) {
      fprintf(stderr, "ERROR: %s:%d: malformed line\n", path, lineno);
      rc = -1;
      break;
    }
    good = ftell(f);
  }
  free(line);
  if (rc == 0 && lineno == 0) {
    /* Killed before its header was complete (what there is must be the
     * start of it, or the file is not ours): start it again. */
    char head[sizeof CONTROL_MAGIC];
    size_t got = 0;
    if (fseek(f, 0, SEEK_SET) == 0)
      got = fread(head, 1, sizeof head, f);
    if (got >= sizeof head || memcmp(head, CONTROL_MAGIC, got) != 0) {
      fprintf(stderr,
              "ERROR: %s is not a cgofuzz merge control file; remove it or "
              "name another\n",
              path);
      return -1;
    }
    if (ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0) {
      fprintf(stderr, "ERROR: control file %s: %s\n", path, strerror(errno));
      return -1;
    }
    fprintf(f, CONTROL_MAGIC "\ntarget %s\n", target);
    return fflush(f) == 0 ? 0 : -1;
  }
  if (rc == 0 && lineno < 2) {
    fprintf(stderr, "ERROR: %s is not a cgofuzz merge control file\n", path);
    rc = -1;
  }
  if (rc != 0)
    return -1;
  /* Drop a partial last line, then append after the good ones. */
  if (fflush(f) != 0 || ftruncate(fileno(f), good) != 0 ||
      fseek(f, good, SEEK_SET) != 0) {
    fprintf(stderr, "ERROR: control file %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (c->n) /* none: rec is NULL, which qsort may not be given */
    qsort(c->rec, c->n, sizeof *c->rec, by_sha);
  return 0;
}

static const record *control_find(const control *c, const uint8_t sha[32]) {
  if (!c->n)
    return NULL;
  record key;
  memcpy(key.sha, sha, 32);
  return bsearch(&key, c->rec, c->n, sizeof *c->rec, by_sha);
}

static int control_append(control *c, const item *it, int oc, const feat *f,
                          size_t nf, size_t counters) {
  if (!c->f)
    return 0;
  if (!c->counters && counters) {
    c->counters = counters;
    fprintf(c->f, "counters %zu\n", counters);
  }
  char h[65];
  hex32(it->sha, h);
  fprintf(c->f, "R %s %s %zu", h, oc_names[oc], nf);
  for (size_t i = 0; i < nf; i++)
    fprintf(c->f, " %" PRIu32 ":%x", f[i].idx, f[i].val);
  cgofuzz_buf q = {0};
  if (cgofuzz_quote((const uint8_t *)it->in->path, strlen(it->in->path), &q) !=
      0)
    return -1;
  fprintf(c->f, " %.*s\n", (int)q.len, (const char *)q.data);
  cgofuzz_buf_free(&q);
  if (fflush(c->f) != 0 || ferror(c->f)) {
    fprintf(stderr, "ERROR: control file %s: %s\n", c->path, strerror(errno));
    return -1;
  }
  return 0;
}

/* --- the merge */

/* Adds features to mask (grown to n): returns the new bits, and in
 * *edges the counters that were zero. */
static size_t add_feats(uint8_t *mask, const feat *f, size_t nf,
                        size_t *edges) {
  size_t bits = 0;
  for (size_t i = 0; i < nf; i++) {
    uint8_t m = mask[f[i].idx];
    for (unsigned v = (unsigned)(f[i].val & ~m) & 0xffu; v; v &= v - 1)
      bits++;
    *edges += !m && f[i].val;
    mask[f[i].idx] = m | f[i].val;
  }
  return bits;
}

int cgofuzz_lf_merge_control_check(const char *path, const char *target,
                                   size_t *records, size_t *counters) {
  control c;
  if (control_open(&c, path, target) != 0) {
    control_free(&c);
    return -1;
  }
  *records = c.n;
  *counters = c.counters;
  /* Replayed as the merge replays a record (a mask of counters bytes),
   * when the mask is one a harness can afford. */
  uint8_t *mask =
      c.counters && c.counters <= (1u << 24) ? calloc(c.counters, 1) : NULL;
  size_t edges = 0;
  for (size_t i = 0; mask && i < c.n; i++)
    add_feats(mask, c.rec[i].f, c.rec[i].nf, &edges);
  free(mask);
  control_free(&c);
  return 0;
}

static int read_all_dirs(const cgofuzz_lf_target *t, char *const *dirs,
                         size_t n, int64_t max_len, lf_inputs *out) {
  for (size_t i = 0; i < n; i++) {
    if (cgofuzz_lf_is_dir(dirs[i])) {
      if (cgofuzz_lf_read_dir(t, dirs[i], max_len, out) != 0)
        return -1;
      continue;
    }
    if (out->n == out->cap) {
      size_t nc = out->cap ? 2 * out->cap : 64;
      lf_input *nv = realloc(out->v, nc * sizeof *nv);
      if (!nv)
        return -1;
      out->v = nv;
      out->cap = nc;
    }
    if (cgofuzz_lf_read_input(t, dirs[i], max_len, &out->v[out->n]) == 0)
      out->n++;
  }
  return 0;
}

/* One merge (cgofuzz_lf_merge_run): what its steps share. What it owns is
 * NULL or zero until a step makes it, so merge_free releases whatever the
 * steps made. */
typedef struct merge {
  const cgofuzz_lf_merge_job *job;
  const cgofuzz_lf_target *t;
  const char *pfx; /* of the lines about one input */
  cgofuzz_lf_merge_stats *st;
  lf_opts lo; /* the executor's limits, unless job->lf has them */
  lf_exec x;
  control ctl;
  lf_inputs first, rest;
  item *items; /* [n]: first's in order, then rest's by size */
  size_t n;
  size_t *order;
  uint8_t *mask; /* the counters' bits reached so far */
  size_t mask_len;
  feat *fv; /* the features of the input run last */
  size_t fcap;
} merge;

static int merge_oom(void) {
  fprintf(stderr, "ERROR: merge: out of memory\n");
  return -1;
}

/* The executor, the control file and every input. */
static int merge_open(merge *m) {
  const cgofuzz_lf_merge_job *job = m->job;
  m->lo.timeout = job->timeout_s;
  m->lo.rss_limit_mb = job->rss_limit_mb;
  const lf_opts *o = job->lf ? job->lf : &m->lo;
  if (cgofuzz_lf_exec_init(&m->x, m->t, o, job->output_fd) != 0)
    return -1;
  if (job->control && control_open(&m->ctl, job->control, m->t->name) != 0)
    return -1;
  if (read_all_dirs(m->t, job->initial, job->n_initial, job->max_len,
                    &m->first) != 0 ||
      read_all_dirs(m->t, job->dirs, job->n_dirs, job->max_len, &m->rest) !=
          0) {
    fprintf(stderr, "ERROR: reading the inputs: out of memory\n");
    return -1;
  }
  return 0;
}

/* The items: each input canonicalized (one that is not the target's
 * arguments is bad), in merge order, each with its leader (the first
 * good one with the same values). */
static int merge_items(merge *m) {
  size_t n = m->n = m->first.n + m->rest.n;
  item *items = m->items = calloc(n ? n : 1, sizeof *m->items);
  size_t *order = m->order = calloc(n ? n : 1, sizeof *m->order);
  if (!items || !order)
    return merge_oom();
  for (size_t i = 0; i < n; i++) {
    item *it = &items[i];
    it->initial = i < m->first.n;
    it->in = it->initial ? &m->first.v[i] : &m->rest.v[i - m->first.n];
    cgofuzz_err err = {0};
    if (canon(m->t, it->in, &it->raw, &it->enc, it->sha, &err) != 0) {
      if (err.line > 0)
        fprintf(stderr, "%s%s:%d: %s; skipping it\n", m->pfx, it->in->path,
                err.line, err.msg);
      else
        fprintf(stderr, "%s%s: %s; skipping it\n", m->pfx, it->in->path,
                err.msg);
      it->bad = true;
    }
  }
  qsort(items + m->first.n, m->rest.n, sizeof *items, by_size);
  /* Each item's leader: the first good one with the same values. */
  size_t ngood = 0;
  for (size_t i = 0; i < n; i++)
    if (!items[i].bad)
      order[ngood++] = i;
  sort_items = items;
  qsort(order, ngood, sizeof *order, by_item_sha);
  for (size_t k = 0; k < ngood; k++) {
    size_t i = order[k];
    bool same = k && memcmp(items[order[k - 1]].sha, items[i].sha, 32) == 0;
    items[i].leader = same ? items[order[k - 1]].leader : i;
  }
  return 0;
}

/* What was loaded, told to the job, and the mask of a control file that
 * knows the counters. */
static int merge_loaded(merge *m) {
  const cgofuzz_lf_merge_job *job = m->job;
  cgofuzz_lf_merge_stats *st = m->st;
  st->files = m->n;
  st->initial = m->first.n;
  for (size_t i = 0; i < m->n; i++) /* the runs the records save */
    st->recorded += !m->items[i].bad && m->items[i].leader == i &&
                    control_find(&m->ctl, m->items[i].sha) != NULL;
  if (job->loaded)
    job->loaded(job->ctx, m->n, m->first.n, st->recorded);
  if (m->ctl.counters) {
    if (!(m->mask = calloc(m->ctl.counters, 1)))
      return merge_oom();
    m->mask_len = m->ctl.counters;
  }
  return 0;
}

/* Runs it, and records its outcome and features (in m->fv). */
static int merge_exec(merge *m, const item *it, int *oc, size_t *nf) {
  lf_exec *x = &m->x;
  lf_outcome loc;
  if (cgofuzz_lf_exec_run(x, it->enc.data, it->enc.len, &loc) != 0)
    return -1;
  m->st->executed++;
  *oc = loc == LF_OK        ? OC_OK
        : loc == LF_TIMEOUT ? OC_TIMEOUT
        : loc == LF_OOM     ? OC_OOM
                            : OC_CRASH;
  *nf = 0;
  if (*oc == OC_OK) {
    if (m->mask_len && x->cov_len != m->mask_len) {
      fprintf(stderr,
              "ERROR: %s has %zu coverage counters, the control file "
              "%zu\n",
              m->t->binary, x->cov_len, m->mask_len);
      return -1;
    }
    for (size_t k = 0; k < x->cov_len; k++) {
      if (!x->cov[k])
        continue;
      if (*nf == m->fcap) {
        size_t nc = m->fcap ? 2 * m->fcap : 1024;
        feat *nv = realloc(m->fv, nc * sizeof *nv);
        if (!nv)
          return merge_oom();
        m->fv = nv;
        m->fcap = nc;
      }
      m->fv[(*nf)++] = (feat){(uint32_t)k, x->cov[k]};
    }
    if (!m->mask && x->cov_len) {
      if (!(m->mask = calloc(x->cov_len, 1)))
        return merge_oom();
      m->mask_len = x->cov_len;
    }
  }
  if (control_append(&m->ctl, it, *oc, m->fv, *nf, x->cov_len) != 0)
    return -1;
  return 0;
}

static cgofuzz_lf_merge_input merge_input(const item *it) {
  return (cgofuzz_lf_merge_input){it->in->path, it->enc.data, it->enc.len,
                                  it->raw.data, it->raw.len,  it->sha,
                                  it->disp};
}

/* Item i's disposition: from its leader, its record, or its run. */
static int merge_item(merge *m, size_t i) {
  cgofuzz_lf_merge_stats *st = m->st;
  item *it = &m->items[i];
  if (it->bad) {
    it->disp = CGOFUZZ_LF_MERGE_BAD;
    st->bad++;
    return 0;
  }
  /* Same values as an input already seen: the same outcome. */
  if (it->leader != i) {
    int toc = m->items[it->leader].oc;
    it->oc = toc;
    if (it->initial)
      it->disp = CGOFUZZ_LF_MERGE_INITIAL;
    else if (toc == OC_OK)
      it->disp = CGOFUZZ_LF_MERGE_DUP, st->dups++;
    else
      it->disp = CGOFUZZ_LF_MERGE_FAILED, st->failed++;
    return 0;
  }
  const record *r = control_find(&m->ctl, it->sha);
  int oc;
  const feat *f;
  size_t nf;
  if (r) {
    oc = r->oc;
    f = r->f;
    nf = r->nf;
  } else {
    if (merge_exec(m, it, &oc, &nf) != 0)
      return -1;
    f = m->fv;
  }
  it->oc = oc;
  if (oc != OC_OK) {
    fprintf(stderr, "%s%s on %s; skipping it\n", m->pfx, oc_names[oc],
            it->in->path);
    it->disp = it->initial ? CGOFUZZ_LF_MERGE_INITIAL : CGOFUZZ_LF_MERGE_FAILED;
    st->failed += !it->initial;
    return 0;
  }
  size_t edges = 0, bits = nf ? add_feats(m->mask, f, nf, &edges) : 0;
  st->bits += bits;
  st->edges += edges;
  if (it->initial) {
    it->disp = CGOFUZZ_LF_MERGE_INITIAL;
    return 0;
  }
  if (!bits) {
    it->disp = CGOFUZZ_LF_MERGE_REDUNDANT;
    st->redundant++;
    return 0;
  }
  it->disp = CGOFUZZ_LF_MERGE_KEPT;
  st->kept++;
  st->new_bits += bits;
  st->new_edges += edges;
  cgofuzz_lf_merge_input mi = merge_input(it);
  if (m->job->keep && m->job->keep(m->job->ctx, &mi) != 0)
    return -1;
  return 0;
}

static void merge_free(merge *m) {
  fflush(stderr);
  for (size_t i = 0; m->items && i < m->n; i++) {
    cgofuzz_buf_free(&m->items[i].raw);
    cgofuzz_buf_free(&m->items[i].enc);
  }
  free(m->items);
  free(m->order);
  free(m->mask);
  free(m->fv);
  control_free(&m->ctl);
  cgofuzz_lf_inputs_free(&m->first);
  cgofuzz_lf_inputs_free(&m->rest);
  cgofuzz_lf_exec_free(&m->x); /* safe after a failed init too */
}

int cgofuzz_lf_merge_run(const cgofuzz_lf_merge_job *job,
                         cgofuzz_lf_merge_stats *st) {
  merge m;
  memset(&m, 0, sizeof m);
  m.job = job;
  m.t = job->t;
  m.pfx = job->prefix ? job->prefix : "";
  m.st = st;
  memset(st, 0, sizeof *st);
  int rc = merge_open(&m);
  if (rc == 0)
    rc = merge_items(&m);
  if (rc == 0)
    rc = merge_loaded(&m);
  for (size_t i = 0; rc == 0 && i < m.n; i++)
    rc = merge_item(&m, i);
  if (rc == 0) {
    st->counters = m.mask_len;
    if (job->account)
      for (size_t i = 0; i < m.n; i++) {
        cgofuzz_lf_merge_input mi = merge_input(&m.items[i]);
        job->account(job->ctx, &mi);
      }
  }
  merge_free(&m);
  return rc;
}

/* --- -merge=1 */
typedef struct lf_merge_ctx {
  const cgofuzz_lf_target *t;
  const char *dir;
} lf_merge_ctx;

static void lf_loaded(void *ctx, size_t n, size_t n_initial,
                      size_t n_recorded) {
  (void)ctx;
  fprintf(stderr,
          "MERGE-OUTER: %zu files, %zu in the initial corpus, %zu processed "
          "earlier\n",
          n, n_initial, n_recorded);
}

static int lf_keep(void *ctx, const cgofuzz_lf_merge_input *in) {
  lf_merge_ctx *c = ctx;
  return cgofuzz_lf_write_named(c->dir, in->raw, in->raw_len, 0, NULL);
}

int cgofuzz_lf_merge(const cgofuzz_lf_target *t, const lf_opts *o) {
  if (o->n_inputs < 2) {
    fprintf(stderr, "INFO: Merge requires two or more corpus dirs\n");
    return LF_EXIT_USAGE;
  }
  lf_merge_ctx c = {t, o->inputs[0]};
  cgofuzz_lf_merge_job job = {.t = t,
                              .initial = o->inputs,
                              .n_initial = 1,
                              .dirs = o->inputs + 1,
                              .n_dirs = o->n_inputs - 1,
                              .max_len = o->max_len,
                              .output_fd = -1,
                              .prefix = "MERGE-INNER: ",
                              .loaded = lf_loaded,
                              .keep = lf_keep,
                              .ctx = &c,
                              .lf = o};
  cgofuzz_lf_merge_stats st;
  if (cgofuzz_lf_merge_run(&job, &st) != 0) {
    fprintf(stderr, "ERROR: merge failed\n");
    return LF_EXIT_USAGE;
  }
  fprintf(stderr,
          "MERGE-OUTER: %zu new files with %zu new features added; %zu new "
          "coverage edges\n",
          st.kept, st.new_bits, st.new_edges);
  fflush(stderr);
  return 0;
}
