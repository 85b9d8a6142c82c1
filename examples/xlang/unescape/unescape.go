// Package unescape is the Go half of a cross-language example: URL
// percent-decoding implemented twice, here and in C (c/unescape.c), with
// one fuzz target FuzzUnescape of the same name and argument types on both
// sides and one shared corpus, testdata/fuzz/FuzzUnescape. The runner
// xlang/run.py replays the corpus through both and compares the results.
package unescape

import "fmt"

// EscapeError reports a '%' at byte offset Off that is not followed by two
// hexadecimal digits.
type EscapeError struct{ Off int }

func (e *EscapeError) Error() string { return fmt.Sprintf("bad escape at %d", e.Off) }

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Unescape decodes every "%XY" (X, Y hexadecimal digits, either case) in s
// into the byte 0xXY; with plus, '+' decodes to a space, as in a query.
func Unescape(s string, plus bool) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) {
				return nil, &EscapeError{Off: i}
			}
			hi, ok1 := hexVal(s[i+1])
			lo, ok2 := hexVal(s[i+2])
			if !ok1 || !ok2 {
				return nil, &EscapeError{Off: i}
			}
			out = append(out, hi<<4|lo)
			i += 2
		case c == '+' && plus:
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out, nil
}

// Escape encodes every byte of b except unreserved ones (RFC 3986:
// letters, digits, "-._~") as "%XY" with upper-case digits.
func Escape(b []byte) string {
	const digits = "0123456789ABCDEF"
	out := make([]byte, 0, 3*len(b))
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~' {
			out = append(out, c)
			continue
		}
		out = append(out, '%', digits[c>>4], digits[c&15])
	}
	return string(out)
}

// Result is the canonical one-line form of Unescape's result that both
// languages log ("ok [<hex of the bytes>]" or "err <offset>"), so that a
// runner can compare them.
func Result(b []byte, err error) string {
	if err != nil {
		if e, ok := err.(*EscapeError); ok {
			return fmt.Sprintf("err %d", e.Off)
		}
		return "err " + err.Error()
	}
	return fmt.Sprintf("ok [%x]", b)
}
