package crashtarget

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

func FuzzSegv(f *testing.F)     { gofuzz.FuzzC(f, "FuzzSegv") }
func FuzzSegvLoop(f *testing.F) { gofuzz.FuzzC(f, "FuzzSegv", gofuzz.ExecLoopInC()) }
func FuzzLeak(f *testing.F)     { gofuzz.FuzzC(f, "FuzzLeak") }
func FuzzLeakLoop(f *testing.F) { gofuzz.FuzzC(f, "FuzzLeak", gofuzz.ExecLoopInC()) }
func FuzzCoverLeak(f *testing.F) {
	f.Add([]byte("ab"))
	f.Fuzz(func(t *testing.T, b []byte) { Leak(b) })
}
func FuzzAbortLoop(f *testing.F) {
	gofuzz.FuzzC(f, "FuzzAbort", gofuzz.ExecLoopInC())
}

// TestCTargets checks that both C targets of crash.c are registered.
func TestCTargets(t *testing.T) {
	got := gofuzz.CTargets()
	if len(got) != 3 || got[0] != "FuzzSegv" || got[1] != "FuzzAbort" ||
		got[2] != "FuzzLeak" {
		t.Fatalf("CTargets() = %q, want [FuzzSegv FuzzAbort FuzzLeak]", got)
	}
}
