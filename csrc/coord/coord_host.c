/*
 * coord_host.c: what the run lets a feedback strategy see and ask
 * (coord_feedback.h): its configuration and release, its workers' command
 * line, the corpus, and picks by the scheduler's weights.
 *
 * Invariants: a strategy reads the run only through these; none of them
 * changes what the run does, but for the scheduler's random stream, which
 * a weighted pick advances as the coordinator's own picks do (nothing is
 * counted as a call of the entry picked), and a failure a strategy
 * records, which is the run's as a worker's would be.
 */
#include "clock.h"
#include "coord_internal.h"

const cgofuzz_coord_config *
cgofuzz_coord_host_config(const cgofuzz_coord_host *h) {
  return h->cfg;
}

int cgofuzz_coord_host_gover(const cgofuzz_coord_host *h) {
  return coord_gover(h->cfg);
}

bool cgofuzz_coord_host_says(const cgofuzz_coord_host *h) {
  return cgofuzz_coord_says(h);
}

size_t cgofuzz_coord_host_workers(const cgofuzz_coord_host *h) { return h->np; }

size_t cgofuzz_coord_host_mask_len(const cgofuzz_coord_host *h) {
  return h->mask_len;
}

bool cgofuzz_coord_host_fuzzing(const cgofuzz_coord_host *h) {
  return h->warmup_left == 0 && !h->minimizing && !h->done;
}

size_t cgofuzz_coord_host_corpus(const cgofuzz_coord_host *h) {
  return h->corpus.n;
}

const uint8_t *cgofuzz_coord_host_entry(const cgofuzz_coord_host *h, size_t i,
                                        size_t *len) {
  *len = h->corpus.e[i].len;
  return h->corpus.e[i].data;
}

bool cgofuzz_coord_host_failing(const cgofuzz_coord_host *h, size_t i) {
  return cgofuzz_coord_sched_is_failing(&h->sched, i);
}

size_t cgofuzz_coord_host_pick(cgofuzz_coord_host *h) {
  return cgofuzz_coord_sched_pick_weighted(&h->sched, cgofuzz_mono_ms());
}

char *const *cgofuzz_coord_host_argv(const cgofuzz_coord_host *h) {
  return h->wargv;
}

char *const *cgofuzz_coord_host_envp(const cgofuzz_coord_host *h) {
  return h->wenv;
}

bool cgofuzz_coord_host_focus(const cgofuzz_coord_host *h, size_t i) {
  return i < h->sched.n && h->sched.e[i].focus;
}

void cgofuzz_coord_host_failure(cgofuzz_coord_host *h, const uint8_t *value,
                                size_t len, const char *msg, size_t msg_len,
                                const char *rerun_flags,
                                const char *rerun_cgofuzz) {
  if (h->done ||
      (h->cfg->fuzz_continue && cgofuzz_coord_seen_failure(h, msg, msg_len)))
    return;
  cgofuzz_buf data = {0}, text = {0};
  cgofuzz_buf_append(&data, value, len);
  cgofuzz_buf_append(&text, msg, msg_len);
  if (!data.failed && !text.failed) {
    h->rerun_flags = rerun_flags; /* the block that ends a run keeps them */
    h->rerun_cgofuzz = rerun_cgofuzz;
    cgofuzz_coord_record_failure(h, &data, &text);
    if (h->cfg->fuzz_continue)
      h->rerun_flags = h->rerun_cgofuzz = NULL;
  }
  cgofuzz_buf_free(&data);
  cgofuzz_buf_free(&text);
}
