// Package godict holds the planted bugs of tests/coord/godict: comparisons that
// Go's fuzzer, which has no comparison feedback, cannot get past.
package godict

import "encoding/binary"

// loopKey is compared byte by byte in a loop: coverage sees only how many
// iterations ran (1, 2, 4 or 8 in Go's buckets), never which byte matched.
const loopKey = "Kx7#qZ2m"

// MatchLoop reports whether b starts with loopKey.
func MatchLoop(b []byte) bool {
	if len(b) < len(loopKey) {
		return false
	}
	for i := 0; i < len(loopKey); i++ {
		if b[i] != loopKey[i] {
			return false
		}
	}
	return true
}

// Magic32 is compared as one 32-bit integer.
const Magic32 = 0x7a3c91e5

// MatchMagic reports whether b starts with Magic32, little-endian.
func MatchMagic(b []byte) bool {
	return len(b) >= 4 && binary.LittleEndian.Uint32(b) == Magic32
}

// Classify has more planted constants, for the extraction test: a string
// compared whole, a 64-bit and a 16-bit integer.
func Classify(s string, n uint64, w uint16) int {
	if s == "open-sesame-42" {
		return 1
	}
	if n == 0x1122334455667788 {
		return 2
	}
	if w == 0xbeef {
		return 3
	}
	return 0
}
