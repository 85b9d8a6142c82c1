//go:build gofuzz_cover

package zinflate

// #cgo CFLAGS: -fsanitize-coverage=inline-8bit-counters
import "C"
