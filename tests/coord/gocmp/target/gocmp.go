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

// RecordTail returns the byte at 40 of a RIFF-like record: "RIFF", a size
// that with the 8 bytes before it is len(b), and a chunk at 12 whose size
// with its 8-byte header is what follows the first 12 bytes (libwebp's
// WebPMuxCreate checks both so, as upper bounds). A record of 20 to 40
// bytes passes the checks and reads past its end (libwebp's oss-fuzz:9100
// reads a VP8X chunk's 10 bytes so). Its seeds are a 64-byte record, one
// whose size is wrong and one whose chunk's is: a cut of the first takes a
// path a seed took, so no cut is new coverage; only a mutant's trace shows
// the length its size is compared with (plus 8: a field near it is set),
// and only the trace of the candidate that set it shows the chunk's.
func RecordTail(b []byte) byte {
	if len(b) < 20 || string(b[:4]) != "RIFF" {
		return 0
	}
	if int(binary.LittleEndian.Uint32(b[4:]))+8 != len(b) {
		return 0
	}
	if int(binary.LittleEndian.Uint32(b[16:]))+8 != len(b)-12 {
		return 0
	}
	return b[40]
}

// IsClass reports whether b starts with a Java class file's magic and a
// version byte, one && chain of byte comparisons: Go tests the later bytes
// without branches, so no single byte of it is new coverage.
func IsClass(b []byte) bool {
	return len(b) >= 5 && b[0] == 0xca && b[1] == 0xfe && b[2] == 0xba &&
		b[3] == 0xbe && b[4] == 0x41
}

// Dispatch serves a stream of records, each a tag byte, a length byte and
// that many bytes, as a protocol's server does, and switches on the tag. A
// record of tag '0' reads a 4-byte lifetime its length does not promise
// (x/crypto's ssh/agent bug, GO-2025-4135, in small). The seed's tags are
// 'p' and 'z': '0' is no value Go's mutator favours, nor within its byte
// arithmetic of either.
func Dispatch(b []byte) int {
	n := 0
	for len(b) >= 2 {
		tag, l := b[0], int(b[1])
		if len(b) < 2+l {
			break
		}
		body := b[2 : 2+l]
		switch tag {
		case '0':
			n += int(binary.BigEndian.Uint32(body))
		case 'p':
			n++
		case 'z':
			n += l
		}
		b = b[2+l:]
	}
	return n
}
