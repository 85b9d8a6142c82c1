// Package rt compiles cgofuzz's C runtime into the Go binaries that import
// package gofuzz: the worker server, the target registry, the Go binding of
// C targets, coverage, comparison tracing, leaks, and the layers below
// (csrc/layers.txt, line runtime). Each zrt_*.c file is a generated
// one-line wrapper that includes one source of ../../../csrc; package
// gofuzz calls the functions they define through its own cgo preambles.
// Without cgo the package is empty.
//
// After changing or adding a C file of those layers, run go generate here
// (or go generate ./gofuzz from the repository root):
// TestRuntimeWrappersCurrent fails while a wrapper is stale.
package rt

//go:generate go run gen_runtime.go
