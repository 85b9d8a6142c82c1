//go:build cgo

package gofuzz

/*
#include <stdlib.h>
#include "gotarget.h"
*/
import "C"

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// FuzzC runs the C fuzz target called name, written with cgofuzz's C API
// (CGOFUZZ_TARGET in a C file of a package linked into the test binary),
// as this Go fuzz test: its seeds become f.Add seeds and its argument types
// the fuzz function's, so the corpus files under testdata/fuzz/<FuzzX> are
// the ones the C target binary reads too.
//
//	// In fuzz_test.go, with the C target in a .c file of the package:
//	func FuzzParse(f *testing.F) { gofuzz.FuzzC(f, "FuzzParse") }
//
// Each input is copied into C memory and the target runs once through cgo,
// inside Cover, so an instrumented target guides Go's fuzzer. A target
// failure (cgofuzz_errorf, cgofuzz_fatalf) fails the Go test with the
// target's log; cgofuzz_skip skips the input. A crash of the C code ends the
// process, which go test's coordinator records as a failure.
//
// With ExecLoopInC, fuzzing workers run the whole loop in C instead.
func FuzzC(f *testing.F, name string, opts ...Option) {
	f.Helper()
	var o cOptions
	o.timeout = -1
	for _, opt := range opts {
		opt(&o)
	}
	ct, err := lookupC(name)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range ct.seeds() {
		f.Add(seed...)
	}
	if o.loopInC && fuzzWorker() {
		timeout := C.int64_t(-1)
		if o.timeout >= 0 {
			timeout = C.int64_t(o.timeout.Nanoseconds())
		}
		// Returns when the coordinator closes the worker's input pipe. A Go
		// worker then returns from f.Fuzz and the binary exits 0; Skip does
		// the same without starting Go's worker (os.Exit(0) would panic
		// under -test.paniconexit0).
		cname := C.CString(f.Name())
		defer C.free(unsafe.Pointer(cname))
		if status := int(C.cgofuzz_go_serve(ct.f, cname, timeout)); status != 0 {
			os.Exit(status)
		}
		f.Skip("exec loop ran in C")
	}
	f.Fuzz(ct.fuzzFunc())
}

// cTarget is a registered C target.
type cTarget struct {
	f     *C.cgofuzz_f
	name  string
	kinds []int
	// args and arena are C memory reused across execs (guarded by
	// execMu): argument records, and the bytes of []byte/string arguments
	// (cgo forbids C memory that holds Go pointers, so the bytes are
	// copied).
	args     *C.cgofuzz_go_arg
	arena    unsafe.Pointer
	arenaCap int
}

var (
	// execMu serializes execs: the C side keeps one test handle per
	// process, whichever target runs.
	execMu sync.Mutex
	// cTargets caches lookups, so running a fuzz test again (-count=N)
	// reuses its C memory.
	cTargetsMu sync.Mutex
	cTargets   = map[string]*cTarget{}
)

// CTargets returns the names of the C targets linked into this binary, in
// registration order.
func CTargets() []string {
	var names []string
	for i := 0; ; i++ {
		n := C.cgofuzz_go_target_name(C.size_t(i))
		if n == nil {
			return names
		}
		names = append(names, C.GoString(n))
	}
}

