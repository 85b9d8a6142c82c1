/*
 * fb.h: the feedback strategies a caller of the coordinator (cli, lf)
 * registers as its run's feedback (coord_feedback.h): dictionary calls
 * (fb_dict.c, docs/godict.md) over a token store (fb_tokens.c) that -dict
 * files, the binary's constants (gobin_godict.c) and the corpus fill,
 * run-time comparison feedback (fb_cmp.c, fb_i2s.c, docs/comparisons.md),
 * the replay of the corpus in a -race build (fb_race.c) and its probes
 * for goroutine leaks (fb_goleak.c).
 *
 * Invariants: the coordinator names none of these; it calls the table
 * cgofuzz_fb_table gives, and a strategy reaches the run only through the
 * host functions of coord_feedback.h. A cgofuzz_fb may serve several runs
 * one after another (a campaign's slices): each run's state is made at its
 * start and freed at its stop; the dictionary is the caller's and outlives
 * the runs, keeping the weights its tokens earned.
 */
#ifndef CGOFUZZ_FB_H
#define CGOFUZZ_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "coord_feedback.h"
#include "gobin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cgofuzz_fb_dict cgofuzz_fb_dict;

/* What a run's feedback does; all off when zeroed. */
typedef struct cgofuzz_fb {
  /* Dictionary mutations (fb_dict.c, docs/godict.md): with a dict that
   * holds tokens, a bounded, adaptive share of the fuzz calls start from
   * an input the coordinator built with those tokens (run once as it is,
   * or mutated further by Go's mutator from there). NULL: Go's calls
   * only. dict_corpus: add the printable runs and integers of the corpus
   * loaded at start (seeds, testdata, cache) to it. dict_out: write the
   * whole dictionary there (libFuzzer format) before fuzzing. */
  cgofuzz_fb_dict *dict;
  bool dict_corpus;
  /* dict_when_stalled: no dictionary call before 20 plain calls in a row
   * found nothing (C workers, whose own comparison feedback is quicker
   * while it finds). */
  bool dict_when_stalled;
  const char *dict_out;
  /* dict_code: the coordinator adds the constants of the binary's code
   * (cgofuzz_gobin_godict_code_start) while it fuzzes (set by
   * cgofuzz_fb_godict_attach). */
  bool dict_code;
  /* Run-time comparison feedback (fb_cmp.c, docs/comparisons.md): for
   * a Go binary built with -fuzz on linux/amd64, a patched copy traces
   * each corpus entry's comparisons and the user's workers run the
   * input-to-state candidates. A binary that cannot be patched gets a
   * one-line note. */
  bool cmp_feedback;
  /* -racereplay (fb_race.c): a -race build of the target's package, in
   * which every corpus entry is run once; a data race there is the run's
   * failure. NULL: off. */
  const char *race_binary;
  /* -goleaks (fb_goleak.c): the target's own binary, in whose workers
   * every corpus entry is run again and then counted the goroutines it
   * left running; a leak is the run's failure. NULL: off. */
  const char *goleak_binary;
  /* The table the coordinator calls, and the state of the run in
   * progress (NULL between runs): cgofuzz_fb_table's. */
  cgofuzz_coord_feedback table;
  struct cgofuzz_fb_run *run;
} cgofuzz_fb;

/* A cgofuzz_fb with every strategy off (NULL when out of memory); the
 * caller sets its fields, then hands cgofuzz_fb_table(fb) to the run
 * (cgofuzz_coord_config.feedback). Free with cgofuzz_fb_free (NULL:
 * nothing), which frees neither the dictionary nor anything else it was
 * given. */
cgofuzz_fb *cgofuzz_fb_new(void);
const cgofuzz_coord_feedback *cgofuzz_fb_table(cgofuzz_fb *fb);
void cgofuzz_fb_free(cgofuzz_fb *fb);

/* The code's and data's constants of binary's target for d, the
 * dictionary fb is to fuzz with: wait (a run that is to be the same every
 * time, or one that writes the dictionary first) takes them all now
 * (cgofuzz_gobin_godict_all); otherwise the data's now and the code's
 * while fuzzing (fb->dict_code). Either way the corpus's tokens join
 * (fb->dict_corpus). 0, or -1 with err saying what could not be taken
 * (what could is in d). */
