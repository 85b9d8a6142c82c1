// Fuzz targets with planted bugs for cgofuzz's end-to-end tests.
package e2e

import (
	"os"
	"runtime"
	"syscall"
	"testing"
)

// FuzzMagic panics on a 4-byte prefix, reachable byte by byte with coverage.
func FuzzMagic(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3 && b[0] == 'F' {
			if b[1] == 'U' {
				if b[2] == 'Z' {
					if b[3] == 'Z' {
						panic("found the magic prefix")
					}
				}
			}
		}
	})
}

// FuzzExit kills the worker with exit status 3.
func FuzzExit(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1 && b[0] == 'X' {
			if b[1] == 'Y' {
				os.Exit(3)
			}
		}
	})
}

// FuzzSegv kills the worker with SIGSEGV.
func FuzzSegv(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1 && b[0] == 'S' {
			if b[1] == 'G' {
				// Thread-directed, so the signal lands before this goroutine
				// can run another input (a process-directed kill may be
				// handled on another thread while fuzzing goes on, and the
				// count in shared memory would then point past this input).
				runtime.LockOSThread()
				syscall.Tgkill(os.Getpid(), syscall.Gettid(), syscall.SIGSEGV)
			}
		}
	})
}

// FuzzMulti takes several kinds of arguments; fails on a combination.
func FuzzMulti(f *testing.F) {
	f.Add([]byte("x"), "s", 1, 'r')
	f.Add([]byte("yy"), "tt", 2, 'q')
	f.Fuzz(func(t *testing.T, b []byte, s string, n int, r rune) {
		if len(s) > 0 && s[0] == 'M' {
			if len(b) > 0 && b[0] == 'Q' {
				t.Fatalf("multi bug: %q %q %d %q", b, s, n, r)
			}
		}
	})
}

// FuzzClean has no bug.
func FuzzClean(f *testing.F) {
	f.Add([]byte("seed"), 7)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		_ = len(b) + n
	})
}
