// Package rel is the test module of tests/go/releases: the same fuzz targets
// built by each Go release cgofuzz follows. Its cgo half lives here, as
// `import "C"` is not allowed in _test.go files.
package rel

/*
static int rel_check(const unsigned char *p, int n) {
	// A NULL dereference (SIGSEGV in C code) for an input that starts with
	// "SIG" and is not the seed's length.
	if (n != 4 && n >= 3 && p[0] == 'S' && p[1] == 'I' && p[2] == 'G') {
		volatile int *q = (volatile int *)0;
		return *q;
	}
	return n;
}
*/
import "C"

import "unsafe"

// Check passes b to the C code above.
func Check(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return int(C.rel_check((*C.uchar)(unsafe.Pointer(&b[0])), C.int(len(b))))
}
