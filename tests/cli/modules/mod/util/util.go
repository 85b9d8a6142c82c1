// Package util has tests but no fuzz targets, and a fuzz target only with
// the "extra" build tag.
package util

// Twice doubles n.
func Twice(n int) int { return 2 * n }
