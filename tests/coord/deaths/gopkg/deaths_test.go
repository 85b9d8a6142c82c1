// Package deaths plants one way for a fuzzing worker process to die per
// input prefix (tests/coord/deaths/test_deaths.py): every input without one of
// these prefixes passes.
package deaths

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var sink [][]byte

func FuzzDeath(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s := string(data)
		switch {
		case strings.HasPrefix(s, "PANIC"):
			// A panic in a goroutine of its own: nothing recovers it.
			done := make(chan bool)
			go func() { panic("planted panic: " + s) }()
			<-done
		case strings.HasPrefix(s, "MAPW"):
			// Concurrent map writes: the runtime's fatal error.
			m := map[int]int{}
			var wg sync.WaitGroup
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					for i := 0; ; i++ {
						m[i%64] = g
					}
				}(g)
			}
			wg.Wait()
		case strings.HasPrefix(s, "DEAD"):
			time.Sleep(time.Hour)
		case strings.HasPrefix(s, "OOM"):
			blowUp()
		case strings.HasPrefix(s, "KILL"):
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		case strings.HasPrefix(s, "EXIT"):
			os.Exit(3)
		}
	})
}

// FuzzOOMOnce blows up on its first input only (a marker file in the
// package's directory): the kernel's OOM killer takes the worker, and the
// same input run again passes, as an input taken while other programs
// filled the memory does.
func FuzzOOMOnce(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		mark, err := os.OpenFile("oom-once.mark", os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return
		}
		mark.Close()
		blowUp()
	})
}

// FuzzMinKill fails on inputs of 64 bytes or more that begin with "BUG".
// Every input that begins with "BUG" takes 30 ms and writes its worker's
// pid to minimizer.pid first, so that minimizing a failing one takes
// seconds and the worker doing it is known.
func FuzzMinKill(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(data, []byte("BUG")) {
			return
		}
		os.WriteFile("minimizer.pid", []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(30 * time.Millisecond)
		if len(data) >= 64 {
			t.Fatalf("planted failure: %d bytes", len(data))
		}
	})
}

// FuzzIdleOOM writes its worker's pid to worker.pid on its first input.
// Once the test has written restart.mark (after the kernel's OOM killer
// took that worker while it was idle), an input run by any other worker
// fails: the run went on with a new worker.
func FuzzIdleOOM(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		me := strconv.Itoa(os.Getpid())
		first, err := os.ReadFile("worker.pid")
		if err != nil {
			os.WriteFile("worker.pid", []byte(me), 0o644)
			return
		}
		if _, err := os.Stat("restart.mark"); err == nil && string(first) != me {
			t.Fatalf("an input run by a new worker")
		}
	})
}

// blowUp allocates 2 GiB, touched, in 1 MiB pieces.
func blowUp() {
	for i := 0; i < 2048; i++ {
		b := make([]byte, 1<<20)
		for j := 0; j < len(b); j += 4096 {
			b[j] = 1
		}
		sink = append(sink, b)
	}
}
