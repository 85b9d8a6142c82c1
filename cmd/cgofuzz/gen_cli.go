//go:build ignore

// gen_cli writes the zcli_*.c files: one per C source of csrc/'s cli layer
// and of the layers it may use (csrc/layers.txt), each a single #include of
// that file, named zcli_<layer>_<file>.c. Run it with "go generate" in this
// directory; TestCLIWrappersCurrent fails until it is run after a source or
// a header changed.
package main

import (
	"fmt"
	"log"

	"github.com/cgofuzz/cgofuzz/internal/csrcwrap"
)

func main() {
	n, err := csrcwrap.CLI.Generate("../..", ".")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("gen_cli: %d wrappers\n", n)
}
