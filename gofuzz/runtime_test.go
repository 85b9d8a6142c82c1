package gofuzz

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz/internal/rtsrc"
)

// TestRuntimeWrappersCurrent fails when a runtime source or header changed
// since the zrt_*.c wrappers were generated: Go's build cache would then
// keep using the old object code. Fix: go generate ./gofuzz.
func TestRuntimeWrappersCurrent(t *testing.T) {
	want := map[string]bool{}
	files, err := rtsrc.Files("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range files {
		name := rtsrc.WrapperName(src)
		want[name] = true
		text, err := rtsrc.Wrapper("..", src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./gofuzz)", name, err)
			continue
		}
		if string(got) != text {
			t.Errorf("%s is stale: %s or a runtime header changed (run go generate ./gofuzz)", name, src)
		}
	}
	have, _ := filepath.Glob("zrt_*.c")
	for _, f := range have {
		if !want[f] {
			t.Errorf("%s wraps no listed runtime source (run go generate ./gofuzz)", f)
		}
	}
}
