/*
 * coord.h: a coordinator that drives unmodified Go test binaries as fuzzing
 * workers, behaving like the coordinator built into `go test -fuzz`
 * (docs/go-coordinator.md is the reference for every rule followed here).
 *
 * The coordinator never sees mutated inputs: a Go worker only reports how
 * many execs it ran and the PCG state of its last mutation chain, and the
 * coordinator replays Go's mutator (mutator.h) on the input it sent to
 * rebuild a crasher or a new interesting input.
 *
 * Output follows Go: progress and warnings on stderr, the test verdict
 * (--- FAIL, Failing input written to ..., PASS/FAIL) on stdout.
 *
 * The coordinator's other headers, each one concern: coord_report.h (what
 * a run tells its caller), coord_feedback.h (the strategies a caller
 * registers), coord_discover.h (a run's target as gobin_discover.h learns it),
 * coord_worker.h (one worker process).
 */
#ifndef CGOFUZZ_COORD_H
#define CGOFUZZ_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cgofuzz/value.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cgofuzz_coord_stats;
struct cgofuzz_coord_observer;
struct cgofuzz_coord_report;
struct cgofuzz_coord_feedback;

/* A run: the target, Go's flags, and what the caller plugs in: an
 * observer and a report (coord_report.h), feedback (coord_feedback.h). */
typedef struct cgofuzz_coord_config {
  const char *binary; /* the test binary (path as given) */
  char **extra_args;  /* passed to every worker after our flags */
  size_t n_extra;
  const char *target;     /* the one fuzz target, e.g. "FuzzX" */
  const char *cache_root; /* -test.fuzzcachedir: parent of <target>/ */
  int64_t fuzz_ns;        /* -fuzztime duration, 0: none */
  int64_t fuzz_count;     /* -fuzztime Nx, 0: none */
  int64_t minimize_ns;    /* -fuzzminimizetime duration (default 60s) */
  int64_t minimize_count; /* -fuzzminimizetime Nx, 0: none */
  bool minimize_off;      /* -fuzzminimizetime=0 or 0x */
  int parallel;           /* number of workers, >= 1 */
  bool verbose;           /* -v: === RUN / --- PASS lines */
  /* With verbose: go test's lines only, none of cgofuzz's own "cgofuzz:"
   * notes (go test -exec -v, whose output is read as the binary's). */
  bool quiet;
  /* go test -json (the binary run with -test.v=test2json): the framing
   * lines (=== RUN, --- PASS/FAIL, === NAME, PASS, FAIL) start with the
   * 0x16 byte, as the testing package marks them for test2json. */
  bool json_marks;
  /* -fuzzcontinue: keep fuzzing after a failure and write every distinct
   * one (by failure site); the exit status is still 1. */
  bool fuzz_continue;
  /* -panic-on: Go functions, comma-separated as go test's gosentry fork
   * takes them (example.com/m/log.(*Logger).Error), whose call is a
   * failure: the workers run a copy whose entries of them panic
   * (gobin_patch.h); NULL or "": none. */
  const char *panic_on;
  /* -focus=REV: per counter (focus_len bytes, the mask's length), 1 when
   * it is in code changed since focus_rev (gobin_focus.c): the entries
   * that reach such code weigh more (coord_sched.c). NULL: none. */
  const uint8_t *focus;
  size_t focus_len;
  const char *focus_rev;
  /* -fuzztimeout: a worker whose shared-memory exec count does not move
   * for this long while it has a call in flight is hung; the coordinator
   * stops it (a Go worker with SIGQUIT first, for its goroutine dump) and
   * records the input it was running (coord_death.c). 0: the hang timer of
   * the worker of release gover (10 s up to go1.26, 60 s in go1.27), after
   * which Go's own worker panics; negative:
   * no limit (libFuzzer's -timeout=0). */
  int64_t exec_timeout_ns;
  /* -fuzzrsslimitmb: a busy worker whose resident set grows above this
   * many MiB is stopped and its input recorded as an out-of-memory
   * failure. 0: no limit (Go has none; a C worker keeps its own 2048). */
  int64_t rss_limit_mb;
  /* Filled by discovery: the target's argument kinds and f.Add seeds
   * (encoded corpus files, in order). */
  cgofuzz_kind *kinds;
  size_t n_kinds;
  cgofuzz_buf *seeds;
  size_t n_seeds;
  /* With an observer (coord_report.h): the inputs to start from besides the
   * seeds (encoded corpus files; ones of other types are skipped with a
   * warning naming them), and the workers' stdout/stderr (-1: /dev/null,
   * as Go's; a front end passes its stderr so sanitizer reports show). */
  const struct cgofuzz_coord_observer *observer;
  const cgofuzz_buf *inputs;
  char **input_names; /* for messages, parallel to inputs (may be NULL) */
  size_t n_inputs;
  int worker_output_fd;
  int worker_stdout_fd; /* 0: as worker_output_fd (else as it, for stdout) */
  /* Extra environment for the workers ("NAME=value"), after ours. */
  char **worker_env;
  size_t n_worker_env;
  /* The feedback strategies the caller registered (coord_feedback.h;
   * cgofuzz's are csrc/feedback's); NULL: Go's calls only. */
  const struct cgofuzz_coord_feedback *feedback;
  /* What a campaign (cli/campaign.c, docs/campaigns.md) needs to know of
   * a run. report: when set, cgofuzz_coord_run fills it (see
   * cgofuzz_coord_report). on_stats: when set, called with the run's
   * figures at every progress line (every 3 s, the warm-up's included)
   * and once at the end (final true), with report (if any) up to date;
   * stats_ctx is passed along. campaign: the run is one slice of a
   * campaign, which prints the test's lines itself: no "=== RUN", no
   * "--- PASS" and no final PASS/FAIL line (failure blocks and progress
   * lines are printed as usual). */
  struct cgofuzz_coord_report *report;
  void (*on_stats)(void *stats_ctx, const struct cgofuzz_coord_stats *st,
                   bool final);
  void *stats_ctx;
  bool campaign;
  /* The Go release the binary was built by (cgofuzz_gover of core/gover.h,
   * from cgofuzz_gobin_gover): corpus file names, quoting, decoding,
   * the hang timer, the -fuzztime=Nx check and the worker's -test.* flags
   * follow it. 0: the newest. */
  int gover;
  /* The release could not be read from a binary that is not a C target
   * (no Go build info, or unreadable): the hang timer is then the shortest
   * of all releases (10 s), not the newest's, so a silent worker is not
   * waited on for a minute. */
  bool gover_unknown;
  /* Filled by discovery: the variables the target's body set or changed
   * before f.Fuzz (f.Setenv, os.Setenv), "NAME=value" each, as Go's own
   * coordinator passes them to its workers by starting them afterwards;
   * they replace ours of the same name in every worker's environment. */
  char **disc_env;
  size_t n_disc_env;
  /* Package mode (cli/gopkgs.c, docs/campaigns.md): the run's directory
   * (the package's) as named from the directory cgofuzz was started in:
   * display_dir "a" ("." or NULL: the same directory), or an absolute
   * path when it is not below; display_pkg the package for go test
   * ("./a"), NULL when display_dir is absolute. The report's failures
   * (path and re-run commands) are given from there: a path in the
   * package as "a/testdata/fuzz/FuzzX/ab12", go test's re-run as "go test
   * -run=FuzzX/ab12 ./a", any other command (and go test's without
   * display_pkg) in a subshell, "(cd DIR && ...)". So is the failure
   * block on stdout, and the paths of the messages about writing it on
   * stderr, when display_block (several packages in the run: with one,
   * stdout stays go test's). */
  const char *display_dir;
  const char *display_pkg;
  bool display_block;
  /* The binary printed the "=== RUN" line itself (go test -exec). */
  bool run_line_printed;
} cgofuzz_coord_config;

