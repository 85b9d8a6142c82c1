// Package corpuspkg is the Go fuzz target of tests/cli/corpus: independent
// branches on two arguments, for `cgofuzz corpus merge` to choose between.
package corpuspkg

func Classify(data []byte, n int) int {
	k := 0
	if len(data) > 0 && data[0] == 'a' {
		k++
	}
	if len(data) > 1 && data[1] == 'b' {
		k += 2
	}
	if len(data) > 2 && data[2] == 'c' {
		k += 4
	}
	if n < 0 {
		k += 8
	}
	if n > 1000 {
		k += 16
	}
	return k
}
