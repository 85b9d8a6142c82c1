package planted

import (
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

func FuzzSum(f *testing.F) {
	f.Add([]byte("hello"))
	f.Add([]byte("FU"))
	f.Fuzz(func(t *testing.T, b []byte) {
		gofuzz.Diff(t, b, SumGo, SumC)
	})
}
