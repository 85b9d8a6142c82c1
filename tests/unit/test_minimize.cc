// test_minimize.cc: the byte minimizer against Go's minimizeBytes
// (go1.26.8): same final value and the same number of try() calls.
#include <gtest/gtest.h>

#include <string>

#include "minimize.h"

namespace {

struct Ctx {
  int tries = 0;
  int limit = 0; // stop once tries >= limit (0: never)
  bool (*pred)(const uint8_t *, size_t) = nullptr;
};

bool try_fn(void *p, const uint8_t *c, size_t n) {
  Ctx *ctx = static_cast<Ctx *>(p);
  ctx->tries++;
  return ctx->pred(c, n);
}

bool stop_fn(void *p) {
  Ctx *ctx = static_cast<Ctx *>(p);
  return ctx->limit > 0 && ctx->tries >= ctx->limit;
}

std::string run(std::string in, Ctx *ctx) {
  size_t n = cgofuzz_minimize_bytes(reinterpret_cast<uint8_t *>(&in[0]),
                                    in.size(), try_fn, stop_fn, ctx);
  EXPECT_NE(n, (size_t)-1);
  return in.substr(0, n);
}

} // namespace

TEST(MinimizeTest, TwoQsMatchesGo) {
  Ctx ctx;
  ctx.pred = [](const uint8_t *c, size_t n) {
    int q = 0;
    for (size_t i = 0; i < n; i++)
      q += c[i] == 'Q';
    return q >= 2;
  };
  std::string in("xxxxxxxxxxQxxxxxxxxxyyyyyyyyyyyyyyyyQ\x00\x01\x02", 40);
  EXPECT_EQ(run(in, &ctx), "QQ");
  EXPECT_EQ(ctx.tries, 109);
}

TEST(MinimizeTest, StopLimitMatchesGo) {
  // Go polls shouldStop only between candidates of phases 1-3 and between
  // bytes of phase 4, so 40 allowed tries become 53.
  Ctx ctx;
  ctx.limit = 40;
  ctx.pred = [](const uint8_t *c, size_t n) {
    return n >= 3 && c[n - 1] == '!';
  };
  EXPECT_EQ(run("hello, minimizer world!!", &ctx), "00!");
  EXPECT_EQ(ctx.tries, 53);
}

TEST(MinimizeTest, NothingInterestingLeavesValue) {
  Ctx ctx;
  ctx.pred = [](const uint8_t *, size_t) { return false; };
  EXPECT_EQ(run("abc", &ctx), "abc");
  // Go: 2 tail cuts, 2 single removals, 3 range removals and 32
  // printable characters for each of the 3 bytes (103 tries).
  EXPECT_EQ(ctx.tries, 2 + 2 + 3 + 3 * 32);
}

TEST(MinimizeTest, EverythingInterestingEmptiesValue) {
  Ctx ctx;
  ctx.pred = [](const uint8_t *, size_t) { return true; };
  // Tail cuts stop at one byte; then '0' replaces it. 10 cuts + 1.
  EXPECT_EQ(run(std::string(3000, 'z'), &ctx), "0");
  EXPECT_EQ(ctx.tries, 11);
}

TEST(MinimizeTest, EmptyInput) {
  Ctx ctx;
  ctx.pred = [](const uint8_t *, size_t) { return true; };
  EXPECT_EQ(run("", &ctx), "");
  EXPECT_EQ(ctx.tries, 0);
}
