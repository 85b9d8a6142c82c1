package jsondiff

// The known differences between encoding/json (go1.26, GOEXPERIMENT unset)
// and cJSON 1.7.15 (Debian 1.7.15-1+deb12u4), each encoded once, here, as a
// rewrite of the input, a filter or a normalization of one side's value.
// The fuzz targets compare what is left. README.md lists them with inputs;
// TestKnownDifferences checks that each one still holds.
//
// Reading side (FuzzValid):
//   K1  whitespace: cJSON skips every byte <= 0x20 between tokens.
//   K2  BOM: cJSON skips a UTF-8 byte order mark at the start.
//   K3  control characters: cJSON takes raw bytes < 0x20 inside strings.
//   K4  bad \u hex: cJSON reads \u with a non-hex digit as U+0000, and
//       the 4 "digits" may take the backslash of a following escape.
//   K5  numbers: cJSON takes strtod's syntax ("01", "1.", "-.5", "1.e5").
//   K6  overflow: cJSON reads "1e400" as +Inf; Unmarshal into any fails.
//   K7  surrogates: cJSON rejects a \u escape that is not a valid UTF-16
//       pair; encoding/json reads it as U+FFFD.
//   K8  NUL: cJSON's strings end at the first U+0000 (raw or \u0000).
//   K9  invalid UTF-8: cJSON keeps the bytes; encoding/json replaces each
//       bad byte with U+FFFD.
//   K10 duplicate keys: cJSON keeps every member; a Go map keeps the last.
//   K11 nesting: cJSON rejects more than 1000 nested arrays/objects
//       (encoding/json: 10000).
// Printing side (FuzzPrint, FuzzRoundTrip):
//   K12 non-finite numbers: cJSON_Print writes +Inf (from K6) as null.
//   K13 15 digits: cJSON_Print writes a number with %.15g when that reads
//       back within DBL_EPSILON (relative), so it can change the value:
//       0.30000000000000004 is printed 0.3.
//   K14 past DBL_MAX: by the same rule, numbers within 15 digits of
//       DBL_MAX are printed 1.79769313486232e+308, which overflows (K6).

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// cjsonMaxDepth is cJSON's CJSON_NESTING_LIMIT (K11).
const cjsonMaxDepth = 1000

// reading is what a parser made of an input: rejected, or a value. Err is
// a failure of the wrapper itself (never a disagreement to filter).
type reading struct {
	OK    bool
	Value any
	Err   error
}

// expectC predicts cJSON's reading of in from encoding/json's: in is
// rewritten into strict JSON by undoing cJSON's lexical leniencies
// (cjsonLex), read by encoding/json (goRead), and normalized (normGo). What
// is left for cJSON to disagree on is the grammar (brackets, commas, colons,
// literals), escapes, number conversion and nesting.
func expectC(in []byte) reading {
	strict, ok := cjsonLex(in)
	if !ok {
		return reading{}
	}
	v, ok := goRead(strict)
	if !ok {
		return reading{}
	}
	if depth(v) > cjsonMaxDepth { // K11: cJSON's nesting limit is 1000
		return reading{}
	}
	return reading{OK: true, Value: normGo(v)}
}

// readC is cJSON's reading of in, with encoding/json's UTF-8 rule applied to
// its strings (K9) before duplicate keys are merged (K10).
func readC(in []byte) reading {
	doc, err := Reader{Map: fixUTF8}.Parse(in)
	if err == ErrRejected {
		return reading{}
	}
	if err != nil {
		return reading{Err: err}
	}
	return reading{OK: true, Value: doc.Value}
}

var bom = []byte("\xef\xbb\xbf")

// cjsonLex rewrites in, read the way cJSON 1.7.15 reads it, into strict
// JSON with the same meaning: it undoes K1-K5 and nothing else, so that it
// is the identity on valid JSON without bad surrogates (FuzzValid checks
// that). It reports false when cJSON rejects in for a lexical reason: a bad
// string or a number run that strtod does not read whole (these make
// cJSON's parse fail wherever they are), and K7.
func cjsonLex(in []byte) ([]byte, bool) {
	out := make([]byte, 0, len(in)+16)
	i := 0
	// K2: skip_utf8_bom skips a leading BOM if the input has 4+ bytes.
	if len(in) >= 4 && bytes.HasPrefix(in, bom) {
		i = len(bom)
	}
	for i < len(in) {
		c := in[i]
		var ok bool
		switch {
		case c == '"':
			out, i, ok = lexString(out, in, i)
			if !ok {
				return nil, false
			}
		case c == '-' || '0' <= c && c <= '9':
			out, i, ok = lexNumber(out, in, i)
			if !ok {
				return nil, false
			}
		case c <= ' ' && c != ' ' && c != '\t' && c != '\n' && c != '\r':
			// K1: buffer_skip_whitespace skips any byte <= 0x20.
			out = append(out, ' ')
			i++
		default:
			out = append(out, c)
			i++
		}
	}
	return out, true
}

