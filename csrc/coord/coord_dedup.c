/*
 * coord_dedup.c: the failure site of a worker's error text, the key by
 * which -fuzzcontinue tells distinct failures apart.
 *
 * A Go worker's Err is the captured test output: "--- FAIL" lines, then
 * either "file_test.go:N: message" (t.Error/t.Fatal) or a panic message
 * followed by a goroutine stack in which each frame is a function line and
 * a tab-indented "path/file.go:N +0x.." line. The messages often quote the
 * input, so they cannot be the key; the site can. Frames of the runtime,
 * testing, reflect and internal/fuzz are skipped: the first other frame is
 * the user's code that failed. A C target's worker (cgofuzz fuzz drives
 * those too) reports "target.c:N: message" lines in the same layout.
 * A C worker that died quoted a sanitizer's report: its frames read
 * "#N 0xADDR in func file.c:L:C" (or "#N 0xADDR (binary+0xOFF)" when not
 * symbolized), and the first three frames outside the sanitizer's own
 * functions and the allocator are the site (of the first stack: where the
 * bad access, or the leaked allocation, happened). Three, as ClusterFuzz's
 * crash state: the first alone is often a helper every caller inlines
 * (libwebp's GetLE16 under both GetLE32 and GetLE24), which made two bugs
 * one. A signal in a cgo package's C
 * code, in a binary cgo-cc linked, has C frames before the Go ones
 * (csrc/runtime/cgo/cgo_stack.c: a name, then a tab-indented "pc=0x.."
 * line): the first of the binary's (a bare name, not a library's "name
 * (libc.so.6)" or "libc.so.6+0x..") is the site, since every C crash
 * behind one Go call shares its Go frames.
 */
#include <string.h>

#include "coord_internal.h"

typedef struct span {
  const char *p;
  size_t n;
} span;

static span trim(const char *p, size_t n) {
  while (n && (*p == ' ' || *p == '\t')) {
    p++;
    n--;
  }
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
    n--;
  return (span){p, n};
}

static bool starts(span s, const char *pfx) {
  size_t l = strlen(pfx);
  return s.n >= l && memcmp(s.p, pfx, l) == 0;
}

/* Whether the file name p[0..n) is a source file whose lines a failure
 * report names: Go's, and C/C++ for C targets, whose cgofuzz_errorf lines
 * read "target.c:12: message" (registry.c). */
static bool source_name(const char *p, size_t n) {
  static const char *const ext[] = {".go",  ".c", ".cc", ".cpp",
                                    ".cxx", ".h", ".hh", ".hpp"};
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
    size_t l = strlen(ext[i]);
    if (n > l && memcmp(p + n - l, ext[i], l) == 0)
      return true;
  }
  return false;
}

/* Length of "file.go:N" at the start of s (a path without spaces), or 0. */
static size_t go_loc(span s) {
  size_t i = 0;
  while (i < s.n && s.p[i] != ' ' && s.p[i] != ':')
    i++;
  if (i >= s.n || s.p[i] != ':' || !source_name(s.p, i))
    return 0;
  size_t j = i + 1;
  while (j < s.n && s.p[j] >= '0' && s.p[j] <= '9')
    j++;
  return j > i + 1 ? j : 0;
}

/* Whether the indentation of a line holds a tab: a stack frame's file line
 * ("\t/path/file.go:N +0x..", after the spaces the testing log indents
 * it by). A tab inside a t.Error message does not make it a frame. */
