//go:build ignore

// gen_runtime writes the zrt_*.c files: one per cgofuzz runtime source that
// package gofuzz links through this package (the worker server, the
// mutator, the codec, the target registry and coverage), each a single
// #include of the file in ../../../csrc/<layer>: the files of the runtime
// layer and of the layers it may use, as csrc/layers.txt says. Run it with
// "go generate" in this directory.
//
// Go's build cache does not see changes to files included from outside the
// package directory, so each wrapper carries a hash of its source and of
// every runtime header: a change to them changes the wrapper, and
// TestRuntimeWrappersCurrent fails until this generator is run again.
package main

import (
	"fmt"
	"log"

	"github.com/cgofuzz/cgofuzz/internal/csrcwrap"
)

func main() {
	n, err := csrcwrap.Runtime.Generate("../../..", ".")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("gen_runtime: %d wrappers\n", n)
}
