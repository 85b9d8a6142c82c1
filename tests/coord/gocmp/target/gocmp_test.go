package gocmp

import "testing"

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
	long := make([]byte, 300)
	copy(long, "RIFF\x2c\x01\x00\x00")
	for i := 8; i < len(long); i++ {
		long[i] = byte('a' + i%26)
	}
	f.Add(long)
	f.Add([]byte("RIFF\x04\x03\x02\x01 a record whose size is wrong"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if ShortRecord(b) {
			panic("gocmp: short record")
		}
	})
}
