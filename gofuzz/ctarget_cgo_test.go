//go:build cgo

package gofuzz

import (
	"strings"
	"testing"
)

func TestLookupMissingCTarget(t *testing.T) {
	_, err := lookupC("FuzzNope")
	if err == nil || !strings.Contains(err.Error(), `no C target "FuzzNope"`) {
		t.Fatalf("lookupC(FuzzNope) error = %v", err)
	}
}

func TestKindTypesMatchC(t *testing.T) {
	names := cKindNames()
	if len(names) != len(cKindTypes) {
		t.Fatalf("C has %d kinds, cKindTypes %d", len(names), len(cKindTypes))
	}
	for k, name := range names {
		got := cKindTypes[k].String()
		if got == "[]uint8" {
			got = "[]byte"
		}
		if got != name {
			t.Errorf("kind %d: C says %s, cKindTypes has %s", k, name, got)
		}
	}
}
