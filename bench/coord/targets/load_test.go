// Targets for bench/coord/load_bench.py: fuzzing on a machine busier than its
// cores (issue 40).
package cgofuzzbench

import (
	"crypto/sha256"
	"testing"
)

// burn spends about 40-120 ms of CPU (on the 2-core machine this was
// written on), more for some input lengths than for others.
func burn(b []byte) [32]byte {
	n := (4000 + len(b)%8*1000) * 120
	h := sha256.Sum256(b)
	for i := 0; i < n; i++ {
		h = sha256.Sum256(h[:])
	}
	return h
}

// FuzzLoadSlow never fails; every input takes tens of milliseconds of CPU.
func FuzzLoadSlow(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) { burn(b) })
}

// FuzzLoadFast never fails; it is cheap and has a few branches to find.
func FuzzLoadFast(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		for i, c := range b {
			switch {
			case c == 'x' && i%2 == 0:
				n++
			case c > 0x80:
				n += 2
			case c == '{':
				n += 3
			}
		}
		_ = n
	})
}
