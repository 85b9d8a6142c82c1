/*
 * cgo_loop.c: the cgo loop, libFuzzer's inner loop at the cgo boundary of
 * an unmodified cgo package (docs/cgo.md, "The cgo loop").
 *
 * Go's worker pays for each input what the Go side of a binding costs: the
 * fuzz function's goroutine, the scheduler's wake-ups, Go's own allocations
 * (DataDog/zstd's Decompress zeroes a 1 MB buffer per call). When the fuzz
 * function hands its []byte input to a C function as it is (the frame's
 * pointer argument is the input's data pointer, as the args stub recorded it
 * in the control page: core/ctlpage.h), this file runs that C function
 * again, before the real call, on a few mutants, each one mutation past the
 * last (libFuzzer's chains of up to five), every chain starting from the
 * coordinator's pick (which its energy schedule makes) as the shared
 * memory's corpus file holds it (cgofuzz_cgo_pick), not from Go's mutant
 * of it: a chain is then 1-5 mutations from a corpus entry, as libFuzzer's,
 * not 2-10 (from one frame with a big compressed block, zstd's big blocks
 * spread a third faster: docs/cgo.md). From the Go input where the pick is
 * no plain []byte value, or the C call's length is fixed and the pick's
 * differs. The pool, this process's finds and the coordinator's picks it
 * was sent, gives parts crossed into mutants. Each mutant runs in a buffer of
 * its own (a malloc of its exact size, so ASan sees reads past the end, as
 * libFuzzer's copy of an input), with a copy of cgo's frame pointing at it
 * (and, where an argument holds the input's length, that argument set to the
 * mutant's, so mutants may grow and shrink), the C counters zeroed before each;
 * where Go sized an output buffer by a C size query of the input made earlier
 * in the exec, each mutant asks the query again and runs with a buffer of its
 * own answer (derive). A mutant whose C counters show a bit neither the
 * worker's mask (its copy after the control page) nor an earlier find has is a
 * find: it joins the pool and a queue. Once a wrapper's real call has returned
 * (cgofuzz_cgo_loop_end), the oldest queued find's counters are merged into the
 * exec's and its bytes published in the exact slot as the exec's input: Go's
 * worker sees the new coverage as the exec's and reports it, and the
 * coordinator takes the slot's bytes instead of its replay of Go's mutations.
 * One find per exec; the others wait for the next execs.
 *
 * Invariants:
 *  - only in a fuzz call (the control byte CGOFUZZ_CTL_NEW) of a worker
 *    whose fd 6 is cgofuzz's control page (its magic), never in warm-up,
 *    minimization, tracing, or a binary Go's own coordinator runs;
 *  - every mutant is published in the exact slot (core/exact.h, the raw
 *    form: the call's count, the argument's index, its bytes) before it
 *    runs, so a crash or hang in it is reported with its own input, and
 *    cleared after it; a find is published only after a real call
 *    returned, so a crash of the real call is the Go input's, which the
 *    coordinator rebuilds by replay; an exec that carries a find loops
 *    no more (its mutants would take the find's slot);
 *  - the C counters are saved before the loop and restored after it: the
 *    real call adds to what the fuzz function's earlier C calls counted;
 *  - the Go input, Go's mutator and its random state are never touched:
 *    the coordinator replays the worker's chain as without the loop;
 *  - C functions that return a pointer are never looped (cmd_cgocc.c does
 *    not rewrite them): the result may be memory the caller frees.
 * What it cannot know: whether the C function keeps state between calls,
 * or whether the Go code before the call computed other arguments from
 * the input's bytes: besides a buffer and size from a C size query (see
 * derive), a mutant runs with the arguments the Go side computed for the
 * exec's input, and the coordinator keeps a find with the coverage the
 * loop saw (on zstd a
 * corpus replayed by Go reached 2,821 of the 2,827 C counters its run's
 * mask held). CGOFUZZ_CGO_LOOP=0 turns the loop off, =N sets its mutants
 * per call.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bucket.h"
#include "cgo_loop.h"
#include "cgo_mutate.h"
#include "ctlpage.h"
#include "exact.h"

/* Where the link put the counters (cmd_cgocc.c's linker script): Go's
 * range starts at cgofuzz_cgo_go_counters, the C counters are
 * [cgofuzz_cgo_in_go_range, cgofuzz_cgo_c_end) after Go's own. Weak: a
 * link without the script (no -fuzz) has none, and the loop stays off. */
