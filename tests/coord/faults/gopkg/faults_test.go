// Fuzz targets for tests/coord/faults/test_faults.py.
package faults

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func branchy(b []byte) int {
	n := 0
	for i, c := range b {
		switch {
		case c == 'x' && i%2 == 0:
			n++
		case c > 0x80:
			n += 2
		case c == '{':
			n += 3
		}
	}
	return n
}

// FuzzClean never fails; it has a few branches to find.
func FuzzClean(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) { _ = branchy(b) })
}

// FuzzCrash fails on any input starting with 'Z'.
func FuzzCrash(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'Z' {
			panic("crash on Z")
		}
	})
}

func notAllA(b []byte) bool { return len(bytes.Trim(b, "a")) > 0 }

// FuzzMinDie: a mutated long input panics; any shorter candidate the
// minimizer tries that still has a non-'a' byte kills the process with
// SIGKILL (the worker dies during a Minimize call).
func FuzzMinDie(f *testing.F) {
	f.Add(bytes.Repeat([]byte("a"), 100))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !notAllA(b) {
			return
		}
		if len(b) >= 64 {
			panic("long input with a non-a byte")
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	})
}

// FuzzSlowMin: like FuzzMinDie's panic, but every exec of a long input
// takes 2 ms, so minimizing takes long enough to be interrupted.
func FuzzSlowMin(f *testing.F) {
	f.Add(bytes.Repeat([]byte("a"), 300))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 100 && notAllA(b) {
			time.Sleep(2 * time.Millisecond)
			panic("slow crash")
		}
	})
}

// FuzzSlowInputs never fails; every input takes 300 ms, longer than a fuzz
// call's 100 ms, so each call runs one input.
func FuzzSlowInputs(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		time.Sleep(300 * time.Millisecond)
		_ = branchy(b)
	})
}

// FuzzBusyInputs never fails; each input burns 400 ms of the process's
// CPU time (not of the wall clock: on a loaded machine it takes longer).
func FuzzBusyInputs(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cpu := func() time.Duration {
			var ru syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
			return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
		start := cpu()
		for x := 0; cpu()-start < 400*time.Millisecond; x++ {
			_ = branchy(b)
		}
	})
}

// FuzzSlowOnce never fails; the first input longer than 3 bytes it runs
// (with SLOW_ONCE_FLAG naming a file that does not exist yet) takes 4 s
// (SLOW_ONCE_SECONDS), as an input may on a machine busy elsewhere; every other input, that one
// run again included, returns at once.
func FuzzSlowOnce(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		flag := os.Getenv("SLOW_ONCE_FLAG")
		if flag == "" || len(b) <= 3 {
			return
		}
		if _, err := os.Stat(flag); err != nil {
			os.WriteFile(flag, nil, 0o600)
			secs, _ := strconv.Atoi(os.Getenv("SLOW_ONCE_SECONDS"))
			if secs == 0 {
				secs = 4
			}
			time.Sleep(time.Duration(secs) * time.Second)
		}
	})
}

// FuzzSleepy hangs (sleeps an hour) on any input starting with 'H'.
func FuzzSleepy(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'H' {
			time.Sleep(time.Hour)
		}
	})
}

// FuzzSlowStart never fails; with SLOW_START set its body sleeps 2 s
// before f.Fuzz, so that cgofuzz's discovery of its arguments takes that
// long (and so does each worker's start).
func FuzzSlowStart(f *testing.F) {
	if os.Getenv("SLOW_START") != "" {
		time.Sleep(2 * time.Second)
	}
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) { _ = branchy(b) })
}