// lexString rewrites the string starting at in[i] (a quote) as parse_string
// reads it, appending to out; it returns the index after the string.
func lexString(out, in []byte, i int) ([]byte, int, bool) {
	// parse_string first finds the end: the first quote not right after a
	// backslash that is itself not escaped.
	end := i + 1
	for end < len(in) && in[end] != '"' {
		if in[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(in) {
		return nil, 0, false
	}
	out = append(out, '"')
	for k := i + 1; k < end; {
		c := in[k]
		if c != '\\' {
			switch {
			case c < ' ':
				// K3 (and K8 for NUL): raw control characters are kept.
				out = append(out, `\u00`...)
				out = append(out, hexDigit[c>>4], hexDigit[c&15])
			case c == '"':
				// K4: a bad \u took the backslash of `\"` as one of
				// its 4 digits, so the quote is read as a character.
				out = append(out, `\"`...)
			default:
				out = append(out, c) // K9: bytes >= 0x80 kept as they are
			}
			k++
			continue
		}
		switch in[k+1] { // k+1 < end: the scan skipped it
		case 'b', 'f', 'n', 'r', 't', '"', '\\', '/':
			out = append(out, in[k:k+2]...)
			k += 2
		case 'u':
			if end-k < 6 {
				return nil, 0, false
			}
			code, hexOK := hex4(in[k+2 : k+6])
			switch {
			case !hexOK:
				// K4: parse_hex4 returns 0 for a non-hex digit.
				out = append(out, `\u0000`...)
				k += 6
			case 0xDC00 <= code && code <= 0xDFFF:
				return nil, 0, false // K7: lone low surrogate
			case 0xD800 <= code && code <= 0xDBFF:
				// K7: a high surrogate needs \u and a low one.
				if end-k < 12 || in[k+6] != '\\' || in[k+7] != 'u' {
					return nil, 0, false
				}
				low, ok := hex4(in[k+8 : k+12])
				if !ok || low < 0xDC00 || low > 0xDFFF {
					return nil, 0, false
				}
				out = append(out, in[k:k+12]...)
				k += 12
			default:
				out = append(out, in[k:k+6]...)
				k += 6
			}
		default:
			return nil, 0, false
		}
	}
	return append(out, '"'), end + 1, true
}

const hexDigit = "0123456789abcdef"

// hex4 reads 4 hex digits.
func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// lexNumber rewrites the number starting at in[i] as parse_number reads it:
// the longest run of [0-9+-.eE], converted by strtod. A run strtod does not
// read whole leaves bytes no value can be followed by, so cJSON rejects it.
func lexNumber(out, in []byte, i int) ([]byte, int, bool) {
	end := i
	for end < len(in) && strings.IndexByte("0123456789+-.eE", in[end]) >= 0 {
		end++
	}
	run := in[i:end]
	digits := func(p int) int {
		for p < len(run) && '0' <= run[p] && run[p] <= '9' {
			p++
		}
		return p
	}
	// K5: strtod's decimal syntax, [-]digits[.digits][(e|E)[+|-]digits]
	// with a digit before or after the point: leading zeros, "1." and
	// "-.5" are fine.
	p := 0
	neg := run[0] == '-'
	if neg {
		p++
	}
	q := digits(p)
	intPart := run[p:q]
	p = q
	var frac []byte
	if p < len(run) && run[p] == '.' {
		q = digits(p + 1)
		frac = run[p+1 : q]
		p = q
	}
	if len(intPart)+len(frac) == 0 {
		return nil, 0, false
	}
	exp := p
	if p < len(run) && (run[p] == 'e' || run[p] == 'E') {
		q = p + 1
		if q < len(run) && (run[q] == '+' || run[q] == '-') {
			q++
		}
		if r := digits(q); r > q {
			p = r
		}
	}
	if p != len(run) {
		return nil, 0, false
	}
	if neg {
		out = append(out, '-')
	}
	intPart = bytes.TrimLeft(intPart, "0")
	if len(intPart) == 0 {
		intPart = []byte("0")
	}
	out = append(out, intPart...)
	if len(frac) > 0 {
		out = append(out, '.')
		out = append(out, frac...)
	}
	return append(out, run[exp:p]...), end, true
}

// goRead is encoding/json's reading of a text: Unmarshal into an any.
func goRead(text []byte) (any, bool) {
	var v any
	err := json.Unmarshal(text, &v)
	if err == nil {
		return v, true
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number") {
		return nil, false
	}
	// K6: a number overflows float64. Unmarshal fails; cJSON's strtod
	// gives ±Inf, which is also what strconv.ParseFloat returns with its
	// range error. Read the numbers that way.
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return withInf(v), true
}

// withInf replaces the json.Numbers of v by float64s, keeping the ±Inf of
// an overflow.
func withInf(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case []any:
		for i := range x {
			x[i] = withInf(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = withInf(x[k])
		}
	}
	return v
}

// depth is the nesting depth of v's arrays and objects.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

// oneOf is a value that normalization made ambiguous: the values of keys
// that became equal. It equals any of them.
type oneOf []any

// normGo is encoding/json's value v as cJSON represents it: strings and keys
// end at the first NUL (K8). Keys that become equal make a oneOf: cJSON
// keeps the last of them in input order (K10), which a Go map has lost.
func normGo(v any) any {
	switch x := v.(type) {
	case string:
		return truncNUL(x)
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = normGo(e)
		}
		return a
	case map[string]any:
		m := make(map[string]any, len(x))
		merged := map[string]bool{}
		for k, e := range x {
			k2, e2 := truncNUL(k), normGo(e)
			old, dup := m[k2]
			switch {
			case !dup:
				m[k2] = e2
			case merged[k2]:
				m[k2] = append(old.(oneOf), e2)
			default:
				m[k2] = oneOf{old, e2}
				merged[k2] = true
			}
		}
		return m
	}
	return v
}

// truncNUL cuts s at its first NUL, where a C string ends (K8).
func truncNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// fixUTF8 replaces each byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does inside strings (K9). (strings.ToValidUTF8
// replaces runs of bad bytes with one U+FFFD: not the same.)
func fixUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// printed is what cJSON_PrintUnformatted writes for the value v of its tree,
// as a reader with correct rounding reads it back.
func printed(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil // K12: print_number writes "null"
		}
		return printedNumber(x)
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = printed(e)
		}
		return a
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = printed(e)
		}
		return m
	}
	return v
}

