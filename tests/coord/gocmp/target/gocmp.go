// Package gocmp is the code under test of tests/coord/gocmp: comparisons of every
// kind the compiler instruments under -fuzz, and gates that only the
// operands of a comparison open.
package gocmp

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// Sink keeps the comparisons of Hooks from being optimized away.
var Sink int

// Hooks makes one comparison of each kind Go's -fuzz instrumentation
// reports: constant and variable integer comparisons of 1, 2, 4 and 8
// bytes, a string comparison and strings.EqualFold.
func Hooks(b []byte, s string, n int64, u16 uint16, u32 uint32, u8 uint8) {
	if u8 == 0xa5 {
		Sink++
	}
	if u16 == 0xbeef {
		Sink++
	}
	if u32 == 0xcafebabe {
		Sink++
	}
	if n == 0x1122334455667788 {
		Sink++
	}
	if len(b) >= 4 && binary.LittleEndian.Uint32(b) == u32 {
		Sink++
	}
	if len(b) >= 2 && b[0] == b[1] {
		Sink++
	}
	if uint16(n) == u16 {
		Sink++
	}
	if int64(u32) == n {
		Sink++
	}
	if s == "open-sesame" {
		Sink++
	}
	if strings.EqualFold(s, "Hello-World") {
		Sink++
	}
}

const key = "Kx7#qZ2m"

// HasKey compares b's first bytes with an 8-byte key, one at a time.
func HasKey(b []byte) bool {
	if len(b) < len(key) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if b[i] != key[i] {
			return false
		}
	}
	return true
}

// Length parses "len=N" and reports whether N is the magic length.
func Length(s string) bool {
	if !strings.HasPrefix(s, "len=") {
		return false
	}
	n, err := strconv.Atoi(s[4:])
	return err == nil && n == 31337
}

// ShortRecord reports whether b is a record ("RIFF" and a 4-byte
// little-endian size equal to b's length) of under 24 bytes. Its seeds are
// a long record and a record whose size is wrong, so an input cut short
// takes a path the second seed took first: no cut is new coverage, and
// only the trace of a mutant shows the size a cut would have to say.
func ShortRecord(b []byte) bool {
	if len(b) < 8 || string(b[:4]) != "RIFF" {
		return false
	}
	if int(binary.LittleEndian.Uint32(b[4:])) != len(b) {
		return false
	}
	return len(b) < 24
}
