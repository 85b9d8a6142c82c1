//go:build cgo

package rt

// #cgo CFLAGS: -std=c11 -D_GNU_SOURCE -DCGOFUZZ_RUNTIME -I${SRCDIR}/../../../include -I${SRCDIR}/../../../csrc/base -I${SRCDIR}/../../../csrc/core -I${SRCDIR}/../../../csrc/runtime
// #cgo LDFLAGS: -lpthread
import "C"
