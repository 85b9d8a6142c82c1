// test_sched.cc: the coordinator's energy scheduler (coord_sched.c) against
// the formula documented in coord_internal.h: every pick weighted (new
// entries are not queued), favouring rare coverage, recent finds and
// unfatigued entries, reproducible for a given seed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "coord_internal.h"
}

namespace {

// The constants of coord_sched.c, restated so that a change to them is a
// deliberate change to these tests too.
constexpr double kRecencyMs = 10000.0;
constexpr double kFatigueCalls = 256.0;
constexpr double kRedundant = 0.125;
constexpr double kUntried = 64.0;
constexpr double kFocus = 8.0;

struct Sched {
  cgofuzz_coord_sched s{};
  Sched() = default;
  Sched(const Sched &) = delete;
  Sched &operator=(const Sched &) = delete;
  ~Sched() { cgofuzz_coord_sched_free(&s); }

  // Records that entry i hits exactly the coverage bytes in bytes (of a
  // snapshot of len bytes).
  void Cov(size_t i, std::vector<size_t> bytes, size_t len = 16) {
    std::vector<uint8_t> snap(len, 0);
    for (size_t b : bytes)
      snap[b] = 1;
    ASSERT_EQ(cgofuzz_coord_sched_set_cov(&s, i, snap.data(), snap.size()), 0);
  }

  // Makes n entries that all hit coverage byte 0 alone: the same rarity,
  // so only the factor a test looks at sets them apart.
  void Alike(size_t n) {
    ASSERT_EQ(cgofuzz_coord_sched_grow(&s, n, 0), 0);
    for (size_t i = 0; i < n; i++)
      Cov(i, {0});
  }

  // Gives every entry one call (as if each had been fuzzed once), so that
  // the formulas below all carry the same fatigue of 1 + 1/256.
  void OneCallEach() {
    for (size_t i = 0; i < s.n; i++)
      s.e[i].calls = 1;
    s.dirty = true;
  }

  std::vector<size_t> Picks(int k, int64_t now) {
    std::vector<size_t> out;
    for (int i = 0; i < k; i++)
      out.push_back(cgofuzz_coord_sched_pick(&s, now));
    return out;
  }
};

// The recency factor of an entry whose last find is age ms old.
double Recency(double age) { return 1 + 3 * kRecencyMs / (kRecencyMs + age); }

TEST(Sched, EmptyCorpusPicksZero) {
  Sched s;
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 0u);
  EXPECT_EQ(cgofuzz_coord_sched_grow(&s.s, 0, 0), 0);
  EXPECT_EQ(s.s.n, 0u);
}

TEST(Sched, NewEntriesAreWeighedNotQueued) {
  // An old entry with rare coverage keeps its share while new entries
  // arrive: they are not handed out first (a queue of new entries that
  // never emptied starved Magma's libpng PLTE seed), though each weighs
  // x64 until its first call, so it gets one soon.
  Sched s;
  cgofuzz_coord_sched_seed(&s.s, 1);
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0, 1});
  s.Cov(1, {0, 9}); // byte 9: only entry 1
  std::vector<int> count(12);
  for (size_t k = 2; k < 12; k++) {
    // Each round a new entry arrives, sharing entry 0's coverage.
    ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, k + 1, 0), 0);
    s.Cov(k, {0, 1});
    for (size_t p : s.Picks(10, 0))
      count[p]++;
  }
  // 100 picks; entry 1's rare byte makes it the heaviest of the tried
  // entries (relative rarity 1.33 against 0.83 each for the others with 3
  // entries, the clamp's 4 against 0.7 with 12), and the round's new entry
  // takes most of the round's first picks until its first call ends its
  // bonus. Exact for this seed: a change of generator must check entry 1
  // still gets about a third, and every new entry its turn.
  EXPECT_EQ(count[1], 35);
  int later = 0;
  for (size_t k = 2; k < 12; k++) {
    EXPECT_GE(count[k], 1) << k;
    later += count[k];
  }
  EXPECT_EQ(later + count[0] + count[1], 100);
  // Growing to a smaller or equal size changes nothing.
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 3, 0), 0);
  EXPECT_EQ(s.s.n, 12u);
  // Each pick counts as a call of its entry; a weighted-only pick
  // (a built value's base) does not.
  uint64_t calls = 0;
  for (size_t i = 0; i < s.s.n; i++)
    calls += s.s.e[i].calls;
  EXPECT_EQ(calls, 100u);
  cgofuzz_coord_sched_pick_weighted(&s.s, 0);
  calls = 0;
  for (size_t i = 0; i < s.s.n; i++)
    calls += s.s.e[i].calls;
  EXPECT_EQ(calls, 100u);
}

