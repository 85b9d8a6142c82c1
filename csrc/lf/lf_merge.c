/*
 * cgofuzz_lf_merge.c: -merge=1 DIR1 DIR2...: adds to DIR1 the inputs of the
 * other directories that reach coverage DIR1's inputs do not, as libFuzzer
 * does.
 *
 * Features are what the fuzzer itself counts: the bits of the coverage
 * counters (Go's countNewCoverageBits), edges the counters that are
 * nonzero. DIR1's inputs run first and make the initial set; the others
 * run smallest first (ties by path) and each one that adds a feature is
 * copied into DIR1 under its SHA-1. An input that crashes, hangs or runs
 * out of memory is skipped after saying so, and the merge goes on in a new
 * worker, which is libFuzzer's "crash-resistant merge" without a control
 * file (-merge_control_file is accepted and not needed).
 * The summary line is what ClusterFuzz parses:
 *   MERGE-OUTER: N new files with F new features added; E new coverage edges
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coord.h"
#include "lf_internal.h"

typedef struct item {
  lf_input *in;
  bool initial;
} item;

static int by_size(const void *a, const void *b) {
  const item *x = a, *y = b;
  if (x->in->raw_len != y->in->raw_len)
    return x->in->raw_len < y->in->raw_len ? -1 : 1;
  return strcmp(x->in->path, y->in->path);
}

/* Adds cov to mask; returns the new bits and (in *edges) the counters that
 * were zero in mask and are not in cov. */
static size_t add_cov(uint8_t *mask, const uint8_t *cov, size_t n,
                      size_t *edges) {
  size_t bits = cgofuzz_cov_new_bits(mask, cov, n);
  for (size_t i = 0; bits && i < n; i++)
    *edges += !mask[i] && cov[i];
  cgofuzz_cov_merge(mask, cov, n);
  return bits;
}

int cgofuzz_lf_merge(const cgofuzz_lf_target *t, const lf_opts *o) {
  if (o->n_inputs < 2) {
    fprintf(stderr, "INFO: Merge requires two or more corpus dirs\n");
    return LF_EXIT_USAGE;
  }
  lf_inputs first = {0}, rest = {0};
  item *items = NULL;
  uint8_t *mask = NULL;
  size_t mask_len = 0;
  int rc = LF_EXIT_USAGE;
  lf_exec x;
  bool exec_ok = cgofuzz_lf_exec_init(&x, t, o, -1) == 0;
  if (!exec_ok || cgofuzz_lf_read_dir(t, o->inputs[0], o->max_len, &first) != 0)
    goto out;
  for (size_t i = 1; i < o->n_inputs; i++)
    if (cgofuzz_lf_read_dir(t, o->inputs[i], o->max_len, &rest) != 0)
      goto out;
  size_t n = first.n + rest.n;
  fprintf(stderr,
          "MERGE-OUTER: %zu files, %zu in the initial corpus, 0 processed "
          "earlier\n",
          n, first.n);
  items = calloc(n ? n : 1, sizeof *items);
  if (!items)
    goto out;
  for (size_t i = 0; i < first.n; i++)
    items[i] = (item){&first.v[i], true};
  for (size_t i = 0; i < rest.n; i++)
    items[first.n + i] = (item){&rest.v[i], false};
  qsort(items + first.n, rest.n, sizeof *items, by_size);
  size_t new_files = 0, new_bits = 0, new_edges = 0;
  for (size_t i = 0; i < n; i++) {
    lf_outcome oc;
    lf_input *in = items[i].in;
    if (cgofuzz_lf_exec_run(&x, in->enc.data, in->enc.len, &oc) != 0)
      goto out;
    if (oc != LF_OK) {
      fprintf(stderr, "MERGE-INNER: %s on %s; skipping it\n",
              cgofuzz_lf_outcome_kind(oc), in->path);
      continue;
    }
    if (!x.cov_len)
      continue; /* no coverage: nothing to compare (a blind binary) */
    if (!mask) {
      if (!(mask = calloc(x.cov_len, 1)))
        goto out;
      mask_len = x.cov_len;
    }
    if (x.cov_len != mask_len)
      continue;
    size_t edges = 0, bits = add_cov(mask, x.cov, mask_len, &edges);
    if (items[i].initial)
      continue;
    if (!bits)
      continue;
    new_bits += bits;
    new_edges += edges;
    cgofuzz_buf raw = {0};
    if (cgofuzz_lf_raw(t, in->enc.data, in->enc.len, &raw) != 0 ||
        cgofuzz_lf_write_named(o->inputs[0], raw.data, raw.len, NULL) != 0) {
      cgofuzz_buf_free(&raw);
      goto out;
    }
    cgofuzz_buf_free(&raw);
    new_files++;
  }
  fprintf(stderr,
          "MERGE-OUTER: %zu new files with %zu new features added; %zu new "
          "coverage edges\n",
          new_files, new_bits, new_edges);
  rc = 0;
out:
  if (rc != 0 && !items)
    fprintf(stderr, "ERROR: merge failed\n");
  fflush(stderr);
  free(items);
  free(mask);
  cgofuzz_lf_inputs_free(&first);
  cgofuzz_lf_inputs_free(&rest);
  cgofuzz_lf_exec_free(&x); /* safe after a failed init too */
  return rc;
}
