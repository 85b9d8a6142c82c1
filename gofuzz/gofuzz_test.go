package gofuzz

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Fatal messages instead of stopping.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...) }

func (r *recorder) Fatalf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

func TestDiffAgree(t *testing.T) {
	r := &recorder{TB: t}
	double := func(x int) int { return 2 * x }
	Diff(r, 21, double, double)
	if r.msg != "" {
		t.Fatalf("unexpected failure: %s", r.msg)
	}
}

func TestDiffDisagree(t *testing.T) {
	r := &recorder{TB: t}
	Diff(r, []byte("ab\xff"),
		func(b []byte) string { return string(b) },
		func(b []byte) string { return string(b) + "!" })
	for _, want := range []string{"Go and C disagree", `input: []byte("ab\xff")`, `Go: string("ab\xff")`, `C: string("ab\xff!")`} {
		if !strings.Contains(r.msg, want) {
			t.Errorf("message %q lacks %q", r.msg, want)
		}
	}
}

func TestDifferEqualAndFormat(t *testing.T) {
	r := &recorder{TB: t}
	d := Differ[int, int]{
		Go:     func(x int) int { return x },
		C:      func(x int) int { return x + 1 },
		Equal:  func(a, b int) bool { return a/10 == b/10 },
		Format: func(v any) string { return fmt.Sprintf("<%v>", v) },
	}
	d.Check(r, 3)
	if r.msg != "" {
		t.Fatalf("Equal was not used: %s", r.msg)
	}
	d.Check(r, 9)
	if !strings.Contains(r.msg, "Go: <9>") || !strings.Contains(r.msg, "C: <10>") {
		t.Fatalf("Format was not used: %s", r.msg)
	}
}

func TestShowCuts(t *testing.T) {
	got := show([]byte(strings.Repeat("x", 300)), 4)
	if got != `[]byte("xxxx"...) (300 bytes)` {
		t.Fatalf("show = %s", got)
	}
	if got := show([]byte(nil), 0); got != "[]byte(nil)" {
		t.Fatalf("show(nil) = %s", got)
	}
}

func TestFlushCoverage(t *testing.T) {
	saved := cCounters
	defer func() { cCounters = saved }()
	fake := []byte{0, 3, 0, 200}
	cCounters = [][]byte{fake}
	if CCounters() != 4 {
		t.Fatalf("CCounters = %d", CCounters())
	}
	ran := false
	Cover(func() { ran = true; fake[1] = 7 })
	if !ran {
		t.Fatal("Cover did not run f")
	}
	for i, v := range fake {
		if v != 0 {
			t.Fatalf("counter %d = %d after FlushCoverage", i, v)
		}
	}
}
