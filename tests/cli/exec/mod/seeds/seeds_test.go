// Package seeds: a seed that fails, among ten, and two t.Parallel tests
// that only pass when they run at the same time: go test -exec keeps the
// user's -parallel for the tests before fuzzing, and still names the
// failing seed as go test does (the seeds reach cgofuzz in f.Add order
// however many workers Go's coordinator starts).
package seeds

import (
	"testing"
	"time"
)

var met = make(chan struct{})

func TestWaits(t *testing.T) {
	t.Parallel()
	select {
	case <-met:
	case <-time.After(5 * time.Second):
		t.Fatal("TestCloses never ran beside this test")
	}
}

func TestCloses(t *testing.T) { t.Parallel(); close(met) }

func FuzzSeven(f *testing.F) {
	for i := 0; i < 10; i++ {
		f.Add(i)
	}
	f.Fuzz(func(t *testing.T, x int) {
		if x == 7 {
			t.Fatal("seven")
		}
	})
}
