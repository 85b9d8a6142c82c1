// Package bravo has a planted bug that its fuzz target finds; its target
// reads its seed from a file of its package directory, so it must run
// there.
package bravo

import "strings"

// Parse fails on strings starting with "CAR".
func Parse(s string) bool {
	return !strings.HasPrefix(s, "CAR")
}
