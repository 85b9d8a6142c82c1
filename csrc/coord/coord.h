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
 */
#ifndef CGOFUZZ_COORD_H
#define CGOFUZZ_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "gobin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Environment variable that turns `cgofuzz -test.fuzzworker ...` into the
 * fake worker used for argument-type discovery; its value is the file the
 * fake worker appends the inputs it is sent to. */
#define CGOFUZZ_DISCOVER_ENV "CGOFUZZ_DISCOVER_OUT"
/* Set (to anything) beside it: the fake worker's name mode, for a binary
 * that coordinates itself with the user's flags (cgofuzz_coord_discovered). */
#define CGOFUZZ_DISCOVER_NAME_ENV "CGOFUZZ_DISCOVER_NAME"

/* What a front end (lf.h: libFuzzer's command line) is told as a run goes. */
typedef struct cgofuzz_coord_stats {
  int64_t execs;      /* inputs run, warm-up included */
  int64_t elapsed_ms; /* since the run started */
  size_t corpus;      /* corpus entries */
  size_t cov_bytes;   /* coverage counters ever hit (libFuzzer's "cov") */
  size_t cov_bits;    /* counter buckets ever hit (libFuzzer's "ft") */
  /* Of cov_bytes and cov_bits, those of a cgo package's C code (a binary
   * linked by `cgofuzz cgo-cc`, csrc/cli/cmd_cgocc.c), and how many
   * counters that code has; all 0 without such code. */
  size_t c_cov_bytes, c_cov_bits, c_counters;
  size_t new_inputs; /* interesting inputs found by fuzzing */
  size_t workers;
} cgofuzz_coord_stats;

/* Replaces Go's output and files: with an observer the coordinator prints
 * nothing of its own (no progress lines, no verdict), reads no testdata or
 * cache directory and writes none; failures and new inputs are handed over
 * instead, crashers unminimized and at once, as libFuzzer writes them. Each
 * callback may be NULL. data is always an encoded corpus file. */
typedef struct cgofuzz_coord_observer {
  void *ctx;
  /* Every starting input has run once (libFuzzer's INITED). */
  void (*inited)(void *ctx, const cgofuzz_coord_stats *st);
  /* A new interesting input joined the corpus. */
  void (*new_input)(void *ctx, const uint8_t *data, size_t len,
                    const cgofuzz_coord_stats *st);
  /* Every 3 s while fuzzing. */
  void (*pulse)(void *ctx, const cgofuzz_coord_stats *st);
  /* An input failed: msg is the worker's error text, or says how the
   * worker died; status is the worker's wait status when it died (else
   * -1), except that a hang or an out-of-memory death (coord_death.c) is
   * given as exit status 70 or 71, libFuzzer's codes for them. The run
   * then ends, unless fuzz_continue and the observer returns true (it
   * goes on after this failure: libFuzzer's fork mode ignores some). */
  bool (*failure)(void *ctx, const uint8_t *data, size_t len, const char *msg,
                  size_t msg_len, int status, const cgofuzz_coord_stats *st);
  /* An input ran secs whole seconds (libFuzzer's -report_slow_units): a
   * C worker's new slowest unit (the front end passes the threshold to its
   * workers: core/exact.h's CGOFUZZ_LF_SLOW_ENV), or, for a Go worker, the
   * last input of a call that ran a second or more past its deadline (a
   * lower bound of its time; coord_resp.c). */
  void (*slow_unit)(void *ctx, const uint8_t *data, size_t len, int64_t secs);
  /* The run is over; fatal_msg is the error that ended it, if any. */
  void (*finished)(void *ctx, const cgofuzz_coord_stats *st,
                   const char *fatal_msg, size_t fatal_len);
} cgofuzz_coord_observer;

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
  /* With an observer (see above): the inputs to start from besides the
   * seeds (encoded corpus files; ones of other types are skipped with a
   * warning naming them), and the workers' stdout/stderr (-1: /dev/null,
   * as Go's; a front end passes its stderr so sanitizer reports show). */
  const cgofuzz_coord_observer *observer;
  const cgofuzz_buf *inputs;
  char **input_names; /* for messages, parallel to inputs (may be NULL) */
  size_t n_inputs;
  int worker_output_fd;
  int worker_stdout_fd; /* 0: as worker_output_fd (else as it, for stdout) */
  /* Extra environment for the workers ("NAME=value"), after ours. */
  char **worker_env;
  size_t n_worker_env;
  /* Dictionary mutations (coord_dict.c, docs/godict.md): with a dict that
   * holds tokens, a bounded, adaptive share of the fuzz calls start from
   * an input the coordinator built with those tokens (run once as it is,
   * or mutated further by Go's mutator from there). NULL: Go's calls
   * only. dict_corpus: add the printable runs and integers of the corpus
   * loaded at start (seeds, testdata, cache) to it. dict_out: write the
   * whole dictionary there (libFuzzer format) before fuzzing. */
  struct cgofuzz_coord_dict *dict;
  bool dict_corpus;
  /* dict_when_stalled: no dictionary call before 20 plain calls in a row
   * found nothing (C workers, whose own comparison feedback is quicker
   * while it finds). */
  bool dict_when_stalled;
  const char *dict_out;
  /* dict_code: the coordinator adds the constants of the binary's code
   * (cgofuzz_gobin_godict_code_start) while it fuzzes. */
  bool dict_code;
  /* Run-time comparison feedback (coord_cmp.c, docs/comparisons.md): for
   * a Go binary built with -fuzz on linux/amd64, a patched copy traces
   * each corpus entry's comparisons and the user's workers run the
   * input-to-state candidates. A binary that cannot be patched gets a
   * one-line note. */
  bool cmp_feedback;
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
  void (*on_stats)(void *stats_ctx, const cgofuzz_coord_stats *st, bool final);
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

