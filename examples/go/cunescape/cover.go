//go:build gofuzz_cover

package cunescape

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
