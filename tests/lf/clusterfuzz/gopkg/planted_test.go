package cfplanted

import "testing"

// FuzzPlanted panics (index out of range) on inputs starting with "FUZZ".
func FuzzPlanted(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		Planted(data, true)
	})
}

// FuzzNoBug runs the same branches and never fails.
func FuzzNoBug(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		Planted(data, false)
	})
}
