/*
 * gotarget.h: what package gofuzz (Go, through cgo) calls to run a C
 * target registered with CGOFUZZ_TARGET inside a Go test binary. Not
 * installed: the Go package compiles the runtime's sources itself.
 *
 * Two ways to run a target, both driven by go test's own coordinator:
 *  - per exec: Go's worker mutates, Go converts the values into
 *    cgofuzz_go_arg records and calls cgofuzz_go_exec once per input;
 *  - exec loop in C: a worker process calls cgofuzz_go_serve, which answers
 *    the coordinator on fds 3/4/5 itself (worker.c) and returns only
 *    when the coordinator closes fd 3. Go's coordinator cannot tell the
 *    difference: the mutator, the shm protocol and the coverage snapshot
 *    size (the coordinator's mask size, C counters folded into it) are the
 *    ones a Go worker would use.
 */
#ifndef CGOFUZZ_TARGET_GO_H
#define CGOFUZZ_TARGET_GO_H

#include <stddef.h>
#include <stdint.h>

#include "cgofuzz/target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One argument, without unions, so Go code can fill the fields. Which field
 * is read depends on the target's kind for that position: p/n for []byte
 * and string, i for signed kinds and bool (0/1), u for unsigned kinds, f
 * for float32/float64. */
typedef struct {
  const uint8_t *p;
  size_t n;
  int64_t i;
  uint64_t u;
  double f;
} cgofuzz_go_arg;

/* The registered target called name, or NULL. */
cgofuzz_f *cgofuzz_go_target(const char *name);
/* The i-th registered target's name, NULL past the end. */
const char *cgofuzz_go_target_name(size_t i);
size_t cgofuzz_go_nargs(const cgofuzz_f *f);
/* The kind (cgofuzz_kind) of argument i. */
int cgofuzz_go_kind(const cgofuzz_f *f, size_t i);
/* Runs the target's seed function (once) and returns the number of seeds. */
size_t cgofuzz_go_nseeds(cgofuzz_f *f);
/* Seed k as argument records; byte pointers point into the seed, which
 * lives as long as the process. */
void cgofuzz_go_seed(const cgofuzz_f *f, size_t k, cgofuzz_go_arg *out);
/* Runs the target once. Returns 0 (pass), 1 (fail), 2 (skip) or 3 (the
 * input leaked memory: in a binary with LeakSanitizer, go test -asan, an
 * input that allocated more than it freed is run again and checked, as
 * libFuzzer's -detect_leaks does); *log and *loglen receive the target's
 * log lines ("file:line: msg\n" each), or for 3 LeakSanitizer's report,
 * valid until the next call. Not reentrant: one exec at a time per
 * process. */
int cgofuzz_go_exec(cgofuzz_f *f, const cgofuzz_go_arg *args, const char **log,
                    size_t *loglen);
/* Serves the worker protocol on fds 3/4/5 for f until the coordinator
 * closes fd 3; name is the Go test's name (for failure reports),
 * timeout_ns bounds one exec (-1: the default 10 s, 0: none). Returns the
 * worker's exit status. */
int cgofuzz_go_serve(cgofuzz_f *f, const char *name, int64_t timeout_ns);

#ifdef __cplusplus
}
#endif
#endif
