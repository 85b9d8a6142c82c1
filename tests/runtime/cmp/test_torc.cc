// test_torc.cc: the table of recent compares (csrc/runtime/torc.c), the
// value profile and the comparison-guided mutations and auto-dictionary
// (csrc/runtime/dict.c), through the sanitizer weak hooks as ASan and
// libcgofuzz_interceptors.a call them.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <tuple>

// runtime.h is C (target.h's _Noreturn): included as C.
#define _Noreturn [[noreturn]]
extern "C" {
#include "runtime.h"

void __sanitizer_weak_hook_memcmp(void *called_pc, const void *s1,
                                  const void *s2, size_t n, int result);
void __sanitizer_weak_hook_strncmp(void *called_pc, const char *s1,
                                   const char *s2, size_t n, int result);
void __sanitizer_weak_hook_strcmp(void *called_pc, const char *s1,
                                  const char *s2, int result);
void __sanitizer_weak_hook_strcasecmp(void *called_pc, const char *s1,
                                      const char *s2, int result);
void __sanitizer_weak_hook_strstr(void *called_pc, const char *s1,
                                  const char *s2, char *result);
void __sanitizer_weak_hook_memmem(void *called_pc, const void *s1, size_t len1,
                                  const void *s2, size_t len2, void *result);
void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b);
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b);
}