TEST(Sched, GrowSurvivesReallocation) {
  // 64 is the first capacity: go past it and check old entries survive.
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 3, 0), 0);
  s.Cov(2, {5, 7});
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 200, 5), 0);
  EXPECT_GE(s.s.cap, 200u);
  ASSERT_EQ(s.s.e[2].n_feat, 2u);
  EXPECT_EQ(s.s.e[2].feat[0], 5u);
  EXPECT_EQ(s.s.e[2].feat[1], 7u);
  EXPECT_EQ(s.s.e[2].last_find_ms, 0);
  EXPECT_EQ(s.s.e[199].n_feat, 0u);
  EXPECT_EQ(s.s.e[199].last_find_ms, 5);
  for (size_t i = 0; i < 200; i++)
    ASSERT_LT(cgofuzz_coord_sched_pick(&s.s, 5), 200u);
}

TEST(Sched, SetCovReplacesFeaturesAndHitCounts) {
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {1, 2}, 4);
  s.Cov(1, {2, 3}, 4);
  EXPECT_EQ(std::vector<uint32_t>(s.s.hits, s.s.hits + 4),
            (std::vector<uint32_t>{0, 1, 2, 1}));
  // A new snapshot of entry 0 (its coverage changed): its old bytes no
  // longer count, and a longer snapshot extends the table with zeros.
  s.Cov(0, {3, 6}, 8);
  EXPECT_EQ(std::vector<uint32_t>(s.s.hits, s.s.hits + 8),
            (std::vector<uint32_t>{0, 0, 1, 2, 0, 0, 1, 0}));
  // A snapshot with nothing set leaves the entry with no features.
  s.Cov(1, {}, 8);
  EXPECT_EQ(s.s.e[1].n_feat, 0u);
  EXPECT_EQ(std::vector<uint32_t>(s.s.hits, s.s.hits + 8),
            (std::vector<uint32_t>{0, 0, 0, 1, 0, 0, 1, 0}));
  uint8_t snap[1] = {1};
  EXPECT_EQ(cgofuzz_coord_sched_set_cov(&s.s, 2, snap, 1), -1); // no entry 2
}

TEST(Sched, WeightsFollowTheFormula) {
  // A and B share byte 0; C alone hits byte 1. Rarity: A = B = 1/2,
  // C = 1; mean 2/3, so relative rarity 3/4, 3/4, 3/2.
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 3, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {0});
  s.Cov(2, {1});
  s.OneCallEach();
  cgofuzz_coord_sched_seed(&s.s, 7);
  cgofuzz_coord_sched_pick(&s.s, 0); // recomputes: the corpus changed
  // Everything was added at time 0 (x4 recency) and each entry had one
  // call since (the first round).
  double fat = 1 + 1 / kFatigueCalls;
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 0.75 * 4 / fat);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 0.75 * 4 / fat);
  EXPECT_DOUBLE_EQ(s.s.e[2].weight, 1.5 * 4 / fat);
  EXPECT_DOUBLE_EQ(s.s.total, 3 * 4 / fat);
  EXPECT_EQ(s.s.computed_ms, 0);
  EXPECT_FALSE(s.s.dirty);
}

