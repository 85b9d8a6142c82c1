package gofuzz

import (
	"math/bits"
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz/internal/bridge"
)

// goCounterAfter simulates n increments of one of Go's coverage counters from
// zero: cmd/compile's edge() (-d=libfuzzer) adds 1, except that 255 becomes 1
// (AFL++'s NeverZero).
func goCounterAfter(n int) byte {
	var c byte
	for ; n > 0; n-- {
		if c == 0xff {
			c = 1
		} else {
			c++
		}
	}
	return c
}

// goBucket is internal/fuzz's SnapshotCoverage rounding: the highest set bit.
func goBucket(c byte) byte {
	if c == 0 {
		return 0
	}
	return 1 << (bits.Len8(c) - 1)
}

// TestBridgeEncodingBuckets proves that, for every C counter value, the Go
// coverage Go's fuzzer records after FlushCoverage's calls (slot, bucket)
// identifies the C counter's own bucket, and that different buckets of one C
// counter are different Go coverage, in the encoding this build uses.
func TestBridgeEncodingBuckets(t *testing.T) {
	for _, i := range []int{0, 1, 7, 511, 512, 4095, 4096, 8638} {
		seen := map[[2]uint32]byte{}
		for v := 1; v <= 255; v++ {
			cBucket := goBucket(byte(v))
			slot, calls := bridgeEncode(i, byte(v))
			if slot >= bridge.Slots {
				t.Fatalf("i=%d v=%d: slot %d out of range", i, v, slot)
			}
			if calls < 1 || calls > v {
				t.Fatalf("i=%d v=%d: %d calls (want 1..v)", i, v, calls)
			}
			g := goBucket(goCounterAfter(calls))
			if bucketInCalls {
				// The slot is the counter's; the Go bucket is the C bucket.
				if slot != uint32(i)%bridge.Slots {
					t.Fatalf("i=%d v=%d: slot %d, want %d", i, v, slot, i%bridge.Slots)
				}
				if g != cBucket {
					t.Fatalf("i=%d v=%d: %d calls give Go bucket %d, C bucket %d",
						i, v, calls, g, cBucket)
				}
			} else if calls != 1 || g != 1 {
				t.Fatalf("i=%d v=%d: %d calls, Go bucket %d (want 1 call)", i, v, calls, g)
			}
			key := [2]uint32{slot, uint32(g)}
			if prev, ok := seen[key]; ok && prev != cBucket {
				t.Fatalf("i=%d: C buckets %d and %d give the same Go coverage %v",
					i, prev, cBucket, key)
			}
			seen[key] = cBucket
		}
		if len(seen) != 8 {
			t.Fatalf("i=%d: %d distinct Go coverage features, want 8", i, len(seen))
		}
	}
}

// TestBridgeEncodingBothModes checks the arithmetic of both encodings,
// whichever one this build uses: the calls encoding puts every C bucket in the
// Go bucket of the same value (2^k calls, k = log2(v) <= 7, stays under Go's
// wrap at 255), and the cheaper k+1 calls would not (2 and 3 calls share Go
// bucket 2).
func TestBridgeEncodingBothModes(t *testing.T) {
	for v := 1; v <= 255; v++ {
		k := bits.Len8(byte(v)) - 1
		if g := goBucket(goCounterAfter(1 << k)); g != goBucket(byte(v)) {
			t.Fatalf("v=%d: 2^%d calls give Go bucket %d", v, k, g)
		}
	}
	if goBucket(goCounterAfter(2)) != goBucket(goCounterAfter(3)) {
		t.Fatal("expected k+1 calls to be ambiguous (2 and 3 calls)")
	}
	// Slot encoding: the 8 buckets of counter i are slots i*8..i*8+7, so
	// counters 512 apart share slots.
	slot := func(i, v int) uint32 { return (uint32(i)*8 + uint32(bits.Len8(byte(v))-1)) % bridge.Slots }
	if slot(3, 200) != slot(3+bridge.Slots/8, 200) || slot(3, 1) == slot(3, 2) {
		t.Fatal("slot encoding arithmetic")
	}
	// Collisions in the calls encoding add up: two C counters sharing a slot
	// with values 1 and 1 look like one counter hit 2 times.
	if goBucket(goCounterAfter(1+1)) != 2 {
		t.Fatal("collision arithmetic")
	}
}

// BenchmarkFlushCoverage times FlushCoverage alone over 8192 fake C counters
// of which 600 are non-zero (libpng-like), all hit once ("v1") or with
// values spread over 1..255 ("spread"), in the encoding of this build
// (-tags gofuzz_bridge_calls for the other one). Outside -fuzz builds the
// bridge's Go counters are not instrumented, so this is the call cost only.
func BenchmarkFlushCoverage(b *testing.B) {
	for _, prof := range []string{"v1", "spread"} {
		b.Run(prof, func(b *testing.B) {
			saved := cCounters
			defer func() { cCounters = saved }()
			buf := make([]byte, 8192)
			vals := make([]byte, len(buf))
			for k := 0; k < 600; k++ {
				i := (k * 13) % len(buf)
				vals[i] = 1
				if prof == "spread" {
					vals[i] = byte(1 + (k*37)%255)
				}
			}
			cCounters = [][]byte{buf}
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				copy(buf, vals)
				FlushCoverage()
			}
		})
	}
}
