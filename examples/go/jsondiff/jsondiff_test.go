package jsondiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cgofuzz/cgofuzz/gofuzz"
)

// seeds are JSON texts, valid or not, for FuzzValid and FuzzPrint; the
// inputs of knownDifferences are added too.
var seeds = []string{
	`{"a":[1,2.5,"x\u00e9\n",true,false,null,{}],"b":{"c":-0.0e-3}}`,
	`[]`, `{}`, `""`, `0`, `-0`, `[-1.5E+10, 1e-7, 123456789012345678901234567890]`,
	` {"k" : "v" , "n":[ 1 ,2 ] } `,
	`"\"\\\/\b\f\n\r\t\u0041\ud83d\ude00"`,
	`[1,]`, `{"a"}`, `{"a":}`, `[01]`, `"abc`, `tru`, `nul`, `- 1`, `1 2`,
}

func addSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// cJSON's deepest nesting (K11 is one more)
	f.Add([]byte(strings.Repeat("[", cjsonMaxDepth) + strings.Repeat("]", cjsonMaxDepth)))
	for _, k := range knownDifferences {
		f.Add([]byte(k.in))
	}
}

// TestKeyLengths checks the tree encoding on keys and strings of every
// length whose first byte matters (a 125-byte key once ended its object).
func TestKeyLengths(t *testing.T) {
	for n := 0; n < 600; n++ {
		k := strings.Repeat("k", n)
		in := fmt.Sprintf(`{%q:[%q,{%q:%d}]}`, k, k, k, n)
		want := map[string]any{k: []any{k, map[string]any{k: float64(n)}}}
		doc, err := Parse([]byte(in))
		if err != nil || !equal(want, doc.Value) || doc.DupKeys {
			t.Fatalf("%d-byte keys: got %s dup=%v (err %v)", n, show(doc.Value), doc.DupKeys, err)
		}
	}
}

// FuzzValid checks that cJSON accepts exactly the inputs encoding/json
// accepts (json.Valid and Unmarshal into an any), and reads the same value
// from them, once the known differences are taken out (known_test.go): the
// Go side is expectC, encoding/json's reading of the input rewritten into
// the strict JSON that cJSON reads it as.
func FuzzValid(f *testing.F) {
	addSeeds(f)
	d := gofuzz.Differ[[]byte, reading]{
		Go:     expectC,
		C:      readC,
		Equal:  sameReading,
		Format: show,
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// The rewrite only undoes cJSON's leniencies: on input that
		// encoding/json accepts as it is, it changes nothing.
		if strict, ok := cjsonLex(in); ok && json.Valid(in) && !bytes.Equal(strict, in) {
			t.Fatalf("cjsonLex changed valid JSON\ninput: %s\n  got: %s", show(in), show(strict))
		}
		d.Check(t, in)
	})
}

// FuzzPrint checks cJSON's writer against encoding/json's reader: whatever
// cJSON accepts, cJSON_PrintUnformatted's text of it must be JSON that
// encoding/json reads as the same value, up to the known differences of
// printing (K12-K14) and K9 (the printer passes invalid UTF-8 through).
func FuzzPrint(f *testing.F) {
	addSeeds(f)
	rd := Reader{Print: true, Map: fixUTF8}
	f.Fuzz(func(t *testing.T, in []byte) {
		var doc Doc
		var err error
		gofuzz.Cover(func() { doc, err = rd.Parse(in) })
		if err == ErrRejected {
			return // FuzzValid's business
		}
		if err != nil {
			t.Fatal(err)
		}
		checkPrinted(t, in, doc)
	})
}

// checkPrinted checks that encoding/json reads cJSON's printed text of doc
// as doc's value.
func checkPrinted(t *testing.T, in []byte, doc Doc) {
	t.Helper()
	got, ok := goRead(doc.Printed) // K14: it may overflow
	if !ok {
		t.Fatalf("encoding/json rejects cJSON's output\ninput: %s\noutput: %s", show(in), show(doc.Printed))
	}
	if want := printed(doc.Value); !equal(got, want) {
		t.Fatalf("encoding/json reads cJSON's output as another value\ninput: %s\noutput: %s\n  cJSON: %s\nprinted: %s\n     Go: %s",
			show(in), show(doc.Printed), show(doc.Value), show(want), show(got))
	}
}

