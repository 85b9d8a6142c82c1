package corpuspkg

import "testing"

func FuzzClassify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		Classify(data, n)
	})
}
