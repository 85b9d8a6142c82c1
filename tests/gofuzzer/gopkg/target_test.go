package gofuzzertest

import "testing"

func FuzzX(f *testing.F) {
	f.Add([]byte("hello"))
	f.Add([]byte{0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		Check(data)
	})
}

func FuzzMulti(f *testing.F) {
	f.Add([]byte("abc"), 7, "seven")
	f.Fuzz(func(t *testing.T, data []byte, n int, s string) {
		CheckMulti(data, n, s)
	})
}

func TestPlain(t *testing.T) {}