TEST(Sched, RarityIsClampedAndEntriesWithoutCoverageCountOne) {
  // 16 entries share bytes 0..3 (rarity 4/16 each); one entry alone hits
  // bytes 4..11 (rarity 8): far above the mean, so it is clamped to 4;
  // the shared ones are clamped to 1/4. An entry without recorded
  // coverage counts as average (1), whatever the others do.
  Sched s;
  const size_t n = 18;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, n, 0), 0);
  for (size_t i = 0; i < 16; i++)
    s.Cov(i, {0, 1, 2, 3});
  s.Cov(16, {4, 5, 6, 7, 8, 9, 10, 11});
  s.OneCallEach();
  cgofuzz_coord_sched_seed(&s.s, 7);
  cgofuzz_coord_sched_pick(&s.s, 0);
  // mean = (16 * 0.25 + 8) / 17 = 12/17: shared 0.25 / mean = 17/48
  // (not clamped), the rare one 8 / mean = 11.33 -> 4.
  double k = 4 / (1 + 1 / kFatigueCalls);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 17.0 / 48 * k);
  EXPECT_DOUBLE_EQ(s.s.e[16].weight, 4 * k);
  EXPECT_DOUBLE_EQ(s.s.e[17].weight, 1 * k);

  // Lower clamp: 40 entries share byte 0 and one hits 8 bytes alone:
  // mean = (40/40 + 8)/41, shared = (1/40)/mean = 41/360 < 1/4.
  Sched t;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&t.s, 41, 0), 0);
  for (size_t i = 0; i < 40; i++)
    t.Cov(i, {0});
  t.Cov(40, {1, 2, 3, 4, 5, 6, 7, 8});
  t.OneCallEach();
  cgofuzz_coord_sched_seed(&t.s, 7);
  cgofuzz_coord_sched_pick(&t.s, 0);
  EXPECT_DOUBLE_EQ(t.s.e[0].weight, 0.25 * k);
  EXPECT_DOUBLE_EQ(t.s.e[40].weight, 4 * k);
}

TEST(Sched, RareCoverageIsPickedMoreOften) {
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 3, 0), 0);
  s.Cov(0, {0, 1});
  s.Cov(1, {0, 1});
  s.Cov(2, {2, 3}); // same amount of coverage, but nobody else has it
  s.OneCallEach();
  cgofuzz_coord_sched_seed(&s.s, 12345);
  // Weights stay fixed while the time does not move and nothing is found
  // (no recompute), so this samples 1 : 1 : 2 exactly.
  std::vector<int> count(3);
  for (size_t p : s.Picks(4000, 0))
    count[p]++;
  // Expected 1000 : 1000 : 2000. The seed makes the counts exact; if the
  // generator changes, check the new counts are still near that split.
  EXPECT_EQ(count, (std::vector<int>{1040, 1004, 1956}));
}

TEST(Sched, RecentFindsWeighMore) {
  // Same coverage for both; entry 1 just found something, entry 0's last
  // find (its addition) is 50 s old.
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {0});
  s.OneCallEach();
  cgofuzz_coord_sched_found(&s.s, 1, 50000);
  cgofuzz_coord_sched_seed(&s.s, 3);
  cgofuzz_coord_sched_pick(&s.s, 50000);
  // The find also reset entry 1's fatigue (calls_at_find = calls).
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, Recency(50000) / (1 + 1 / kFatigueCalls));
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, Recency(0));
  EXPECT_DOUBLE_EQ(Recency(0), 4.0);
  EXPECT_DOUBLE_EQ(Recency(50000), 1.5);
  // A find of an entry out of range is ignored.
  cgofuzz_coord_sched_found(&s.s, 9, 1);
  // A minute later entry 1's bonus has decayed to Recency(60 s); entry 0
  // found something "in the future" (clock skew), which counts as age 0.
  uint64_t calls1 = s.s.e[1].calls - s.s.e[1].calls_at_find;
  cgofuzz_coord_sched_found(&s.s, 0, 200000);
  cgofuzz_coord_sched_pick(&s.s, 110000);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 4.0);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight,
                   Recency(60000) / (1 + (double)calls1 / kFatigueCalls));
}

