package gocmp

import (
	"encoding/binary"
	"testing"
)

func FuzzHooks(f *testing.F) {
	f.Add([]byte("ABCDEFGH"), "hello", int64(5), uint16(0x1234), uint32(0x11223344), uint8(0x42))
	f.Fuzz(func(t *testing.T, b []byte, s string, n int64, u16 uint16, u32 uint32, u8 uint8) {
		Hooks(b, s, n, u16, u32, u8)
	})
}

func FuzzLoopKey(f *testing.F) {
	f.Add([]byte("hello, world"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if HasKey(b) {
			panic("gocmp: loop key matched")
		}
	})
}

func FuzzAtoi(f *testing.F) {
	f.Add("len=12")
	f.Fuzz(func(t *testing.T, s string) {
		if Length(s) {
			panic("gocmp: length matched")
		}
	})
}

func FuzzShallow(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 2 && b[1] == 'z' {
			panic("gocmp: shallow bug")
		}
	})
}

func FuzzShortRecord(f *testing.F) {
	record := func(size, chunk uint32, n int) []byte {
		b := make([]byte, n)
		copy(b, "RIFF\x00\x00\x00\x00WEBPVP8X")
		binary.LittleEndian.PutUint32(b[4:], size)
		binary.LittleEndian.PutUint32(b[16:], chunk)
		for i := 20; i < n; i++ {
			b[i] = byte('a' + i%26)
		}
		return b
	}
	f.Add(record(56, 44, 64))
	f.Add(record(1000, 20, 64))
	f.Add(record(56, 1000, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		Sink += int(RecordTail(b))
	})
}

func FuzzUnrolled(f *testing.F) {
	f.Add([]byte("\xca\x00\x00\x00\x00class body"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if IsClass(b) {
			panic("gocmp: unrolled magic matched")
		}
	})
}

func FuzzDispatch(f *testing.F) {
	// Bodies of 0-2 bytes: read as a lifetime, each panics.
	f.Add([]byte("z\x05hello" + "p\x00" + "z\x03abc" + "z\x04wxyz" +
		"z\x06record" + "p\x05fghij" + "z\x0bkeys, names" + "p\x02ok" +
		"z\x10sixteen bytes..." + "p\x01!"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Sink += Dispatch(b)
	})
}
