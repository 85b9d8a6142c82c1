package goleaks

import "testing"

func FuzzOpen(f *testing.F) {
	f.Add([]byte("Gx"))
	f.Add([]byte("O"))
	f.Add([]byte("T"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Open(b)
	})
}

// FuzzNoLeak starts goroutines, none of them leaked.
func FuzzNoLeak(f *testing.F) {
	f.Add([]byte("O"))
	f.Add([]byte("T"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 2 && b[0] == 'G' && b[1] == 'L' {
			return
		}
		Open(b)
	})
}
