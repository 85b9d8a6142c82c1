// Package goleaks is a parser that starts goroutines: Open leaks one for
// every record that starts with "GL" (its reader waits on a channel no one
// closes), starts one for good the first time a record starts with "O" (a
// janitor, as caches do), and one that ends within milliseconds for a
// record that starts with "T". Only the first is a goroutine leak.
package goleaks

import (
	"sync"
	"time"
)

var janitor sync.Once

// Open reads a record and returns its length.
func Open(b []byte) int {
	if len(b) >= 2 && b[0] == 'G' && b[1] == 'L' {
		done := make(chan struct{})
		go reader(done) // never closed on this path: the leak
	}
	if len(b) >= 1 && b[0] == 'O' {
		janitor.Do(func() {
			go func() {
				for {
					time.Sleep(time.Hour)
				}
			}()
		})
	}
	if len(b) >= 1 && b[0] == 'T' {
		go func() { time.Sleep(5 * time.Millisecond) }()
	}
	return len(b)
}

func reader(done chan struct{}) {
	<-done
}
