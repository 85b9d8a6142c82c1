// Package jsondiff compares Go's encoding/json with cJSON, a JSON parser in C
// (Debian: libcjson-dev), through cgo. The fuzz targets in its tests use
// package gofuzz for the differential checks; the known differences between
// the two parsers are listed, with inputs, in README.md and encoded in
// known_test.go.
package jsondiff

/*
#cgo CFLAGS: -std=c11 -Wall -Wextra -O2
#cgo LDFLAGS: -lcjson
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "jd.h"
*/
import "C"

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

// ErrRejected is returned when cJSON does not accept the input as one JSON
// value (cJSON also fails this way when it runs out of memory).
var ErrRejected = errors.New("jsondiff: cJSON rejected the input")

var (
	errNoMem = errors.New("jsondiff: out of memory")
	errPrint = errors.New("jsondiff: cJSON_PrintUnformatted failed")
)

// Doc is cJSON's reading of a JSON text.
type Doc struct {
	// Value is cJSON's tree with the types encoding/json uses when it
	// unmarshals into an any: map[string]any, []any, string, float64, bool
	// and nil. Empty arrays and objects are non-nil.
	Value any
	// DupKeys is set when an object had the same key twice. cJSON keeps
	// every member; Value keeps the last, as encoding/json does.
	DupKeys bool
	// Printed is cJSON_PrintUnformatted's text of the tree (Reader.Print).
	Printed []byte
}

// Version is the version of the cJSON library in use.
func Version() string { return C.GoString(C.cJSON_Version()) }

// mu serializes calls into cJSON: cJSON_Parse* write a global error state.
var mu sync.Mutex

// Reader parses with cJSON; its fields choose what Parse returns. The zero
// Reader is ready to use.
type Reader struct {
	// Print asks for cJSON_PrintUnformatted's text of the tree in
	// Doc.Printed.
	Print bool
	// Map, if set, is applied to every string and object key of the tree,
	// in input order, as it is converted (duplicate keys are found after
	// Map). A test can use it to apply one of encoding/json's rules to
	// cJSON's strings before keys are merged.
	Map func(string) string
}

// Parse is Reader{}.Parse: cJSON's value of b.
func Parse(b []byte) (Doc, error) { return Reader{}.Parse(b) }

// Parse parses b with cJSON_ParseWithLengthOpts, requiring the whole input
// to be one value (trailing whitespace allowed).
func (rd Reader) Parse(b []byte) (Doc, error) {
	var p *C.uint8_t
	if len(b) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&b[0]))
	}
	var pr C.int
	if rd.Print {
		pr = 1
	}
	var r C.jd_result
	mu.Lock()
	rc := C.jd_parse(p, C.size_t(len(b)), pr, &r)
	mu.Unlock()
	switch rc {
	case C.JD_OK:
	case C.JD_REJECT:
		return Doc{}, ErrRejected
	case C.JD_PRINT:
		return Doc{}, errPrint
	default:
		return Doc{}, errNoMem
	}
	defer C.jd_free(&r)
	// Decode straight from C memory: every string is copied out by
	// string(...), so nothing refers to it after jd_free.
	tree := unsafe.Slice((*byte)(unsafe.Pointer(r.tree)), int(r.tree_len))
	d := decoder{b: tree, mapStr: rd.Map}
	v, err := d.value()
	if err == nil && len(d.b) != 0 {
		err = fmt.Errorf("%d bytes after the value", len(d.b))
	}
	if err != nil {
		return Doc{}, fmt.Errorf("jsondiff: bad tree encoding: %w", err)
	}
	doc := Doc{Value: v, DupKeys: d.dup}
	if rd.Print {
		doc.Printed = C.GoBytes(unsafe.Pointer(r.printed), C.int(C.strlen(r.printed)))
	}
	return doc, nil
}

// decoder reads the encoding written by jd.c's walk.
type decoder struct {
	b      []byte
	dup    bool
	mapStr func(string) string
}

var errShort = errors.New("truncated")

func (d *decoder) tag() (byte, error) {
	if len(d.b) == 0 {
		return 0, errShort
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c, nil
}

// end reads the tag that closes an array or object.
func (d *decoder) end(want byte) error {
	c, err := d.tag()
	if err == nil && c != want {
		err = fmt.Errorf("tag %q where %q ends a container", c, want)
	}
	return err
}

func (d *decoder) str() (string, error) {
	if len(d.b) < 4 {
		return "", errShort
	}
	n := binary.NativeEndian.Uint32(d.b)
	if uint64(len(d.b)-4) < uint64(n) {
		return "", errShort
	}
	s := string(d.b[4 : 4+n])
	d.b = d.b[4+n:]
	if d.mapStr != nil {
		s = d.mapStr(s)
	}
	return s, nil
}

func (d *decoder) value() (any, error) {
	c, err := d.tag()
	if err != nil {
		return nil, err
	}
	switch c {
	case 'n':
		return nil, nil
	case 'f':
		return false, nil
	case 't':
		return true, nil
	case 'd':
		if len(d.b) < 8 {
			return nil, errShort
		}
		f := math.Float64frombits(binary.NativeEndian.Uint64(d.b))
		d.b = d.b[8:]
		return f, nil
	case 's':
		return d.str()
	case '[':
		a := []any{}
		for len(d.b) > 0 && d.b[0] != ']' {
			v, err := d.value()
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, d.end(']')
	case '{':
		m := map[string]any{}
		for len(d.b) > 0 && d.b[0] == 'k' {
			d.b = d.b[1:]
			k, err := d.str()
			if err != nil {
				return nil, err
			}
			v, err := d.value()
			if err != nil {
				return nil, err
			}
			if _, ok := m[k]; ok {
				d.dup = true
			}
			m[k] = v
		}
		return m, d.end('}')
	}
	return nil, fmt.Errorf("unknown tag %q", c)
}
