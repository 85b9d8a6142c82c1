package main

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/internal/csrcwrap"
)

// TestCLIWrappersCurrent fails when a C source or header of the tool
// changed since the zcli_*.c wrappers were generated: Go's build cache
// would then keep using the old object code. Fix: go generate ./cmd/cgofuzz.
func TestCLIWrappersCurrent(t *testing.T) {
	stale, err := csrcwrap.CLI.Stale("../..", ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range stale {
		t.Errorf("%s (run go generate ./cmd/cgofuzz)", m)
	}
}
