package rt

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/internal/csrcwrap"
)

// TestRuntimeWrappersCurrent fails when a runtime source or header changed
// since the zrt_*.c wrappers were generated: Go's build cache would then
// keep using the old object code. Fix: go generate ./gofuzz.
func TestRuntimeWrappersCurrent(t *testing.T) {
	stale, err := csrcwrap.Runtime.Stale("../../..", ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range stale {
		t.Errorf("%s (run go generate ./gofuzz)", m)
	}
}
