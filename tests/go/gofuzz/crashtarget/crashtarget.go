// Package crashtarget holds C targets that crash or leak, for the tests of
// gofuzz.FuzzC in tests/go/gofuzz: a crash inside C code, in a worker whose
// exec loop runs in C or through cgo, must be recorded by go test's
// coordinator with the exact input, and the written file must reproduce
// it; in a go test -asan build, so must a leak, also through gofuzz.Cover.
package crashtarget

// #cgo CFLAGS: -std=c11 -I${SRCDIR}/../../../../include
// #include <stddef.h>
// void crashtarget_leak(const unsigned char *p, size_t n);
import "C"

import (
	"unsafe"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

// Leak runs crash.c's crashtarget_leak on b inside gofuzz.Cover: the C
// code leaks a block on inputs starting with 'L'.
func Leak(b []byte) {
	gofuzz.Cover(func() {
		C.crashtarget_leak((*C.uchar)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b)))
	})
}
