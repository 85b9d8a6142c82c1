package alpha

import "testing"

func FuzzAlpha(f *testing.F) {
	f.Add([]byte("BUF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Check(b)
	})
}

// FuzzQuiet never fails.
func FuzzQuiet(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = Check(b[:0])
	})
}

func TestCheck(t *testing.T) {
	if Check([]byte("xy")) != 2 {
		t.Fatal("Check")
	}
}
