// test_cmppatch.cc: the word-at-a-time coverage snapshot the fuzzing
// workers' copy of a Go binary runs (gobin_patch.c), executed here as
// machine code: for every counter it must write what Go's SnapshotCoverage
// writes (the counter rounded down to a power of two), for any length; set
// the slice's length to the full range, or with the control byte set to
// the end of the last non-zero word (never before the last non-zero
// counter); and write nothing when the slice's capacity is not the counter
// range's length.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "gobin_patch.h"
}

#if defined(__x86_64__) && defined(__linux__) && defined(MAP_32BIT)
namespace {

uint8_t GoRound(uint8_t b) {
  b |= b >> 1;
  b |= b >> 2;
  b |= b >> 4;
  return b - (b >> 1);
}

// Everything the stub addresses with 32-bit immediates lives below 2 GiB.
struct Low {
  uint8_t *p = nullptr;
  size_t n;
  explicit Low(size_t size, int prot) : n(size) {
    void *m =
        mmap(nullptr, n, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
    if (m != MAP_FAILED)
      p = static_cast<uint8_t *>(m);
  }
  ~Low() {
    if (p)
      munmap(p, n);
  }
  uint32_t addr() const { return (uint32_t)(uintptr_t)p; }
};

struct Snap {
  std::vector<uint8_t> data; // the whole destination, n bytes
  uint64_t len;              // the slice header's length afterwards
};

// Runs the stub for the counters; the header's capacity is hdr_cap, its
// length starts at 12345; ctl is the control byte, mask the worker's mask
// (none: zero).
Snap Snapshot(const std::vector<uint8_t> &counters, uint64_t hdr_cap,
              uint8_t fill, uint8_t ctl = CGOFUZZ_CTL_FULL,
              const std::vector<uint8_t> &mask = {}) {
  size_t n = counters.size();
  Low code(4096, PROT_READ | PROT_WRITE | PROT_EXEC);
  Low data(3 * n + 4096, PROT_READ | PROT_WRITE);
  EXPECT_NE(code.p, nullptr);
  EXPECT_NE(data.p, nullptr);
  if (!code.p || !data.p)
    return {};
  uint8_t *cnt = data.p + 64, *dst = data.p + 64 + n + 8;
  uint8_t *msk = dst + n + 8;
  uint64_t *hdr = reinterpret_cast<uint64_t *>(data.p);
  data.p[32] = ctl;
  data.p[33] = 0x5a; // the stub's flag: whatever was there before
  if (n)             // data() may be NULL when empty
    memcpy(cnt, counters.data(), n);
  memset(dst, fill, n);
  if (!mask.empty())
    memcpy(msk, mask.data(), n);
  hdr[0] = (uint64_t)(uintptr_t)dst;
  hdr[1] = 12345;
  hdr[2] = hdr_cap;
  cgofuzz_buf b = {};
  EXPECT_EQ(cgofuzz_gobin_snapshot_stub(
                &b, (uint32_t)(uintptr_t)cnt, (uint32_t)n, data.addr(),
                data.addr() + 32, (uint32_t)(uintptr_t)msk),
            0);
  memcpy(code.p, b.data, b.len);
  cgofuzz_buf_free(&b);
  reinterpret_cast<void (*)(void)>(code.p)();
  return {std::vector<uint8_t>(dst, dst + n), hdr[1]};
}

TEST(SnapshotStub, RoundsLikeGoAtEveryLength) {
  std::mt19937 rng(7);
  for (size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 1000u, 31301u}) {
    std::vector<uint8_t> cnt(n);
    for (size_t i = 0; i < n; i++) // mostly zero words, as counters are
      cnt[i] = rng() % 4 == 0 ? (uint8_t)rng() : 0;
    std::vector<uint8_t> want(n);
    for (size_t i = 0; i < n; i++)
      want[i] = GoRound(cnt[i]);
    Snap got = Snapshot(cnt, n, 0xaa);
    EXPECT_EQ(got.data, want) << "n=" << n;
    EXPECT_EQ(got.len, n) << "n=" << n;
  }
}

TEST(SnapshotStub, EveryByteValue) {
  std::vector<uint8_t> cnt(256 * 8);
  for (size_t i = 0; i < cnt.size(); i++)
    cnt[i] = (uint8_t)(i / 8 + i % 8 * 31); // each value in every lane
  Snap got = Snapshot(cnt, cnt.size(), 0);
  ASSERT_EQ(got.data.size(), cnt.size());
  for (size_t i = 0; i < cnt.size(); i++)
    ASSERT_EQ(got.data[i], GoRound(cnt[i])) << "value " << (int)cnt[i];
}

// With the control byte set, the length ends with the last non-zero word
// (or byte, in the tail that is no whole word), and the bytes are the
// same as without it.
TEST(SnapshotStub, FuzzCallLengthEndsAtLastNonZero) {
  struct {
    size_t n, last; // last: index of the last non-zero counter, n: none
    uint64_t want;
  } cases[] = {
      {64, 64, 0},  {64, 0, 8},   {64, 7, 8},        {64, 8, 16},
      {64, 63, 64}, {67, 63, 64}, {67, 64, 65},      {67, 66, 67},
      {5, 2, 3},    {5, 5, 0},    {31301, 100, 104},
  };
  for (const auto &k : cases) {
    std::vector<uint8_t> cnt(k.n, 0);
    if (k.last < k.n) {
      cnt[k.last] = 200;
      cnt[k.last / 2] = 3;
    }
    Snap full = Snapshot(cnt, k.n, 0x11, CGOFUZZ_CTL_FULL);
    Snap cut = Snapshot(cnt, k.n, 0x11, CGOFUZZ_CTL_CUT);
    EXPECT_EQ(full.len, k.n) << k.n << " " << k.last;
    EXPECT_EQ(cut.len, k.want) << k.n << " " << k.last;
    EXPECT_EQ(cut.data, full.data) << k.n << " " << k.last;
  }
}

// A fuzz call that is no warm-up: the length of a warm-up's when some
// rounded counter has a bit the worker's mask lacks, else 0; the bytes are
// the same in every mode. Go's count of new bits decides the same way.
TEST(SnapshotStub, FuzzCallWithoutNewBitIsEmpty) {
  std::mt19937 rng(11);
  for (size_t n : {1u, 5u, 8u, 13u, 64u, 67u, 1000u, 31301u}) {
    std::vector<uint8_t> cnt(n, 0);
    for (size_t i = 0; i < n; i++)
      cnt[i] = rng() % 5 == 0 ? (uint8_t)rng() : 0;
    cnt[n - 1] = n == 1 ? 1 : cnt[n - 1]; // a word and a tail byte or two
    std::vector<uint8_t> seen(n); // the mask: every rounded counter's bit
    for (size_t i = 0; i < n; i++)
      seen[i] = GoRound(cnt[i]) | (uint8_t)(rng() % 3 == 0 ? rng() : 0);
    Snap cut = Snapshot(cnt, n, 0x22, CGOFUZZ_CTL_CUT, seen);
    Snap none = Snapshot(cnt, n, 0x22, CGOFUZZ_CTL_NEW, seen);
    EXPECT_EQ(none.len, 0u) << n;
    EXPECT_EQ(none.data, cut.data) << n;
    // Take away one counter's bit from the mask, at every position of a
    // non-zero counter (in a whole word and in the tail): new again.
    for (size_t i = 0; i < n; i++) {
      if (!cnt[i])
        continue;
      std::vector<uint8_t> m = seen;
      m[i] &= (uint8_t)~GoRound(cnt[i]);
      Snap got = Snapshot(cnt, n, 0x22, CGOFUZZ_CTL_NEW, m);
      ASSERT_EQ(got.len, cut.len) << n << " at " << i;
      ASSERT_EQ(got.data, cut.data) << n << " at " << i;
    }
  }
  // No counter at all: nothing new, empty in both cut modes.
  std::vector<uint8_t> zero(40, 0);
  EXPECT_EQ(Snapshot(zero, 40, 0, CGOFUZZ_CTL_NEW).len, 0u);
  EXPECT_EQ(Snapshot(zero, 40, 0, CGOFUZZ_CTL_FULL).len, 40u);
}

TEST(SnapshotStub, WrongCapacityWritesNothing) {
  std::vector<uint8_t> cnt(100, 3);
  for (uint64_t cap : {99u, 0u, 101u}) {
    Snap got = Snapshot(cnt, cap, 0x55, CGOFUZZ_CTL_NEW);
    EXPECT_EQ(got.data, std::vector<uint8_t>(100, 0x55)) << cap;
    EXPECT_EQ(got.len, 12345u) << cap;
  }
}

TEST(SnapshotStub, RefusesHighAddresses) {
  cgofuzz_buf b = {};
  EXPECT_NE(cgofuzz_gobin_snapshot_stub(&b, 0x1000, 0x80000000u, 0x1000, 0x2000,
                                        0x3000),
            0);
  EXPECT_NE(
      cgofuzz_gobin_snapshot_stub(&b, 0x1000, 16, 0x7ffffff4u, 0x2000, 0x3000),
      0);
  EXPECT_NE(
      cgofuzz_gobin_snapshot_stub(&b, 0x1000, 16, 0x1000, 0x80000000u, 0x3000),
      0);
  EXPECT_NE(
      cgofuzz_gobin_snapshot_stub(&b, 0x1000, 16, 0x1000, 0x2000, 0x7ffffff8u),
      0);
  EXPECT_EQ(b.len, 0u);
  cgofuzz_buf_free(&b);
}

// A C-callable trampoline at code's start that calls the stub at 0x100,
// keeping r12 and r13 for the C caller (the stubs clobber them, Go's ABI
// lets them); the stub's final jump is to a RET at 0x800.
static void StubCaller(Low &code) {
  static const uint8_t tramp[] = {0x41, 0x54, 0x41, 0x55, 0xe8, 0,    0,
                                  0,    0,    0x41, 0x5d, 0x41, 0x5c, 0xc3};
  memcpy(code.p, tramp, sizeof tramp);
  uint32_t rel = (uint32_t)(code.addr() + 0x100 - (code.addr() + 9));
  memcpy(code.p + 5, &rel, 4);
  code.p[0x800] = 0xc3;
}

// Fake Go types for testing's fn.Call(args) stubs, in the first 320 bytes
// of at: kind at byte 23, a slice type's element at 48. bytes is []byte
// (its kind byte has bits above the mask, which are ignored), ints
// []int64, ptr a pointer type.
struct GoTypes {
  uint8_t *bytes, *ints, *ptr;
  explicit GoTypes(uint8_t *at) {
    uint8_t *u8 = at, *i64 = at + 192;
    bytes = at + 64, ints = at + 128, ptr = at + 256;
    u8[23] = 8;
    i64[23] = 6;
    ptr[23] = 22;
    bytes[23] = 23 | 32;
    ints[23] = 23;
    memcpy(bytes + 48, &u8, 8);
    memcpy(ints + 48, &i64, 8);
  }
};
struct GoSlice {
  uint8_t *p;
  uint64_t len, cap;
};
struct GoValue {
  uint8_t *typ;
  void *ptr;
  uint64_t flag;
};

// The red-zone stub at testing's fn.Call(args), run as machine code on
// fake reflect.Values and a fake shadow: every []byte argument held
// indirectly gets cap = len and up to 64 bytes after it poisoned (whole
// granules inside its old capacity; a partial first granule keeps its
// first bytes), other arguments are left alone; then the unpoison prelude
// writes back every shadow byte it recorded.
TEST(RedzoneStub, PoisonsAfterByteSlicesAndUnpoisons) {
  Low code(4096, PROT_READ | PROT_WRITE | PROT_EXEC);
  Low data(1 << 16, PROT_READ | PROT_WRITE);
  Low shadow(1 << 13, PROT_READ | PROT_WRITE);
  Low ctl(4096, PROT_READ | PROT_WRITE);
  ASSERT_TRUE(code.p && data.p && shadow.p && ctl.p);
  // Shadow of a in data: shadow.p + ((a - data.p) >> 3).
  uint32_t off = shadow.addr() - (data.addr() >> 3);
  auto sh = [&](const uint8_t *a) {
    return shadow.p + ((uintptr_t)(a - data.p) >> 3);
  };
  GoTypes ty(data.p);
  uint8_t *bytes = ty.bytes, *ints = ty.ints, *ptr = ty.ptr;
  using Hdr = GoSlice;
  using Value = GoValue;
  uint8_t *buf = data.p + 4096; // each buffer 8-aligned, 1 KiB apart
  Hdr *h = reinterpret_cast<Hdr *>(data.p + 1024);
  h[0] = {buf, 5, 1000};        // room: 5..8 and 7 whole granules
  h[1] = {buf + 1024, 13, 16};  // room in one partial granule only
  h[2] = {buf + 2048, 16, 16};  // no room
  h[3] = {buf + 3072, 8, 1000}; // not indirect: left alone
  h[4] = {buf + 4096, 3, 1000}; // a []int64: left alone
  Value *args = reinterpret_cast<Value *>(data.p + 2048);
  args[0] = {ptr, nullptr, 22};
  args[1] = {bytes, &h[0], 23 | 0x80};
  args[2] = {bytes, &h[1], 23 | 0x80};
  args[3] = {bytes, &h[2], 23 | 0x80};
  args[4] = {bytes, &h[3], 23};
  args[5] = {ints, &h[4], 23 | 0x80};
  uint64_t stub = code.addr() + 0x100, ret = code.addr() + 0x800;
  StubCaller(code);
  cgofuzz_buf b = {};
  ASSERT_EQ(cgofuzz_gobin_redzone_stub(&b, ctl.addr(), off, stub, ret), 0);
  memcpy(code.p + 0x100, b.data, b.len);
  b.len = 0;
  ASSERT_EQ(cgofuzz_gobin_unpoison_stub(&b, ctl.addr()), 0);
  memcpy(code.p + 0x400, b.data, b.len);
  code.p[0x400 + b.len] = 0xc3;
  cgofuzz_buf_free(&b);
  reinterpret_cast<void (*)(Value *, size_t)>(code.p)(args, 6);

  EXPECT_EQ(h[0].cap, 5u);
  EXPECT_EQ(h[1].cap, 13u);
  EXPECT_EQ(h[2].cap, 16u);
  EXPECT_EQ(h[3].cap, 1000u);
  EXPECT_EQ(h[4].cap, 1000u);
  const uint8_t *s0 = sh(buf);
  EXPECT_EQ(s0[0], 5); // bytes 0..4 of the first granule stay addressable
  for (int g = 1; g < 8; g++)
    EXPECT_EQ(s0[g], 0xf7) << g;
  EXPECT_EQ(s0[8], 0); // 64 bytes after the input at most
  EXPECT_EQ(sh(buf + 1024)[0], 0);
  EXPECT_EQ(sh(buf + 1024)[1], 5);
  EXPECT_EQ(sh(buf + 1024)[2], 0);
  EXPECT_EQ(sh(buf + 2048)[2], 0);
  EXPECT_EQ(sh(buf + 3072)[1], 0);
  EXPECT_EQ(sh(buf + 4096)[0], 0);
  EXPECT_EQ(ctl.p[16], 2); // two zones recorded

  reinterpret_cast<void (*)(void)>(code.p + 0x400)();
  for (size_t i = 0; i < shadow.n; i++)
    ASSERT_EQ(shadow.p[i], 0) << i;
  EXPECT_EQ(ctl.p[16], 0);
}

// The args stub at testing's fn.Call(args), run as machine code on fake
// reflect.Values: every []byte argument held indirectly is recorded in the
// control page (data pointer, length, index among the fuzz values, the *T
// not counted), at most four, the count reset first; others are skipped;
// then it jumps on with the registers it was given.
TEST(ArgsStub, RecordsByteSlicesInTheControlPage) {
  Low code(4096, PROT_READ | PROT_WRITE | PROT_EXEC);
  Low data(1 << 16, PROT_READ | PROT_WRITE);
  Low ctl(4096, PROT_READ | PROT_WRITE);
  ASSERT_TRUE(code.p && data.p && ctl.p);
  GoTypes ty(data.p);
  uint8_t *bytes = ty.bytes, *ints = ty.ints, *ptr = ty.ptr;
  using Hdr = GoSlice;
  using Value = GoValue;
  Hdr *h = reinterpret_cast<Hdr *>(data.p + 1024);
  for (int i = 0; i < 8; i++)
    h[i] = {data.p + 4096 + 512 * i, (uint64_t)(10 + i), 1000};
  Value *args = reinterpret_cast<Value *>(data.p + 2048);
  args[0] = {ptr, nullptr, 22};
  args[1] = {bytes, &h[0], 23 | 0x80};
  args[2] = {ints, &h[1], 23 | 0x80}; // a []int64: skipped
  args[3] = {bytes, &h[2], 23};       // not indirect: skipped
  args[4] = {bytes, &h[3], 23 | 0x80};
  args[5] = {bytes, &h[4], 23 | 0x80};
  args[6] = {bytes, &h[5], 23 | 0x80};
  args[7] = {bytes, &h[6], 23 | 0x80}; // a fifth: no room
  ctl.p[CGOFUZZ_CTL_ARGS_N] = 3;       // last call's count: reset
  uint64_t stub = code.addr() + 0x100, ret = code.addr() + 0x800;
  StubCaller(code);
  cgofuzz_buf b = {};
  ASSERT_EQ(cgofuzz_gobin_args_stub(&b, ctl.addr(), stub, ret), 0);
  memcpy(code.p + 0x100, b.data, b.len);
  cgofuzz_buf_free(&b);
  reinterpret_cast<void (*)(Value *, size_t)>(code.p)(args, 8);

  ASSERT_EQ(ctl.p[CGOFUZZ_CTL_ARGS_N], 4);
  const int want[4][2] = {{0, 0}, {3, 3}, {4, 4}, {5, 5}}; // {header, index}
  for (int i = 0; i < 4; i++) {
    uint64_t r[3];
    memcpy(r, ctl.p + CGOFUZZ_CTL_ARGS + CGOFUZZ_CTL_ARG_SIZE * i, sizeof r);
    const Hdr &x = h[want[i][0]];
    EXPECT_EQ(r[0], (uint64_t)(uintptr_t)x.p) << i;
    EXPECT_EQ(r[1], x.len) << i;
    EXPECT_EQ(r[2], (uint64_t)want[i][1]) << i;
  }
  // No argument but the *T: the count is 0.
  reinterpret_cast<void (*)(Value *, size_t)>(code.p)(args, 1);
  EXPECT_EQ(ctl.p[CGOFUZZ_CTL_ARGS_N], 0);
}

} // namespace
#else
TEST(SnapshotStub, NeedsLinuxAmd64) {
  GTEST_SKIP() << "the stub is amd64 code, run here only on linux/amd64";
}
#endif

