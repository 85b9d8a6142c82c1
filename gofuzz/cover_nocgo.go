//go:build !cgo

package gofuzz

// Without cgo no C code can run, so there are no C counters: cCounters stays
// empty and Cover just calls its function.
