package bug

import (
	"math/big"
	"testing"
)

// FuzzFloatGobDecode decodes the input as the gob encoding of a
// big.Float and re-encodes and re-decodes the value.
func FuzzFloatGobDecode(f *testing.F) {
	f.Add([]byte("\x01\n\x00\x00\x00@\x00\x00\x00\x02\xd0\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("\x01\x13\x00\x00\x00\xc8\x00\x00\x01M\xdbt\x1d\xc2\xf9)\xdb\x04\x85\xda99\xa8\x8fj\x81\xab\x06\xa9\x8d=\xd8\x00[$\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("\x01\b\x00\x00\x005"))
	f.Add([]byte("\x01M\x00\x00\x005"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var x big.Float
		if err := x.GobDecode(data); err != nil {
			return
		}
		enc, err := x.GobEncode()
		if err != nil {
			t.Fatalf("GobEncode: %v", err)
		}
		var y big.Float
		if err := y.GobDecode(enc); err != nil {
			t.Fatalf("GobDecode of GobEncode output: %v", err)
		}
	})
}
