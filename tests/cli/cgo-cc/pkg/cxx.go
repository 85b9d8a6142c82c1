package cgopkg

// int cxx_magic(const unsigned char *p, unsigned long n);
// int cxx_pairs_of(const unsigned char *p, unsigned long n);
import "C"

// CxxMagic is Magic's twin, written in C++ (cxx.cc).
func CxxMagic(b []byte) bool {
	p, n := cbytes(b)
	return C.cxx_magic(p, C.ulong(n)) == 1
}

// CxxPairs counts the distinct byte pairs of b (cxx2.cc), through the
// template cxx.cc uses too.
func CxxPairs(b []byte) int {
	p, n := cbytes(b)
	return int(C.cxx_pairs_of(p, C.ulong(n)))
}