/* A failure a run recorded: the file written (NULL when none could be),
 * the failure's text as printed, and shell command lines (one per line,
 * '\n'-separated, each run from the directory the run was started in)
 * that reproduce it from where the file is. All malloc'd. */
typedef struct cgofuzz_coord_failure {
  char *path;
  char *msg;
  char *repro;
} cgofuzz_coord_failure;

/* Filled by cgofuzz_coord_run when cfg->report is set. failures are
 * appended (a report may collect several runs of one target); the other
 * fields describe the last run: corpus_start is the corpus size after the
 * seeds, testdata and cache were loaded, stats the figures at its end,
 * failed its verdict. Each failure is appended once: when it is written
 * (-fuzzcontinue) or when it ends the run (a failure that could not be
 * written anywhere, or an error such as a failing seed, has path NULL). */
typedef struct cgofuzz_coord_report {
  cgofuzz_coord_stats stats;
  size_t corpus_start;
  bool failed;
  cgofuzz_coord_failure *failures;
  size_t n_failures;
} cgofuzz_coord_report;
void cgofuzz_coord_report_free(cgofuzz_coord_report *r);

/* --- the coordinator's dictionary (coord_dict.c, gobin_godict.c) */

typedef struct cgofuzz_coord_dict cgofuzz_coord_dict;

/* Where a token came from (for -dictout, -v and the initial weights). */
enum {
  CGOFUZZ_DICT_USER,   /* a -dict file */
  CGOFUZZ_DICT_BINARY, /* a constant in the code of the target's package */
  CGOFUZZ_DICT_MODULE, /* a constant elsewhere in the target's module */
  CGOFUZZ_DICT_CORPUS, /* the seeds, testdata and cache */
  CGOFUZZ_DICT_NSRC
};

/* NULL when out of memory. */
cgofuzz_coord_dict *cgofuzz_coord_dict_new(void);
void cgofuzz_coord_dict_free(cgofuzz_coord_dict *d);
/* Adds a token of 1..CGOFUZZ_DICT_MAX_TOKEN bytes unless it is there
 * already. int_width (2, 4 or 8) marks an integer constant written in
 * little-endian (big_endian false) or big-endian order, which may also
 * replace integer arguments; 0 for byte strings. Returns 1 if added, 0 if
 * not (a duplicate, empty or too long), -1 when out of memory. */
#define CGOFUZZ_DICT_MAX_TOKEN 4096
int cgofuzz_coord_dict_add(cgofuzz_coord_dict *d, const uint8_t *p, size_t n,
                           int src, int int_width, bool big_endian);
/* Adds the entries of a libFuzzer/AFL dictionary file (core/dictfile.h).
 * -1 with err "PATH:LINE: malformed dictionary entry: ..." or "cannot read
 * dictionary PATH: ..." */
int cgofuzz_coord_dict_load(cgofuzz_coord_dict *d, const char *path,
                            cgofuzz_err *err);
/* A sink (gobin.h) that adds to d: the binary's tokens as
 * CGOFUZZ_DICT_BINARY and _MODULE. */
cgofuzz_gobin_sink cgofuzz_coord_dict_sink(cgofuzz_coord_dict *d);
/* The code's and data's constants of cfg's Go test binary and target for
 * d, the dictionary cfg is to fuzz with: wait (a run that is to be the
 * same every time, or one that writes the dictionary first) takes them
 * all now (cgofuzz_gobin_godict_all); otherwise the data's now and
 * the code's while fuzzing (cfg->dict_code). Either way the corpus's
 * tokens join (cfg->dict_corpus). 0, or -1 with err saying what could not
 * be taken (what could is in d). */
int cgofuzz_coord_godict_attach(cgofuzz_coord_config *cfg,
                                cgofuzz_coord_dict *d, bool wait,
                                cgofuzz_err *err);
