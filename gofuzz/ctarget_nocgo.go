//go:build !cgo

package gofuzz

import "testing"

// FuzzC needs cgo: without it no C target can be linked, so the test fails
// with that reason.
func FuzzC(f *testing.F, name string, opts ...Option) {
	f.Helper()
	f.Fatalf("gofuzz.FuzzC(%q): C targets need cgo (CGO_ENABLED=1)", name)
}

// CTargets returns nil: without cgo no C target is linked.
func CTargets() []string { return nil }
