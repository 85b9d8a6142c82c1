/*
 * cli.h: shared pieces of the cgofuzz command-line tool.
 *
 * Exit statuses follow go test: 0 success, 1 a failure found or an
 * operation that failed at run time, 2 a usage error or bad input (flags,
 * unreadable or malformed corpus files).
 */
#ifndef CGOFUZZ_CLI_H
#define CGOFUZZ_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "buf.h"
#include "cgofuzz/value.h"
#include "coord.h"
#include "coord_discover.h"
#include "coord_report.h"
#include "flags.h"
#include "gobin_discover.h"
#include "gover.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2
/* What a step of a command cut into steps (cmd_fuzz.c, cmd_gofuzzer.c,
 * cmd_merge.c) returns when the command goes on; any other value is the
 * exit status to end with. */
#define CLI_GO_ON (-1)

/* --- flags.c: the commands' flags, parsed by the one flag parser
 * (base/flags.h, Go's flag package rules); this adds the command's name to
 * its messages. */
/* Parses argv[0..argc) (argv[0] is the first argument, not the program).
 * Returns the index of the first positional argument; -1 after printing
 * "cgofuzz CMD: reason" to stderr; or CGOFUZZ_FLAGS_HELP for -h/-help
 * (the caller prints its usage and exits 0, as Go's flag package does). */
int cli_parse_flags(const char *cmd, cgofuzz_flag *flags, size_t nflags,
                    int argc, char **argv);
/* Prints the flags' help to stderr in Go's PrintDefaults layout. */
void cli_print_flags(const cgofuzz_flag *flags, size_t nflags);

/* --- cmd_cc.c: clang wrapper; cxx selects clang++. Returns only on error. */
int cli_cmd_cc(int argc, char **argv, bool cxx);
/* `cgofuzz cgo-cc` and `cgo-c++`: the compilers of a Go package's cgo code
 * (cmd_cgocc.c). */
int cli_cmd_cgocc(int argc, char **argv, bool cxx);
/* cgofuzz's version (version.c). */
extern const char cli_version[];
/* The same, when this program runs under the name cgofuzz-cgo-cc or
 * cgofuzz-cgo-c++; -1 under any other name. */
int cli_cgocc_by_name(int argc, char **argv);
/* `cgofuzz cgo-env`: prints CC=PATH and CXX=PATH (shell words) naming
 * cgofuzz-cgo-cc and cgofuzz-cgo-c++, making those links in cgofuzz's
 * cache when there are none beside this program. */
int cli_cmd_cgoenv(int argc, char **argv);
/* The paths of cgofuzz-cgo-cc and cgofuzz-cgo-c++ (made as cgo-env does):
 * 0, or -1 after a message. */
int cli_cgocc_paths(char *cc, char *cxx, size_t n);
/* Writes to dst cgo's generated wrappers file src (x.cgo2.c) with each
 * wrapper that takes a pointer calling the cgo loop first (cgowrap.c).
 * 0, or -1 with err saying why. */
int cli_cgowrap_rewrite(const char *src, const char *dst, cgofuzz_err *err);
/* The directory of cgofuzz's libraries and (when inc is not NULL) of its
 * headers: 0, or -1 when not found (cmd_cc.c says where it looks). */
int cli_cc_locate(char *lib, char *inc, size_t n);
/* libFuzzer's -fno-builtin-* flags that keep memcmp and its kin calls
 * (NULL-terminated), shared by cc and cgo-cc (cmd_cc.c). */
extern const char *const cli_cc_no_builtin[];
/* Whether a command line's -fsanitize= / -fno-sanitize= lists leave on a
 * sanitizer whose runtime intercepts memcmp and its kin (ASan, MSan,
 * TSan), so cgofuzz's interceptors must stay out (cmd_cc.c). */
bool cli_cc_intercepting_sanitizer(int argc, char **argv);
/* $CGOFUZZ_CC_VERBOSE: the compiler command about to run, av[0..n), as one
 * line: appended to the file it names when it holds a '/', else written to
 * stderr. A file keeps it out of go's build cache, which replays a cgo
 * compile's stderr on every later build that reuses it (cmd_cc.c). */
