package cmpgates

import "testing"

// The planted targets of bench/cmpgates/cmpgates_bench.py, one comparison shape
// each. None of the f.Add seeds gets through its gate; an input that does
// makes the target panic with "cmpgates: <Target> reached".
// bench/cmpgates/known/<Target>/crash is such an input for each.

// FuzzLoopIndex: an 8-byte signature compared byte by byte, stopping at
// the first difference.
func FuzzLoopIndex(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if IsHDF5(b) {
			panic("cmpgates: FuzzLoopIndex reached")
		}
	})
}

// FuzzLoopRange: an 8-byte sync word compared in a range loop that counts
// the matching bytes; the gate is a full count.
func FuzzLoopRange(f *testing.F) {
	f.Add([]byte("\xaa\xaa\xaa\xaa\x00\x10frame payload"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if PreambleLocked(b) {
			panic("cmpgates: FuzzLoopRange reached")
		}
	})
}

// FuzzLowerSwitch: a switch on strings.ToLower of the input.
func FuzzLowerSwitch(f *testing.F) {
	f.Add("status")
	f.Add("Restart")
	f.Fuzz(func(t *testing.T, s string) {
		if Command(s) == OpCheckpoint {
			panic("cmpgates: FuzzLowerSwitch reached")
		}
	})
}

// FuzzEqualFold: strings.EqualFold on a header name split from the line.
func FuzzEqualFold(f *testing.F) {
	f.Add("Content-Type: text/html", 128)
	f.Add("Accept: */*", 0)
	f.Fuzz(func(t *testing.T, line string, max int) {
		if _, ok := ContentEncoding(line, max); ok {
			panic("cmpgates: FuzzEqualFold reached")
		}
	})
}

// FuzzHasPrefix: bytes.HasPrefix with a 9-byte literal.
func FuzzHasPrefix(f *testing.F) {
	f.Add([]byte("%!PS-Adobe-3.0\n%%Pages: 1\n"))
	f.Add([]byte("PK\x03\x04\x14\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if IsPDF17(data) {
			panic("cmpgates: FuzzHasPrefix reached")
		}
	})
}

// FuzzAtoi: a "len=" tag, then a decimal number equal to a constant.
func FuzzAtoi(f *testing.F) {
	f.Add("len=42")
	f.Add("size=100")
	f.Fuzz(func(t *testing.T, s string) {
		if n, ok := ParseLength(s); ok && n == 31337 {
			panic("cmpgates: FuzzAtoi reached")
		}
	})
}

// FuzzChecksum: a length-prefixed chunk whose CRC-32 must match the 32-bit
// word after it.
func FuzzChecksum(f *testing.F) {
	f.Add([]byte("\x00\x05hello\x00\x00\x00\x00"))
	f.Add([]byte("\x00\x08IDATdata\xde\xad\xbe\xef"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, ok := ParseChunk(b); ok {
			panic("cmpgates: FuzzChecksum reached")
		}
	})
}

// FuzzMapMagic: a name looked up in a 35-entry map literal, then a 64-bit
// token equal to a constant.
func FuzzMapMagic(f *testing.F) {
	f.Add([]byte("hello 12345678"))
	f.Add([]byte("ping \x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, token, ok := Request(b); ok && token == AdminToken {
			panic("cmpgates: FuzzMapMagic reached")
		}
	})
}

// FuzzStdCallee: the comparison is made inside bytes.EqualFold (a
// standard-library function the compiler does not inline), on 12 bytes at
// offset 4.
func FuzzStdCallee(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x20org.example.rpc payload"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if IsAcmeRPC(b) {
			panic("cmpgates: FuzzStdCallee reached")
		}
	})
}

// FuzzUnrolled: an 8-byte magic as one && chain of byte comparisons.
func FuzzUnrolled(f *testing.F) {
	f.Add([]byte("\x00elf\x02\x01\x01\x00module body"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if IsWASM(b) {
			panic("cmpgates: FuzzUnrolled reached")
		}
	})
}