/* Tokens from src (-1: all). */
size_t cgofuzz_coord_dict_count(const cgofuzz_coord_dict *d, int src);
/* Writes the dictionary in libFuzzer's format, grouped by source. */
int cgofuzz_coord_dict_write(const cgofuzz_coord_dict *d, const char *path,
                             const char *target, cgofuzz_err *err);

/* -fuzztime style values are parsed by cgofuzz_parse_duration
 * (base/strconv.h). */

/* Runs the fuzz target named in cfg until -fuzztime runs out, a crasher is
 * found, or SIGINT/SIGTERM arrives. Returns the exit status go test would
 * give: 0 PASS, 1 FAIL. */
int cgofuzz_coord_run(const cgofuzz_coord_config *cfg);

/* Lists the fuzz targets of binary (names starting with "Fuzz" printed by
 * -test.list) matching the POSIX extended regexp re. Returns 0 and a
 * malloc'd array of malloc'd names, or -1 with err set. */
int cgofuzz_coord_list_targets(const char *binary, const char *re,
                               char ***names, size_t *n, cgofuzz_err *err);
void cgofuzz_coord_free_names(char **names, size_t n);

/* Finds the argument kinds and f.Add seeds of target by running binary as
 * a coordinator whose workers are self_exe (this program, in fake-worker
 * mode), in our directory with an empty private cache. Fills
 * cfg->kinds/seeds (the f.Add seeds only: testdata entries are dropped). */
int cgofuzz_coord_discover(cgofuzz_coord_config *cfg, const char *self_exe,
                           cgofuzz_err *err);
void cgofuzz_coord_free_discovery(cgofuzz_coord_config *cfg);
/* Discovery from a run that someone else made (go test -exec,
 * cli/cmd_exec.c): the binary ran with the user's own flags as its
 * target's coordinator, its workers this program in fake-worker name mode
 * (CGOFUZZ_DISCOVER_ENV=records, CGOFUZZ_DISCOVER_NAME_ENV set), its
 * -test.fuzzcachedir an empty private directory and
 * -test.fuzzminimizetime=0. records_have_input: whether the binary sent an
 * input at all (it did not if a test failed first, the target failed,
 * skipped or returned before f.Fuzz, or -test.fuzz matched no target or
 * several). cache_target: the target's name from that cache, where Go's
 * coordinator wrote what the fake worker called interesting (malloc'd), or
 * NULL when it wrote nothing (every input it made was already in the
 * corpus). discovered: fills cfg as cgofuzz_coord_discover does for the
 * target so named (cfg->target = target, borrowed): 0; 1 when there was
 * no input; -1 with err set. */
bool cgofuzz_coord_records_have_input(const char *records);
char *cgofuzz_coord_cache_target(const char *cache_root);
int cgofuzz_coord_discovered(cgofuzz_coord_config *cfg, const char *records,
                             const char *target, cgofuzz_err *err);

/* The fake worker: answers pings, records every input it is sent to the
 * file named by $CGOFUZZ_DISCOVER_OUT, and reports each call as done.
 * Returns the process exit status. */
int cgofuzz_coord_fake_worker(void);

/* The directories a run of cfg's target reads and writes, as Go lays
 * them out: testdata/fuzz/<target> (relative to the directory it runs in)
 * and <cache_root>/<target>, NUL-terminated, as malloc'd strings the
 * caller frees. 0, or -1 out of memory (both NULL). */
int cgofuzz_coord_target_dirs(const cgofuzz_coord_config *cfg, char **testdata,
                              char **cache);

/* Number of bits set in snap and not in mask (Go's countNewCoverageBits). */
size_t cgofuzz_cov_new_bits(const uint8_t *mask, const uint8_t *snap, size_t n);
/* mask |= snap. */
void cgofuzz_cov_merge(uint8_t *mask, const uint8_t *snap, size_t n);

/* Whether SIGINT/SIGTERM/SIGHUP ended the last cgofuzz_coord_run. */
bool cgofuzz_coord_interrupted(void);

/* The argv every worker of cfg is started with (cfg->binary, Go's worker
 * flags, then those of cfg->extra_args that release cfg->gover accepts:
 * cgofuzz_gobin_test_flag_ok), NULL-terminated and malloc'd, each string
 * too; NULL when out of memory. Free with cgofuzz_coord_free_names. */
char **cgofuzz_coord_worker_argv(const cgofuzz_coord_config *cfg, size_t *n);

/* Runs a shell-free command (argv[0] looked up in PATH) and returns its
 * first output line, trimmed, in out (malloc'd). -1 if it fails. */
int cgofuzz_coord_cmd_line(char *const argv[], char **out);

#ifdef __cplusplus
}
#endif
#endif