TEST(Sched, FatigueLowersAndAFindRestores) {
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {0});
  s.OneCallEach();
  // Entry 0 has been fuzzed 512 more times without finding anything:
  // divided by 1 + 513/256; entry 1 by 1 + 1/256.
  s.s.e[0].calls += 512;
  s.s.dirty = true;
  cgofuzz_coord_sched_seed(&s.s, 5);
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 4 / (1 + 513 / kFatigueCalls));
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4 / (1 + 1 / kFatigueCalls));
  // Never below 1/16 of its energy, however long it went without a find.
  s.s.e[0].calls += 1000000;
  s.s.dirty = true;
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 4.0 / 16);
  // A find resets the fatigue.
  cgofuzz_coord_sched_found(&s.s, 0, 0);
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 4.0);
}

TEST(Sched, RedundantEntriesWeighLess) {
  // Entries 1 and 3 added no coverage in the warm-up: their weight is an
  // eighth of the formula's, until one of them is the parent of a find.
  Sched s;
  s.Alike(5);
  cgofuzz_coord_sched_redundant(&s.s, 1);
  cgofuzz_coord_sched_redundant(&s.s, 3);
  for (size_t i : {0, 2, 4})
    s.s.e[i].calls = 1;
  cgofuzz_coord_sched_seed(&s.s, 3);
  cgofuzz_coord_sched_pick(&s.s, 0);
  double fat1 = 1 + 1 / kFatigueCalls;
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4 * kRedundant);
  EXPECT_DOUBLE_EQ(s.s.e[2].weight, 4 / fat1);
  s.s.e[1].calls = 1; // a parent of a find has been fuzzed
  cgofuzz_coord_sched_found(&s.s, 1, 0);
  EXPECT_FALSE(s.s.e[1].redundant);
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4.0);
  // Out of range: ignored.
  cgofuzz_coord_sched_redundant(&s.s, 99);
}

TEST(Sched, EntriesReachingFocusCountersWeighMore) {
  // -focus: coverage byte 3 is in changed code; entry 1 hits it beside
  // byte 0, entry 0 only byte 0. In the rarity sum byte 3 counts kFocus
  // times: entry 1's is 1/2 + 8.
  Sched s;
  uint8_t focus[16] = {0};
  focus[3] = 1;
  s.s.focus = focus;
  s.s.focus_len = sizeof focus;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {0, 3});
  EXPECT_FALSE(s.s.e[0].focus);
  EXPECT_TRUE(s.s.e[1].focus);
  s.OneCallEach();
  cgofuzz_coord_sched_pick(&s.s, 0);
  double r0 = 0.5, r1 = 0.5 + kFocus, mean = (r0 + r1) / 2;
  double fat1 = 1 + 1 / kFatigueCalls;
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 4 * std::max(0.25, r0 / mean) / fat1);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4 * std::min(4.0, r1 / mean) / fat1);
  EXPECT_GT(s.s.e[1].weight, 7 * s.s.e[0].weight);
  // New coverage that leaves the focus clears the flag.
  s.Cov(1, {0, 2});
  EXPECT_FALSE(s.s.e[1].focus);
}

TEST(Sched, FailingEntriesAreNeverPickedWhileOthersCanBe) {
  // Entry 1 fails when run (a run that goes on after failures): it
  // weighs nothing.
  Sched s;
  s.Alike(3);
  cgofuzz_coord_sched_failing(&s.s, 1);
  cgofuzz_coord_sched_seed(&s.s, 7);
  for (int k = 0; k < 200; k++)
    EXPECT_NE(cgofuzz_coord_sched_pick(&s.s, 0), 1u);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 0.0);
  // Out of range: ignored.
  cgofuzz_coord_sched_failing(&s.s, 99);
}

