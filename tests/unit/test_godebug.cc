// test_godebug.cc: cgofuzz_godebug_fuzzseed, read by the C workers and the
// coordinator's scheduler alike, against Go's internal/fuzz godebugSeed
// (go1.26.8 pcg.go): the first fuzzseed= setting counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "godebug.h"

namespace {

// The seed, or "unset".
std::string Seed(const char *godebug) {
  uint64_t seed = 99;
  if (!cgofuzz_godebug_fuzzseed(godebug, &seed)) {
    EXPECT_EQ(seed, 0u) << (godebug ? godebug : "(null)");
    return "unset";
  }
  return std::to_string(seed);
}

TEST(Godebug, Fuzzseed) {
  EXPECT_EQ(Seed(nullptr), "unset"); // no GODEBUG at all
  EXPECT_EQ(Seed(""), "unset");
  EXPECT_EQ(Seed("fuzzseed=123"), "123");
  EXPECT_EQ(Seed("gctrace=1,fuzzseed=7"), "7");
  EXPECT_EQ(Seed("fuzzseed=7,gctrace=1"), "7");
  EXPECT_EQ(Seed("fuzzseed=0"), "0"); // zero is a seed, not "unset"
  EXPECT_EQ(Seed("fuzzseed=18446744073709551615"), "18446744073709551615");
  // As Go's godebugSeed (not internal/godebug): the first one wins.
  EXPECT_EQ(Seed("fuzzseed=1,fuzzseed=2"), "1");
  // Go converts a negative int to uint64: the same bits.
  EXPECT_EQ(Seed("fuzzseed=-1"), "18446744073709551615");
}

TEST(Godebug, FuzzseedMustBeItsOwnSetting) {
  EXPECT_EQ(Seed("xfuzzseed=5"), "unset");
  EXPECT_EQ(Seed("fuzzseed"), "unset");
  EXPECT_EQ(Seed("fuzzseedx=5"), "unset");
  EXPECT_EQ(Seed("gctrace=1,,fuzzseedy=3"), "unset");
  // An empty value is not a seed of 0 (Go panics on it); the first setting
  // with a value counts.
  EXPECT_EQ(Seed("fuzzseed="), "unset");
  EXPECT_EQ(Seed("fuzzseed=,fuzzseed=4"), "4");
  // The number ends at the comma.
  EXPECT_EQ(Seed("fuzzseed=12,x=34"), "12");
}

TEST(Godebug, WithFuzzseedKeepsTheOtherSettings) {
  auto with = [](const char *g, uint64_t seed) {
    char *v = cgofuzz_godebug_with_fuzzseed(g, seed);
    std::string r = v ? v : "NULL";
    free(v);
    return r;
  };
  EXPECT_EQ(with(nullptr, 7), "fuzzseed=7");
  EXPECT_EQ(with("", 7), "fuzzseed=7");
  EXPECT_EQ(with("gctrace=1,fuzzseed=3,x=y", 18446744073709551615ull),
            "gctrace=1,x=y,fuzzseed=18446744073709551615");
  EXPECT_EQ(with("fuzzseed=1,,fuzzseed=2", 5), "fuzzseed=5");
}

} // namespace
