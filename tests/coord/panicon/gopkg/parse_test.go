package panicon

import "testing"

func FuzzParse(f *testing.F) {
	f.Add([]byte("V1x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Parse(b)
	})
}