// A crafted ELF header is refused, not followed: this test binary as an
// ET_EXEC whose first loadable segment claims more file bytes than there
// are (the patcher would copy code from, and write jumps to, outside the
// image).
#if defined(__x86_64__) && defined(__linux__)
#include <elf.h>
#include <fstream>
#include <iterator>

TEST(CmpPatch, RefusesSegmentOutsideTheFile) {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::vector<char> b((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  ASSERT_GT(b.size(), sizeof(Elf64_Ehdr));
  Elf64_Ehdr eh;
  memcpy(&eh, b.data(), sizeof eh);
  eh.e_type = ET_EXEC;
  memcpy(b.data(), &eh, sizeof eh);
  bool changed = false;
  for (size_t i = 0; i < eh.e_phnum && !changed; i++) {
    Elf64_Phdr ph;
    size_t at = eh.e_phoff + i * sizeof ph;
    ASSERT_LE(at + sizeof ph, b.size());
    memcpy(&ph, b.data() + at, sizeof ph);
    if (ph.p_type != PT_LOAD)
      continue;
    ph.p_filesz = ph.p_memsz = b.size(); /* past the end from any offset > 0 */
    ph.p_offset = 4096;
    memcpy(b.data() + at, &ph, sizeof ph);
    changed = true;
  }
  ASSERT_TRUE(changed);
  char dir[] = "/tmp/cgofuzz-cmppatch-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string src = std::string(dir) + "/in", dst = std::string(dir) + "/out";
  {
    std::ofstream out(src, std::ios::binary);
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
  }
  cgofuzz_gobin_patched info;
  cgofuzz_err err = {};
  int rc = cgofuzz_gobin_patch(src.c_str(), dst.c_str(), 0, 4096,
                               CGOFUZZ_GOBIN_PATCH_HOOKS, NULL, &info, &err);
  EXPECT_EQ(rc, -1);
  EXPECT_NE(strstr(err.msg, "lies outside the file"), nullptr) << err.msg;
  unlink(src.c_str());
  unlink(dst.c_str());
  rmdir(dir);
}
#endif

// -panic-on's list and its panics read back (gobin_patch.h).
TEST(Traps, ListSplitsOutsideBracketsOnce) {
  char **names;
  size_t n;
  ASSERT_EQ(cgofuzz_gobin_traps_split(
                "a.F,,m/p.(*T).Error,a.G[go.shape.int,go.shape.string],a.F",
                &names, &n),
            0);
  ASSERT_EQ(n, 3u);
  EXPECT_STREQ(names[0], "a.F");
  EXPECT_STREQ(names[1], "m/p.(*T).Error");
  EXPECT_STREQ(names[2], "a.G[go.shape.int,go.shape.string]");
  cgofuzz_gobin_traps_free(names, n);
  ASSERT_EQ(cgofuzz_gobin_traps_split("", &names, &n), 0);
  EXPECT_EQ(n, 0u);
  cgofuzz_gobin_traps_free(names, n);
}

namespace {
const char *const kTrapNames[] = {"m/log.(*Logger).Info",
                                  "m/log.(*Logger).Error"};
const cgofuzz_gobin_traps kTraps = {kTrapNames, 2};

// Info trapped at its entry; Error at its entry and inlined once, whose
// INT3 Go reports one past it.
cgofuzz_gobin_patched Patched() {
  static cgofuzz_gobin_trapsite site = {0x5e1235, 1};
  cgofuzz_gobin_patched info = {};
  info.traps = 2;
  info.trap_pc[0] = 0x5e7880;
  info.trap_pc[1] = 0x5e75a0;
  info.trap_inlined[1] = 1;
  info.sites = &site;
  info.n_sites = 1;
  return info;
}

int TrapHit(const std::string &msg) {
  cgofuzz_gobin_patched info = Patched();
  return cgofuzz_gobin_trap_hit(msg.data(), msg.size(), &kTraps, &info);
}
} // namespace

TEST(Traps, RecoveredPanicNamesTheFrameAtItsEntry) {
  // testing's report of the fuzz function's panic: no signal line.
  std::string msg =
      "panic: runtime error: invalid memory address or nil pointer "
      "dereference\ngoroutine 7 [running]:\npanic({0x61a4a0?, 0x7f7410?})\n"
      "\t/go/src/runtime/panic.go:860 +0x13a\n"
      "m/log.(*Logger).Error(0xc000010000, {0x6528aa, 0x4})\n"
      "\t/m/log/log.go:18\nm.Parse({0xc000012000, 0x3, 0x8})\n"
      "\t/m/parse.go:17 +0x17e\n";
  EXPECT_EQ(TrapHit(msg), 1);
}

TEST(Traps, SignalLineGivesAddressAndEntry) {
  std::string msg =
      "panic: runtime error: invalid memory address or nil pointer "
      "dereference [recovered]\n[signal SIGSEGV: segmentation violation "
      "code=0x1 addr=0x400 pc=0x5e7880]\n\ngoroutine 8 [running]:\n";
  EXPECT_EQ(TrapHit(msg), 0);
  // Another entry at that address: a fault of the program's own.
  std::string other = msg;
  other.replace(other.find("pc=0x5e7880"), 11, "pc=0x5e7884");
  EXPECT_EQ(TrapHit(other), -1);
}

TEST(Traps, OwnNilDereferenceInsideIsNotACall) {
  // The function's own fault: its frame has an offset past the entry.
  std::string msg =
      "panic: runtime error: invalid memory address or nil pointer "
      "dereference\ngoroutine 7 [running]:\n"
      "m/log.(*Logger).Error(0x0, {0x6528aa, 0x4})\n"
      "\t/m/log/log.go:20 +0x2a\n";
  EXPECT_EQ(TrapHit(msg), -1);
  // Another panic that names the function at its entry is no trap either.
  std::string other = "panic: boom\nm/log.(*Logger).Error(0x0)\n\t/m/x.go:1\n";
  EXPECT_EQ(TrapHit(other), -1);
  // The program's own nil dereference under an inlined copy of it: Go
  // prints the inlined frame "(...)" and without an offset.
  std::string inl = "panic: runtime error: invalid memory address or nil "
                    "pointer dereference\nm/log.(*Logger).Error(...)\n"
                    "\t/m/log/log.go:20\nm.Parse(...)\n\t/m/p.go:3 +0x1d\n";
  EXPECT_EQ(TrapHit(inl), -1);
}

TEST(Traps, InlinedCallsSigtrapIsNamedByItsPC) {
  std::string msg = "SIGTRAP: trace trap\nPC=0x5e1235 m=0 sigcode=128\n\n"
                    "goroutine 7 gp=0xc000003c00 m=0 [running]:\n";
  EXPECT_EQ(TrapHit(msg), 1);
  std::string other = msg;
  other.replace(other.find("0x5e1235"), 8, "0x5e1236");
  EXPECT_EQ(TrapHit(other), -1); // a trap that is not ours
}
