package gofuzz

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Differ compares a Go implementation with a C implementation of the same
// function. The zero value of every field but Go and C is usable.
//
// C is a Go function that calls the C code through the caller's own cgo
// wrapper; package gofuzz cannot call arbitrary C functions itself. Check
// runs C inside Cover, so instrumented C code feeds Go's fuzzer.
type Differ[In, Out any] struct {
	// Go and C are the two implementations. Both are required.
	Go func(In) Out
	C  func(In) Out

	// Equal reports whether two outputs agree. Nil means reflect.DeepEqual.
	Equal func(goOut, cOut Out) bool

	// Format renders an input or output in a failure message. Nil means
	// the package's default: byte slices and strings are quoted (and cut
	// after MaxShown bytes), everything else uses %#v.
	Format func(v any) string

	// MaxShown caps how many bytes of a byte slice or string are shown.
	// Zero means 256.
	MaxShown int
}

// Check runs both implementations on in and fails t with the input and
// both outputs when they disagree.
func (d Differ[In, Out]) Check(t testing.TB, in In) {
	t.Helper()
	if d.Go == nil || d.C == nil {
		t.Fatal("gofuzz.Differ: Go and C must both be set")
	}
	goOut := d.Go(in)
	var cOut Out
	Cover(func() { cOut = d.C(in) })
	var same bool
	if d.Equal != nil {
		same = d.Equal(goOut, cOut)
	} else {
		same = reflect.DeepEqual(goOut, cOut)
	}
	if !same {
		format := d.Format
		if format == nil {
			format = func(v any) string { return show(v, d.MaxShown) }
		}
		t.Fatalf("Go and C disagree\ninput: %s\n   Go: %s\n    C: %s",
			format(in), format(goOut), format(cOut))
	}
}

// Diff runs goFn and cFn on in and fails t, showing the input and both
// outputs, unless the outputs are reflect.DeepEqual. cFn runs inside Cover.
// Use a Differ for a custom comparison or formatting.
func Diff[In, Out any](t testing.TB, in In, goFn, cFn func(In) Out) {
	t.Helper()
	Differ[In, Out]{Go: goFn, C: cFn}.Check(t, in)
}

// show renders v for a failure message.
func show(v any, max int) string {
	if max <= 0 {
		max = 256
	}
	switch x := v.(type) {
	case []byte:
		if x == nil {
			return "[]byte(nil)"
		}
		return showBytes(x, max, "[]byte")
	case string:
		return showBytes([]byte(x), max, "string")
	case error:
		if x == nil {
			return "error(nil)"
		}
		return fmt.Sprintf("error(%q)", x.Error())
	}
	return fmt.Sprintf("%#v", v)
}

// showBytes quotes b, cut after max bytes, and adds its length.
func showBytes(b []byte, max int, kind string) string {
	var sb strings.Builder
	n := len(b)
	cut := n > max
	if cut {
		b = b[:max]
	}
	if utf8.Valid(b) {
		fmt.Fprintf(&sb, "%s(%q", kind, b)
	} else {
		fmt.Fprintf(&sb, "%s(%+q", kind, b)
	}
	if cut {
		sb.WriteString("...")
	}
	sb.WriteString(")")
	if cut {
		fmt.Fprintf(&sb, " (%d bytes)", n)
	}
	return sb.String()
}
