// Package cgofuzzworker declares, in Go, the same fuzz targets as
// ../targets/typed.c. Its test binary is used as a Go coordinator that
// drives the C target's workers (argv[0] set to the C binary), and as a
// Go worker baseline for throughput.
package cgofuzzworker

import (
	"bytes"
	"testing"
)

func FuzzBytes(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.HasPrefix(b, []byte("FUZ")) {
			t.Fatalf("found the bug: %d bytes", len(b))
		}
	})
}

func FuzzPass(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}

func FuzzMulti(f *testing.F) {
	f.Add("s", 1, true, []byte("\x01"), byte(3), 1.5, 'x')
	f.Fuzz(func(t *testing.T, s string, i int, b bool, p []byte, c byte, x float64, r rune) {})
}

func FuzzLibFuzzer(f *testing.F) {
	f.Add([]byte("L"))
	f.Fuzz(func(t *testing.T, b []byte) {})
}