void cli_cc_log(char *const *av, size_t n);

/* --- fileio.c */
/* A program found in $PATH (default /usr/local/bin:/usr/bin:/bin), as a
 * malloc'd path, or NULL. */
char *cli_find_in_path(const char *name);
/* Package mode (cgofuzz fuzz ./...): into a package's directory dir (NULL:
 * stay where we are) and back. cli_enter_dir returns the directory to go
 * back to (an open descriptor), or -1; a failure is printed. */
int cli_enter_dir(const char *dir);
void cli_leave_dir(int home);
/* Reads a whole file (appended to out: cgofuzz_file_read). On failure
 * prints "cgofuzz: PATH: reason" and returns -1. */
int cli_read_file(const char *path, cgofuzz_buf *out);
/* Writes data to path atomically (cgofuzz_file_write_atomic: a temporary
 * in the same directory, fsync, rename over path, fsync the directory). On
 * failure the old file is untouched, the temporary is removed, the reason
 * is printed with the path, and -1 is returned. mode (less the umask)
 * applies to a newly created file; an existing one of ours keeps its. */
int cli_write_file_atomic(const char *path, const uint8_t *data, size_t len,
                          unsigned mode);

/* Reads and decodes a corpus file that must hold at least one value. On
 * failure prints "PATH:LINE: reason" (or "PATH: reason") and returns -1;
 * in and vals are left for the caller to free either way. */
struct cgofuzz_values;
int cli_load_corpus_file(const char *path, cgofuzz_buf *in,
                         struct cgofuzz_values *vals);
/* The same, decoding as Go release g does (gover.h: only go1.18 differs,
 * rejecting a '\r' on the version line and float64(~Inf)). */
int cli_load_corpus_file_v(const char *path, cgofuzz_buf *in,
                           struct cgofuzz_values *vals, int g);

/* --- goverflag.c: `-go 1.N` for commands that work on files alone (corpus
 * fmt, convert, stats, mutate): which Go release's corpus format to follow
 * (gover.h). CLI_GOVER_FLAG(&g) is the flag table entry; g (a
 * cgofuzz_gover) starts at 0 and is set only when the flag is given; the
 * command then calls cli_gover_default() for a g still 0, after parsing its
 * flags, so that -go spares it from running go. */
int cli_gover_flag_set(void *dst, const char *value, cgofuzz_err *why);
#define CLI_GOVER_FLAG(dstp)                                                   \
  {                                                                            \
    .name = "go", .type = CGOFUZZ_FLAG_FUNC, .dst = (dstp),                    \
    .func = cli_gover_flag_set,                                                \
    .usage = "follow Go release `1.N` (1.18 ... 1.27; default: that of the "   \
             "go on PATH, else go.mod's, else the newest)"                     \
  }
/* The user's Go release, which a file-only command follows without -go.
 * In this order:
 *  1. the go on PATH: `go env GOVERSION` (so GOTOOLCHAIN, and the toolchain
 *     switch a go.mod asks for, are honoured as go honours them); its
 *     stderr is discarded;
 *  2. else (no go on PATH, or it fails) the nearest go.mod, in the current
 *     directory or above: its `toolchain goX.Y.Z` line, else its `go 1.N`
 *     line;
 *  3. else the newest release (CGOFUZZ_GOVER_NEWEST).
 * A release cgofuzz does not know is clamped (cgofuzz_gover_clamp): a
 * later one is followed as the newest; an earlier one, which cannot fuzz
 * (a go.mod's `go 1.16` is only a minimum: the module is fuzzed by 1.18 or
 * later), as the oldest, go1.18, whose files every later release reads.
 * Found once per process: go runs at most once. */
cgofuzz_gover cli_gover_default(void);

/* --- golaunch.c: Go fuzz target launchers (the payload format is
 * described there): this program with a Go test binary, its fuzz target's
 * name, argument kinds and seeds appended. */