static bool tab_indented(const char *p, size_t n) {
  for (size_t i = 0; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
    if (p[i] == '\t')
      return true;
  return false;
}

/* Whether t is the second line of a C frame of Go's report
 * (cgofuzz_coord_death_c_frame_line) and prev, its first, names a function of
 * the binary: no space, "+" or "(" in it. */
static bool binary_c_frame(span prev, span t) {
  if (!prev.n || !cgofuzz_coord_death_c_frame_line((const uint8_t *)t.p, t.n))
    return false;
  for (size_t i = 0; i < prev.n; i++)
    if (prev.p[i] == ' ' || prev.p[i] == '+' || prev.p[i] == '(')
      return false;
  return true;
}

static bool internal_func(span f) {
  static const char *const skip[] = {"runtime.",    "runtime/",  "testing.",
                                     "reflect.",    "internal/", "panic(",
                                     "created by ", "goroutine "};
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (starts(f, skip[i]))
      return true;
  return false;
}

/* The frame number N of a sanitizer's frame line ("#N 0xADDR ..."), *addr
 * the index of ADDR; -1 when t is no such line. */
static long frame_number(span t, size_t *addr) {
  if (t.n < 2 || t.p[0] != '#' || t.p[1] < '0' || t.p[1] > '9')
    return -1;
  long n = 0;
  size_t i = 1;
  for (; i < t.n && t.p[i] >= '0' && t.p[i] <= '9'; i++)
    if (n < 1000000)
      n = n * 10 + (t.p[i] - '0');
  if (i + 3 > t.n || memcmp(t.p + i, " 0x", 3) != 0)
    return -1;
  *addr = i + 3;
  return n;
}

/* The site a sanitizer's stack frame line names ("in func file:L" without
 * the column, or "(binary+0xOFF)"), or an empty span when t is not such a
 * frame or is one of the sanitizer's or the allocator's. */
static span sanitizer_frame(span t) {
  static const char *const skip_prefix[] = {
      "__asan",  "__lsan",       "__msan",
      "__ubsan", "__sanitizer",  "__interceptor_",
      "__libc_", "operator new", "operator delete"};
  static const char *const skip_func[] = {
      "malloc", "calloc", "realloc", "free", "memalign", "posix_memalign"};
  span none = {NULL, 0};
  size_t i;
  if (frame_number(t, &i) < 0)
    return none;
  while (i < t.n && t.p[i] != ' ')
    i++;
  span rest = trim(t.p + i, t.n - i);
  if (starts(rest, "in ")) {
    span f = trim(rest.p + 3, rest.n - 3);
    for (size_t k = 0; k < sizeof skip_prefix / sizeof skip_prefix[0]; k++)
      if (starts(f, skip_prefix[k]))
        return none;
    size_t fn = 0; /* the function's name: up to the first space */
    while (fn < f.n && f.p[fn] != ' ')
      fn++;
    for (size_t k = 0; k < sizeof skip_func / sizeof skip_func[0]; k++)
      if (fn == strlen(skip_func[k]) && memcmp(f.p, skip_func[k], fn) == 0)
        return none;
    /* "func file:L:C": drop the column, keep "func file:L". */
    size_t end = f.n, colons = 0;
    for (size_t k = 0; k < f.n; k++)
      if (f.p[k] == ':' && ++colons == 2)
        end = k;
    return (span){f.p, end};
  }
  return starts(rest, "(") ? rest : none;
}

/* How many frames of a sanitizer's first stack make its site. */
#define SANITIZER_SITE_FRAMES 3

int cgofuzz_coord_fail_site(const char *msg, size_t len, cgofuzz_buf *key) {
  span prev = {NULL, 0}, tprefix = {NULL, 0}, first = {NULL, 0};
  span sframe[SANITIZER_SITE_FRAMES];
  size_t nsframe = 0;
  long last_frame = -1; /* -2: the first stack is over */
  key->len = 0;
  for (size_t i = 0; i < len;) {
    size_t j = i;
    while (j < len && msg[j] != '\n')
      j++;
    span raw = {msg + i, j - i};
    span t = trim(raw.p, raw.n);
    i = j + 1;
    if (t.n == 0)
      continue;
    bool tabbed = tab_indented(raw.p, raw.n);
    size_t loc = go_loc(t);
    if (loc && tabbed && prev.n && !internal_func(prev))
      return cgofuzz_buf_append(key, t.p, loc); /* a user stack frame */
    if (tabbed && binary_c_frame(prev, t))
      return cgofuzz_buf_append(key, prev.p, prev.n);
    size_t addr;
    long fno = frame_number(t, &addr);
    if (last_frame >= 0 && fno <= last_frame)
      last_frame = -2; /* not a frame, or a new stack's #0 */
    if (last_frame != -2 && fno >= 0) {
      last_frame = fno;
      span f = sanitizer_frame(t);
      if (f.n && nsframe < SANITIZER_SITE_FRAMES)
        sframe[nsframe++] = f;
    }
    if (loc && !tabbed && !tprefix.n && !starts(t, "testing.go:"))
      tprefix = (span){t.p, loc};
    if (!first.n && !starts(t, "--- FAIL"))
      first = t;
    prev = t;
  }
  for (size_t k = 0; k < nsframe; k++)
    if ((k && cgofuzz_buf_append(key, " < ", 3) != 0) ||
        cgofuzz_buf_append(key, sframe[k].p, sframe[k].n) != 0)
      return -1;
  if (nsframe)
    return 0;
  if (tprefix.n)
    return cgofuzz_buf_append(key, tprefix.p, tprefix.n);
  if (first.n)
    return cgofuzz_buf_append(key, first.p, first.n);
  return cgofuzz_buf_append(key, msg, len);
}
