package zinflate

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

func FuzzInflate(f *testing.F) { gofuzz.FuzzC(f, "FuzzInflate") }

func FuzzInflateLoop(f *testing.F) {
	gofuzz.FuzzC(f, "FuzzInflate", gofuzz.ExecLoopInC())
}
