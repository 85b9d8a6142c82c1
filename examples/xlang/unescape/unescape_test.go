package unescape

import (
	"bytes"
	"testing"
)

// FuzzUnescape has the same name and argument types (string, bool) as the
// C target in c/fuzz_unescape.c; both read testdata/fuzz/FuzzUnescape and
// log the same "xlang-result:" line for xlang/run.py to compare.
func FuzzUnescape(f *testing.F) {
	f.Add("a%20b", false)
	f.Fuzz(func(t *testing.T, s string, plus bool) {
		b, err := Unescape(s, plus)
		t.Logf("xlang-result: %s", Result(b, err))
		if err != nil {
			return
		}
		if len(b) > len(s) {
			t.Fatalf("decoded %d bytes from %d", len(b), len(s))
		}
		again, err := Unescape(Escape(b), false)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("round trip: %q -> %q -> %q (%v)", s, b, again, err)
		}
	})
}
