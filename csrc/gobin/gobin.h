/*
 * gobin.h: Go test binaries read from outside, without running them: the
 * Go release and main module of their build info (gobin_gover.c), their
 * coverage counters (gobin_counters.c), the copies of them cgofuzz runs
 * instead (gobin_copy.c; their bytes: gobin_patch.h), and the constants
 * of their code and data as dictionary tokens (gobin_godict.c). The sections,
 * segments and symbols these read are gobin_obj.h's.
 *
 * Invariants: nothing here starts a process of the binary or writes the
 * user's file; a binary that cannot be read is reported (an error, or 0
 * counters), never guessed at; this layer uses only core and base, and
 * the coordinator (csrc/coord) and the feedback strategies (csrc/feedback)
 * build on it.
 */
#ifndef CGOFUZZ_GOBIN_H
#define CGOFUZZ_GOBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- the Go release that built a test binary (gobin_gover.c, issue 14).
 * Read from the binary's build info (.go.buildinfo). The coordinator
 * follows that release (gover.h): a binary without Go build info (a C
 * target from `cgofuzz cc`) follows the newest. */

/* Copies the Go version recorded in binary ("go1.18.10") to out. Returns 1,
 * 0 when binary has no Go build info (not a Go binary), or -1 with err set
 * (unreadable, not a 64-bit little-endian ELF file, malformed build info,
 * or a Go release before go1.18). */
int cgofuzz_gobin_goversion(const char *binary, char *out, size_t outsize,
                            cgofuzz_err *err);

/* Copies the path of binary's main module (the "mod" line of its build
 * info, what `go version -m` prints there) to out: "" for a binary built
 * outside a module. Returns as cgofuzz_gobin_goversion does. */
int cgofuzz_gobin_modpath(const char *binary, char *out, size_t outsize,
                          cgofuzz_err *err);

/* The release to follow for binary: sets *g to the release recorded in it
 * (cgofuzz_gover_clamp'd, so a future go1.N follows the newest) and
 * returns 1; returns 0 with *g = CGOFUZZ_GOVER_NEWEST when binary has no Go
 * build info (a C target); -1 with err set and *g = CGOFUZZ_GOVER_NEWEST
 * on errors as above. *g is an int (cgofuzz_gover of core/gover.h). */
int cgofuzz_gobin_gover(const char *binary, int *g, cgofuzz_err *err);

/* Whether a test binary of release g (0: the newest) accepts the argument
 * arg: false only for a -test.<name> flag that arrived after g (such as
 * -test.skip before go1.20), which would make it exit with a usage error.
 * Arguments that are not -test.* flags, and -test.* names cgofuzz has no
 * record of (a C target's own), are accepted. */
bool cgofuzz_gobin_test_flag_ok(int g, const char *arg);

/* --- coverage counters (gobin_counters.c). The size of Go's counter
 * section is the length of every CoverageData a worker sends. */

/* How many coverage counters binary has: Go's (.go.fuzzcntrs) or a C
 * target's (__sancov_cntrs); 0 when it is not instrumented. */
size_t cgofuzz_gobin_counters(const char *binary);

/* How many coverage counters of Go's own binary has (its counter section:
 * .go.fuzzcntrs, __libfuzzer_extra_counters in go1.18, __sancov_cntrs in
 * go1.19 when it has Go build info): 0 when it is not a Go test binary
 * built with -fuzz, or not ELF or Mach-O. */
size_t cgofuzz_gobin_go_counters(const char *binary);

/* Go's counter section of an open binary, whichever name its release gives
 * it (.go.fuzzcntrs, __libfuzzer_extra_counters, or go1.19's
 * __sancov_cntrs when the binary has Go build info); NULL when none. */
struct cgofuzz_gobin_obj;
struct cgofuzz_gobin_obj_sect;
const struct cgofuzz_gobin_obj_sect *
cgofuzz_gobin_go_section(const struct cgofuzz_gobin_obj *o);
/* Where a cgo package's C counters start inside Go's counter range, as an
 * index of the mask: a binary linked by `cgofuzz cgo-cc` defines
 * cgofuzz_cgo_in_go_range, and its C counters run from
 * __start___sancov_cntrs to internal/fuzz._ecounters. SIZE_MAX when the
 * binary has no such range, or its symbols do not tell (stripped; go1.19,
 * whose own counters are __sancov_cntrs too). */
size_t cgofuzz_gobin_cgo_from(const char *binary, size_t mask_len);
/* Size of the named ELF section (0 if absent). A C target built with
 * clang's inline 8-bit counters has "__sancov_cntrs" instead of Go's
 * section; its workers tell the mask size in their first warm-up reply. */
size_t cgofuzz_gobin_section_size(const char *binary, const char *section);

/* --- -focus (gobin_focus.c): the Go counters on given source lines. */

/* Whether line of file (a path as the binary's line table has it) is one
 * to focus on. */
typedef bool (*cgofuzz_gobin_focus_fn)(void *ctx, const char *file, int line);
/* Sets mask[i] (mask_len bytes, the counter range) to 1 for each of
 * binary's Go counters whose block changed(ctx, file, line) says is on a
 * focus line, 0 for the others; *sites: the counters whose line was read.
 * 0, or -1 with err (no Go counters or line table). */
int cgofuzz_gobin_focus(const char *binary, cgofuzz_gobin_focus_fn changed,
                        void *ctx, uint8_t *mask, size_t mask_len,
                        size_t *sites, cgofuzz_err *err);

