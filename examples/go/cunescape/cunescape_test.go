package cunescape

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

// FuzzUnescape runs the C target through cgo, one call per input. Its
// corpus is the one the Go twin (examples/xlang/unescape) and the C target
// binary replay.
func FuzzUnescape(f *testing.F) { gofuzz.FuzzC(f, "FuzzUnescape") }

// FuzzUnescapeLoop is the same C target with the fuzzing workers' exec loop
// in C (gofuzz.ExecLoopInC).
func FuzzUnescapeLoop(f *testing.F) {
	gofuzz.FuzzC(f, "FuzzUnescape", gofuzz.ExecLoopInC())
}