TEST(Sched, SlowEntriesWeighLessFastOnesMore) {
  // AFL's steps on an entry's time per exec against the mean of the timed
  // entries' (not an exec-weighted mean). Five entries, same coverage:
  // four at 100 ns per exec and one at 1000: the mean is 280 ns, so the
  // slow one is at 3.6x (x1/4) and the others at 0.36x (x1.5). An entry
  // never timed counts as 1.
  // (Each has run 256 execs or more: none keeps its untried bonus; 5 has
  // a second call in flight.)
  Sched s;
  s.Alike(6);
  s.OneCallEach();
  for (size_t i = 0; i < 4; i++)
    cgofuzz_coord_sched_timed(&s.s, i, 500, 50000);
  cgofuzz_coord_sched_timed(&s.s, 4, 300, 300000);
  cgofuzz_coord_sched_timed(&s.s, 9, 10, 10000); // out of range: ignored
  cgofuzz_coord_sched_timed(&s.s, 5, 0, 10000);  // no execs: not timed
  EXPECT_EQ(s.s.e[5].execs, 0u);
  EXPECT_EQ(s.s.e[5].ns, 0);
  s.s.e[5].calls = 2;
  cgofuzz_coord_sched_seed(&s.s, 3);
  cgofuzz_coord_sched_pick(&s.s, 0);
  double k = 4 / (1 + 1 / kFatigueCalls);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 1.5 * k);
  EXPECT_DOUBLE_EQ(s.s.e[4].weight, 0.25 * k);
  EXPECT_DOUBLE_EQ(s.s.e[5].weight, 4 / (1 + 2 / kFatigueCalls));
  // The steps further out: 100 ns against a mean dragged to (4x100 +
  // 1000 + 5000)/6 = 1067 ns is under a tenth: x3; 5000 is over 4x: x1/10.
  cgofuzz_coord_sched_timed(&s.s, 5, 256, 256 * 5000);
  s.s.dirty = true;
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[0].weight, 3 * k);
  EXPECT_DOUBLE_EQ(s.s.e[5].weight, 0.1 * 4 / (1 + 2 / kFatigueCalls));
}

TEST(Sched, UntriedEntriesWeighMoreUntilTheirFirstCall) {
  // An entry never picked weighs x64 (a new find's next step, e.g. the
  // next byte of a magic that comparison feedback solves from it, comes
  // from fuzzing it soon); a redundant one gets no bonus; the first pick
  // of an entry ends its bonus at once (the weights are recomputed), for
  // as long as the call is in flight.
  Sched s;
  s.Alike(3);
  s.s.e[0].calls = 1;
  cgofuzz_coord_sched_redundant(&s.s, 2);
  cgofuzz_coord_sched_seed(&s.s, 11);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 1u); // 256 against 4/(1+1/256)
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4 * kUntried);
  EXPECT_DOUBLE_EQ(s.s.e[2].weight, 4 * kRedundant);
  EXPECT_TRUE(s.s.dirty);
  cgofuzz_coord_sched_pick(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[1].weight, 4 / (1 + 1 / kFatigueCalls));
}

TEST(Sched, UntriedBonusLastsUntilAFullTurn) {
  // A call that ends at a find after a few execs (every call, early in a
  // run) does not use the turn up: the bonus is back once it answers, and
  // ends for good after 256 execs or one slice (10 ms) of them; while a
  // call of the entry is in flight it has none (another worker would pick
  // it too).
  Sched s;
  s.Alike(3);
  cgofuzz_coord_sched_seed(&s.s, 11);
  size_t x = cgofuzz_coord_sched_pick(&s.s, 0);
  cgofuzz_coord_sched_pick_weighted(&s.s, 0); // recomputes
  EXPECT_DOUBLE_EQ(s.s.e[x].weight, 4 / (1 + 1 / kFatigueCalls));
  cgofuzz_coord_sched_timed(&s.s, x, 3, 100000); // ended at a find
  EXPECT_TRUE(s.s.dirty);
  cgofuzz_coord_sched_pick_weighted(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[x].weight, 4 * kUntried / (1 + 1 / kFatigueCalls));
  s.s.e[x].calls++; // picked again (as cgofuzz_coord_sched_pick does)
  s.s.dirty = true;
  cgofuzz_coord_sched_timed(&s.s, x, 253, 2000000); // 256 execs in all
  cgofuzz_coord_sched_pick_weighted(&s.s, 0);
  EXPECT_DOUBLE_EQ(s.s.e[x].weight, 4 / (1 + 2 / kFatigueCalls));
  size_t y = (x + 1) % 3;
  s.s.e[y].calls++; // picked (as cgofuzz_coord_sched_pick does)
  s.s.dirty = true;
  cgofuzz_coord_sched_timed(&s.s, y, 100, 10000000); // one slice, slower
  cgofuzz_coord_sched_pick_weighted(&s.s, 0);
  // (its time per exec is under twice the mean: no speed factor)
  EXPECT_DOUBLE_EQ(s.s.e[y].weight, 4 / (1 + 1 / kFatigueCalls));
}

