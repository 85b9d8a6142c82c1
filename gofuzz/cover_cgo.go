//go:build cgo

package gofuzz

/*
#cgo CFLAGS: -std=c11 -Wall -Wextra
#include "gofuzz_cov.h"
*/
import "C"

import "unsafe"

func init() {
	n := int(C.gofuzz_cov_nranges())
	for i := 0; i < n; i++ {
		var size C.size_t
		p := C.gofuzz_cov_range(C.int(i), &size)
		if p == nil || size == 0 {
			continue
		}
		// The counters are C globals: they never move and live as long as
		// the process, so a Go slice over them is safe to keep.
		cCounters = append(cCounters, unsafe.Slice((*byte)(p), int(size)))
	}
	cDropped = int(C.gofuzz_cov_dropped())
}
