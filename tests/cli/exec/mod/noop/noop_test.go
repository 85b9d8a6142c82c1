// Package noop has a fuzz target that never calls f.Fuzz: go test -fuzz
// reports it as a failure in the binary's own words.
package noop

import "testing"

func FuzzNoop(f *testing.F) {}