TEST(Sched, SeedsTakeAFirstTurnInOrder) {
  // Seeds (f.Add, testdata) are picked in order, one call of each at a
  // time, before any weighted pick, until each ran 1024 execs or 250 ms;
  // calls that end at a find after a few execs do not end the turn. A
  // new entry, however heavy, waits; a failing seed leaves the turn.
  Sched s;
  s.Alike(5);
  cgofuzz_coord_sched_first(&s.s, 0);
  cgofuzz_coord_sched_first(&s.s, 2);
  cgofuzz_coord_sched_first(&s.s, 3);
  s.Cov(4, {1, 2, 3}); // rare coverage: the weighted pick's favourite
  cgofuzz_coord_sched_seed(&s.s, 5);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 0u);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 2u); // 0's call in flight
  cgofuzz_coord_sched_timed(&s.s, 0, 10, 1000000);  // ended at a find
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 0u);
  cgofuzz_coord_sched_timed(&s.s, 0, 1014, 9000000); // 1024 in all
  cgofuzz_coord_sched_failing(&s.s, 2);
  cgofuzz_coord_sched_timed(&s.s, 2, 5, 100000);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 3u);
  cgofuzz_coord_sched_timed(&s.s, 3, 100, 250000000); // its 250 ms
  EXPECT_EQ(s.s.first_left, 0u);
  // The turns over, picks are weighted again (4 of 20 seeded picks or more
  // go to entry 4, whose rarity is 4 times the others').
  auto p = s.Picks(20, 0);
  EXPECT_GE(std::count(p.begin(), p.end(), 4u), 4);
}

TEST(Sched, ManySeedsShareTheFirstTurnsTime) {
  // 2 s in all: with 40 seeds each has 50 ms, not 250.
  Sched s;
  s.Alike(40);
  for (size_t i = 0; i < 40; i++)
    cgofuzz_coord_sched_first(&s.s, i);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 0u);
  cgofuzz_coord_sched_timed(&s.s, 0, 10, 50000000);
  EXPECT_EQ(cgofuzz_coord_sched_pick(&s.s, 0), 1u);
  EXPECT_EQ(s.s.first_left, 39u);
}

TEST(Sched, FatiguedEntryYieldsToOthers) {
  // Picked many times with nothing found, an entry's share falls; the
  // weights are recomputed every 500 ms of scheduler time.
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {0});
  s.OneCallEach();
  s.s.e[0].calls += 4096; // fatigue 16 against about 1
  s.s.dirty = true;
  cgofuzz_coord_sched_seed(&s.s, 99);
  std::vector<int> count(2);
  for (size_t p : s.Picks(1700, 0))
    count[p]++;
  // Expected 100 : 1600; exact for this seed (see above).
  EXPECT_EQ(count, (std::vector<int>{117, 1583}));
}

TEST(Sched, WeightsAreCachedFor500ms) {
  Sched s;
  ASSERT_EQ(cgofuzz_coord_sched_grow(&s.s, 2, 0), 0);
  s.Cov(0, {0});
  s.Cov(1, {1});
  s.OneCallEach();
  cgofuzz_coord_sched_seed(&s.s, 1);
  cgofuzz_coord_sched_pick(&s.s, 1000);
  EXPECT_EQ(s.s.computed_ms, 1000);
  cgofuzz_coord_sched_pick(&s.s, 1499); // within the 500 ms: no recompute
  EXPECT_EQ(s.s.computed_ms, 1000);
  cgofuzz_coord_sched_pick(&s.s, 1500);
  EXPECT_EQ(s.s.computed_ms, 1500);
  s.Cov(1, {1, 2}); // new coverage: recomputed at once
  cgofuzz_coord_sched_pick(&s.s, 1600);
  EXPECT_EQ(s.s.computed_ms, 1600);
}

