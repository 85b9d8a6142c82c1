// Package plain is a package with every kind of test go test runs, for
// comparing go test's lines with and without -exec=cgofuzz.
package plain

// Double returns 2*x.
func Double(x int) int { return 2 * x }