// printedNumber is print_number's choice (K13, K14): %1.15g if that reads
// back (sscanf) within compare_double's tolerance, else %1.17g, which is
// exact. Go's 'g' with 15 digits and ParseFloat round as glibc does; a
// reading that overflows is ±Inf, as sscanf and goRead give it.
func printedNumber(d float64) float64 {
	test, _ := strconv.ParseFloat(strconv.FormatFloat(d, 'g', 15, 64), 64)
	if compareDouble(test, d) {
		return test
	}
	return d
}

// compareDouble is cJSON's compare_double.
func compareDouble(a, b float64) bool {
	maxVal := math.Max(math.Abs(a), math.Abs(b))
	return math.Abs(a-b) <= maxVal*epsilon
}

// epsilon is C's DBL_EPSILON.
const epsilon = 0x1p-52

// equal reports whether encoding/json's value g and cJSON's value c are the
// same: like reflect.DeepEqual, but numbers are compared bit for bit (so
// -0 is not 0) and g may contain oneOf.
func equal(g, c any) bool {
	switch x := g.(type) {
	case oneOf:
		for _, e := range x {
			if equal(e, c) {
				return true
			}
		}
		return false
	case nil:
		return c == nil
	case bool:
		y, ok := c.(bool)
		return ok && x == y
	case float64:
		y, ok := c.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case string:
		y, ok := c.(string)
		return ok && x == y
	case []any:
		y, ok := c.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := c.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !equal(e, f) {
				return false
			}
		}
		return true
	}
	return false
}

