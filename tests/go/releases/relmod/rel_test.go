package rel

import (
	"os"
	"testing"
)

// A panic: any input starting "PA" other than the seed's length.
func FuzzPanic(f *testing.F) {
	f.Add([]byte("PANIC"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 5 && len(b) >= 2 && b[0] == 'P' && b[1] == 'A' {
			panic("planted panic")
		}
	})
}

// A SIGSEGV in cgo (rel.go).
func FuzzCgo(f *testing.F) {
	f.Add([]byte("SIG!"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Check(b)
	})
}

// os.Exit(3) in the fuzz function.
func FuzzExit(f *testing.F) {
	f.Add([]byte("EXIT"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 4 && len(b) >= 2 && b[0] == 'E' && b[1] == 'X' {
			os.Exit(3)
		}
	})
}

// Never fails; its branches give new coverage to fill a cache.
func FuzzOK(f *testing.F) {
	f.Add("seed")
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for i := 0; i < len(s) && i < 4; i++ {
			switch s[i] {
			case 'a':
				n++
			case 'b':
				n += 2
			case 'c':
				n += 3
			default:
				n--
			}
		}
		if n > 5 {
			n = 0
		}
		_ = n
	})
}
