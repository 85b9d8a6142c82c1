// Package log is a logger whose Error reports a problem and lets the
// caller go on: the kind of call -panic-on turns into a failure.
package log

import (
	"fmt"
	"io"
	"sync"
)

type Logger struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

func New(w io.Writer) *Logger { return &Logger{w: w} }

func (l *Logger) Error(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	fmt.Fprintf(l.w, "ERROR: "+format+"\n", args...)
}

func (l *Logger) Info(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "INFO: "+format+"\n", args...)
}

// Warn only counts: small enough for the compiler to inline into callers.
func (l *Logger) Warn() { l.n++ }