#define CLI_GOLAUNCH_VERSION 1
#define CLI_GOLAUNCH_TRAILER 80
typedef struct cli_golaunch {
  char *target; /* the fuzz target, "FuzzX" */
  char *fuzzer; /* the launcher's NAME (defaults to target when read) */
  char *pkg;    /* the package's import path, or NULL */
  char *info;   /* one line about the build, or NULL */
  cgofuzz_kind *kinds;
  size_t n_kinds;
  cgofuzz_buf *seeds; /* encoded corpus files */
  size_t n_seeds;
  /* Filled by cli_golaunch_read: where the payload is. */
  uint64_t bin_off, bin_len, meta_len;
  uint8_t sha256[32];
} cli_golaunch;
/* Writes self_exe (less any payload of its own) + bin + g's metadata + the
 * trailer to path, atomically, mode 0755. Returns 0, or -1 after printing
 * why. */
int cli_golaunch_write(const char *path, const char *self_exe,
                       const uint8_t *bin, size_t bin_len,
                       const cli_golaunch *g);
/* Reads the payload's trailer and metadata: 1 with *g filled, 0 when path
 * has no payload (no trailer magic), -1 after printing why it is
 * malformed or unreadable. */
int cli_golaunch_read(const char *path, cli_golaunch *g);
/* Extracts the test binary to the per-user cache (or finds it there);
 * *out is its malloc'd path. 0, or -1 after printing why. */
int cli_golaunch_extract(const char *path, const cli_golaunch *g, char **out);
void cli_golaunch_free(cli_golaunch *g);
/* Launcher mode: -1 when /proc/self/exe has no payload (we are plain
 * cgofuzz), else the exit status of the launcher's run. */
int cli_golaunch_main(int argc, char **argv);

/* gocover.c: OSS-Fuzz's coverage run of a launcher (FUZZ_CORPUS_DIR set,
 * a Go test binary's command line without -test.fuzz): whether it is
 * one, and the run (the corpus as the target's Go corpus files, the test
 * binary bin run on them; -test.coverprofile's profile is written even
 * when an input panics). Returns an exit status. */
bool cli_gocover_wanted(int argc, char **argv);
int cli_gocover_main(const char *bin, const cli_golaunch *g, int argc,
                     char **argv);

/* --- gopkgs.c: the package mode of `cgofuzz fuzz` (docs/campaigns.md):
 * the packages matching `go list` patterns, each with test files built
 * into a test binary by `go test -c -fuzz=RE [-tags T]` (in parallel, up
 * to the CPU count) in a temporary directory. */
typedef struct cli_gopkg {
  char *imp;    /* import path */
  char *dir;    /* its directory (absolute, as go list gives it) */
  char *binary; /* the test binary built, or NULL when the build failed */
  char *error;  /* go's output when the build failed, or NULL */
} cli_gopkg;
typedef struct cli_gopkgs {
  cli_gopkg *p; /* in go list's order */
  size_t n;
  char *tmpdir; /* holds the binaries */
} cli_gopkgs;
/* Lists the packages (go list -e) and builds those with test files (and
 * those go list has an error for, so that go says what it is). 0, or -1
 * after printing why nothing could be listed (no go, go list failed);
 * cli_gopkgs_free in either case. */
int cli_gopkgs_build(char *const *patterns, size_t n, const char *fuzz_re,
                     const char *tags, cli_gopkgs *g);
/* Removes the binaries and the temporary directory, frees g. */
void cli_gopkgs_free(cli_gopkgs *g);
/* --- focus.c: -focus=REV */

/* The mask of binary's counters on Go lines changed since git revision
 * rev (the working tree of the repository holding dir, NULL: ours, against
 * rev): *mask (malloc'd, *len bytes: the counter range), *n_focus of them
 * set, *sites counters whose line was read. 0, or -1 with why. */
int cli_focus_mask(const char *dir, const char *rev, const char *binary,
                   uint8_t **mask, size_t *len, size_t *n_focus, size_t *sites,
                   cgofuzz_buf *why);