extern uint8_t cgofuzz_cgo_go_counters[] __attribute__((weak));
extern uint8_t cgofuzz_cgo_in_go_range[] __attribute__((weak));
extern uint8_t cgofuzz_cgo_c_end[] __attribute__((weak));

/* MemorySanitizer's, in a `go test -msan` binary: the loop is not
 * instrumented, so the bytes it writes into a mutant would stay
 * uninitialized in MSan's eyes. */
extern void __msan_unpoison(const volatile void *, size_t)
    __attribute__((weak));

/* Here, not in cgo_hooks.c: a binary whose hooks are package gofuzz's
 * links this file and cgo_mutate.c alone. */
volatile uintptr_t cgofuzz_cgo_loop_fp;

#define LOOP_ENV "CGOFUZZ_CGO_LOOP"
#define DEFAULT_INPUTS 4
#define MAX_FRAME 1024            /* cgo frames larger than this: not looped */
#define MAX_INPUT (64u << 10)     /* inputs longer than this: not looped */
#define CALL_BUDGET_NS 50000000   /* a loop's time, at most */
#define MAX_QUEUED 8              /* finds waiting for an exec to carry them */
#define CHAIN 5                   /* mutations stacked (libFuzzer's depth) */
#define SIZE_MAX_ASKED (1u << 20) /* a size query's answer used up to this */

static struct {
  int state; /* 0 not looked, 1 on, -1 off */
  unsigned inputs;
  uint8_t *ctl;
  const uint8_t *mask; /* the worker's mask for the C counters */
  uint8_t *shm;
  size_t shm_size;
  uint8_t *cntrs;
  size_t n;
  uint8_t *saved, *seen; /* the counters before the loop; bits found */
  uint64_t rng;
  /* Finds waiting to be handed over, oldest first, at most one per exec
   * (cgofuzz_cgo_loop_end): bytes, the fuzz function's argument, and the
   * nonzero C counters (where, what). */
  struct find {
    uint8_t *bytes;
    size_t n;
    uint64_t index;
    uint32_t *at;
    uint8_t *val;
    size_t n_at;
  } q[MAX_QUEUED];
  unsigned nq;
  const void *frame; /* of the looped call whose real call may hand over */
  uint64_t handed;   /* exec_key() of the last exec that carried a find */
  /* Parts crossed into later mutants: this process's finds and every
   * pick the coordinator sent it (cgo_mutate.h). Not bases of chains:
   * with half the chains starting from a pool entry (uniform over the
   * last 256 finds) instead of the coordinator's pick, zstd's big
   * compressed blocks spread a quarter as fast (docs/cgo.md). */
  cgofuzz_cgo_pool pool;
  uint64_t pick_call; /* the call whose pick was offered to the pool */
  /* The exec's last looped call of a C function of the input alone (its
   * one pointer argument the input) that has a result: a size query, as
   * DataDog/zstd's ZSTD_getFrameContentSize before ZSTD_decompress,
   * kept to be asked again about mutants (see derive). */
  struct query {
    void (*again)(void *);
    uint8_t frame[MAX_FRAME];
    size_t size, off, len_w, res_off, res_w, len;
    long len_off;
    uint64_t key; /* exec_key() of its exec; UINT64_MAX: none */
  } query;
  uint8_t pick[MAX_INPUT]; /* the coordinator's pick, decoded (pick_of) */
} L;

static void *map_fd(int fd, size_t *size) {
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0)
    return NULL;
  void *p =
      mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return NULL;
  *size = (size_t)st.st_size;
  return p;
}

