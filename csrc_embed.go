// Package cgofuzz holds the C sources that a cgofuzz installed with `go
// install github.com/cgofuzz/cgofuzz/cmd/cgofuzz@VERSION` compiles on first
// use, with the user's clang, into the four objects `cgofuzz cgo-cc` links
// into cgo test binaries (cmd/cgofuzz/cgoobj.go): a CMake install ships
// them built, as lib/cgofuzz/libcgofuzz_cgo.a and
// libcgofuzz_interceptors.a. The tool itself is compiled by cgo from
// csrc/ (cmd/cgofuzz's zcli_*.c wrappers).
package cgofuzz

import "embed"

// CgoRuntime holds csrc/runtime/cgo/cgo_hooks.c, cgo_stack.c, cgo_loop.c and cgo_mutate.c
// and the headers they include, and csrc/runtime/intercept/interceptors.c.
//
//go:embed csrc/runtime/cgo/cgo_hooks.c csrc/runtime/cgo/cgo_stack.c csrc/runtime/cgo/cgo_loop.c csrc/runtime/cgo/cgo_loop.h csrc/runtime/cgo/cgo_mutate.c csrc/runtime/cgo/cgo_mutate.h csrc/core/gohooks.h csrc/core/bucket.h csrc/core/ctlpage.h csrc/core/exact.h csrc/core/shm.h csrc/base/buf.h csrc/runtime/intercept/interceptors.c
var CgoRuntime embed.FS
