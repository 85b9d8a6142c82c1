package gofuzz

import (
	"flag"
	"reflect"
	"time"
)

// Option changes how FuzzC runs a C target.
type Option func(*cOptions)

type cOptions struct {
	loopInC bool
	timeout time.Duration
}

// ExecLoopInC makes each fuzzing worker process hand its whole exec loop to
// the C runtime: the worker answers go test's coordinator from C (reading
// the input from shared memory, mutating it with Go's mutator reimplemented
// bit for bit, running the target and reading its coverage), with no cgo
// call and no reflection per exec. The coordinator is still go test's own,
// the corpus, crash files and their reproduction are unchanged, and
// regression runs (go test without -fuzz) still call the target through cgo.
//
// Coverage is the C code's only: Go code called by the target is not seen,
// and the C counters are folded into the coordinator's mask size.
func ExecLoopInC() Option { return func(o *cOptions) { o.loopInC = true } }

// ExecTimeout bounds one exec in ExecLoopInC mode (default 10s, Go's
// "deadlocked" limit); the worker then exits and the input is recorded as a
// crasher. Zero disables the limit.
func ExecTimeout(d time.Duration) Option {
	return func(o *cOptions) { o.timeout = d }
}

// cKindTypes maps cgofuzz_kind (include/cgofuzz/value.h) to Go types.
var cKindTypes = []reflect.Type{
	reflect.TypeOf([]byte(nil)), reflect.TypeOf(""), reflect.TypeOf(false),
	reflect.TypeOf(int(0)), reflect.TypeOf(int8(0)), reflect.TypeOf(int16(0)),
	reflect.TypeOf(int32(0)), reflect.TypeOf(int64(0)), reflect.TypeOf(uint(0)),
	reflect.TypeOf(uint8(0)), reflect.TypeOf(uint16(0)),
	reflect.TypeOf(uint32(0)), reflect.TypeOf(uint64(0)),
	reflect.TypeOf(float32(0)), reflect.TypeOf(float64(0)),
}

// fuzzWorker reports whether this process is a fuzzing worker started by
// go test's coordinator (-test.fuzzworker).
func fuzzWorker() bool {
	fl := flag.Lookup("test.fuzzworker")
	return fl != nil && fl.Value.String() == "true"
}
