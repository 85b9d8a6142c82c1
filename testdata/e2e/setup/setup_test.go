package setup

import (
	"os"
	"testing"
)

// FuzzSetup reads a file relative to the package directory before
// f.Fuzz, as image/png's FuzzDecode does: discovery must run there.
func FuzzSetup(f *testing.F) {
	b, err := os.ReadFile("testdata/setup.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("second seed"))
	f.Fuzz(func(t *testing.T, in []byte) {
		if string(in) == "boom" {
			t.Fatal("boom from testdata")
		}
	})
}

// FuzzNoSeed has no seeds: fuzzing starts from the zero values.
func FuzzNoSeed(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		if len(s) > 1 && s[0] == 'Q' && s[1] == 'Z' {
			t.Fatal("QZ")
		}
	})
}
