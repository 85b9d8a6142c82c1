// test_cgo_mutate.cc: the cgo loop's mutations (csrc/runtime/cgo/cgo_mutate.c):
// lengths stay in bounds, a fixed length is kept, nothing past the room is
// written, the same state makes the same mutants, and the crossover and the
// table of recent compares reach the bytes; the pool of inputs to cross in
// holds each once, within its bounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cgo_loop.h"
#include "cgo_mutate.h"

namespace {

constexpr uint8_t kGuard = 0xa5;
constexpr size_t kGuardLen = 32;

// Runs `steps` stacked mutations from `start` with room for cap, checking
// after each that the length is in [1, cap] (unchanged when fixed) and that
// the guard bytes after the room are intact; returns the bytes.
std::vector<uint8_t> Chain(const std::vector<uint8_t> &start, size_t cap,
                           bool fixed, uint64_t seed, int steps,
                           const cgofuzz_cgo_bytes *others = nullptr,
                           size_t n_others = 0) {
  std::vector<uint8_t> buf(cap + kGuardLen, kGuard);
  std::memcpy(buf.data(), start.data(), start.size());
  uint64_t rng = seed;
  cgofuzz_cgo_mut m = {buf.data(), start.size(), cap,     fixed ? 1 : 0,
                       &rng,       others,       n_others};
  for (int i = 0; i < steps; i++) {
    size_t n = cgofuzz_cgo_mutate(&m);
    EXPECT_EQ(n, m.n);
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, cap);
    if (fixed) {
      EXPECT_EQ(n, start.size());
    }
    for (size_t k = cap; k < buf.size(); k++)
      EXPECT_EQ(buf[k], kGuard) << "step " << i << " wrote past the room";
  }
  return std::vector<uint8_t>(buf.begin(), buf.begin() + m.n);
}

std::vector<uint8_t> Bytes(const char *s) {
  return std::vector<uint8_t>(s, s + std::strlen(s));
}

TEST(CgoMutate, LengthsStayWithinTheRoom) {
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  for (uint64_t seed = 1; seed <= 50; seed++) {
    Chain(Bytes("x"), 1, false, seed, 200);
    Chain(Bytes("hello"), 40, false, seed, 200);
    Chain(Bytes("a longer input of some bytes"), 300, false, seed, 200);
  }
}

TEST(CgoMutate, FixedLengthIsKept) {
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  for (uint64_t seed = 1; seed <= 50; seed++) {
    Chain(Bytes("x"), 1, true, seed, 200);
    Chain(Bytes("hello, world"), 12, true, seed, 200);
  }
}

TEST(CgoMutate, LengthChangesWhenItMay) {
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  bool grew = false, shrank = false;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    size_t n = Chain(Bytes("0123456789"), 64, false, seed, 3).size();
    grew |= n > 10, shrank |= n < 10;
  }
  EXPECT_TRUE(grew && shrank);
}

TEST(CgoMutate, SameStateSameMutants) {
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  auto a = Chain(Bytes("deterministic"), 64, false, 42, 50);
  auto b = Chain(Bytes("deterministic"), 64, false, 42, 50);
  auto c = Chain(Bytes("deterministic"), 64, false, 43, 50);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(CgoMutate, CrossoverTakesPartsOfTheOthers) {
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  uint8_t q[8];
  std::memset(q, 'Q', sizeof q);
  cgofuzz_cgo_bytes other = {q, sizeof q};
  std::vector<uint8_t> zeros(16, 0);
  bool crossed = false;
  for (uint64_t seed = 1; seed <= 20 && !crossed; seed++) {
    auto out = Chain(zeros, 16, true, seed, 20, &other, 1);
    for (uint8_t b : out)
      crossed |= b == 'Q';
  }
  EXPECT_TRUE(crossed);
}

TEST(CgoMutate, RecentCompareOperandReplacesTheOther) {
  // Every slot of the table: the input's 0x11223344 compared with
  // 0xdeadbeef, 4 bytes wide.
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
  for (auto &e : cgofuzz_cgo_torc.ints)
    e.a = 0x11223344, e.b = 0xdeadbeef, e.width = 4;
  std::vector<uint8_t> in = {0, 1, 2, 3, 4, 0x44, 0x33, 0x22, 0x11, 9};
  const uint8_t want[] = {0xef, 0xbe, 0xad, 0xde};
  bool set = false;
  for (uint64_t seed = 1; seed <= 50 && !set; seed++) {
    auto out = Chain(in, in.size(), true, seed, 1);
    set = std::memcmp(out.data() + 5, want, 4) == 0;
  }
  EXPECT_TRUE(set);
  std::memset(&cgofuzz_cgo_torc, 0, sizeof cgofuzz_cgo_torc);
}

TEST(CgoMutate, RandomStateNeverSticksAtZero) {
  uint64_t s = 1;
  for (int i = 0; i < 1000; i++)
    ASSERT_NE(cgofuzz_cgo_rand(&s), 0u);
}

// The pool holds each byte string once, up to its count of entries and its
// bytes, a random entry giving way when full; freed, it is empty.
TEST(CgoPool, HoldsEachInputOnceWithinItsBounds) {
  static cgofuzz_cgo_pool pool; // 16 KB: not on the stack
  uint64_t rng = 7;
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)"abc", 3, &rng), 1);
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)"abc", 3, &rng), 0);
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)"abd", 3, &rng), 1);
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)"ab", 2, &rng), 1);
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)"", 0, &rng), 1);
  EXPECT_EQ(pool.n, 4u);
  EXPECT_EQ(pool.bytes, 8u);
  for (uint32_t i = 0; i < 3 * CGOFUZZ_CGO_POOL_MAX; i++)
    ASSERT_EQ(cgofuzz_cgo_pool_add(&pool, (const uint8_t *)&i, sizeof i, &rng),
              1);
  EXPECT_EQ(pool.n, (size_t)CGOFUZZ_CGO_POOL_MAX);
  size_t total = 0, old = 0;
  for (size_t i = 0; i < pool.n; i++) {
    total += pool.e[i].n;
    uint32_t v = 0;
    if (pool.e[i].n == sizeof v) {
      std::memcpy(&v, pool.e[i].b, sizeof v);
      old += v < 2 * CGOFUZZ_CGO_POOL_MAX;
    }
  }
  EXPECT_EQ(pool.bytes, total);
  EXPECT_GT(old, 0u) << "random eviction keeps some older entries";
  // The byte bound: entries of a quarter of it, four at most.
  std::vector<uint8_t> big(CGOFUZZ_CGO_POOL_BYTES / 4);
  for (uint8_t k = 0; k < 6; k++) {
    big[0] = k;
    ASSERT_EQ(cgofuzz_cgo_pool_add(&pool, big.data(), big.size(), &rng), 1);
    EXPECT_LE(pool.bytes, (size_t)CGOFUZZ_CGO_POOL_BYTES);
  }
  big.resize(CGOFUZZ_CGO_POOL_BYTES + 1);
  EXPECT_EQ(cgofuzz_cgo_pool_add(&pool, big.data(), big.size(), &rng), 0);
  cgofuzz_cgo_pool_free(&pool);
  EXPECT_EQ(pool.n, 0u);
  EXPECT_EQ(pool.bytes, 0u);
}

} // namespace