func lookupC(name string) (*cTarget, error) {
	cTargetsMu.Lock()
	defer cTargetsMu.Unlock()
	if ct := cTargets[name]; ct != nil {
		return ct, nil
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	f := C.cgofuzz_go_target(cname)
	if f == nil {
		return nil, fmt.Errorf("gofuzz.FuzzC: no C target %q is linked into this binary (registered: %s)",
			name, strings.Join(CTargets(), ", "))
	}
	ct := &cTarget{f: f, name: name}
	n := int(C.cgofuzz_go_nargs(f))
	for i := 0; i < n; i++ {
		k := int(C.cgofuzz_go_kind(f, C.size_t(i)))
		if k < 0 || k >= len(cKindTypes) {
			return nil, fmt.Errorf("gofuzz.FuzzC: C target %s: argument %d has unknown kind %d", name, i, k)
		}
		ct.kinds = append(ct.kinds, k)
	}
	ct.args = (*C.cgofuzz_go_arg)(C.calloc(C.size_t(n+1), C.size_t(unsafe.Sizeof(C.cgofuzz_go_arg{}))))
	cTargets[name] = ct
	return ct, nil
}

func (ct *cTarget) argSlice() []C.cgofuzz_go_arg {
	return unsafe.Slice(ct.args, len(ct.kinds))
}

// seeds returns the target's seeds as Go values of its argument types.
func (ct *cTarget) seeds() [][]any {
	execMu.Lock() // ct.args is shared with exec
	defer execMu.Unlock()
	n := int(C.cgofuzz_go_nseeds(ct.f))
	out := make([][]any, 0, n)
	for k := 0; k < n; k++ {
		C.cgofuzz_go_seed(ct.f, C.size_t(k), ct.args)
		args := ct.argSlice()
		vals := make([]any, len(ct.kinds))
		for i, kind := range ct.kinds {
			vals[i] = fromCArg(&args[i], kind).Interface()
		}
		out = append(out, vals)
	}
	return out
}

func fromCArg(a *C.cgofuzz_go_arg, kind int) reflect.Value {
	typ := cKindTypes[kind]
	switch typ.Kind() {
	case reflect.Slice:
		return reflect.ValueOf(C.GoBytes(unsafe.Pointer(a.p), C.int(a.n)))
	case reflect.String:
		return reflect.ValueOf(C.GoStringN((*C.char)(unsafe.Pointer(a.p)), C.int(a.n)))
	case reflect.Bool:
		return reflect.ValueOf(a.i != 0)
	case reflect.Float32, reflect.Float64:
		return reflect.ValueOf(float64(a.f)).Convert(typ)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return reflect.ValueOf(int64(a.i)).Convert(typ)
	default:
		return reflect.ValueOf(uint64(a.u)).Convert(typ)
	}
}

// fuzzFunc builds func(*testing.T, <the target's argument types>) calling
// the C target.
func (ct *cTarget) fuzzFunc() any {
	in := []reflect.Type{reflect.TypeOf((*testing.T)(nil))}
	for _, k := range ct.kinds {
		in = append(in, cKindTypes[k])
	}
	ft := reflect.FuncOf(in, nil, false)
	return reflect.MakeFunc(ft, func(vals []reflect.Value) []reflect.Value {
		t := vals[0].Interface().(*testing.T)
		status, log := ct.exec(vals[1:])
		switch status {
		case 1:
			t.Fatalf("C target %s failed:\n%s", ct.name, strings.TrimSuffix(log, "\n"))
		case 2:
			t.Skip(strings.TrimSuffix(log, "\n"))
		case 3:
			t.Fatalf("C target %s leaked memory (LeakSanitizer; ASAN_OPTIONS=detect_leaks=0 turns the check off):\n%s",
				ct.name, strings.TrimSuffix(log, "\n"))
		default:
			// Go shows a passing test's log only with -test.v; skipping
			// t.Log otherwise saves its caller lookup on every exec.
			if log != "" && testing.Verbose() {
				t.Log(strings.TrimSuffix(log, "\n"))
			}
		}
		return nil
	}).Interface()
}

// exec runs the target once on vals; it returns 0 (pass), 1 (fail), 2
// (skip) or 3 (leaked memory, in a -asan build) and the target's log (for
// 3, LeakSanitizer's report).
func (ct *cTarget) exec(vals []reflect.Value) (int, string) {
	execMu.Lock()
	defer execMu.Unlock()
	need := 0
	for _, v := range vals {
		if k := v.Kind(); k == reflect.Slice || k == reflect.String {
			need += v.Len()
		}
	}
	if need > ct.arenaCap {
		c := need + need/2 + 64
		p := C.realloc(ct.arena, C.size_t(c))
		if p == nil {
			panic("gofuzz: out of C memory for a fuzz input")
		}
		ct.arena, ct.arenaCap = p, c
	}
	arena := unsafe.Slice((*byte)(ct.arena), ct.arenaCap)
	args := ct.argSlice()
	off := 0
	for i, v := range vals {
		a := &args[i]
		switch v.Kind() {
		case reflect.Slice:
			n := copy(arena[off:], v.Bytes())
			a.p, a.n = (*C.uint8_t)(unsafe.Add(ct.arena, off)), C.size_t(n)
			off += n
		case reflect.String:
			n := copy(arena[off:], v.String())
			a.p, a.n = (*C.uint8_t)(unsafe.Add(ct.arena, off)), C.size_t(n)
			off += n
		case reflect.Bool:
			a.i = 0
			if v.Bool() {
				a.i = 1
			}
		case reflect.Float32, reflect.Float64:
			a.f = C.double(v.Float())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			a.i = C.int64_t(v.Int())
		default:
			a.u = C.uint64_t(v.Uint())
		}
	}
	var logp *C.char
	var logn C.size_t
	var status C.int
	// Cover's pairing, without a closure per exec.
	if len(cCounters) > 0 {
		ResetCoverage()
	}
	status = C.cgofuzz_go_exec(ct.f, ct.args, &logp, &logn)
	if len(cCounters) > 0 {
		FlushCoverage()
	}
	log := ""
	if logn > 0 {
		log = C.GoStringN(logp, C.int(logn))
	}
	return int(status), log
}

// cKindNames returns the runtime's Go spelling of every cgofuzz_kind, for
// the test that cKindTypes follows the C enum.
func cKindNames() []string {
	var out []string
	for k := 0; k < int(C.CGOFUZZ_NKINDS); k++ {
		out = append(out, C.GoString(C.cgofuzz_kind_name(C.cgofuzz_kind(k))))
	}
	return out
}
