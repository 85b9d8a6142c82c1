// Package gofuzzertest is the package tests/cli/compile-go-fuzzer builds with cgofuzz
// compile-go-fuzzer: two fuzz targets with planted crashes that blind
// fuzzing does not reach within the suite's budgets.
package gofuzzertest

import "bytes"

// Check panics on inputs starting with "CRASH".
func Check(data []byte) {
	if bytes.HasPrefix(data, []byte("CRASH")) {
		panic("planted crash in FuzzX")
	}
}

// CheckMulti panics for n == 31337, s == "boom" and two bytes of data.
func CheckMulti(data []byte, n int, s string) {
	if n == 31337 && s == "boom" && len(data) == 2 {
		panic("planted crash in FuzzMulti")
	}
}
