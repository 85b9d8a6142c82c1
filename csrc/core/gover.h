/*
 * gover.h: which Go release cgofuzz behaves like.
 *
 * Go's native fuzzing changed in small, observable ways between go1.18 and
 * go1.27. Everything cgofuzz writes or reads byte for byte (corpus files and
 * their names, %q quoting, the worker protocol's JSON) and the coordinator's
 * timers and flags follow one release, named by its minor number
 * (cgofuzz_gover 18 is go1.18.x: patch releases of one minor version behave
 * alike here). Each difference below was checked on the real toolchains
 * go1.18.10, go1.19.13, go1.20.14, go1.21.13, ... go1.26.11, go1.27.4.
 *
 * How the release is chosen: for a Go test binary, the release recorded in
 * the binary's build info (cgofuzz_gobin_gover in coord.h); for a C
 * target, the newest (CGOFUZZ_GOVER_NEWEST); for commands that work on
 * files alone, -go 1.N, else the user's release (the go on PATH, else
 * go.mod's, else the newest: cli_gover_default in cli.h). Functions of the
 * core that take no release behave like the newest.
 */
#ifndef CGOFUZZ_GOVER_H
#define CGOFUZZ_GOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A Go minor release number: 18 means go1.18.x. */
typedef int cgofuzz_gover;

#define CGOFUZZ_GOVER_OLDEST 18 /* native fuzzing arrived in go1.18 */
#define CGOFUZZ_GOVER_NEWEST 27
#define CGOFUZZ_GOVER_DEFAULT CGOFUZZ_GOVER_NEWEST

/* Parses "go1.N", "go1.N.P", "1.N", "1.N.P" or a pre-release such as
 * "go1.27rc1" / "go1.27beta1" (s[0..n), no NUL needed) and stores N.
 * Any N is stored; whether cgofuzz knows the release is
 * cgofuzz_gover_known(). Returns 0, or -1 when s has none of these forms. */
int cgofuzz_gover_parse(const char *s, size_t n, cgofuzz_gover *out);

/* Whether g is a release cgofuzz follows (OLDEST <= g <= NEWEST). */
bool cgofuzz_gover_known(cgofuzz_gover g);

/* The release to behave like for g: g itself when known, the newest for a
 * later release (its behaviour is the best guess), the oldest for an
 * earlier one (which cannot fuzz at all). */
cgofuzz_gover cgofuzz_gover_clamp(cgofuzz_gover g);

/* unicode.Version of g's tables, which decide what %q prints verbatim:
 * "13.0.0" up to go1.20, "15.0.0" for go1.21-go1.26, "17.0.0" for go1.27. */
const char *cgofuzz_gover_unicode(cgofuzz_gover g);

/* Hex digits of a corpus file's name (the SHA-256 of its contents):
 * 64 (the whole sum) in go1.18 and go1.19, 16 from go1.20. */
int cgofuzz_gover_name_digits(cgofuzz_gover g);

/* Whether the "go test fuzz v1" line may end in '\r' (CRLF files):
 * rejected by go1.18, accepted from go1.19. */
bool cgofuzz_gover_header_cr_ok(cgofuzz_gover g);

/* Whether %q writes U+007F (DEL) as \x7f (go1.19 on) rather than \u007f
 * (go1.18's strconv). */
bool cgofuzz_gover_quote_del_x(cgofuzz_gover g);

/* Whether shortest float formatting (%v) rounds an exact tie between two
 * shortest candidates up for a power of two with a lopsided rounding
 * interval: only go1.26's Dragonbox does (float32 2^-12 prints as
 * 0.00024414063 there); Ryu (go1.18-go1.25) and go1.27 round it to even
 * (0.00024414062). Checked over every power of two of both widths. */
bool cgofuzz_gover_float_tie_up(cgofuzz_gover g);

/* Whether go/parser takes '~' as a unary operator in expressions, so that a
 * corpus value such as float64(~Inf) decodes (go1.19 on); go1.18's parser
 * rejects it ("expected operand"). */
bool cgofuzz_gover_unary_tilde(cgofuzz_gover g);

/* Whether encoding/json writes '\b' and '\f' as "\b" and "\f" (go1.22 on)
 * rather than "\u0008" and "\u000c" (go1.18-go1.21). The worker protocol's
 * messages are that JSON. */
bool cgofuzz_gover_json_short_bf(cgofuzz_gover g);

/* Whether encoding/json writes an invalid UTF-8 byte in a string as a raw
 * U+FFFD (go1.27, whose encoding/json is built on json/v2) rather than
 * "\ufffd" (go1.18-go1.26). */
bool cgofuzz_gover_json_raw_fffd(cgofuzz_gover g);

/* The worker's hang timer (worker.go, time.AfterFunc in workerServer.fuzz):
 * a fuzz call whose target has not returned after this long makes the
 * worker panic ("fuzzing process hung or terminated unexpectedly"):
 * 10 s up to go1.26, 60 s in go1.27. In nanoseconds. */
int64_t cgofuzz_gover_hang_timeout_ns(cgofuzz_gover g);

/* Where the coordinator checks a -fuzztime=Nx execution limit: true for
 * go1.18-go1.20 (after processing each worker result, so the result that
 * reaches the limit is still processed: found crashers and new coverage are
 * kept), false from go1.21 (at the top of its loop, before waiting for the
 * next result). */
bool cgofuzz_gover_limit_after_result(cgofuzz_gover g);

/* Whether go1.27's stop() rule applies: a fuzzing error equal to the
 * *outer* context's error (the -fuzztime deadline) also counts as a clean
 * stop, not only the fuzzing context's error or an interrupt
 * (go.dev/issue/75804). */
bool cgofuzz_gover_stop_checks_outer_ctx(cgofuzz_gover g);

/* Whether a test binary of release g knows the flag -test.<name> (name
 * without the "test." prefix, e.g. "skip"). A worker exits with a usage
 * error on one it does not know, so a coordinator must pass only these.
 * Arrivals after go1.18: gocoverdir and skip (go1.20), fullpath (go1.21),
 * artifacts (go1.26). Unknown names answer false. */
bool cgofuzz_gover_has_test_flag(cgofuzz_gover g, const char *name);

#ifdef __cplusplus
}
#endif
#endif
