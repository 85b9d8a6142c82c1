package crashtarget

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

func FuzzSegv(f *testing.F)     { gofuzz.FuzzC(f, "FuzzSegv") }
func FuzzSegvLoop(f *testing.F) { gofuzz.FuzzC(f, "FuzzSegv", gofuzz.ExecLoopInC()) }
func FuzzAbortLoop(f *testing.F) {
	gofuzz.FuzzC(f, "FuzzAbort", gofuzz.ExecLoopInC())
}

// TestCTargets checks that both C targets of crash.c are registered.
func TestCTargets(t *testing.T) {
	got := gofuzz.CTargets()
	if len(got) != 2 || got[0] != "FuzzSegv" || got[1] != "FuzzAbort" {
		t.Fatalf("CTargets() = %q, want [FuzzSegv FuzzAbort]", got)
	}
}
