// Fuzz targets with planted bugs for cgofuzz's end-to-end tests.
package e2e

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
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

// FuzzTwo has two distinct bugs, each reachable with one mutated byte and
// each failing with a message that quotes the input (so only the failure
// site tells repeats apart): -fuzzcontinue must write both, once each.
func FuzzTwo(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'A' {
			t.Fatalf("bug A: %q", b)
		}
		if len(b) > 0 && b[0] == 'B' {
			panic(fmt.Sprintf("bug B: %q", b))
		}
	})
}

// FuzzSlow spends 3 s on its seed, so that a test can interrupt the
// coordinator during the warm-up.
func FuzzSlow(f *testing.F) {
	f.Add([]byte("slow"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if string(b) == "slow" {
			time.Sleep(3 * time.Second)
		}
	})
}

// FuzzNoisy writes megabytes to stdout and stderr and then fails with a
// multi-megabyte message.
func FuzzNoisy(f *testing.F) {
	f.Add([]byte("seed"))
	big := strings.Repeat("noise ", 200000)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'N' {
			os.Stdout.WriteString(big)
			os.Stderr.WriteString(big)
			if len(b) > 1 && b[1] == 'Z' {
				t.Fatalf("noisy failure %s", big)
			}
		}
	})
}

// FuzzSeedFail fails on its own f.Add seed: reported as a seed failure,
// nothing written (test_fuzz_seed_corpus).
func FuzzSeedFail(f *testing.F) {
	f.Add([]byte("bad"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if string(b) == "bad" {
			t.Fatal("bad seed")
		}
	})
}

// TestPlain passes: for -run before fuzzing.
func TestPlain(t *testing.T) {}

// FuzzHang sleeps forever on one input: Go's worker panics after 10 s in
// one exec and exits with status 2, which is recorded as a crasher.
func FuzzHang(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'H' {
			time.Sleep(time.Hour)
		}
	})
}

// FuzzGarbage writes garbage to the worker's response pipe (fd 4), as
// test_fuzz_io_error does: a clear error, no crasher.
func FuzzGarbage(f *testing.F) {
	f.Add([]byte("abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'G' {
			os.NewFile(4, "fuzz_out").WriteString("!!garbage\n")
		}
	})
}
