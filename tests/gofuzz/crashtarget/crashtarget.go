// Package crashtarget holds C targets that crash, for the tests of
// gofuzz.FuzzC in tests/gofuzz/ctarget_e2e.sh: a crash inside C code, in a
// worker whose exec loop runs in C or through cgo, must be recorded by go
// test's coordinator with the exact input, and the written file must
// reproduce it.
package crashtarget

// #cgo CFLAGS: -std=c11 -I${SRCDIR}/../../../include
import "C"

import _ "github.com/cgofuzz/cgofuzz/gofuzz"
