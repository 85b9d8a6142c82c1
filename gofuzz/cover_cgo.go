//go:build cgo

package gofuzz

/*
#cgo CFLAGS: -std=c11 -D_GNU_SOURCE -I${SRCDIR}/../include -I${SRCDIR}/../csrc/base -I${SRCDIR}/../csrc/core -I${SRCDIR}/../csrc/runtime
#cgo LDFLAGS: -lpthread
#include "runtime.h"
*/
import "C"

import "unsafe"

func init() {
	// The runtime's coverage.c (compiled into this package through
	// zrt_coverage.c) defines __sanitizer_cov_8bit_counters_init, which
	// clang-instrumented C code calls from constructors before the Go
	// runtime starts; the modules it recorded are read here once.
	n := int(C.cgofuzz_cov_nmodules_())
	for i := 0; i < n; i++ {
		var size C.size_t
		p := C.cgofuzz_cov_module_(C.size_t(i), &size)
		if p == nil || size == 0 {
			continue
		}
		// The counters are C globals: they never move and live as long as
		// the process, so a Go slice over them is safe to keep.
		cCounters = append(cCounters, unsafe.Slice((*byte)(unsafe.Pointer(p)), int(size)))
	}
}
