// Planted-bug fuzz targets for bench/coord/coord_bench.py: bugs that need a
// chain of coverage-guided steps, so that the time to find them depends on
// how well the coordinator schedules the corpus. Go's fuzzer has no
// comparison feedback: each step needs a mutation that happens to write
// the right byte in the right place, then the new coverage keeps it.
package cgofuzzbench

import "testing"

// FuzzChain: nested comparisons on a 16-byte magic prefix; each byte
// matched is a new edge, so progress is kept one byte at a time. Every
// step adds a corpus entry, so round robin over the corpus spends less
// and less of its time on the deepest entry.
func FuzzChain(f *testing.F) {
	f.Add([]byte("the quick brown fox jumps over the lazy dog"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 16 {
			return
		}
		if b[0] == 'C' {
			if b[1] == 'G' {
				if b[2] == 'O' {
					if b[3] == 'F' {
						if b[4] == 'U' {
							if b[5] == 'Z' {
								if b[6] == 'Z' {
									if b[7] == 'B' {
										if b[8] == 'E' {
											if b[9] == 'N' {
												if b[10] == 'C' {
													if b[11] == 'H' {
														if b[12] == 'M' {
															if b[13] == 'A' {
																if b[14] == 'R' {
																	if b[15] == 'K' {
																		panic("bench: chain found")
																	}
																}
															}
														}
													}
												}
											}
										}
									}
								}
							}
						}
					}
				}
			}
		}
	})
}

// sink keeps the distractor branches from being folded away.
var sink int

// FuzzDistract: the same kind of chain, at an offset given by a length
// field, behind a lot of easy but useless coverage (a switch on each of
// the first bytes' values) that fills the corpus. A scheduler that spends
// its time on entries that recently found new coverage, or that are rare,
// gets through the chain sooner than round robin over the whole corpus.
func FuzzDistract(f *testing.F) {
	f.Add([]byte{4, 0, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'})
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i < len(b) && i < 3; i++ {
			switch b[i] >> 2 { // 64 values per position: distractors
			case 0:
				sink += 1
			case 1:
				sink += 2
			case 2:
				sink += 3
			case 3:
				sink += 4
			case 4:
				sink += 5
			case 5:
				sink += 6
			case 6:
				sink += 7
			case 7:
				sink += 8
			case 8:
				sink += 9
			case 9:
				sink += 10
			case 10:
				sink += 11
			case 11:
				sink += 12
			case 12:
				sink += 13
			case 13:
				sink += 14
			case 14:
				sink += 15
			case 15:
				sink += 16
			}
		}
		if len(b) < 2 {
			return
		}
		off := int(b[0]) & 15
		p := b[2:]
		if off+4 > len(p) {
			return
		}
		p = p[off:]
		if p[0] == 0xB1 {
			if p[1] == 0x6B {
				if p[2] == 0x0C {
					if p[3] == 0xD5 {
						panic("bench: magic after length found")
					}
				}
			}
		}
	})
}

// FuzzStates: a small record parser: a 2-byte header, then records of
// (type, len, payload); the bug needs the records in the order
// type 1 with "h", type 2 with the bytes 0x34 0x12 and type 3 with 0x7F,
// each stage a new state (one byte compared at a time: Go's fuzzer has no
// comparison feedback, so a 16-bit compare would take hours).
func FuzzStates(f *testing.F) {
	f.Add([]byte{'S', 'M', 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 || b[0] != 'S' || b[1] != 'M' {
			return
		}
		state := 0
		p := b[2:]
		for len(p) >= 2 {
			typ, n := p[0], int(p[1])
			if n > len(p)-2 {
				return
			}
			body := p[2 : 2+n]
			p = p[2+n:]
			switch {
			case state == 0 && typ == 1 && n == 1 && body[0] == 'h':
				state = 1
			case state == 1 && typ == 2 && n == 2 && body[0] == 0x34 && body[1] == 0x12:
				state = 2
			case state == 2 && typ == 3 && n == 1 && body[0] == 0x7F:
				panic("bench: state machine reached the end")
			default:
				return
			}
		}
	})
}

// FuzzShortChain: a 5-byte FuzzChain that Go finds in a few seconds; for
// --quick smoke runs only (it exercises the crash path, it is not one of
// the planted-bug targets).
func FuzzShortChain(f *testing.F) {
	f.Add([]byte("hello, world"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= 5 && b[0] == 'Q' {
			if b[1] == 'U' {
				if b[2] == 'I' {
					if b[3] == 'C' {
						if b[4] == 'K' {
							panic("bench: short chain found")
						}
					}
				}
			}
		}
	})
}
