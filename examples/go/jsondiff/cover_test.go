//go:build gofuzz_cover

package jsondiff

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

// TestCoverageSetUp checks that the gofuzz_cover build really instrumented
// the C code: clang registered its counters with package gofuzz.
func TestCoverageSetUp(t *testing.T) {
	if gofuzz.CCounters() == 0 {
		t.Fatal("no C coverage counters: was the package built with CC=clang?")
	}
}
