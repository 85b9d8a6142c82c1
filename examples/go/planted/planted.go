// Package planted is a C checksum with a planted bug that only a fuzzer with
// C-side coverage finds quickly. It shows the set-up package gofuzz needs:
// see FuzzSum in planted_test.go and docs/gofuzz.md.
package planted

/*
#cgo CFLAGS: -std=c11 -Wall -Wextra -O1
#include "planted.h"
*/
import "C"

import "unsafe"

// SumC returns the checksum computed by the C code (with the planted bug).
func SumC(b []byte) uint32 {
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&b[0]))
	}
	return uint32(C.planted_sum(p, C.size_t(len(b))))
}

// SumGo is the reference checksum: the byte sum modulo 65521.
func SumGo(b []byte) uint32 {
	var s uint32
	for _, c := range b {
		s = (s + uint32(c)) % 65521
	}
	return s
}
