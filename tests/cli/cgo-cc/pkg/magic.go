// Package cgopkg is a cgo package as people write them, with nothing of
// cgofuzz in it: its C is fuzzed through CC=cgofuzz-cgo-cc alone
// (tests/cli/cgo-cc/test_cgo.py).
package cgopkg

/*
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// A magic checked one byte per branch: only the C code's own edges lead
// a fuzzer there.
static int magic(const unsigned char *p, size_t n) {
  if (n >= 4 && p[0] == 'F') {
    if (p[1] == 'U') {
      if (p[2] == 'Z') {
        if (p[3] == 'Z') {
          return 1;
        }
      }
    }
  }
  return 0;
}

// A gate no edge leads through: an 8-byte memcmp and a 32-bit constant,
// opened by comparison feedback.
static int gate(const unsigned char *p, size_t n) {
  if (n >= 12 && memcmp(p, "cgofuzz!", 8) == 0) {
    uint32_t v;
    memcpy(&v, p + 8, 4);
    if (v == 0x5eedf00du)
      return 1;
  }
  return 0;
}

// A record parser with a heap overflow: the length byte is trusted.
static int parse_record(const unsigned char *p, size_t n) {
  if (n < 3 || p[0] != 'R' || p[1] != 'C')
    return 0;
  size_t len = p[2];
  char *buf = malloc(8);
  memcpy(buf, p + 3, len < n - 3 ? len : n - 3);
  int r = buf[0];
  free(buf);
  return r;
}

// Counts tags in a table; tag 'Z' has no slot, and count_tag's missing
// check writes through NULL: a plain SIGSEGV, no sanitizer needed. (Out
// of line: inlined, clang would take the NULL path for impossible.)
static int tag_counts[25];
__attribute__((noinline)) static int *tag_slot(unsigned char tag) {
  return tag < 'A' || tag >= 'Z' ? NULL : &tag_counts[tag - 'A'];
}
static int count_tag(const unsigned char *p, size_t n) {
  if (n < 2 || p[0] != 'T' || p[1] < 'A' || p[1] > 'Z')
    return 0;
  return ++*tag_slot(p[1]);
}

// A checksum of an "SM" record that runs one byte past the record's end:
// no malloc is overflowed and nothing crashes; only a red zone after the
// input shows it (Go hands the fuzz function a []byte with room past its
// length).
static int sum_record(const unsigned char *p, size_t n) {
  if (n < 2 || p[0] != 'S' || p[1] != 'M')
    return 0;
  int s = 0;
  for (size_t i = 2; i <= n; i++)
    s += p[i];
  return s;
}
// Copies a "NM" record's name into its slot; the slots were never
// allocated, so the write faults inside libc's memcpy, called from
// copy_name: Go's report of the signal names memcpy's caller only through
// the C frames cgo-cc's runtime adds.
static char *name_slots[4];
__attribute__((noinline)) static int copy_name(const unsigned char *p,
                                               size_t n) {
  if (n < 4 || p[0] != 'N' || p[1] != 'M')
    return 0;
  memcpy(name_slots[p[2] & 3], p + 3, n - 3);
  return 1;
}

// Two C bugs behind one cgo call: a "TZ" tag writes through NULL
// (count_tag), an "AS" record longer than 4 bytes fails an assertion
// (check_rec). Their Go frames are the same.
__attribute__((noinline)) static int check_rec(const unsigned char *p,
                                               size_t n) {
  assert(n < 5);
  return p[n - 1];
}
static int records(const unsigned char *p, size_t n) {
  if (n >= 2 && p[0] == 'A' && p[1] == 'S')
    return check_rec(p, n);
  return count_tag(p, n);
}

// A frame whose header says how long its output is: Go asks frame_size,
// makes a buffer of that size and hands it to decode_frame (the shape of
// zstd's ZSTD_getFrameContentSize before ZSTD_decompress). An output of 64
// bytes or more whose body says "BIG" fails an assertion: a mutant of a
// small frame's header that grows the output gets past the size check only
// in a buffer sized by its own header.
static size_t frame_size(const unsigned char *p, size_t n) {
  return n >= 2 && p[0] == 'F' ? p[1] : 0;
}
static int decode_frame(unsigned char *dst, size_t cap, const unsigned char *p,
                        size_t n) {
  if (n < 2 || p[0] != 'F' || p[1] > cap)
    return -1;
  memset(dst, 0, p[1]);
  if (p[1] >= 64 && n >= 5 && p[2] == 'B') {
    if (p[3] == 'I') {
      if (p[4] == 'G')
        assert(!"big frame");
    }
  }
  return p[1];
}

// Where a tag starts, or NULL: a pointer result, which the cgo loop leaves
// alone (it may be memory the caller frees).
static const unsigned char *find_tag(const unsigned char *p, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    if (p[i] == 'T')
      return p + i;
  return NULL;
}
*/
import "C"

import "unsafe"

func cbytes(b []byte) (*C.uchar, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.uchar)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// Magic reports whether b starts with the magic.
func Magic(b []byte) bool {
	p, n := cbytes(b)
	return C.magic(p, n) == 1
}

// Gate reports whether b opens the gate.
func Gate(b []byte) bool {
	p, n := cbytes(b)
	return C.gate(p, n) == 1
}

// ParseRecord parses one record.
func ParseRecord(b []byte) int {
	p, n := cbytes(b)
	return int(C.parse_record(p, n))
}

// CountTag counts the tag b starts with.
func CountTag(b []byte) int {
	p, n := cbytes(b)
	return int(C.count_tag(p, n))
}

// SumRecord sums an "SM" record.
func SumRecord(b []byte) int {
	p, n := cbytes(b)
	return int(C.sum_record(p, n))
}

// CopyName stores the name of an "NM" record.
func CopyName(b []byte) int {
	p, n := cbytes(b)
	return int(C.copy_name(p, n))
}

// Records reads a tag or an "AS" record.
func Records(b []byte) int {
	p, n := cbytes(b)
	return int(C.records(p, n))
}

// HasTag reports whether b holds a tag.
func HasTag(b []byte) bool {
	p, n := cbytes(b)
	return C.find_tag(p, n) != nil
}

// DecodeFrame decodes a frame into a buffer of the size its header gives.
func DecodeFrame(b []byte) int {
	p, n := cbytes(b)
	size := C.frame_size(p, n)
	if size == 0 {
		size = 1
	}
	dst := make([]byte, size)
	return int(C.decode_frame((*C.uchar)(&dst[0]), size, p, n))
}