/* --- goleaks.c: go test -run under -exec=cgofuzz with CGOFUZZ_FLAGS=-goleaks
 */

/* Checks for goroutine leaks every testdata/fuzz file that the -test.run
 * among binary's arguments args[0..n) names (none without one), each in a
 * worker of binary. CLI_EXIT_OK, or CLI_EXIT_FAIL when one leaks (said as
 * a --- FAIL on stdout); one that could not be checked is said on stderr,
 * and CLI_EXIT_FAIL only when -test.run cannot be read. */
int cli_goleaks_rerun(const char *binary, char *const *args, size_t n);

/* -racereplay: `go test -c -race -fuzz=. [-tags=TAGS] -o=OUT .` in dir
 * (NULL: ours), its output appended to log. 0, or -1 when it failed (log
 * says why). */
int cli_gopkgs_race_build(const char *dir, const char *tags, const char *out,
                          cgofuzz_buf *log);

/* --- campaign.c: `cgofuzz fuzz` over every matching target of one or
 * more test binaries in one run (docs/campaigns.md). */
struct cgofuzz_fb;
struct cgofuzz_fb_dict;
enum { CLI_CT_PENDING, CLI_CT_PASS, CLI_CT_FAIL, CLI_CT_NOTRUN };
typedef struct cli_ctarget {
  char *label;          /* "FuzzX", or "bin.test:FuzzX" with several binaries */
  const char *bin_base; /* the binary's base name (its JUnit suite) */
  const char *binary;   /* the binary's absolute path */
  /* Package mode (gopkgs.c): the package's import path and directory,
   * where the target runs (testdata/fuzz is relative to it; cfg's
   * display_dir names it from the run's starting directory, for the file
   * paths and re-run commands of the summary and report). NULL otherwise:
   * the run's own directory. */
  const char *imp;
  const char *dir;
  cgofuzz_coord_config cfg; /* its run's config, discovery done */
  struct cgofuzz_fb_dict *dict;
  struct cgofuzz_fb *fb;       /* its runs' feedback (csrc/feedback) */
  cgofuzz_coord_report report; /* failures of all its slices */
  char *error; /* why it could not be fuzzed at all (discovery), or NULL */
  int state;   /* CLI_CT_* */
  int slices;
  int64_t used_ms;     /* wall time of its slices */
  int64_t execs;       /* over all slices (warm-up included) */
  size_t new_inputs;   /* over all slices */
  size_t cov_bits;     /* at the end of its last slice */
  size_t c_cov_bits;   /* of them, the cgo C code's (coord.h) */
  size_t corpus_start; /* entries loaded by its first slice */
  size_t corpus_end;   /* entries at the end of its last slice */
  double energy;       /* decayed new inputs per budget unit */
  /* -fuzzstats: the figures of slices before the current one, and the
   * last row written (for execs_per_s). */
  int64_t base_execs;
  size_t base_new;
  int64_t last_row_execs;
  double last_row_s;
  struct cli_campaign *cp;
} cli_ctarget;

typedef struct cli_campaign {
  cli_ctarget *t;
  size_t n;
  /* Budgets: whole run (-fuzztime with several targets) and per target
   * (-fuzztimeper), each a duration (ns) or a count (Nx); 0: none. */
  int64_t total_ns, total_count, per_ns, per_count;
  bool cont;    /* -fuzzcontinue: other targets go on after a failure */
  bool verbose; /* -v */
  bool single;  /* one target: run as go test would, no summary */
  /* -syncdir (sync.c): the shared directory, or NULL; -syncevery: the
   * slice length then (ms). */
  const char *syncdir;
  int64_t sync_ms;
  FILE *stats; /* -fuzzstats, or NULL */
  /* Package mode: the packages, of which those that did not build are
   * reported as errors (summary, JUnit) and make the exit status 1. */
  const cli_gopkgs *pkgs;
  int64_t start_ms;   /* the run's start (monotonic) */
  int64_t start_wall; /* time(NULL) at the start, for JUnit */
  int64_t stop_ms;    /* when the run ended */
} cli_campaign;

