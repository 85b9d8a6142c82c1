/*
 * target.h: Go-style fuzz targets written in C.
 *
 * A C file registers one or more targets named FuzzXxx, each with a list of
 * argument types (any of Go's fuzzable kinds, see value.h) and a function
 * that receives the typed values and a test handle. Linked with libcgofuzz
 * and libcgofuzz_main (which provides main), the binary behaves like a Go
 * test binary built with `go test -c -fuzz`:
 *
 *   ./t                      runs every target's seeds and the files in
 *                            testdata/fuzz/<Target>/ as regression tests
 *   ./t -test.run=FuzzX/name runs selected entries (-test.v: verbose)
 *   ./t -test.list=.         lists the targets
 *   ./t -test.fuzzworker ... serves a fuzzing coordinator on fds 3/4/5:
 *                            Go's own coordinator can drive it, e.g.
 *                            exec -a ./t ./go.test -test.fuzz=^FuzzX$ ...
 *
 * Complete example (build: clang -fsanitize-coverage=inline-8bit-counters,
 * pc-table -Iinclude parse.c -Lbuild -lcgofuzz_main -lcgofuzz -lpthread):
 *
 *   #include <string.h>
 *   #include "cgofuzz/target.h"
 *
 *   // func FuzzParse(f *testing.F) { f.Add([]byte("hi"), 3); f.Fuzz(...) }
 *   static void parse_seeds(cgofuzz_f *f) {
 *     cgofuzz_add(f, "hi", (size_t)2, (int64_t)3); // []byte: ptr, size_t
 *   }
 *   static void parse(cgofuzz_t *t, const cgofuzz_value *v) {
 *     const uint8_t *data = v[0].s.data; // []byte (may be NULL if len 0)
 *     size_t len = v[0].s.len;
 *     int64_t n = v[1].i;                // int
 *     if (n < 0)
 *       cgofuzz_skip(t);                 // like t.Skip(): not a failure
 *     if (len >= 3 && memcmp(data, "BUG", 3) == 0)
 *       cgofuzz_fatalf(t, "found bug with n=%lld", (long long)n);
 *   }
 *   CGOFUZZ_TARGET(FuzzParse, parse_seeds, parse, CGOFUZZ_BYTES, CGOFUZZ_INT)
 *
 * A libFuzzer target needs no change: a binary that defines
 * LLVMFuzzerTestOneInput (and optionally LLVMFuzzerInitialize) and links
 * libcgofuzz_main gets one target, FuzzLibFuzzer, with one []byte argument.
 * A non-zero return from LLVMFuzzerTestOneInput counts as a skip.
 *
 * Building: `cgofuzz cc` (or `cgofuzz c++`) is clang plus the coverage flags
 * (inline-8bit-counters, pc-table, trace-cmp) and the runtime, so
 *   cgofuzz cc -g -O1 parse.c -o parse.test
 *   cgofuzz cc -g -O1 -fsanitize=address,fuzzer harness.c -o h.test
 * both work ("fuzzer" is dropped from -fsanitize; other sanitizers stay).
 * It finds the libraries via $CGOFUZZ_LIBDIR/$CGOFUZZ_INCLUDEDIR, else an
 * install tree (bin/../lib, bin/../include), else the build tree it was
 * built in. CMake: find_package(cgofuzz) with -Dcgofuzz_DIR=<src>/cmake
 * (and CGOFUZZ_BUILD_DIR), then cgofuzz_add_fuzz_target(name src.c ...),
 * which also registers the seed corpus as a ctest test.
 *
 * Fuzzing: `./t -test.fuzz=FuzzX [-test.fuzztime=30s|Nx]
 * [-test.fuzzminimizetime=D] [-test.parallel=N] [-test.fuzzcachedir=DIR]`
 * makes the binary its own coordinator (cgofuzz's), with workers started as
 * argv[0] -test.fuzzworker ARGS, like Go; the default cache is
 * $GOCACHE/fuzz/cgofuzz/<binary>. `cgofuzz fuzz ./t` works as for Go
 * binaries. -test.timeout=D bounds the whole run (not workers), as in Go.
 *
 * Worker robustness (any coordinator, including Go's): a crash of any kind
 * (signal, abort, a sanitizer report, exit(n), stack overflow) ends the
 * worker during the exec, so the coordinator rebuilds the exact input;
 * exit(0) during an exec becomes status 2, like Go's -test.paniconexit0.
 * A watchdog thread ends the worker with status 2 when one exec runs longer
 * than -test.fuzztimeout=D (default 10s, Go's; 0: none) or the resident set
 * exceeds -test.fuzzrsslimitmb=N (default 2048, libFuzzer's; 0: none).
 * Worker stderr is /dev/null under both coordinators (as for Go workers):
 * rerun the written input in regression mode to see a sanitizer report.
 *
 * Comparison tracing and dictionaries: with trace-cmp the worker records
 * comparison operands and runs bursts of "input to state" mutations (the
 * bytes compared against are replaced by what they were compared with;
 * byte-by-byte loops are joined into strings) and -test.fuzzdict=FILE
 * entries (libFuzzer/AFL format). These cannot be replayed from Go's
 * mutator state, so the worker uses them only when its coordinator reads
 * the exact-input slot (cgofuzz/exact.h); under Go's coordinator the
 * worker runs Go's mutator alone and every crash input stays exact.
 *
 * Values passed to a target function are only valid during the call; the
 * target must not modify them. fatalf/skip leave the function with longjmp,
 * so a target that must clean up should use errorf and return instead.
 */
