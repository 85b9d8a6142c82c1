//go:build gofuzz

package gofuzzertest

import "testing"

// FuzzTagged exists only with the gofuzz build tag, which OSS-Fuzz always
// sets and compile-go-fuzzer sets by default.
func FuzzTagged(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, b bool) {})
}
