package focus

import "testing"

func FuzzRecord(f *testing.F) {
	f.Add([]byte("abc 123"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Score(b)
		Check(b)
	})
}
