// Package alpha has a planted bug that its fuzz target finds.
package alpha

import "bytes"

// Check panics on inputs starting with "BUG" (the seed is "BUF").
func Check(b []byte) int {
	if bytes.HasPrefix(b, []byte("BUG")) {
		panic("planted bug in alpha")
	}
	return len(b)
}
