//go:build gofuzz_cover

package planted

// Built with -tags gofuzz_cover (and CC=clang,
// CGO_CFLAGS_ALLOW=-fsanitize-coverage=.*), this file instruments the C code
// of the package with clang's 8-bit counters, which package gofuzz hands to
// Go's fuzzer.

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