/* -fuzztime style values are parsed by cgofuzz_parse_duration
 * (base/strconv.h). */

/* Runs the fuzz target named in cfg until -fuzztime runs out, a crasher is
 * found, or SIGINT/SIGTERM arrives. Returns the exit status go test would
 * give: 0 PASS, 1 FAIL. */
int cgofuzz_coord_run(const cgofuzz_coord_config *cfg);

/* Frees an array of n malloc'd strings and the array (NULL: nothing). */
void cgofuzz_coord_free_names(char **names, size_t n);

/* The directories a run of cfg's target reads and writes, as Go lays
 * them out: testdata/fuzz/<target> (relative to the directory it runs in)
 * and <cache_root>/<target>, NUL-terminated, as malloc'd strings the
 * caller frees. 0, or -1 out of memory (both NULL). */
int cgofuzz_coord_target_dirs(const cgofuzz_coord_config *cfg, char **testdata,
                              char **cache);

/* Whether SIGINT/SIGTERM/SIGHUP ended the last cgofuzz_coord_run. */
bool cgofuzz_coord_interrupted(void);

/* The argv every worker of cfg is started with (cfg->binary, Go's worker
 * flags, then those of cfg->extra_args that release cfg->gover accepts:
 * cgofuzz_gobin_test_flag_ok), NULL-terminated and malloc'd, each string
 * too; NULL when out of memory. Free with cgofuzz_coord_free_names. */
char **cgofuzz_coord_worker_argv(const cgofuzz_coord_config *cfg, size_t *n);

#ifdef __cplusplus
}
#endif
#endif
