// Package cmpgates is the code under test of bench/cmpgates/cmpgates_bench.py
// (issue 23: comparison feedback for `cgofuzz fuzz`). Each function is one
// way Go code commonly compares its input with a constant; the fuzz targets
// in cmpgates_test.go panic when an input gets through one of them.
//
// Coverage alone gives a fuzzer little or no path through these gates: a
// byte loop shows only how many iterations ran, a string, integer or
// checksum comparison is one branch taken or not. What gets a fuzzer
// through them is seeing the operands (libFuzzer's trace-cmp, Go's
// runtime.libfuzzerTraceCmp* and libfuzzerHook* call sites).
package cmpgates

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strconv"
	"strings"
)

// hdf5Signature starts every HDF5 file.
const hdf5Signature = "\x89HDF\r\n\x1a\n"

// IsHDF5 reports whether b starts with the HDF5 signature, compared one
// byte at a time and stopping at the first difference.
func IsHDF5(b []byte) bool {
	if len(b) < len(hdf5Signature) {
		return false
	}
	for i := 0; i < len(hdf5Signature); i++ {
		if b[i] != hdf5Signature[i] {
			return false
		}
	}
	return true
}

// syncWord is the preamble of a radio frame.
const syncWord = "\xd3\x91Zq\xe7+\x04\xc6"

// PreambleScore counts the bytes of b's first 8 that match the sync word;
// a receiver locks on at a full score.
func PreambleScore(b []byte) int {
	score := 0
	for i, c := range []byte(syncWord) {
		if i < len(b) && b[i] == c {
			score++
		}
	}
	return score
}

// PreambleLocked reports whether the whole sync word matched.
func PreambleLocked(b []byte) bool {
	return PreambleScore(b) == len(syncWord)
}

// Op is a console command.
type Op int

const (
	OpUnknown Op = iota
	OpStatus
	OpRestart
	OpShutdown
	OpSuspend
	OpResume
	OpFlush
	OpCheckpoint
	OpRollback
)

// Command parses a console command in any case.
func Command(s string) Op {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "status":
		return OpStatus
	case "restart":
		return OpRestart
	case "shutdown":
		return OpShutdown
	case "suspend":
		return OpSuspend
	case "resume":
		return OpResume
	case "flush":
		return OpFlush
	case "checkpoint":
		return OpCheckpoint
	case "rollback":
		return OpRollback
	}
	return OpUnknown
}

// ContentEncoding returns the value of a "Content-Encoding: value" header
// line (the name in any case). Lines longer than max are refused when max
// is positive.
func ContentEncoding(line string, max int) (string, bool) {
	if max > 0 && len(line) > max {
		return "", false
	}
	i := strings.IndexByte(line, ':')
	if i < 0 {
		return "", false
	}
	if !strings.EqualFold(strings.TrimSpace(line[:i]), "Content-Encoding") {
		return "", false
	}
	return strings.TrimSpace(line[i+1:]), true
}

// IsPDF17 reports whether data is a PDF 1.7 file.
func IsPDF17(data []byte) bool {
	return bytes.HasPrefix(data, []byte("%PDF-1.7\n"))
}

// ParseLength parses a "len=N" field (N decimal).
func ParseLength(s string) (int, bool) {
	i := strings.IndexByte(s, '=')
	if i < 0 || s[:i] != "len" {
		return 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return 0, false
	}
	return n, true
}

// ParseChunk reads a chunk as PNG lays them out: a big-endian 16-bit
// payload length (at least 4), the payload, and the CRC-32 (IEEE) of the
// payload, big-endian. It returns the payload if the CRC matches.
func ParseChunk(b []byte) ([]byte, bool) {
	if len(b) < 2 {
		return nil, false
	}
	n := int(binary.BigEndian.Uint16(b))
	if n < 4 || len(b) < 2+n+4 {
		return nil, false
	}
	payload := b[2 : 2+n]
	if crc32.ChecksumIEEE(payload) != binary.BigEndian.Uint32(b[2+n:]) {
		return nil, false
	}
	return payload, true
}

// opcodes maps request names to opcodes. With more than 25 entries the
// compiler fills the map from static key and value arrays in the package's
// init function; the lookup's key comparisons run in the runtime, which is
// not instrumented.
var opcodes = map[string]uint8{
	"access": 1, "append": 2, "attach": 3, "chmod": 4, "chown": 5,
	"close": 6, "commit": 7, "create": 8, "detach": 9, "fallocate": 10,
	"flock": 11, "fsync": 12, "getattr": 13, "getxattr": 14, "ioctl": 15,
	"link": 16, "listxattr": 17, "lookup": 18, "mkdir": 19, "mknod": 20,
	"open": 21, "opendir": 22, "read": 23, "readdir": 24, "readlink": 25,
	"release": 26, "rename": 27, "rmdir": 28, "setattr": 29,
	"setxattr": 30, "statfs": 31, "symlink": 32, "truncate": 33,
	"unlink": 34, "write": 35,
}

// Request splits a request "name token" into its opcode (from the name) and
// the 64-bit token that follows the space, little-endian.
func Request(b []byte) (op uint8, token uint64, ok bool) {
	i := bytes.IndexByte(b, ' ')
	if i < 0 || len(b) < i+1+8 {
		return 0, 0, false
	}
	op, ok = opcodes[string(b[:i])]
	if !ok {
		return 0, 0, false
	}
	return op, binary.LittleEndian.Uint64(b[i+1:]), true
}

// AdminToken is the token that grants administrative requests.
const AdminToken = 0x5f3759df8badf00d

// rpcAppID names the application of an RPC frame.
var rpcAppID = []byte("com.acme.rpc")

// IsAcmeRPC reports whether b is a frame of the Acme RPC protocol: a
// 4-byte big-endian length, then the 12-byte application id in any case.
// (bytes.EqualFold is not inlined: its byte comparisons run inside the
// standard library, where bytes.Equal's would be inlined into the caller.)
func IsAcmeRPC(b []byte) bool {
	return len(b) >= 16 && bytes.EqualFold(b[4:16], rpcAppID)
}

// IsWASM reports whether b starts with WebAssembly's magic and version 1,
// each byte compared in one && chain, as hand-written format sniffers do
// (the compiler tests the later bytes without branches).
func IsWASM(b []byte) bool {
	return len(b) >= 8 && b[0] == 0 && b[1] == 'a' && b[2] == 's' &&
		b[3] == 'm' && b[4] == 1 && b[5] == 0 && b[6] == 0 && b[7] == 0
}
