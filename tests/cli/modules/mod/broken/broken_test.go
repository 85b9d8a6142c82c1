package broken

import "testing"

func FuzzBroken(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { Broken() })
}