/* Decides once whether this process loops, and maps what it needs. */
static int setup(void) {
  const char *e = getenv(LOOP_ENV);
  L.inputs = DEFAULT_INPUTS;
  if (e && *e)
    L.inputs = (unsigned)strtoul(e, NULL, 10);
  uint8_t *go = cgofuzz_cgo_go_counters, *a = cgofuzz_cgo_in_go_range,
          *b = cgofuzz_cgo_c_end;
  if (!L.inputs || !go || !a || !b || b <= a || a < go)
    return -1;
  size_t ctl_size = 0;
  uint8_t *ctl = map_fd(CGOFUZZ_CTL_FD, &ctl_size);
  uint64_t magic = 0;
  if (ctl && ctl_size >= CGOFUZZ_CTL_SIZE)
    memcpy(&magic, ctl + CGOFUZZ_CTL_MAGIC_AT, 8);
  if (magic != CGOFUZZ_CTL_MAGIC ||
      ctl_size < cgofuzz_ctl_size((size_t)(b - go)) ||
      !(L.shm = map_fd(CGOFUZZ_SHM_FD, &L.shm_size)) ||
      L.shm_size < CGOFUZZ_SHM_HEADER_SIZE) {
    if (ctl)
      munmap(ctl, ctl_size);
    return -1;
  }
  L.ctl = ctl;
  L.mask = ctl + CGOFUZZ_CTL_SIZE + (a - go);
  L.cntrs = a;
  L.n = (size_t)(b - a);
  L.saved = malloc(L.n);
  L.seen = calloc(1, L.n);
  if (!L.saved || !L.seen)
    return -1;
  L.handed = UINT64_MAX;
  L.query.key = UINT64_MAX;
  return 1;
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Whether the C counters hold a bit neither the worker's mask nor an
 * earlier find of this process has, in Go's buckets (bucket.h): what the
 * worker's snapshot then gives the exec's counters, so that a find is new
 * coverage for Go's worker too. Runs after every mutant over all the
 * C counters (30,000 on zstd), most of them zero: a block of 64 is skipped
 * on one test. The builtin: the file is built with -fno-builtin, and a
 * call of libc's memcpy per word was a fifth of a zstd worker's time. */
static int new_bit_in(size_t i, size_t end) {
  for (; i < end; i++)
    if (L.cntrs[i] && (cgofuzz_bucket(L.cntrs[i]) & ~(L.mask[i] | L.seen[i])))
      return 1;
  return 0;
}
static int has_new_bit(void) {
  size_t i = 0;
  for (; i + 64 <= L.n; i += 64) {
    uint64_t w[8];
    __builtin_memcpy(w, L.cntrs + i, sizeof w);
    if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) &&
        new_bit_in(i, i + 64))
      return 1;
  }
  return new_bit_in(i, L.n);
}

static void free_find(struct find *f) {
  free(f->bytes);
  free(f->at);
  free(f->val);
  memset(f, 0, sizeof *f);
}

/* A find: its bits are this process's from now on, its bytes are crossed
 * into later mutants, and its bytes and counters wait in the queue for
 * cgofuzz_cgo_loop_end. */
static int queue_find(const uint8_t *m, size_t n, uint64_t index) {
  if (L.nq == MAX_QUEUED)
    return 0;
  size_t nz = 0;
  for (size_t i = 0; i < L.n; i++)
    nz += L.cntrs[i] != 0;
  struct find f = {.bytes = malloc(n ? n : 1),
                   .n = n,
                   .index = index,
                   .at = malloc(nz ? nz * sizeof *f.at : 1),
                   .val = malloc(nz ? nz : 1)};
  if (!f.bytes || !f.at || !f.val) {
    free_find(&f);
    return 0;
  }
  memcpy(f.bytes, m, n);
  for (size_t i = 0; i < L.n; i++)
    if (L.cntrs[i]) {
      L.seen[i] |= cgofuzz_bucket(L.cntrs[i]);
      f.at[f.n_at] = (uint32_t)i;
      f.val[f.n_at++] = L.cntrs[i];
    }
  L.q[L.nq++] = f;
  cgofuzz_cgo_pool_add(&L.pool, m, n, &L.rng);
  return 1;
}

/* The header of Go's shared memory with the coordinator. */
static const cgofuzz_shm_header *shm_header(void) {
  return (const cgofuzz_shm_header *)(void *)L.shm;
}

/* The call in flight: Go's worker saves its random state at a call's
 * start. */
static uint64_t call_key(void) {
  const cgofuzz_shm_header *sh = shm_header();
  return sh->rand_state ^ (sh->rand_inc << 1);
}

/* The exec in flight: Go's worker counts a call's execs from 1. */
static uint64_t exec_key(void) {
  return call_key() ^ (uint64_t)shm_header()->count * 0x9e3779b97f4a7c15ull;
}

/* The exact slot of the call in flight, or NULL when the input does not
 * fit after the value. */
