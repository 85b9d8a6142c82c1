package racereplay

import "testing"

func FuzzCount(f *testing.F) {
	f.Add([]byte("ab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Count(b)
	})
}
