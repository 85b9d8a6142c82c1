//go:build extra

package util

import (
	"strings"
	"testing"
)

// FuzzExtra exists only with -tags extra, and fails on "EXTRA".
func FuzzExtra(f *testing.F) {
	f.Add("EXTRO")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, "EXTRA") {
			t.Fatalf("planted bug in util (extra): %q", s)
		}
	})
}