/* -syncdir (sync.c): copies the inputs of syncdir/<target> missing from
 * cache_dir into it (in), or cache_dir's inputs and testdata_dir's
 * failures missing from syncdir/<target> and syncdir/failures/<target>
 * there (out). The count copied, or -1 after a message. */
int cli_sync_in(const char *syncdir, const char *target, const char *cache_dir);
int cli_sync_out(const char *syncdir, const char *target, const char *cache_dir,
                 const char *testdata_dir);

/* Writes the -fuzzstats header; a failure is printed and returns -1. */
int cli_stats_open(cli_campaign *cp, const char *path);
/* Fuzzes every target of cp (slices scheduled by energy, budgets shared,
 * see docs/campaigns.md); prints the per-target lines and, with several
 * targets, the summary. Returns the exit status: 1 if any target failed. */
int cli_campaign_run(cli_campaign *cp);
/* The line of a failure's text that says what failed: its first line
 * that is not blank or a "--- FAIL: ..." header (Go's worker errors start
 * with one), trimmed; else its first line. *len is its length. */
const char *cli_failure_headline(const char *msg, size_t *len);
/* Package mode: how many packages did not build (0 without packages). */
size_t cli_campaign_broken(const cli_campaign *cp);
/* The line of go's output for a failed build that says why: its first
 * line that is not blank, a "# pkg" header or a "FAIL" line. */
const char *cli_build_headline(const char *out, size_t *len);
/* --- junit.c: the JUnit XML report of a campaign (-junit): one
 * <testsuite> per binary, one <testcase> per target. 0, or -1 after
 * printing why. */
int cli_junit_write(const cli_campaign *cp, const char *path);

/* --- the commands */
int cli_cmd_corpus(int argc, char **argv);
int cli_cmd_convert(int argc, char **argv);
/* cmd_merge.c: corpus merge (prune false) and corpus prune. */
int cli_cmd_merge(int argc, char **argv, bool prune);
int cli_cmd_stats(int argc, char **argv); /* cmd_stats.c */
int cli_cmd_gofuzzer(int argc, char **argv);
int cli_cmd_mutate(int argc, char **argv);
int cli_cmd_fuzz(int argc, char **argv);
/* cli_cmd_fuzz, or (pre set) its run for go test -exec (cmd_exec.c), after
 * the binary's own run as its target's coordinator told the one target to
 * fuzz and its discovery (kinds, seeds and environment, moved into the run
 * and cleared in *disc) and printed the "=== RUN" line itself: go test's
 * lines only, none of cgofuzz's notes. */
typedef struct cli_fuzz_pre {
  const char *target;
  cgofuzz_coord_config *disc;
} cli_fuzz_pre;
int cli_fuzz_main(int argc, char **argv, cli_fuzz_pre *pre);
/* --- cmd_exec.c: go test -exec=cgofuzz. Whether arg (where a command
 * belongs) names an executable file, and cgofuzz run as BINARY ARGS...
 * (argv[0] is the binary): execs it unchanged unless it is to fuzz. */
bool cli_exec_wanted(const char *arg);
int cli_exec_main(int argc, char **argv);
/* The exit status to end with so that a caller sees what it would of the
 * child whose wait status is st: its exit code, or (after re-raising the
 * same signal with its default action) 1. */
int cli_exit_like(int st);
/* cmd_cover.c, cmd_plot.c: thin commands running the Python report tools. */
int cli_cmd_cover(int argc, char **argv);
int cli_cmd_plot(int argc, char **argv);
/* --- pytool.c: execs python3 on the report tool `script` (found in
 * $CGOFUZZ_TOOLS_DIR, the source tree's tools/report, or an install's
 * share/cgofuzz/report) with "--prog cgofuzz CMD" and argv. Returns only
 * on failure, after printing what is missing. */
int cli_run_pytool(const char *cmd, const char *script, int argc, char **argv);
/* The fake worker of argument discovery (see cmd_fuzz.c). */
int cli_fake_worker(void);

#endif
