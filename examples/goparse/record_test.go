package goparse

import "testing"

func TestParseRecord(t *testing.T) {
	got, err := ParseRecord(`name="Ada \"the first\"";id=7`)
	if err != nil || len(got) != 2 || got[0][1] != `Ada "the first"` || got[1][1] != "7" {
		t.Fatalf("ParseRecord = %q, %v", got, err)
	}
}

// FuzzParseRecord checks that parsing never panics and that every key it
// returns is non-empty.
func FuzzParseRecord(f *testing.F) {
	f.Add(`name="Ada \"the first\"";id=7`)
	f.Add(`k=v`)
	f.Fuzz(func(t *testing.T, s string) {
		fields, err := ParseRecord(s)
		if err != nil {
			return
		}
		for _, kv := range fields {
			if kv[0] == "" {
				t.Fatalf("empty key in %q", s)
			}
		}
	})
}
