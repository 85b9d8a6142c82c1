// Package cunescape runs a C fuzz target, written with cgofuzz's C API, as
// a Go fuzz test: the C target FuzzUnescape of examples/xlang/unescape/c
// (the same source the C target binary and ctest are built from) is
// compiled into this package and run by gofuzz.FuzzC.
//
// The tests replay the shared corpus of examples/xlang/unescape
// (testdata/fuzz/FuzzUnescape is a link to it), and fuzz the C code with go
// test's own coordinator either through cgo per exec (FuzzUnescape) or with
// the exec loop in C (FuzzUnescapeLoop):
//
//	go test -fuzz=FuzzUnescapeLoop ./examples/go/cunescape
//
// With C coverage (see package gofuzz):
//
//	CC=clang CGO_CFLAGS_ALLOW='-fsanitize-coverage=.*' \
//		go test -tags gofuzz_cover -fuzz=FuzzUnescapeLoop ./examples/go/cunescape
package cunescape

// #cgo CFLAGS: -std=c11 -I${SRCDIR}/../../../include
import "C"

// The C target calls the cgofuzz runtime, which package gofuzz compiles.
import _ "github.com/cgofuzz/cgofuzz/gofuzz"
