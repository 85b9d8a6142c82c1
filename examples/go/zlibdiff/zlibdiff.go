// Package zlibdiff compares Go's hash/crc32, hash/adler32 and compress/flate
// with the system zlib, through cgo. The fuzz targets in its tests use
// package gofuzz for the differential checks. Building it needs zlib's
// headers and library (Debian: zlib1g-dev).
package zlibdiff

/*
#cgo CFLAGS: -std=c11 -Wall -Wextra -O2
#cgo LDFLAGS: -lz
#include <stdlib.h>
#include "zx.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// MaxOutput caps the size of a decompressed stream, in both
// implementations, so that fuzzed inputs cannot exhaust memory.
const MaxOutput = 1 << 20

// ErrTooBig is returned when a stream inflates to more than MaxOutput bytes.
var ErrTooBig = errors.New("zlibdiff: output larger than MaxOutput")

// errZlib is returned when zlib rejects a stream or fails.
var errZlib = errors.New("zlibdiff: zlib error")

// ptr returns a C pointer to b's bytes, or nil for an empty slice.
func ptr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// CRC32 is zlib's crc32_z: the IEEE CRC-32 of b, continuing from crc.
func CRC32(crc uint32, b []byte) uint32 {
	return uint32(C.zx_crc32(C.uint32_t(crc), ptr(b), C.size_t(len(b))))
}

// Adler32 is zlib's adler32_z of b, continuing from adler (1 to start).
func Adler32(adler uint32, b []byte) uint32 {
	return uint32(C.zx_adler32(C.uint32_t(adler), ptr(b), C.size_t(len(b))))
}

// take copies a malloc'd C buffer into Go memory and frees it.
func take(p *C.uint8_t, n C.size_t) []byte {
	defer C.free(unsafe.Pointer(p))
	return C.GoBytes(unsafe.Pointer(p), C.int(n))
}

// result turns a zx_* return code into an error.
func result(rc C.int) error {
	switch rc {
	case C.ZX_OK:
		return nil
	case C.ZX_TOO_BIG:
		return ErrTooBig
	}
	return errZlib
}

// Deflate compresses b into a raw deflate stream (RFC 1951, no zlib header)
// with zlib at the given level (-1 to 9).
func Deflate(b []byte, level int) ([]byte, error) {
	var out *C.uint8_t
	var n C.size_t
	if err := result(C.zx_deflate_raw(ptr(b), C.size_t(len(b)), C.int(level), &out, &n)); err != nil {
		return nil, err
	}
	return take(out, n), nil
}

// Inflate decompresses a raw deflate stream with zlib. Bytes after the final
// block are ignored. It fails with ErrTooBig past MaxOutput bytes.
func Inflate(b []byte) ([]byte, error) {
	var out *C.uint8_t
	var n C.size_t
	if err := result(C.zx_inflate_raw(ptr(b), C.size_t(len(b)), MaxOutput, &out, &n)); err != nil {
		return nil, err
	}
	return take(out, n), nil
}
