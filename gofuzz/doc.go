// Package gofuzz helps fuzz C code, called through cgo, with go test -fuzz.
//
// # C coverage
//
// Go's fuzzer only sees the coverage counters of Go code: the counters that
// clang adds to C code with -fsanitize-coverage=inline-8bit-counters land in
// their own ELF section, outside the range Go's fuzzer reads (see
// docs/gofuzz.md in the repository for the evidence). Without help, C code is
// a black box to Go's fuzzer.
//
// This package bridges the two. Its C code (cgofuzz's runtime) records
// clang's counter ranges (it defines __sanitizer_cov_8bit_counters_init),
// and Cover, after running
// the C code, turns every non-zero C counter into the execution of one of
// 4096 Go switch cases, each with its own Go counter. A new C edge, or an edge
// hit a new power-of-two number of times, is then new Go coverage.
//
// The set-up: compile the C code of the package under test with clang and the
// flag. The flag is not on cgo's list of safe #cgo flags, so allow it, and put
// it behind a build tag so the package still builds with gcc:
//
//	// File cover.go in the package under test.
//	//go:build gofuzz_cover
//
//	package mypkg
//
//	// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
//	import "C"
//
// and run
//
//	CC=clang CGO_CFLAGS_ALLOW='-fsanitize-coverage=.*' \
//		go test -tags gofuzz_cover -fuzz=FuzzX .
//
// In the fuzz function, call the C code inside Cover (Diff and Differ do it
// for their C side). Without the tag everything still builds and runs; the C
// code is then a black box. CCounters reports how many C counters were found.
//
// # Differential fuzzing
//
// Diff and Differ run a Go function and a C function (through the caller's
// own cgo wrapper) on the same typed input and fail the test with the input
// and both outputs when they disagree.
//
// # C fuzz targets
//
// FuzzC runs a fuzz target written in C with cgofuzz's C API
// (CGOFUZZ_TARGET, see include/cgofuzz/target.h) as a Go fuzz test, with the
// same corpus files as the C target binary. With ExecLoopInC, each fuzzing
// worker hands its whole exec loop (mutation, execution, coverage) to the C
// runtime while go test's own coordinator still drives it:
//
//	func FuzzParse(f *testing.F) { gofuzz.FuzzC(f, "FuzzParse", gofuzz.ExecLoopInC()) }
//
// The package holding the C target must import this package (a blank
// import is enough) so the runtime is linked, and its C code needs
// cgofuzz's include directory (e.g. in CGO_CFLAGS).
package gofuzz

// The generated code is in internal/rt (the C runtime's wrappers) and
// internal/bridge (the coverage switch); go generate ./gofuzz remakes both.
//go:generate go generate ./internal/...
