package godict

import "testing"

// FuzzLoop: an 8-byte string compared byte by byte in a loop.
func FuzzLoop(f *testing.F) {
	f.Add([]byte("hello, fuzzer"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if MatchLoop(b) {
			panic("godict: loop key matched")
		}
	})
}

// FuzzMagic32: a 32-bit magic compared as one integer.
func FuzzMagic32(f *testing.F) {
	f.Add([]byte("seed input"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if MatchMagic(b) {
			panic("godict: magic matched")
		}
	})
}

// FuzzClassify: several argument types and constants; a 64-bit integer
// argument equal to a constant panics.
func FuzzClassify(f *testing.F) {
	f.Add("plain", uint64(1), uint16(2))
	f.Fuzz(func(t *testing.T, s string, n uint64, w uint16) {
		if Classify(s, n, w) == 2 {
			panic("godict: 64-bit constant matched")
		}
	})
}
