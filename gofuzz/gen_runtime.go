//go:build ignore

// gen_runtime writes the zrt_*.c files: one per cgofuzz runtime source that
// package gofuzz compiles (the worker server, the mutator, the codec, the
// target registry and coverage), each a single #include of the file in
// ../csrc/<layer>: the files of the runtime layer and of the layers it may
// use, as csrc/layers.txt says. Run it with "go generate" in this directory.
//
// Go's build cache does not see changes to files included from outside the
// package directory, so each wrapper carries a hash of its source and of
// every runtime header: a change to them changes the wrapper, and
// TestRuntimeWrappersCurrent fails until this generator is run again.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/cgofuzz/cgofuzz/gofuzz/internal/rtsrc"
)

func main() {
	old, _ := filepath.Glob("zrt_*.c")
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			log.Fatal(err)
		}
	}
	files, err := rtsrc.Files("..")
	if err != nil {
		log.Fatal(err)
	}
	for _, src := range files {
		text, err := rtsrc.Wrapper("..", src)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(rtsrc.WrapperName(src), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("gen_runtime: %d wrappers\n", len(files))
}
