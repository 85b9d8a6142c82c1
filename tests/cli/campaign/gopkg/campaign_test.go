package campaign

import (
	"bytes"
	"testing"
)

// FuzzAlpha never fails.
func FuzzAlpha(f *testing.F) {
	f.Add([]byte("1{2}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Parse(b)
	})
}

// FuzzBravo panics on inputs starting with "BUG" (its seed is "BUF").
func FuzzBravo(f *testing.F) {
	f.Add([]byte("BUF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.HasPrefix(b, []byte("BUG")) {
			panic("planted bug in FuzzBravo")
		}
	})
}

// FuzzCharlie fails on inputs starting with "CAR" (its seed is "CAT").
func FuzzCharlie(f *testing.F) {
	f.Add("CAT")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) >= 3 && s[:3] == "CAR" {
			t.Fatalf("planted bug in FuzzCharlie: %q", s)
		}
	})
}

// FuzzDelta never fails.
func FuzzDelta(f *testing.F) {
	f.Add("x", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n > 0 && len(s) > n {
			Parse([]byte(s[:n]))
		}
	})
}
