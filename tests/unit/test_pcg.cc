// test_pcg.cc: the PCG generator against outputs of Go's pcgRand
// (go1.26.8 internal/fuzz), including uint32n's rejection loop.
#include <gtest/gtest.h>

#include "pcg.h"

TEST(PcgTest, SeedMatchesGo) {
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, 12345, 1);
  EXPECT_EQ(r.state, 4243821688421853040ULL);
  EXPECT_EQ(r.inc, 3ULL);
}

TEST(PcgTest, U32SequenceMatchesGo) {
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, 12345, 1);
  const uint32_t want[] = {2159625979u, 4087394782u, 1753339259u,
                           3625705142u, 4175907801u, 3882121400u};
  for (uint32_t w : want)
    EXPECT_EQ(cgofuzz_pcg_u32(&r), w);
}

TEST(PcgTest, U32nMatchesGoIncludingZero) {
  cgofuzz_pcg r;
  cgofuzz_pcg_seed(&r, 12345, 1);
  for (int i = 0; i < 6; i++)
    cgofuzz_pcg_u32(&r);
  struct {
    uint32_t n, want;
    uint64_t state_after;
  } cases[] = {
      {0, 0, 5668558223841064169ULL}, // one draw, result 0
      {1, 0, 1552612199977133048ULL},
      {3, 0, 6715740578498042523ULL},
      {100, 83, 10657112436408242754ULL},
      {2147483649u, 16572888, 16767405292103047552ULL},
      {4294967295u, 2985323231u, 13314937993718889347ULL},
      {2415919104u, 1538580241u, 12761026557452971991ULL},
  };
  for (auto &c : cases) {
    EXPECT_EQ(cgofuzz_pcg_u32n(&r, c.n), c.want) << c.n;
    EXPECT_EQ(r.state, c.state_after) << c.n;
  }
  // Go's bool() is true for an even output.
  for (int i = 0; i < 4; i++)
    EXPECT_TRUE(cgofuzz_pcg_bool(&r));
}

TEST(PcgTest, U32nRejectionLoopConsumesExtraDraws) {
  // From state 1, inc 3, Go's uint32n(0xC0000001) rejects its first draw.
  cgofuzz_pcg r, one;
  cgofuzz_pcg_restore(&r, 1, 3);
  cgofuzz_pcg_restore(&one, 1, 3);
  cgofuzz_pcg_u32(&one);
  EXPECT_EQ(cgofuzz_pcg_u32n(&r, 0xC0000001u), 2878404006u);
  EXPECT_EQ(r.state, 8166562322141162355ULL);
  EXPECT_NE(r.state, one.state);
}
