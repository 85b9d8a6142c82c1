// Package fuzzy has a planted bug for go test -fuzz -exec=cgofuzz.
package fuzzy

// Check panics on input that starts with "z".
func Check(s string) int {
	if len(s) > 0 && s[0] == 'z' {
		var m map[string]int
		m[s] = 1 // the planted bug: a write to a nil map
	}
	return len(s)
}
