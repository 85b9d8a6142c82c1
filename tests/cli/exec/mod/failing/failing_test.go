// Package failing has a failing test: go test -fuzz stops before fuzzing.
package failing

import "testing"

func TestBroken(t *testing.T) { t.Error("broken on purpose") }

func FuzzNever(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}
