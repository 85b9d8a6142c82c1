package cgopackage

import "testing"

func FuzzParseRecord(f *testing.F) {
	f.Add([]byte("R\x03abc"))
	f.Add([]byte("S\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRecord(b)
		if err == nil && r.Rest < 0 {
			t.Fatalf("negative rest %d", r.Rest)
		}
	})
}
