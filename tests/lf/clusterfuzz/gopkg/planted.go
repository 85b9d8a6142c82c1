// Package cfplanted is the Go fuzz target of tests/lf/clusterfuzz, built into a
// libFuzzer-compatible binary by `cgofuzz compile-go-fuzzer`: the same
// planted bug as tests/lf/clusterfuzz/planted.c, in Go.
//
// An input starting with "FUZZ" indexes one past the end of the input (a
// Go runtime panic: index out of range). The magic is checked one byte at a
// time, so that each byte found is a new edge for coverage-guided fuzzing.
package cfplanted

var sink int

// classify does small, input-dependent work so that inputs that are not
// the magic still differ in coverage (the corpus grows under fuzzing).
func classify(data []byte) {
	if len(data) > 16 {
		sink++
	}
	for i := 0; i < len(data) && i < 8; i++ {
		switch {
		case data[i] < 0x20:
			sink++
		case data[i] < 0x80:
			sink += 2
		default:
			sink += 3
		}
	}
}

// Planted runs data through the magic check; with bug it then reads one
// byte past the end (panics), without it the last byte.
func Planted(data []byte, bug bool) {
	classify(data)
	if len(data) < 4 {
		return
	}
	if data[0] != 'F' {
		return
	}
	if data[1] != 'U' {
		return
	}
	if data[2] != 'Z' {
		return
	}
	if data[3] != 'Z' {
		return
	}
	n := len(data)
	if !bug {
		n--
	}
	sink += int(data[n]) // with bug: index out of range [len] with length len
}
