package gofuzz

import (
	"math/bits"

	"github.com/cgofuzz/cgofuzz/gofuzz/internal/bridge"
)

// cCounters holds the clang 8-bit counter ranges registered by instrumented C
// code, in registration order. It is filled once, in init, and only read
// afterwards.
var cCounters [][]byte

// cCountersInGo counts the C counters that a CC=cgofuzz-cgo-cc build put
// inside Go's own counter range: Go's fuzzer sees them directly, so they
// are not in cCounters and Cover does not bridge them.
var cCountersInGo int

// CCounters returns the number of C coverage counters the package knows
// about. It is zero unless some C code in the binary was compiled with clang
// and -fsanitize-coverage=inline-8bit-counters (CC=cgofuzz-cgo-cc does
// that with no source change; see the package documentation).
func CCounters() int {
	n := cCountersInGo
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

// bridgeEncode returns the bridge slot for C counter i (counting across all
// registered ranges) with non-zero value v, and how many times bridge.Hit must
// be called on it.
//
// Go's worker rounds each of its counters down to its highest set bit before
// comparing coverage (internal/fuzz SnapshotCoverage), so it tells 8 buckets
// apart per counter: 1, 2-3, 4-7, ... 128-255. The C counter's bucket is
// 2^log2(v) too; it reaches Go in one of two ways:
//
//   - in the slot (default): slot (i*8 + log2(v)) mod bridge.Slots, one call.
//     Each C counter uses 8 slots, so C counters i and i+bridge.Slots/8 share
//     slots.
//   - in the calls (-tags gofuzz_bridge_calls): slot i mod bridge.Slots,
//     called 2^log2(v) times, so the Go counter ends in the same bucket as
//     the C one. 2^k calls is the fewest that reach Go bucket 2^k (k+1 calls
//     does not work: 2 and 3 calls, or 4 to 7, share a bucket), and never
//     more than v. C counters i and i+bridge.Slots share a slot, and their
//     calls add up.
func bridgeEncode(i int, v byte) (slot uint32, calls int) {
	k := uint32(bits.Len8(v) - 1)
	if bucketInCalls {
		return uint32(i) & (bridge.Slots - 1), 1 << k
	}
	return (uint32(i)*8 + k) & (bridge.Slots - 1), 1
}

// FlushCoverage reports the C counters that are non-zero to Go's fuzzer and
// zeroes them.
//
// Each C counter i with value v is mapped to one of a fixed set of Go
// coverage slots, and that slot's Go code is executed once or more (see
// bridgeEncode). Go's fuzzer thus sees a new C edge, or an edge hit a new
// number of times (1, 2-3, 4-7, ... 128-255), as new Go coverage. Slots are
// shared modulo their number (4096), so with many C counters (more than 512
// by default, 4096 with -tags gofuzz_bridge_calls) two edges can share a
// slot.
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
			s, n := bridgeEncode(base+i, v)
			for ; n > 0; n-- {
				bridge.Hit(s)
			}
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
//
// In a binary built with go test -asan, Cover also checks f for memory
// leaks, as libFuzzer's -detect_leaks does: if f allocated more C memory
// than it freed, f runs once more (with LeakSanitizer quiet, so that run's
// memory is not reported) and, if it again allocates more than it frees,
// LeakSanitizer checks the heap; a leak panics with its report, which go
// test records as a failing input. f must therefore be safe to run twice.
// ASAN_OPTIONS=detect_leaks=0 turns the check off.
func Cover(f func()) {
	if leakCheck {
		leakBegin()
	}
	cover(f)
	if leakCheck && leakEnd() {
		checkLeak(f)
	}
}

// cover runs f between ResetCoverage and FlushCoverage (the flush also when
// f panics: the coverage of a failing input is reported too).
func cover(f func()) {
	if len(cCounters) == 0 {
		f()
		return
	}
	ResetCoverage()
	defer FlushCoverage()
	f()
}

// leakCheck is set in init when the binary has LeakSanitizer.
var leakCheck bool

// checkLeak re-runs f, which allocated more than it freed, with
// LeakSanitizer quiet; if it does so again, a leak LeakSanitizer confirms
// is a panic with its report. The re-run's coverage is dropped.
func checkLeak(f func()) {
	leakQuiet(true)
	leakBegin()
	func() {
		defer leakQuiet(false)
		f()
	}()
	suspect := leakEnd()
	if len(cCounters) > 0 {
		ResetCoverage()
	}
	if !suspect {
		return
	}
	if r := leakReport(); r != "" {
		panic("gofuzz: the C code leaked memory (LeakSanitizer; " +
			"ASAN_OPTIONS=detect_leaks=0 turns the check off):\n" + r)
	}
}
