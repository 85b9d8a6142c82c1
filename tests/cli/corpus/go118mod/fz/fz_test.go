// The same fuzz functions under Go's own testing: `go test -run` replays
// the converted testdata/fuzz files and prints their arguments.
package fz

import (
	"fmt"
	"path"
	"testing"

	"example.com/go118check/args"
)

func FuzzMulti(f *testing.F) {
	f.Fuzz(func(t *testing.T, a []byte, s string, n int, b bool, i8 int8,
		u16 uint16, r rune, u32 uint32, f32 float32, f64 float64,
		u uint, i16 int16, by byte, i64 int64, u64 uint64) {
		fmt.Printf("ARGS %s %s\n", path.Base(t.Name()),
			args.Line(a, s, n, b, i8, u16, r, u32, f32, f64, u, i16, by, i64, u64))
	})
}

func FuzzBytes(f *testing.F) {
	f.Fuzz(func(t *testing.T, a []byte) {
		fmt.Printf("ARGS %s %s\n", path.Base(t.Name()), args.Line(a))
	})
}
