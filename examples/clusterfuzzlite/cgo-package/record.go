// Package cgopackage is cgofuzz's ClusterFuzzLite example of a Go package
// with C code: records are checked in Go and decoded in C, and the C part
// has a planted heap buffer overflow for the fuzzer to find.
package cgopackage

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A record is a tag byte, a length byte L and L bytes of payload. The
// payload buffer holds 16 bytes, but L is only checked against the input
// (in Go): a payload longer than 16 bytes overflows it. ASan reports it
// as a heap-buffer-overflow (build with SANITIZER=address).
static int decode_record(const uint8_t *data, size_t n, uint8_t *sum) {
	uint8_t len = data[1];
	uint8_t *payload = malloc(16);
	if (payload == NULL)
		return -1;
	memcpy(payload, data + 2, len); // the planted bug: len may exceed 16
	uint8_t s = 0;
	for (size_t i = 0; i < len && i < 16; i++)
		s += payload[i];
	free(payload);
	*sum = s;
	return (int)(n - 2 - len);
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Record is a decoded record.
type Record struct {
	Tag  byte
	Sum  byte
	Rest int
}

// ParseRecord decodes the record at the start of b.
func ParseRecord(b []byte) (Record, error) {
	if len(b) < 2 {
		return Record{}, errors.New("short record")
	}
	if b[0] != 'R' && b[0] != 'S' {
		return Record{}, errors.New("unknown tag")
	}
	if int(b[1]) > len(b)-2 {
		return Record{}, errors.New("payload runs past the input")
	}
	var sum C.uint8_t
	rest := C.decode_record((*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b)), &sum)
	if rest < 0 {
		return Record{}, errors.New("out of memory")
	}
	return Record{Tag: b[0], Sum: byte(sum), Rest: int(rest)}, nil
}
