package gofuzz

import "math/bits"

// cCounters holds the clang 8-bit counter ranges registered by instrumented C
// code, in registration order. It is filled once, in init, and only read
// afterwards.
var cCounters [][]byte

// CCounters returns the number of C coverage counters the package knows
// about. It is zero unless some C code in the binary was compiled with clang
// and -fsanitize-coverage=inline-8bit-counters (see the package
// documentation).
func CCounters() int {
	n := 0
	for _, r := range cCounters {
		n += len(r)
	}
	return n
}

// ResetCoverage zeroes the C coverage counters, so that the next
// FlushCoverage reports only what runs after it.
func ResetCoverage() {
	for _, r := range cCounters {
		clear(r)
	}
}

// FlushCoverage reports the C counters that are non-zero to Go's fuzzer and
// zeroes them.
//
// Each C counter i with value v is mapped to one of a fixed set of Go
// coverage slots, chosen from i and the power-of-two bucket of v, and that
// slot's Go code is executed once. Go's fuzzer thus sees a new C edge, or an
// edge hit a new number of times (1, 2-3, 4-7, ... 128-255), as new Go
// coverage. Slots are shared modulo their number (4096), so with more than
// 512 C counters two edges can share a slot.
//
// FlushCoverage must be called on the goroutine running the fuzz function,
// before it returns. Cover does the Reset/Flush pairing for you.
func FlushCoverage() {
	base := 0
	for _, r := range cCounters {
		for i, v := range r {
			if v == 0 {
				continue
			}
			r[i] = 0
			s := uint32(base+i)*8 + uint32(bits.Len8(v)-1)
			bridgeHit(s & (bridgeSlots - 1))
		}
		base += len(r)
	}
}

// Cover runs f, which is expected to call instrumented C code, and reports
// the C coverage of that call to Go's fuzzer. Call it inside the function
// passed to testing.F.Fuzz:
//
//	f.Fuzz(func(t *testing.T, b []byte) {
//		gofuzz.Cover(func() { ok = parseC(b) })
//	})
//
// Without C instrumentation Cover just runs f.
func Cover(f func()) {
	if len(cCounters) == 0 {
		f()
		return
	}
	ResetCoverage()
	defer FlushCoverage()
	f()
}