// FuzzRoundTrip builds a value from the fuzz input (gen) and sends it both
// ways: encoding/json writes it and cJSON must read the same value (up to
// K8); cJSON writes what it read and encoding/json must read that back (up
// to K12-K14).
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x07\x02\x01a\x09\x02b\xff\x05\x03\xe2\x80\xa8"))               // {"a":true,"b\xff":"\u2028"}
	f.Add([]byte("\x06\x02\x02\x3f\xd3\x33\x33\x33\x33\x33\x34\x03\x00\x01\x02")) // [0.30000000000000004,0.01]
	f.Add([]byte("\x05\x06a\x00b<>&"))                                            // "a\x00b<>&"
	f.Add([]byte("\x07\x02\x02a\x00\x09\x01a\x00"))                               // {"a\x00":true,"a":null}
	f.Add([]byte("\x02\x7f\xef\xff\xff\xff\xff\xff\xff"))                         // DBL_MAX
	rd := Reader{Print: true}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := gen{b: b}
		v0 := g.value(0)
		text, err := json.Marshal(v0)
		if err != nil {
			t.Fatalf("json.Marshal(%s): %v", show(v0), err)
		}
		// What encoding/json means by its own text: this applies its
		// UTF-8 rule (K9) and orders the keys, as the text does.
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			t.Fatalf("encoding/json cannot read its own output %s: %v", show(text), err)
		}
		var doc Doc
		gofuzz.Cover(func() { doc, err = rd.Parse(text) })
		if err != nil {
			t.Fatalf("cJSON rejects encoding/json's output (%v)\nvalue: %s\n text: %s", err, show(v), show(text))
		}
		if want := normGo(v); !equal(want, doc.Value) {
			t.Fatalf("cJSON reads encoding/json's output as another value\n text: %s\n   Go: %s\ncJSON: %s", show(text), show(want), show(doc.Value))
		}
		checkPrinted(t, text, doc)
	})
}

// gen builds a JSON value from fuzz bytes: every input makes a value, so no
// exec is wasted on text that does not parse. Numbers are any finite float64
// (whose printing K13 and K14 are about) or short decimals; strings are any
// bytes (invalid UTF-8, NUL, HTML characters, U+2028).
type gen struct{ b []byte }

// maxGenDepth keeps generated values within cJSON's nesting limit (K11):
// value(depth) is inside depth arrays and objects.
const maxGenDepth = cjsonMaxDepth

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) bytes(n int) []byte {
	n = min(n, len(g.b))
	s := g.b[:n]
	g.b = g.b[n:]
	return s
}

func (g *gen) value(depth int) any {
	if len(g.b) == 0 {
		return nil
	}
	c := g.byte()
	switch c % 8 {
	case 0:
		return nil
	case 1:
		return c&8 != 0
	case 2:
		var u uint64
		for range 8 {
			u = u<<8 | uint64(g.byte())
		}
		f := math.Float64frombits(u)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			f = math.Float64frombits(u &^ (1 << 62)) // halve the exponent
		}
		return f
	case 3:
		n := int16(g.byte())<<8 | int16(g.byte())
		return float64(n) / math.Pow10(int(g.byte()%8))
	case 4:
		return float64(int64(g.byte())<<8|int64(g.byte())) * math.Pow(2, float64(int8(g.byte())))
	case 5:
		return string(g.bytes(int(g.byte() % 32)))
	case 6:
		n := int(g.byte() % 8)
		if depth >= maxGenDepth {
			return nil
		}
		a := []any{}
		for range n {
			a = append(a, g.value(depth+1))
		}
		return a
	default:
		n := int(g.byte() % 8)
		if depth >= maxGenDepth {
			return nil
		}
		m := map[string]any{}
		for range n {
			k := string(g.bytes(int(g.byte() % 8)))
			m[k] = g.value(depth + 1)
		}
		return m
	}
}

// sameReading reports whether expectC's prediction and cJSON's reading
// agree.
func sameReading(want, got reading) bool {
	if want.Err != nil || got.Err != nil || want.OK != got.OK {
		return false
	}
	return !want.OK || equal(want.Value, got.Value)
}

// show renders inputs, readings and values for failure messages: inputs
// quoted, values as JSON-like text with Go-quoted strings and exact numbers.
func show(v any) string {
	var sb strings.Builder
	switch x := v.(type) {
	case []byte:
		const max = 300
		if len(x) > max {
			return fmt.Sprintf("%+q... (%d bytes)", x[:max], len(x))
		}
		return fmt.Sprintf("%+q", x)
	case reading:
		if x.Err != nil {
			return "error: " + x.Err.Error()
		}
		if !x.OK {
			return "rejected"
		}
		sb.WriteString("accepted: ")
		writeValue(&sb, x.Value)
	default:
		writeValue(&sb, v)
	}
	s := sb.String()
	if len(s) > 600 {
		s = s[:600] + "..."
	}
	return s
}

func writeValue(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		sb.WriteString("null")
	case bool:
		sb.WriteString(strconv.FormatBool(x))
	case float64:
		if x == 0 && math.Signbit(x) {
			sb.WriteString("-0")
		} else {
			sb.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	case string:
		sb.WriteString(strconv.Quote(x))
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteByte(',')
			}
			writeValue(sb, e)
		}
		sb.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		sb.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Quote(k))
			sb.WriteByte(':')
			writeValue(sb, x[k])
		}
		sb.WriteByte('}')
	case oneOf:
		sb.WriteString("oneOf(")
		for i, e := range x {
			if i > 0 {
				sb.WriteString(" | ")
			}
			writeValue(sb, e)
		}
		sb.WriteByte(')')
	default:
		fmt.Fprintf(sb, "%#v", v)
	}
}