#ifndef CGOFUZZ_TARGET_H
#define CGOFUZZ_TARGET_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cgofuzz/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The handle a target function receives, like Go's *testing.T. */
typedef struct cgofuzz_t cgofuzz_t;
/* A registered target, like Go's *testing.F, used to add seeds. */
typedef struct cgofuzz_f cgofuzz_f;

typedef void (*cgofuzz_fn)(cgofuzz_t *t, const cgofuzz_value *args);
typedef void (*cgofuzz_seed_fn)(cgofuzz_f *f);

/* Registers a target (normally through CGOFUZZ_TARGET, before main runs).
 * name must start with "Fuzz"; kinds are copied; seeds may be NULL and is
 * called once, lazily, when the seeds are needed. Exits with status 2 on a
 * malformed registration (like a Go test binary that panics in init). */
cgofuzz_f *cgofuzz_register(const char *name, cgofuzz_fn fn,
                            const cgofuzz_kind *kinds, size_t nkinds,
                            cgofuzz_seed_fn seeds);

/* Defines a constructor that registers target NAME with the given kinds. */
#define CGOFUZZ_TARGET(NAME, SEEDS, FN, ...)                                   \
  __attribute__((constructor)) static void cgofuzz_reg_##NAME(void) {          \
    static const cgofuzz_kind kinds_[] = {__VA_ARGS__};                        \
    cgofuzz_register(#NAME, FN, kinds_, sizeof kinds_ / sizeof kinds_[0],      \
                     SEEDS);                                                   \
  }

/* Adds a seed, like f.Add, with one variadic argument per declared kind:
 *   BYTES, STRING        const void *data, size_t len
 *   BOOL                 int
 *   INT, INT8..INT64     int64_t        UINT, UINT8..UINT64  uint64_t
 *   FLOAT32, FLOAT64     double
 * Pass exactly these types (cast literals): varargs are not type-checked. */
void cgofuzz_add(cgofuzz_f *f, ...);
/* Adds a seed from values (copied); exits 2 if the kinds do not match. */
void cgofuzz_add_values(cgofuzz_f *f, const cgofuzz_value *vals, size_t n);

/* Test-handle operations, as on Go's testing.T. The *f variants take a
 * printf format and record the caller's file:line, as Go does. */
void cgofuzz_fail(cgofuzz_t *t);              /* mark failed, keep running */
_Noreturn void cgofuzz_failnow(cgofuzz_t *t); /* mark failed, leave */
_Noreturn void cgofuzz_skip(cgofuzz_t *t);    /* leave, not a failure */
int cgofuzz_failed(const cgofuzz_t *t);
#define cgofuzz_logf(t, ...) cgofuzz_logf_at(t, __FILE__, __LINE__, __VA_ARGS__)
#define cgofuzz_errorf(t, ...)                                                 \
  cgofuzz_errorf_at(t, __FILE__, __LINE__, __VA_ARGS__)
#define cgofuzz_fatalf(t, ...)                                                 \
  cgofuzz_fatalf_at(t, __FILE__, __LINE__, __VA_ARGS__)

void cgofuzz_logf_at(cgofuzz_t *t, const char *file, int line, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));
void cgofuzz_errorf_at(cgofuzz_t *t, const char *file, int line,
                       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void cgofuzz_fatalf_at(cgofuzz_t *t, const char *file, int line,
                                 const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The test binary's main, for programs that define their own main instead
 * of linking libcgofuzz_main. Returns the exit status (0 PASS, 1 FAIL, 2
 * usage error). */
int cgofuzz_test_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
