//go:build cgo

package gofuzz

/*
#cgo CFLAGS: -std=c11 -D_GNU_SOURCE -DCGOFUZZ_RUNTIME -I${SRCDIR}/../include -I${SRCDIR}/../csrc/base -I${SRCDIR}/../csrc/core -I${SRCDIR}/../csrc/runtime
#cgo LDFLAGS: -lpthread
#include "runtime.h"

// Defined by cgofuzz-cgo-cc's link when the C counters already sit inside
// Go's own counter range (docs/gofuzz.md, "C inside Go packages").
extern char cgofuzz_cgo_in_go_range __attribute__((weak));
static int gofuzz_c_in_go_range(void) { return &cgofuzz_cgo_in_go_range != 0; }
*/
import "C"

import (
	"unsafe"

	// The C runtime the preamble's functions come from.
	_ "github.com/cgofuzz/cgofuzz/gofuzz/internal/rt"
)

func init() {
	leakCheck = bool(C.cgofuzz_leak_init_(true))
	// The runtime's coverage.c (compiled into the binary by internal/rt)
	// defines __sanitizer_cov_8bit_counters_init, which
	// clang-instrumented C code calls from constructors before the Go
	// runtime starts; the modules it recorded are read here once.
	inGo := C.gofuzz_c_in_go_range() != 0
	n := int(C.cgofuzz_cov_nmodules_())
	for i := 0; i < n; i++ {
		var size C.size_t
		p := C.cgofuzz_cov_module_(C.size_t(i), &size)
		if p == nil || size == 0 {
			continue
		}
		if inGo {
			// Built with CC=cgofuzz-cgo-cc: Go's fuzzer reads these
			// counters itself, each as its own feature; bridging them
			// (and zeroing them after) would only blur that.
			cCountersInGo += int(size)
			continue
		}
		// The counters are C globals: they never move and live as long as
		// the process, so a Go slice over them is safe to keep.
		cCounters = append(cCounters, unsafe.Slice((*byte)(unsafe.Pointer(p)), int(size)))
	}
}

// leakBegin and leakEnd bracket one run of the C code (leak.c counts its
// mallocs and frees); leakEnd reports whether it allocated more than it
// freed.
func leakBegin()       { C.cgofuzz_leak_begin_() }
func leakEnd() bool    { return bool(C.cgofuzz_leak_end_()) }
func leakQuiet(q bool) { C.cgofuzz_leak_quiet_(C.bool(q)) }

// leakReport asks LeakSanitizer whether memory leaked and returns its report
// ("" when nothing did).
func leakReport() string {
	var b C.cgofuzz_buf
	defer C.cgofuzz_buf_free(&b)
	if !C.cgofuzz_leak_check_report_(&b) {
		return ""
	}
	return C.GoStringN((*C.char)(unsafe.Pointer(b.data)), C.int(b.len))
}