namespace {

void *const kPC = reinterpret_cast<void *>(0x401234);

struct Entry {
  int fn;
  std::string a, b;
  bool operator<(const Entry &o) const {
    return std::tie(fn, a, b) < std::tie(o.fn, o.a, o.b);
  }
  bool operator==(const Entry &o) const {
    return std::tie(fn, a, b) == std::tie(o.fn, o.a, o.b);
  }
};

// The entries the current exec wrote.
std::set<Entry> Fresh() {
  std::set<Entry> out;
  for (const cgofuzz_torc_entry_ &e : cgofuzz_torc_table_.e)
    if (e.gen == cgofuzz_torc_table_.gen)
      out.insert({e.fn,
                  std::string(reinterpret_cast<const char *>(e.a), e.alen),
                  std::string(reinterpret_cast<const char *>(e.b), e.blen)});
  return out;
}

class Torc : public ::testing::Test {
protected:
  void SetUp() override {
    cgofuzz_cmp_reset_();
    cgofuzz_cmp_on_ = 0;
  }
  void TearDown() override { cgofuzz_cmp_on_ = 0; }
  // Runs f with recording (what) on, as the worker does around an exec.
  template <class F> void Rec(F f, int what = CGOFUZZ_CMP_REC) {
    cgofuzz_cmp_on_ = what;
    f();
    cgofuzz_cmp_on_ = 0;
  }
};

TEST_F(Torc, NothingRecordedWhileOff) {
  uint64_t before = cgofuzz_torc_table_.nrec;
  __sanitizer_weak_hook_memcmp(kPC, "abcdef", "ABCDEF", 6, 1);
  __sanitizer_weak_hook_strcmp(kPC, "abc", "xyz", -1);
  EXPECT_EQ(cgofuzz_torc_table_.nrec, before);
  EXPECT_TRUE(Fresh().empty());
}

TEST_F(Torc, MemcmpOperandsBoundedTo64) {
  std::string a(100, 'a'), b(100, 'b');
  Rec([&] { __sanitizer_weak_hook_memcmp(kPC, a.data(), b.data(), 100, -1); });
  std::set<Entry> want = {
      {CGOFUZZ_TORC_MEMCMP, a.substr(0, 64), b.substr(0, 64)}};
  EXPECT_EQ(Fresh().size(), 1u);
  EXPECT_EQ(Fresh().begin()->a, want.begin()->a);
  EXPECT_EQ(Fresh().begin()->b, want.begin()->b);
}

TEST_F(Torc, EqualOrOneByteComparisonsIgnored) {
  Rec([&] {
    __sanitizer_weak_hook_memcmp(kPC, "same", "same", 4, 0);
    __sanitizer_weak_hook_memcmp(kPC, "a", "b", 1, -1);
    __sanitizer_weak_hook_strcmp(kPC, "same", "same", 0);
  });
  EXPECT_TRUE(Fresh().empty());
}

TEST_F(Torc, StringsStopAtTheirNulAndAtN) {
  Rec([&] {
    __sanitizer_weak_hook_strncmp(kPC, "in-abc\0zz", "KEY-longer", 8, 1);
    __sanitizer_weak_hook_strcmp(kPC, "short", "KEYWORD", 1);
  });
  std::set<Entry> want = {{CGOFUZZ_TORC_STRNCMP, "in-abc", "KEY-long"},
                          {CGOFUZZ_TORC_STRCMP, "short", "KEYWORD"}};
  EXPECT_EQ(Fresh().size(), 2u);
  for (const Entry &e : want)
    EXPECT_EQ(Fresh().count(e), 1u) << e.a << " / " << e.b;
}

TEST_F(Torc, EmptyInputSideBecomesANeedle) {
  Rec([&] { __sanitizer_weak_hook_strcasecmp(kPC, "", "KEYWORD", -1); });
  EXPECT_EQ(Fresh().count({CGOFUZZ_TORC_STRCASECMP, "", "KEYWORD"}), 1u);
}

TEST_F(Torc, NeedlesOnlyWhenNotFound) {
  static char hay[] = "a haystack";
  Rec([&] {
    __sanitizer_weak_hook_strstr(kPC, hay, "stack", hay + 5);
    __sanitizer_weak_hook_strstr(kPC, hay, "needle", nullptr);
    __sanitizer_weak_hook_memmem(kPC, hay, 10, "pin", 3, nullptr);
  });
  std::set<Entry> want = {{CGOFUZZ_TORC_STRSTR, "", "needle"},
                          {CGOFUZZ_TORC_MEMMEM, "", "pin"}};
  EXPECT_EQ(Fresh(), want);
}

TEST_F(Torc, SameComparisonTwiceIsOneEntry) {
  Rec([&] {
    for (int i = 0; i < 5; i++)
      __sanitizer_weak_hook_memcmp(kPC, "in-abc", "KEYabc", 6, 1);
  });
  EXPECT_EQ(Fresh().size(), 1u);
}

TEST_F(Torc, OneExecKeepsManyComparisonsOfOneSite) {
  // A keyword table checked from one call site: every keyword stays.
  Rec([&] {
    for (int i = 0; i < 40; i++) {
      std::string kw = "keyword" + std::to_string(i);
      __sanitizer_weak_hook_strcmp(kPC, "input", kw.c_str(), -1);
    }
  });
  EXPECT_EQ(Fresh().size(), 40u);
}

TEST_F(Torc, ResetMakesEntriesStaleNotGone) {
  Rec([&] { __sanitizer_weak_hook_memcmp(kPC, "in-abc", "KEYabc", 6, 1); });
  cgofuzz_cmp_reset_();
  EXPECT_TRUE(Fresh().empty());
  int stale = 0;
  for (const cgofuzz_torc_entry_ &e : cgofuzz_torc_table_.e)
    stale += e.gen != 0 && memcmp(e.b, "KEYabc", 6) == 0;
  EXPECT_GE(stale, 1);
}

TEST_F(Torc, ValueProfileOnlyFeedsFeatures) {
  uint64_t before = cgofuzz_torc_table_.nrec;
  cgofuzz_vp_new_ = 0;
  Rec([&] { __sanitizer_weak_hook_memcmp(kPC, "vp-aaaa", "vp-abcd", 7, -1); },
      CGOFUZZ_CMP_VP);
  EXPECT_EQ(cgofuzz_torc_table_.nrec, before); // no TORC entry
  EXPECT_EQ(cgofuzz_vp_new_, 1);
  cgofuzz_vp_new_ = 0;
  Rec([&] { __sanitizer_weak_hook_memcmp(kPC, "vp-aaaa", "vp-abcd", 7, -1); },
      CGOFUZZ_CMP_VP);
  EXPECT_EQ(cgofuzz_vp_new_, 0); // the same distance again
  Rec([&] { __sanitizer_weak_hook_memcmp(kPC, "vp-abaa", "vp-abcd", 7, -1); },
      CGOFUZZ_CMP_VP);
  EXPECT_EQ(cgofuzz_vp_new_, 1); // one byte closer
}

// Applies cgofuzz_cmp_mutate_ to in with generator seeds 1..n until the
// result contains want; the token of that mutation.
bool MutatesTo(const std::string &in, const std::string &want,
               std::string *token) {
  for (uint64_t seed = 1; seed < 2000; seed++) {
    cgofuzz_pcg r;
    cgofuzz_pcg_seed(&r, seed, 1);
    uint8_t b[256];
    size_t len = in.size();
    memcpy(b, in.data(), len);
    cgofuzz_token_ tok;
    if (!cgofuzz_cmp_mutate_(&r, nullptr, nullptr, b, &len, sizeof b, &tok))
      continue;
    std::string out(reinterpret_cast<char *>(b), len);
    if (out.find(want) != std::string::npos) {
      *token = std::string(reinterpret_cast<char *>(tok.b), tok.n);
      return true;
    }
  }
  return false;
}

TEST_F(Torc, InputToStateReplacesAnOperandOfAnotherLength) {
  Rec([&] { __sanitizer_weak_hook_strcmp(kPC, "in-abc", "KEYWORD", 1); });
  std::string tok;
  ASSERT_TRUE(MutatesTo("xx in-abc yy", "xx KEYWORD yy", &tok));
  EXPECT_EQ(tok, "KEYWORD");
}

// clang's trace_const_cmp hooks take the constant first: a byte check
// `data[3] != 'W'` is recorded as the run ('W', 'X') for the input "SLOX",
// and the mutation must write the constant where the input's byte is (it
// once only searched the input for the constant: no single-byte check of a
// C target was solved by comparison feedback). Both orders are solved.
TEST_F(Torc, ByteCompareIsSolvedWhicheverSideIsTheInput) {
  for (bool constant_first : {true, false}) {
    cgofuzz_cmp_reset_();
    Rec([&] {
      if (constant_first)
        __sanitizer_cov_trace_const_cmp1('W', 'X');
      else
        __sanitizer_cov_trace_cmp1('X', 'W');
    });
    std::string tok;
    ASSERT_TRUE(MutatesTo("SLOX", "SLOW", &tok)) << constant_first;
    EXPECT_EQ(tok, "W");
  }
}

TEST_F(Torc, NeedleIsInserted) {
  Rec([&] { __sanitizer_weak_hook_strstr(kPC, "hello", "needle", nullptr); });
  std::string tok;
  ASSERT_TRUE(MutatesTo("hello", "needle", &tok));
  EXPECT_EQ(tok, "needle");
}

TEST_F(Torc, MutationsStayWithinCapacity) {
  Rec([&] {
    std::string big(64, 'K');
    __sanitizer_weak_hook_strcmp(kPC, "a", big.c_str(), 1);
  });
  for (uint64_t seed = 1; seed < 500; seed++) {
    cgofuzz_pcg r;
    cgofuzz_pcg_seed(&r, seed, 1);
    uint8_t b[80] = "a a a a";
    size_t len = 7;
    for (int k = 0; k < 8; k++) {
      cgofuzz_cmp_mutate_(&r, nullptr, nullptr, b, &len, sizeof b, nullptr);
      ASSERT_LE(len, sizeof b);
    }
  }
}

TEST(Autodict, DedupsAndIsBounded) {
  static cgofuzz_autodict_ a;
  memset(&a, 0, sizeof a);
  EXPECT_TRUE(cgofuzz_autodict_add_(&a, (const uint8_t *)"token", 5));
  EXPECT_FALSE(cgofuzz_autodict_add_(&a, (const uint8_t *)"token", 5));
  EXPECT_FALSE(cgofuzz_autodict_add_(&a, (const uint8_t *)"t", 1));
  uint8_t big[CGOFUZZ_AUTODICT_MAX + 1] = {0};
  EXPECT_FALSE(cgofuzz_autodict_add_(&a, big, sizeof big));
  for (int i = 0; i < 2 * CGOFUZZ_AUTODICT_N; i++) {
    std::string t = "tok" + std::to_string(i);
    cgofuzz_autodict_add_(&a, (const uint8_t *)t.data(), t.size());
  }
  EXPECT_EQ(a.n, (size_t)CGOFUZZ_AUTODICT_N);
}

TEST(Autodict, EntriesAreUsedAsDictionary) {
  static cgofuzz_autodict_ a;
  memset(&a, 0, sizeof a);
  cgofuzz_cmp_reset_(); // no fresh comparison: only the dictionary applies
  cgofuzz_autodict_add_(&a, (const uint8_t *)"learned", 7);
  bool seen = false;
  for (uint64_t seed = 1; seed < 200 && !seen; seed++) {
    cgofuzz_pcg r;
    cgofuzz_pcg_seed(&r, seed, 1);
    uint8_t b[64] = "0123456789";
    size_t len = 10;
    if (cgofuzz_cmp_mutate_(&r, nullptr, &a, b, &len, sizeof b, nullptr))
      seen = std::string((char *)b, len).find("learned") != std::string::npos;
  }
  EXPECT_TRUE(seen);
}

} // namespace