// knownDifferences shows each known difference on one input: what
// encoding/json's Unmarshal into an any makes of it, and what cJSON does.
var knownDifferences = []struct {
	name   string
	in     string
	goOK   bool
	goVal  any
	cOK    bool
	cVal   any
	cDup   bool
	cPrint string // cJSON_PrintUnformatted's text, if it matters
}{
	{name: "K1 whitespace: vertical tab", in: "\v1", cOK: true, cVal: 1.0},
	{name: "K1 whitespace: NUL after the value", in: "[1]\x00", cOK: true, cVal: []any{1.0}},
	{name: "K2 byte order mark", in: "\xef\xbb\xbf{}", cOK: true, cVal: map[string]any{}},
	{name: "K3 raw control character in a string", in: "\"a\tb\"", cOK: true, cVal: "a\tb"},
	{name: "K4 non-hex digit in \\u", in: `"a\uzzzzb"`, cOK: true, cVal: "a"},
	{name: "K5 leading zero", in: "01", cOK: true, cVal: 1.0},
	{name: "K5 point without fraction", in: "1.", cOK: true, cVal: 1.0},
	{name: "K5 point without integer part", in: "-.5", cOK: true, cVal: -0.5},
	{name: "K6 overflow", in: "1e400", cOK: true, cVal: math.Inf(1), cPrint: "null"},
	{name: "K7 lone high surrogate", in: `"\ud800"`, goOK: true, goVal: "\uFFFD"},
	{name: "K7 lone low surrogate", in: `"\udc00x"`, goOK: true, goVal: "\uFFFDx"},
	{name: "K8 escaped NUL", in: `"a\u0000b"`, goOK: true, goVal: "a\x00b", cOK: true, cVal: "a"},
	{name: "K8 keys equal up to a NUL", in: `{"a\u0000x":1,"a":2}`, goOK: true, goVal: map[string]any{"a\x00x": 1.0, "a": 2.0},
		cOK: true, cVal: map[string]any{"a": 2.0}, cDup: true},
	{name: "K9 invalid UTF-8", in: "\"\xff\"", goOK: true, goVal: "\uFFFD", cOK: true, cVal: "\xff"},
	{name: "K10 duplicate key", in: `{"a":1,"a":2}`, goOK: true, goVal: map[string]any{"a": 2.0},
		cOK: true, cVal: map[string]any{"a": 2.0}, cDup: true, cPrint: `{"a":1,"a":2}`},
	{name: "K11 1001 nested arrays", in: strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
		goOK: true, goVal: nested(1001)},
	{name: "K13 15 digits", in: "0.30000000000000004", goOK: true, goVal: 0.30000000000000004,
		cOK: true, cVal: 0.30000000000000004, cPrint: "0.3"},
	{name: "K14 past DBL_MAX", in: "1.7976931348623157e308", goOK: true, goVal: math.MaxFloat64,
		cOK: true, cVal: math.MaxFloat64, cPrint: "1.79769313486232e+308"},
}

// nested is n nested empty arrays.
func nested(n int) any {
	v := []any{}
	for i := 1; i < n; i++ {
		v = []any{v}
	}
	return v
}

// TestKnownDifferences checks that each known difference still holds, on
// the input that shows it, and that the model the fuzz targets use
// (expectC) predicts cJSON's reading of it.
func TestKnownDifferences(t *testing.T) {
	for _, k := range knownDifferences {
		t.Run(k.name, func(t *testing.T) {
			in := []byte(k.in)
			var gv any
			gerr := json.Unmarshal(in, &gv)
			if (gerr == nil) != k.goOK || gerr == nil && !equal(k.goVal, gv) {
				t.Errorf("encoding/json: got %s (err %v), want ok=%v %s", show(gv), gerr, k.goOK, show(k.goVal))
			}
			doc, cerr := Reader{Print: true}.Parse(in)
			if (cerr == nil) != k.cOK || cerr == nil && (!equal(k.cVal, doc.Value) || doc.DupKeys != k.cDup) {
				t.Errorf("cJSON: got %s dup=%v (err %v), want ok=%v %s dup=%v", show(doc.Value), doc.DupKeys, cerr, k.cOK, show(k.cVal), k.cDup)
			}
			if k.cPrint != "" && string(doc.Printed) != k.cPrint {
				t.Errorf("cJSON_PrintUnformatted: got %q, want %q", doc.Printed, k.cPrint)
			}
			if want, got := expectC(in), readC(in); !sameReading(want, got) {
				t.Errorf("model: expected cJSON to give %s, it gave %s", show(want), show(got))
			}
		})
	}
}
