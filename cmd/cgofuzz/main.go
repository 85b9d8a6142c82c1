// Command cgofuzz is cgofuzz's command-line tool, built the Go way:
//
//	go install github.com/cgofuzz/cgofuzz/cmd/cgofuzz@VERSION
//
// cgo compiles the tool's C (every file of csrc/'s cli layer and of the
// layers it uses, through the generated zcli_*.c wrappers) into this
// program, whose main hands its arguments to the C main: the same tool a
// CMake build makes, for `go test -exec=cgofuzz`, `cgofuzz fuzz ./...`,
// the corpus tools and the cgo compilers (`cgofuzz cgo-env`). What it
// lacks is what a CMake install puts beside the tool: the C runtime
// library of C targets (`cgofuzz cc`) and the report tools (`cgofuzz
// cover`, `cgofuzz plot`), which say so in one line when asked for. The
// two small pieces `cgofuzz cgo-cc` links into cgo test binaries are
// compiled on first use (cgoobj.go).
package main

/*
#cgo CFLAGS: -std=c11 -D_GNU_SOURCE -I${SRCDIR}/../../include
#cgo CFLAGS: -I${SRCDIR}/../../csrc/cli -I${SRCDIR}/../../csrc/lf
#cgo CFLAGS: -I${SRCDIR}/../../csrc/feedback
#cgo CFLAGS: -I${SRCDIR}/../../csrc/coord -I${SRCDIR}/../../csrc/gobin
#cgo CFLAGS: -I${SRCDIR}/../../csrc/core
#cgo CFLAGS: -I${SRCDIR}/../../csrc/base
#cgo LDFLAGS: -lm -lpthread
#include <stdlib.h>
int cgofuzz_cli_main(int argc, char **argv);
*/
import "C"

import (
	"os"
	"unsafe"
)

//go:generate go run gen_cli.go

func main() {
	prepareCgoObjects(os.Args, os.Stderr)
	// argv lives in C memory: the C side may keep and permute it.
	argv := (**C.char)(C.calloc(C.size_t(len(os.Args)+1), C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	v := unsafe.Slice(argv, len(os.Args)+1)
	for i, a := range os.Args {
		v[i] = C.CString(a)
	}
	// exit, not os.Exit: C's stdio buffers are flushed and its atexit
	// handlers run, as when main returns in the CMake build.
	C.exit(C.cgofuzz_cli_main(C.int(len(os.Args)), argv))
}