int cgofuzz_fb_godict_attach(cgofuzz_fb *fb, const char *binary,
                             const char *target, cgofuzz_fb_dict *d, bool wait,
                             cgofuzz_err *err);

/* --- goroutine leaks (fb_goleak.c) */

/* The goroutines of a dump with one creator ("created by F"): how many,
 * and the first one's stack as a report shows it. */
typedef struct cgofuzz_fb_goleak_gor {
  char *creator;
  size_t n;
  char *stack;
} cgofuzz_fb_goleak_gor;
typedef struct cgofuzz_fb_goleak_set {
  cgofuzz_fb_goleak_gor *g;
  size_t n, cap;
} cgofuzz_fb_goleak_set;
/* What a probe's worker runs: binary with argv (Go's worker flags) and
 * envp (NULL: ours). */
typedef struct cgofuzz_fb_goleak_target {
  const char *binary;
  char *const *argv, *const *envp;
} cgofuzz_fb_goleak_target;
typedef struct cgofuzz_fb_goleak_value {
  const uint8_t *data; /* an encoded corpus file */
  size_t len;
} cgofuzz_fb_goleak_value;

/* Counts the goroutines of Go's SIGQUIT dump t[0..n) into out by creator,
 * but for the runtime's own and those without a creator. 0, or -1 when
 * out of memory. */
int cgofuzz_fb_goleak_parse(const uint8_t *t, size_t n,
                            cgofuzz_fb_goleak_set *out);
void cgofuzz_fb_goleak_set_free(cgofuzz_fb_goleak_set *s);
/* Whether the encoded input v leaks goroutines in tg's worker, as a run's
 * -goleaks judges (an idle worker's goroutines are tolerated): 1 with the
 * report appended to msg, 0 when not, -1 with err when no worker could
 * run it and give its dump. */
int cgofuzz_fb_goleak_check(const cgofuzz_fb_goleak_target *tg,
                            const uint8_t *v, size_t len, cgofuzz_buf *msg,
                            cgofuzz_err *err);

/* --- the dictionary's token store (fb_tokens.c) */

/* Where a token came from (for -dictout, -v and the initial weights). */
enum {
  CGOFUZZ_DICT_USER,   /* a -dict file */
  CGOFUZZ_DICT_BINARY, /* a constant in the code of the target's package */
  CGOFUZZ_DICT_MODULE, /* a constant elsewhere in the target's module */
  CGOFUZZ_DICT_CORPUS, /* the seeds, testdata and cache */
  CGOFUZZ_DICT_NSRC
};

/* NULL when out of memory. */
cgofuzz_fb_dict *cgofuzz_fb_dict_new(void);
void cgofuzz_fb_dict_free(cgofuzz_fb_dict *d);
/* Adds a token of 1..CGOFUZZ_DICT_MAX_TOKEN bytes unless it is there
 * already. int_width (2, 4 or 8) marks an integer constant written in
 * little-endian (big_endian false) or big-endian order, which may also
 * replace integer arguments; 0 for byte strings. Returns 1 if added, 0 if
 * not (a duplicate, empty or too long), -1 when out of memory. */
#define CGOFUZZ_DICT_MAX_TOKEN 4096
int cgofuzz_fb_dict_add(cgofuzz_fb_dict *d, const uint8_t *p, size_t n, int src,
                        int int_width, bool big_endian);
/* Adds the entries of a libFuzzer/AFL dictionary file (core/dictfile.h).
 * -1 with err "PATH:LINE: malformed dictionary entry: ..." or "cannot read
 * dictionary PATH: ..." */
int cgofuzz_fb_dict_load(cgofuzz_fb_dict *d, const char *path,
                         cgofuzz_err *err);
/* A sink (gobin.h) that adds to d: the binary's tokens as
 * CGOFUZZ_DICT_BINARY and _MODULE. */
cgofuzz_gobin_sink cgofuzz_fb_dict_sink(cgofuzz_fb_dict *d);
/* Tokens from src (-1: all). */
size_t cgofuzz_fb_dict_count(const cgofuzz_fb_dict *d, int src);
/* Writes the dictionary in libFuzzer's format, grouped by source. */
int cgofuzz_fb_dict_write(const cgofuzz_fb_dict *d, const char *path,
                          const char *target, cgofuzz_err *err);

#ifdef __cplusplus
}
#endif
#endif
