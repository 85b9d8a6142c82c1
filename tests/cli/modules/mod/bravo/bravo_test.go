package bravo

import (
	"os"
	"strings"
	"testing"
)

func FuzzBravo(f *testing.F) {
	// Read from the package directory, as tests may.
	seed, err := os.ReadFile("testdata/seed.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(strings.TrimSpace(string(seed)))
	f.Fuzz(func(t *testing.T, s string) {
		if !Parse(s) {
			t.Fatalf("planted bug in bravo: %q", s)
		}
	})
}
