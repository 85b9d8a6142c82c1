package bug

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// FuzzNormalize normalizes the input with every form, both in one go
// and incrementally with an Iter.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte("caf\u00e9 re\u0301sume\u0301"))
	f.Add([]byte("\uac00\u1100\u1161\u11a8 \u212b \ufb01"))
	f.Add([]byte("a\u0305\u0316\u0327e\u0301\u0300"))
	f.Add([]byte("plain ASCII text\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, form := range []norm.Form{norm.NFC, norm.NFD, norm.NFKC, norm.NFKD} {
			out := form.Bytes(data)
			var it norm.Iter
			it.Init(form, data)
			var inc []byte
			for !it.Done() {
				inc = append(inc, it.Next()...)
			}
			_, _ = out, inc
		}
	})
}