TEST(Sched, MinimizingInterestingInputsHasAShare) {
  // New interesting inputs are minimized within a fifth of the workers'
  // time since the start, from the start: what is left is the allowance.
  coord c{};
  c.start_ms = 1000;
  c.np = 1;
  EXPECT_EQ(cgofuzz_coord_min_allowance(&c, 1000), 0);      // nothing yet
  EXPECT_EQ(cgofuzz_coord_min_allowance(&c, 1001), 200000); // 1 ms: 0.2 ms
  c.min_ns = 2000000000; // 2 s: a fifth of 10 s of one worker
  EXPECT_LT(cgofuzz_coord_min_allowance(&c, 1000 + 9999), 0);
  EXPECT_EQ(cgofuzz_coord_min_allowance(&c, 1000 + 10000), 0);
  EXPECT_EQ(cgofuzz_coord_min_allowance(&c, 1000 + 11000), 200000000);
  c.np = 2; // two workers: 5 s of the run are 10 s of theirs
  EXPECT_EQ(cgofuzz_coord_min_allowance(&c, 1000 + 5000), 0);
  EXPECT_LT(cgofuzz_coord_min_allowance(&c, 1000 + 4999), 0);
}

std::vector<size_t> SeededRun(uint64_t seed, bool use_seed = true) {
  Sched s;
  if (use_seed)
    cgofuzz_coord_sched_seed(&s.s, seed);
  EXPECT_EQ(cgofuzz_coord_sched_grow(&s.s, 8, 0), 0);
  for (size_t i = 0; i < 8; i++)
    s.Cov(i, {i, i + 1, (i * 3) % 16});
  std::vector<size_t> out = s.Picks(300, 100);
  cgofuzz_coord_sched_found(&s.s, 3, 200);
  std::vector<size_t> more = s.Picks(300, 900);
  out.insert(out.end(), more.begin(), more.end());
  return out;
}

TEST(Sched, SameSeedSameChoices) {
  std::vector<size_t> a = SeededRun(42), b = SeededRun(42);
  EXPECT_EQ(a, b);
  // Every entry gets picked: the sequence is not degenerate.
  for (size_t i = 0; i < 8; i++)
    EXPECT_NE(std::find(a.begin() + 8, a.end(), i), a.end()) << i;
  // Another seed, even an adjacent one, gives other choices.
  EXPECT_NE(SeededRun(43), a);
  EXPECT_NE(SeededRun(0), a);
  EXPECT_EQ(SeededRun(0), SeededRun(0)); // seed 0 is a seed like any other
}

// Sets GODEBUG for the scope of one test and restores it.
struct Godebug {
  std::string old;
  bool had;
  explicit Godebug(const char *v) {
    const char *o = getenv("GODEBUG");
    had = o != nullptr;
    if (had)
      old = o;
    if (v)
      setenv("GODEBUG", v, 1);
    else
      unsetenv("GODEBUG");
  }
  ~Godebug() {
    if (had)
      setenv("GODEBUG", old.c_str(), 1);
    else
      unsetenv("GODEBUG");
  }
};

TEST(Sched, HonoursGodebugFuzzseed) {
  std::vector<size_t> want = SeededRun(1234);
  {
    Godebug g("gctrace=0,fuzzseed=1234,x=1");
    EXPECT_EQ(SeededRun(0, false), want);
    EXPECT_EQ(SeededRun(0, false), want);
  }
  {
    Godebug g("fuzzseed=1235");
    EXPECT_NE(SeededRun(0, false), want);
  }
  // An explicit seed wins over the environment.
  {
    Godebug g("fuzzseed=1");
    EXPECT_EQ(SeededRun(1234), want);
  }
}

TEST(Sched, WithoutFuzzseedSeedsDifferently) {
  // Unseeded schedulers seed from their own address: two live at once
  // (different addresses) choose differently.
  Godebug g("gctrace=0");
  Sched a, b;
  for (Sched *s : {&a, &b}) {
    ASSERT_EQ(cgofuzz_coord_sched_grow(&s->s, 8, 0), 0);
    for (size_t i = 0; i < 8; i++)
      s->Cov(i, {i});
  }
  EXPECT_NE(a.Picks(200, 0), b.Picks(200, 0));
}

} // namespace
