// Command consume runs go-118-fuzz-build's testing.F.Fuzz (the code
// OSS-Fuzz's native Go fuzzers run) on each FILE and prints what the fuzz
// function received: "NAME ARGS", or "NAME not called".
//
//	consume multi|bytes FILE...
package main

import (
	"fmt"
	"os"
	"path/filepath"

	gt "github.com/AdamKorcz/go-118-fuzz-build/testing"

	"example.com/go118check/args"
)

func main() {
	for _, path := range os.Args[2:] {
		data, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		name := filepath.Base(path)
		line := "not called"
		f := &gt.F{Data: data, T: gt.NewT()}
		switch os.Args[1] {
		case "multi":
			f.Fuzz(func(t *gt.T, a []byte, s string, n int, b bool, i8 int8,
				u16 uint16, r rune, u32 uint32, f32 float32, f64 float64,
				u uint, i16 int16, by byte, i64 int64, u64 uint64) {
				line = args.Line(a, s, n, b, i8, u16, r, u32, f32, f64, u, i16, by, i64, u64)
			})
		case "bytes":
			f.Fuzz(func(t *gt.T, a []byte) { line = args.Line(a) })
		}
		fmt.Printf("%s %s\n", name, line)
	}
}
