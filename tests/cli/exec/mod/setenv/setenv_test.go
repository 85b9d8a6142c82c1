// Package setenv: what a fuzz target's body sets with f.Setenv before
// f.Fuzz reaches the workers, as with go test's own coordinator.
package setenv

import (
	"os"
	"testing"
)

func FuzzSetenv(f *testing.F) {
	f.Setenv("GOEXEC_SETENV", "from the body")
	f.Fuzz(func(t *testing.T, b []byte) {
		if os.Getenv("GOEXEC_SETENV") != "from the body" {
			t.Fatal("the worker did not get the body's environment")
		}
	})
}
