//go:build gofuzz_cover

package crashtarget

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
