// Package zinflate is a benchmark target for bench/gofuzz/gofuzz_bench.py: a C
// target (cgofuzz's C API) that inflates its input with zlib, heavier per
// exec than examples/go/cunescape, run by gofuzz.FuzzC per exec through cgo
// and with the exec loop in C.
package zinflate

// #cgo CFLAGS: -std=c11 -I${SRCDIR}/../../../include
// #cgo LDFLAGS: -lz
import "C"

import _ "github.com/cgofuzz/cgofuzz/gofuzz"
