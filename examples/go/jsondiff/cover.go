//go:build gofuzz_cover

package jsondiff

// Built with -tags gofuzz_cover (and CC=clang,
// CGO_CFLAGS_ALLOW=-fsanitize-coverage=.*), this file instruments the C code
// of the package (jd.c) with clang's 8-bit counters, which package gofuzz
// hands to Go's fuzzer. cJSON itself is a shared library and is not
// instrumented.

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
