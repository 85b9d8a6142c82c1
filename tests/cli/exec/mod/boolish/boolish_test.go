// Package boolish: a target whose every input is already in its corpus
// (a bool, both seeds given), so Go's coordinator never writes one to its
// cache and go test -exec names the target another way.
package boolish

import "testing"

func FuzzBool(f *testing.F) {
	f.Add(true)
	f.Add(false)
	f.Fuzz(func(t *testing.T, b bool) {})
}
