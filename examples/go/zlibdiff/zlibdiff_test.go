package zlibdiff

import (
	"bytes"
	"compress/flate"
	"errors"
	"hash/adler32"
	"hash/crc32"
	"io"
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

// checksumInput is the typed input of the checksum targets: a running value
// and the bytes to add to it.
type checksumInput struct {
	init uint32
	data []byte
}

func FuzzCRC32(f *testing.F) {
	f.Add(uint32(0), []byte(""))
	f.Add(uint32(0), []byte("123456789"))
	f.Add(uint32(0xdeadbeef), bytes.Repeat([]byte{0xff}, 100))
	d := gofuzz.Differ[checksumInput, uint32]{
		Go: func(in checksumInput) uint32 { return crc32.Update(in.init, crc32.IEEETable, in.data) },
		C:  func(in checksumInput) uint32 { return CRC32(in.init, in.data) },
	}
	f.Fuzz(func(t *testing.T, init uint32, data []byte) {
		d.Check(t, checksumInput{init, data})
	})
}

func FuzzAdler32(f *testing.F) {
	f.Add(uint32(1), []byte(""))
	f.Add(uint32(1), []byte("Wikipedia"))
	f.Add(uint32(0xfff0fff0), bytes.Repeat([]byte{0xff}, 6000))
	f.Fuzz(func(t *testing.T, init uint32, data []byte) {
		// hash/adler32 has no Update with an initial value: start it from
		// init through its binary state, which is "adl\x01" + the value.
		goSum := func(b []byte) uint32 {
			h := adler32.New()
			state := append([]byte("adl\x01"), byte(init>>24), byte(init>>16), byte(init>>8), byte(init))
			if err := h.(interface{ UnmarshalBinary([]byte) error }).UnmarshalBinary(state); err != nil {
				t.Fatal(err)
			}
			h.Write(b)
			return h.Sum32()
		}
		if init>>16 >= 65521 || init&0xffff >= 65521 {
			// Not a value adler32 can produce; the two libraries reduce
			// such states differently and neither is wrong.
			t.Skip()
		}
		gofuzz.Diff(t, data, goSum, func(b []byte) uint32 { return Adler32(init, b) })
	})
}

// goDeflate compresses b with compress/flate at level.
func goDeflate(b []byte, level int) ([]byte, error) {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, level)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// goInflate decompresses a raw deflate stream with compress/flate, with the
// same MaxOutput limit as Inflate.
func goInflate(b []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(b))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxOutput+1))
	if err != nil {
		return nil, err
	}
	if len(out) > MaxOutput {
		return nil, ErrTooBig
	}
	return out, nil
}

// levels maps a fuzzed byte to a compression level both libraries accept.
func level(l byte) int { return int(l%11) - 1 }

func FuzzGoDeflateZlibInflate(f *testing.F) {
	f.Add(byte(7), []byte("hello, hello, hello world"))
	f.Add(byte(0), []byte{})
	f.Add(byte(10), bytes.Repeat([]byte("abc"), 1000))
	f.Fuzz(func(t *testing.T, l byte, data []byte) {
		comp, err := goDeflate(data, level(l))
		if err != nil {
			t.Fatal(err)
		}
		gofuzz.Diff(t, comp,
			func([]byte) []byte { return data },
			func(c []byte) []byte {
				out, err := Inflate(c)
				if err != nil {
					return []byte("zlib inflate error: " + err.Error())
				}
				return out
			})
	})
}

func FuzzZlibDeflateGoInflate(f *testing.F) {
	f.Add(byte(7), []byte("hello, hello, hello world"))
	f.Add(byte(0), []byte{})
	f.Add(byte(10), bytes.Repeat([]byte("abc"), 1000))
	f.Fuzz(func(t *testing.T, l byte, data []byte) {
		var comp []byte
		var err error
		gofuzz.Cover(func() { comp, err = Deflate(data, level(l)) })
		if err != nil {
			t.Fatal(err)
		}
		out, err := goInflate(comp)
		if err != nil || !bytes.Equal(out, data) {
			t.Fatalf("compress/flate cannot read zlib's stream: err=%v\ninput: %q\nstream: %x\noutput: %q", err, data, comp, out)
		}
	})
}

// inflateResult is what a decoder made of a stream: the output, or that it
// failed.
type inflateResult struct {
	Out    []byte
	Failed bool
	TooBig bool
}

// inflateEqual reports whether two decoders agree: both failed, or both
// produced the same bytes. A stream that is too big for either is ignored.
func inflateEqual(a, b inflateResult) bool {
	if a.TooBig || b.TooBig {
		return true
	}
	if a.Failed || b.Failed {
		return a.Failed == b.Failed
	}
	return bytes.Equal(a.Out, b.Out)
}

// wrap turns a decoder into one returning an inflateResult.
func wrap(dec func([]byte) ([]byte, error)) func([]byte) inflateResult {
	return func(b []byte) inflateResult {
		out, err := dec(b)
		return inflateResult{Out: out, Failed: err != nil, TooBig: errors.Is(err, ErrTooBig)}
	}
}

func FuzzInflate(f *testing.F) {
	for _, s := range []string{"", "a", "hello, hello, hello world"} {
		comp, err := goDeflate([]byte(s), flate.BestCompression)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(comp)
	}
	f.Add([]byte{0x01, 0x00, 0x00, 0xff, 0xff}) // an empty stored block
	d := gofuzz.Differ[[]byte, inflateResult]{
		Go:    wrap(goInflate),
		C:     wrap(Inflate),
		Equal: inflateEqual,
	}
	f.Fuzz(func(t *testing.T, b []byte) { d.Check(t, b) })
}