static uint8_t *slot_for(size_t len) {
  cgofuzz_shm m = {.fd = -1, .region = L.shm, .size = L.shm_size};
  size_t room;
  uint8_t *s = cgofuzz_exact_slot(&m, CGOFUZZ_EXACT_RAW_HDR, &room);
  return s && room >= len ? s : NULL;
}

static void add_u64(size_t at, uint64_t v) {
  uint64_t x;
  memcpy(&x, L.ctl + at, 8);
  x += v;
  memcpy(L.ctl + at, &x, 8);
}

/* The pick's decoding (cgofuzz_cgo_pick, below) has twins in the runtime:
 * core/quote.c's cgofuzz_unquote (strconv.Unquote into a cgofuzz_buf),
 * base/text.c's cgofuzz_hexval and cgofuzz_utf8_encode. The loop does not
 * call them: its objects are linked whole into cgo test binaries that may
 * also hold those files (package gofuzz's runtime compiles them), where a
 * second definition would not link, and it writes into a fixed buffer with
 * no allocation. */

/* A hex digit's value, or -1. */
static int hexval(int c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* The n-digit number in base b at s, or -1. */
static long digits(const uint8_t *s, const uint8_t *e, int n, int b) {
  long v = 0;
  if (e - s < n)
    return -1;
  for (int i = 0; i < n; i++) {
    int d = hexval(s[i]);
    if (d < 0 || d >= b)
      return -1;
    v = v * b + d;
  }
  return v;
}

/* Appends rune r as UTF-8; 0 when it does not fit or is no rune. */
static int put_rune(long r, uint8_t *out, size_t cap, size_t *n) {
  uint8_t u[4];
  size_t k;
  if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r < 0xe000))
    return 0;
  if (r < 0x80)
    u[0] = (uint8_t)r, k = 1;
  else if (r < 0x800)
    u[0] = (uint8_t)(0xc0 | r >> 6), u[1] = (uint8_t)(0x80 | (r & 63)), k = 2;
  else if (r < 0x10000)
    u[0] = (uint8_t)(0xe0 | r >> 12), u[1] = (uint8_t)(0x80 | (r >> 6 & 63)),
    u[2] = (uint8_t)(0x80 | (r & 63)), k = 3;
  else
    u[0] = (uint8_t)(0xf0 | r >> 18), u[1] = (uint8_t)(0x80 | (r >> 12 & 63)),
    u[2] = (uint8_t)(0x80 | (r >> 6 & 63)), u[3] = (uint8_t)(0x80 | (r & 63)),
    k = 4;
  if (cap - *n < k)
    return 0;
  memcpy(out + *n, u, k);
  *n += k;
  return 1;
}

/* Decodes Go's interpreted string literal [s, e) (the quotes excluded). */
static long unquote(const uint8_t *s, const uint8_t *e, uint8_t *out,
                    size_t cap) {
  static const char esc[] = "a\ab\bf\fn\nr\rt\tv\v\\\\\"\"";
  size_t n = 0;
  while (s < e) {
    long v = *s++;
    if (v == '\\') {
      if (s == e)
        return -1;
      int c = *s++;
      const char *x = esc;
      while (*x && *x != c)
        x += 2;
      if (*x)
        v = (uint8_t)x[1];
      else if (c == 'x' && (v = digits(s, e, 2, 16)) >= 0)
        s += 2;
      else if (c >= '0' && c <= '7' && (v = digits(s - 1, e, 3, 8)) >= 0 &&
               v < 256)
        s += 2;
      else if ((c == 'u' || c == 'U') &&
               (v = digits(s, e, c == 'u' ? 4 : 8, 16)) >= 0) {
        s += c == 'u' ? 4 : 8;
        if (!put_rune(v, out, cap, &n))
          return -1;
        continue;
      } else
        return -1;
    } else if (v == '"' || v == '\n') {
      return -1;
    }
    if (n == cap)
      return -1;
    out[n++] = (uint8_t)v;
  }
  return (long)n;
}

