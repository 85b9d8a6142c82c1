package gofuzzertest

import (
	"sync"
	"testing"
	"time"
)

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

// slowOnce: FuzzSlow sleeps on its first "SLOW" of a process only, so a
// run that meets the input again and again (the code's constant is in the
// dictionary) does not pay 1.2 s each time.
var slowOnce sync.Once

// FuzzSlow sleeps 1.2 s on the input "SLOW" (once a process): a slow unit
// for -report_slow_units=1. (In this file, so that the coverage build's
// statement count stays that of the package.)
func FuzzSlow(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if string(data) == "SLOW" {
			slowOnce.Do(func() { time.Sleep(1200 * time.Millisecond) })
		}
	})
}