/* --- the copies of the binary cgofuzz runs (gobin_copy.c) */

typedef struct cgofuzz_gobin_copy {
  int mfd;      /* its memfd, -1: none */
  char *dir;    /* its private directory, when not a memfd; NULL */
  char *path;   /* what workers exec: a /proc/<pid>/fd path, or dir's file;
                   NULL: no copy */
  bool redzone; /* its []byte inputs get ASan red zones (cmppatch) */
} cgofuzz_gobin_copy;

/* Makes a home for a copy of binary (tag names the memfd or directory; a
 * file in a directory when on_disk) and sets out to the path to write it
 * by; cp->path is the path to exec. */
int cgofuzz_gobin_copy_path(cgofuzz_gobin_copy *cp, const char *binary,
                            const char *tag, bool on_disk, cgofuzz_buf *out,
                            cgofuzz_err *err);
/* In the tail of a worker's stderr (tail[0..*tail_len), at most cap
 * bytes, its newest kept), the copy's file name (an on-disk copy's, which
 * a sanitizer's report names) replaced by binary's. */
void cgofuzz_gobin_copy_unname(const cgofuzz_gobin_copy *cp, const char *binary,
                               uint8_t *tail, size_t *tail_len, size_t cap);
/* After a worker's death explained in why: when the copy poisons the
 * bytes after []byte inputs and ASan reported a use of poisoned memory,
 * a note that `go test -run` may not see it, and what replays it. */
void cgofuzz_gobin_copy_note(const cgofuzz_gobin_copy *cp, const uint8_t *tail,
                             size_t tail_len, cgofuzz_buf *why);
/* Removes the copy (closes the memfd, removes the directory); cp empty. */
void cgofuzz_gobin_copy_free(cgofuzz_gobin_copy *cp);

/* --- the constants of a Go test binary's code and data (gobin_godict.c) */

/* Where the tokens go: add(ctx, p, n, src, int_width, big_endian) is
 * given each token of 1..4096 bytes with src pkg_src (from the target's
 * package) or module_src (the rest of its module); int_width (2, 4 or 8)
 * marks an integer constant in that byte order, 0 a byte string. It
 * returns 1 when the token was new, 0 when not, -1 out of memory. */
typedef struct cgofuzz_gobin_sink {
  void *ctx;
  int (*add)(void *ctx, const uint8_t *p, size_t n, int src, int int_width,
             bool big_endian);
  int pkg_src, module_src;
} cgofuzz_gobin_sink;
/* Gives s the integer v of width bytes (2, 4, 8) in both byte orders
 * unless it is tiny (0..255 or -256..-1 in that width). Tokens added, or
 * -1. */
int cgofuzz_gobin_sink_int(const cgofuzz_gobin_sink *s, uint64_t v, int width,
                           int src);
/* Gives s the constants the code of a Go test binary compares with: integer
 * immediates of comparisons (2, 4 or 8 bytes, both byte orders) and the
 * string literals passed to comparisons or indexed next to a length, in
 * the package of target (the symbol <pkg>.<target>) and the rest of its
 * module, and the string literals of the package's data (tables, map
 * literals). Disassembles with `go tool objdump` (go from $PATH) and waits
 * for it; 0 and *added, or -1 with err saying why nothing could be taken
 * (not ELF, no such symbol) or why the code was not read (no go, objdump
 * failed: the data's literals are still added, counted in *added). */
int cgofuzz_gobin_godict_all(const cgofuzz_gobin_sink *s, const char *binary,
                             const char *target, size_t *added,
                             cgofuzz_err *err);
/* The same in two parts, so that fuzzing need not wait for objdump: the
 * data's literals now (needs no go), ... */
int cgofuzz_gobin_godict_data(const cgofuzz_gobin_sink *s, const char *binary,
                              const char *target, size_t *added,
                              cgofuzz_err *err);
/* ... and the code's constants from `go tool objdump`, started in the
 * background (-1 with err when it cannot start: no go, not ELF); the job
 * keeps a copy of s, whose ctx must outlive it. */
typedef struct cgofuzz_gobin_godict_job cgofuzz_gobin_godict_job;
int cgofuzz_gobin_godict_code_start(const cgofuzz_gobin_sink *s,
                                    const char *binary, const char *target,
                                    cgofuzz_gobin_godict_job **job,
                                    cgofuzz_err *err);
/* 0 while objdump runs (block: waits for it); 1 when its output has been
 * given to the sink (*added tokens; 1 again on later calls, adding none);
 * -1 with err when it failed or took over two minutes. */
int cgofuzz_gobin_godict_code_poll(cgofuzz_gobin_godict_job *job, bool block,
                                   size_t *added, cgofuzz_err *err);
/* Stops objdump if it still runs, and frees the job (NULL: nothing). */
void cgofuzz_gobin_godict_code_free(cgofuzz_gobin_godict_job *job);
/* The code's constants from `go tool objdump` output already in f, read as
 * cgofuzz_gobin_godict_code_poll reads objdump's: 1 with *added tokens, or
 * -1 with err set. For the self-fuzzing harness
 * tests/selffuzz/cgofuzz/fuzz_objdump.c. */
int cgofuzz_gobin_godict_code_read(const cgofuzz_gobin_sink *s,
                                   const char *binary, const char *target,
                                   FILE *f, size_t *added, cgofuzz_err *err);

#ifdef __cplusplus
}
#endif
#endif