static int blank(int c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The coordinator's pick, the call's input before Go's mutations, is the
 * value the shared memory holds for the whole call (Go's worker mutates
 * copies; the coordinator rebuilds a crash's input by replaying them from
 * it): a corpus file. Its index-th value is decoded into out when that
 * line is []byte("...") or []byte(`...`) as Go writes them (and most
 * hand-written seeds are); -1 for anything else (comments, other types, a
 * value past cap): the chains then start from the Go input. Decoded on
 * every looped call: a few hundred bytes on zstd, less than a C call. */
long cgofuzz_cgo_pick(const uint8_t *v, size_t len, uint64_t index,
                      uint8_t *out, size_t cap) {
  static const char head[] = "go test fuzz v1", open[] = "[]byte(";
  const uint8_t *end = v + len, *s = v, *e;
  uint64_t line = 0;
  for (;; s = e + 1, line++) {
    e = memchr(s, '\n', (size_t)(end - s));
    if (!e)
      e = end;
    const uint8_t *a = s, *b = e;
    while (a < b && blank(*a))
      a++;
    while (b > a && blank(b[-1]))
      b--;
    if (line == 0) {
      if ((size_t)(b - a) != sizeof head - 1 || memcmp(a, head, b - a) != 0)
        return -1;
    } else if (a < b && index-- == 0) {
      if ((size_t)(b - a) < sizeof open + 2 ||
          memcmp(a, open, sizeof open - 1) != 0 || b[-1] != ')')
        return -1;
      a += sizeof open - 1, b--;
      if (b[-1] == ',')
        b--;
      if (b - a < 2 || *a != b[-1] || (*a != '"' && *a != '`'))
        return -1;
      if (*a == '"')
        return unquote(a + 1, b - 1, out, cap);
      size_t n = 0; /* a raw string: its bytes but carriage returns */
      for (const uint8_t *p = a + 1; p < b - 1; p++) {
        if (*p == '`')
          return -1;
        if (*p == '\r')
          continue;
        if (n == cap)
          return -1;
        out[n++] = *p;
      }
      return (long)n;
    }
    if (e == end)
      return -1;
  }
}

static long pick_of(uint64_t index, uint8_t *out, size_t cap) {
  const cgofuzz_shm_header *sh = shm_header();
  if (sh->value_len <= 0 ||
      (uint64_t)sh->value_len > L.shm_size - CGOFUZZ_SHM_HEADER_SIZE)
    return -1;
  return cgofuzz_cgo_pick(L.shm + CGOFUZZ_SHM_HEADER_SIZE,
                          (size_t)sh->value_len, index, out, cap);
}

/* A pick of n bytes (0: none) joins the pool once per call of Go's
 * worker: the pick is the same for each of the call's execs. */
static void offer_pick(size_t n) {
  uint64_t call = call_key();
  if (n && call != L.pick_call) {
    L.pick_call = call;
    if (cgofuzz_cgo_pool_add(&L.pool, L.pick, n, &L.rng) == 1)
      add_u64(CGOFUZZ_CTL_LOOP_POOLED, 1);
  }
}

/* The fuzz function's []byte argument whose data pointer p is, or -1. */
static int input_arg(const void *p, uint64_t *len, uint64_t *index) {
  unsigned n = L.ctl[CGOFUZZ_CTL_ARGS_N];
  for (unsigned i = 0; i < n && i < CGOFUZZ_CTL_ARGS_MAX; i++) {
    const uint8_t *r = L.ctl + CGOFUZZ_CTL_ARGS + i * CGOFUZZ_CTL_ARG_SIZE;
    uint64_t ptr;
    memcpy(&ptr, r, 8);
    if (ptr != (uint64_t)(uintptr_t)p)
      continue;
    memcpy(len, r + 8, 8);
    memcpy(index, r + 16, 8);
    return *len ? 0 : -1;
  }
  return -1;
}

/* Zeroes the stack below the caller's frame, where the mutations' calls
 * left return addresses into this file: a crash report's search for the
 * first return address into C above a library function (cgo_stack.c) would
 * otherwise meet one of those before the crashing function's own. */
static __attribute__((noinline)) void scrub_stack(void) {
  uint8_t pad[4096];
  memset(pad, 0, sizeof pad);
  __asm__ volatile("" : : "r"(pad) : "memory");
}

/* A non-pointer argument's entry (offset * 16 + size): its offset and
 * width, and its value, read little-endian (the low bytes first); 0 unless
 * it is 4 or 8 bytes wide and inside the frame's size bytes. */
static int int_arg(const uint8_t *frame, size_t size, unsigned short a,
                   size_t *o, size_t *w, uint64_t *v) {
  *o = a >> 4, *w = a & 15, *v = 0;
  if ((*w != 4 && *w != 8) || *o + *w > size)
    return 0;
  memcpy(v, frame + *o, *w);
  return 1;
}

/* Of the non-pointer arguments (to 0xffff), the one that holds the
 * input's length: the first after the input's pointer at off, else the
 * first before it; -1 when none does. */
static long length_arg(const uint8_t *frame, size_t size,
                       const unsigned short *a, size_t off, uint64_t len,
                       size_t *width) {
  long before = -1;
  for (; *a != 0xffff; a++) {
    size_t o, w;
    uint64_t v;
    if (!int_arg(frame, size, *a, &o, &w, &v) || v != len)
      continue;
    if (o > off) {
      *width = w;
      return (long)o;
    }
    if (before < 0)
      before = (long)o, *width = w;
  }
  return before;
}

/* Points the frame f at n bytes m as the input: the pointer argument at
 * off and, where la >= 0, the length argument there (lw bytes). */
static void point_at(uint8_t *f, size_t off, long la, size_t lw,
                     const uint8_t *m, size_t n) {
  memcpy(f + off, &m, sizeof m);
  if (la >= 0) {
    uint64_t v = n;
    memcpy(f + la, &v, lw);
  }
}

/* A wrapper's argument lists (cgo_loop.h): the pointers' offsets, the
 * others' and the result's (offset * 16 + size), each ended by 0xffff. */
struct args {
  const unsigned short *ptrs, *ints, *res;
};

static struct args split_args(const unsigned short *a) {
  struct args s = {.ptrs = a};
  while (*a != 0xffff)
    a++;
  s.ints = ++a;
  while (*a != 0xffff)
    a++;
  s.res = a + 1;
  return s;
}

/* Keeps the call in flight as the exec's size query when it is one: the
 * input its only pointer, a result of 4 or 8 bytes. */
static void keep_query(const uint8_t *frame, size_t size, void (*again)(void *),
                       struct args s, size_t off, long la, size_t lw,
                       size_t len) {
  size_t ro, rw;
  uint64_t unused; /* the result before the call: not yet written */
  if (s.ptrs[0] == 0xffff || s.ptrs[1] != 0xffff || s.res[0] == 0xffff ||
      !int_arg(frame, size, s.res[0], &ro, &rw, &unused))
    return;
  struct query *q = &L.query;
  memcpy(q->frame, frame, size);
  q->again = again, q->size = size, q->off = off, q->len_off = la;
  q->len_w = lw, q->res_off = ro, q->res_w = rw, q->len = len;
  q->key = exec_key();
}

/* The size query's answer for m's n bytes (the C function called on a
 * copy of its frame); 0 when it cannot be asked (no length argument, and
 * n is not the length it was asked with). */
static int ask(const uint8_t *m, size_t n, uint64_t *answer) {
  const struct query *q = &L.query;
  uint8_t f[MAX_FRAME];
  if (q->len_off < 0 && n != q->len)
    return 0;
  memcpy(f, q->frame, q->size);
  point_at(f, q->off, q->len_off, q->len_w, m, n);
  q->again(f);
  *answer = 0; /* little-endian: the low bytes first */
  memcpy(answer, f + q->res_off, q->res_w);
  return 1;
}

/* An output buffer and its size that Go computed from the size query's
 * answer for the exec's input: an argument that holds that answer, right
 * after a pointer argument other than the input (C's dst, dstCapacity).
 * A mutant then runs with the query's answer for its own bytes, as Go
 * would have computed it (an answer past SIZE_MAX_ASKED as that), and
 * where that is more than Go's buffer holds, a buffer of the loop's, 8
 * bytes per unit in case the size counts elements. Without this a mutant of
 * zstd's frame header that asks for a larger frame ran into Go's buffer for the
 * input's frame. */
struct derived {
  long ptr_off, size_off; /* -1: none */
  size_t size_w;
  uint64_t size;
  void *ptr;
};

static struct derived find_derived(const uint8_t *frame, size_t size,
                                   void (*again)(void *), struct args s,
                                   size_t in_off, const uint8_t *input,
                                   size_t len) {
  struct derived d = {.ptr_off = -1, .size_off = -1};
  uint64_t r;
  if (L.query.key != exec_key() || L.query.again == again ||
      !ask(input, len, &r) || r < 2 || r > SIZE_MAX_ASKED)
    return d; /* 0 and 1 say too little to be taken for a size */
  for (const unsigned short *a = s.ints; *a != 0xffff; a++) {
    size_t o, w;
    uint64_t v;
    if (!int_arg(frame, size, *a, &o, &w, &v) || v != r || o < sizeof(void *))
      continue;
    for (const unsigned short *p = s.ptrs; *p != 0xffff; p++)
      if (*p + sizeof(void *) == o && *p != in_off) {
        d.ptr_off = *p, d.size_off = (long)o, d.size_w = w, d.size = v;
        memcpy(&d.ptr, frame + *p, sizeof d.ptr);
        return d;
      }
  }
  return d;
}

/* Sets the derived pair in the frame copy for mutant m; the buffer to
 * free after its run, or NULL. */
static void *derive(const struct derived *d, const uint8_t *m, size_t n,
                    uint8_t *copy, uint64_t *sized) {
  uint64_t r, size = d->size;
  void *ptr = d->ptr, *own = NULL;
  if (ask(m, n, &r) && r >= 1) {
    /* Not a size (an error, "unknown"): bindings fall back to a bound. */
    if (r > SIZE_MAX_ASKED)
      r = SIZE_MAX_ASKED;
    if (r <= d->size)
      size = r;
    else if ((own = malloc((size_t)r * 8))) {
      if (__msan_unpoison) /* Go's buffer is zeroed; this one is not */
        __msan_unpoison(own, (size_t)r * 8);
      ptr = own, size = r;
    }
    *sized += size != d->size;
  }
  memcpy(copy + d->ptr_off, &ptr, sizeof ptr);
  memcpy(copy + d->size_off, &size, d->size_w);
  return own;
}

static void run(uint8_t *frame, size_t size, void (*again)(void *),
                const unsigned short *args) {
  uint64_t len = 0, index = 0;
  size_t off = 0, lw = 0;
  uint8_t *input = NULL;
  struct args s = split_args(args);
  for (const unsigned short *a = s.ptrs; *a != 0xffff; a++) {
    void *p;
    if (input || *a + sizeof p > size)
      continue;
    memcpy(&p, frame + *a, sizeof p);
    if (p && input_arg(p, &len, &index) == 0)
      input = p, off = *a;
  }
  if (!input || len > MAX_INPUT)
    return;
  long la = length_arg(frame, size, s.ints, off, len, &lw);
  keep_query(frame, size, again, s, off, la, lw, (size_t)len);
  const uint8_t *base = input;
  size_t base_n = (size_t)len;
  long pn = pick_of(index, L.pick, MAX_INPUT);
  if (pn >= 0 && (la >= 0 || (size_t)pn == len))
    base = L.pick, base_n = (size_t)pn;
  size_t cap = la < 0 ? base_n : base_n + base_n / 2 + 32;
  if (cap > MAX_INPUT)
    cap = MAX_INPUT;
  uint8_t *slot = slot_for(cap);
  if (!slot && cap > base_n)
    slot = slot_for(cap = base_n);
  uint8_t *work = slot ? malloc(cap) : NULL;
  if (!work)
    return;
  const cgofuzz_shm_header *sh = shm_header();
  /* The mutants follow from Go's chain (its saved state and the count):
   * a run with a pinned GODEBUG=fuzzseed makes the same ones. */
  L.rng = exec_key() | 1;
  offer_pick(pn > 0 ? (size_t)pn : 0);
  cgofuzz_exact_hdr h = {
      .magic = CGOFUZZ_EXACT_RAW_MAGIC, .count = sh->count, .index = index};
  uint8_t copy[MAX_FRAME];
  memcpy(copy, frame, size);
  memcpy(L.saved, L.cntrs, L.n);
  struct derived d =
      find_derived(frame, size, again, s, off, input, (size_t)len);
  uint64_t start = now_ns(), ran = 0, found = 0, sized = 0;
  /* As libFuzzer's: each mutant is its chain's last plus one mutation,
   * and a chain ends after CHAIN mutants or at a find. */
  cgofuzz_cgo_mut mu = {.p = work,
                        .cap = cap,
                        .fixed = la < 0,
                        .rng = &L.rng,
                        .others = L.pool.e};
  unsigned depth = 0;
  for (unsigned k = 0; k < L.inputs && L.nq < MAX_QUEUED; k++) {
    if (depth++ % CHAIN == 0)
      memcpy(work, base, mu.n = base_n);
    mu.n_others = L.pool.n;
    size_t n = cgofuzz_cgo_mutate(&mu);
    uint8_t *m = malloc(n ? n : 1); /* its exact size, for ASan */
    if (!m)
      break;
    memcpy(m, work, n);
    if (__msan_unpoison)
      __msan_unpoison(m, n);
    point_at(copy, off, la, lw, m, n);
    h.len = n;
    cgofuzz_exact_publish(slot, &h, m);
    memset(L.cntrs, 0, L.n);
    scrub_stack();
    cgofuzz_cgo_torc.on = 1;
    cgofuzz_cgo_loop_fp = (uintptr_t)__builtin_frame_address(0);
    void *own = d.ptr_off >= 0 ? derive(&d, m, n, copy, &sized) : NULL;
    again(copy);
    cgofuzz_cgo_loop_fp = 0;
    cgofuzz_cgo_torc.on = 0;
    ran++;
    if (has_new_bit() && queue_find(m, n, index))
      found++, depth = 0;
    memset(slot + CGOFUZZ_EXACT_MAGIC_AT, 0, 8);
    free(own);
    free(m);
    if (now_ns() - start > CALL_BUDGET_NS)
      break;
  }
  memcpy(L.cntrs, L.saved, L.n);
  add_u64(CGOFUZZ_CTL_LOOP_EXECS, ran);
  add_u64(CGOFUZZ_CTL_LOOP_FINDS, found);
  add_u64(CGOFUZZ_CTL_LOOP_SIZED, sized);
  add_u64(CGOFUZZ_CTL_LOOP_PICKED, base == input ? 0 : ran);
  free(work);
}

/* Set while a thread is in the loop or hands over a find: another
 * thread's C call then leaves it alone. */
static int busy;

void cgofuzz_cgo_loop(void *frame, size_t size, void (*again)(void *),
                      const unsigned short *args) {
  if (__builtin_expect(L.state == 0, 0) &&
      !__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) {
    if (L.state == 0)
      L.state = setup();
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
  }
  if (L.state <= 0 || L.ctl[0] != CGOFUZZ_CTL_NEW || size > MAX_FRAME ||
      __atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
    return;
  /* Not after a find was handed over in this exec (zstd's Decompress
   * calls ZSTD_getFrameContentSize, then ZSTD_decompress): the mutants'
   * publication would take the slot that holds it. */
  if (L.handed != exec_key()) {
    L.frame = frame;
    run(frame, size, again, args);
  }
  __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* Hands over q[0]: its counters merged into the exec's (Go's worker then
 * sees new coverage), its bytes in the exact slot (the coordinator takes
 * them as the exec's input). Dropped when the slot has no room for it.
 * Where a counter of the find falls in another bucket than the exec's, the
 * find's count wins: the larger of the two would lose a find whose new
 * bit is the lower bucket, as 2 beside the exec's 5. */
static void hand_over(void) {
  struct find f = L.q[0];
  memmove(&L.q[0], &L.q[1], --L.nq * sizeof L.q[0]);
  memset(&L.q[L.nq], 0, sizeof L.q[0]);
  uint8_t *slot = slot_for(f.n);
  if (slot) {
    for (size_t i = 0; i < f.n_at; i++)
      if (cgofuzz_bucket(f.val[i]) != cgofuzz_bucket(L.cntrs[f.at[i]]))
        L.cntrs[f.at[i]] = f.val[i];
    const cgofuzz_shm_header *sh = shm_header();
    cgofuzz_exact_hdr h = {.magic = CGOFUZZ_EXACT_RAW_MAGIC,
                           .count = sh->count,
                           .index = f.index,
                           .len = f.n};
    cgofuzz_exact_publish(slot, &h, f.bytes);
    L.handed = exec_key();
  }
  free_find(&f);
}

void cgofuzz_cgo_loop_end(const void *frame) {
  if (!L.nq || frame != L.frame || L.ctl[0] != CGOFUZZ_CTL_NEW ||
      __atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
    return;
  if (L.handed != exec_key())
    hand_over();
  __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}
