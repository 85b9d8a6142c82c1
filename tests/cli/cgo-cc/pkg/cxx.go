package cgopkg

// int cxx_magic(const unsigned char *p, unsigned long n);
import "C"

// CxxMagic is Magic's twin, written in C++ (cxx.cc).
func CxxMagic(b []byte) bool {
	p, n := cbytes(b)
	return C.cxx_magic(p, C.ulong(n)) == 1
}
