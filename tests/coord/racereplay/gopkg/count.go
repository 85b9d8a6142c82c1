// Package racereplay counts records, and counts a record that starts
// with 'R' from two goroutines at once without a lock: a data race that
// only the race detector sees (the count is right often enough).
package racereplay

import "sync"

var total int

func Count(b []byte) int {
	if len(b) < 2 {
		return total
	}
	if b[0] == 'R' && b[1] == 'R' {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			total++ // races with the write below
			wg.Done()
		}()
		total++
		wg.Wait()
		return total
	}
	total++
	return total
}
