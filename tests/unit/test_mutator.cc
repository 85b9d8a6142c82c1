// test_mutator.cc: the mutator against Go's mutator (go1.26.8
// internal/fuzz): fixed generator states, expected values printed by Go.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "mutator.h"

namespace {

cgofuzz_value bytes_val(cgofuzz_kind k, const std::string &s) {
  cgofuzz_value v;
  memset(&v, 0, sizeof v);
  v.kind = k;
  v.s.data = static_cast<uint8_t *>(malloc(s.size() ? s.size() : 1));
  memcpy(v.s.data, s.data(), s.size());
  v.s.len = s.size();
  v.flags = CGOFUZZ_VAL_OWNED;
  return v;
}

cgofuzz_value int_val(cgofuzz_kind k, int64_t i) {
  cgofuzz_value v;
  memset(&v, 0, sizeof v);
  v.kind = k;
  v.i = i;
  return v;
}

cgofuzz_value uint_val(cgofuzz_kind k, uint64_t u) {
  cgofuzz_value v;
  memset(&v, 0, sizeof v);
  v.kind = k;
  v.u = u;
  return v;
}

std::vector<uint8_t> bytes_of(const cgofuzz_value &v) {
  return std::vector<uint8_t>(v.s.data, v.s.data + v.s.len);
}

void release(std::vector<cgofuzz_value> &vals) {
  for (auto &v : vals)
    if ((v.kind == CGOFUZZ_BYTES || v.kind == CGOFUZZ_STRING) &&
        (v.flags & CGOFUZZ_VAL_OWNED))
      free(v.s.data);
}

uint32_t f32_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

uint64_t f64_bits(double f) {
  uint64_t b;
  memcpy(&b, &f, 8);
  return b;
}

} // namespace

TEST(MutatorTest, AllTypesChainMatchesGo) {
  std::vector<cgofuzz_value> vals;
  vals.push_back(bytes_val(CGOFUZZ_BYTES, "hello world"));
  vals.push_back(bytes_val(CGOFUZZ_STRING, "abc"));
  vals.push_back(int_val(CGOFUZZ_INT8, 127));
  vals.push_back(uint_val(CGOFUZZ_UINT16, 0));
  cgofuzz_value f32 = int_val(CGOFUZZ_FLOAT32, 0);
  f32.f32 = 1.5f;
  vals.push_back(f32);
  cgofuzz_value f64 = int_val(CGOFUZZ_FLOAT64, 0);
  f64.f64 = NAN;
  uint64_t nan_bits = 0x7ff8000000000001ULL; // Go's math.NaN()
  memcpy(&f64.f64, &nan_bits, 8);
  vals.push_back(f64);
  cgofuzz_value b = int_val(CGOFUZZ_BOOL, 0);
  b.b = true;
  vals.push_back(b);
  vals.push_back(int_val(CGOFUZZ_RUNE, -5));
  vals.push_back(uint_val(CGOFUZZ_BYTE, 200));
  vals.push_back(int_val(CGOFUZZ_INT, 0));
  vals.push_back(uint_val(CGOFUZZ_UINT64, UINT64_MAX));
  vals.push_back(int_val(CGOFUZZ_INT16, -32767));
  vals.push_back(int_val(CGOFUZZ_INT64, INT64_MIN));
  vals.push_back(uint_val(CGOFUZZ_UINT, 7));
  vals.push_back(uint_val(CGOFUZZ_UINT32, 3));

  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 0x0123456789abcdefULL, 0x2468ace013579bdfULL);
  cgofuzz_err err;
  for (int i = 0; i < 40; i++)
    ASSERT_EQ(cgofuzz_mutate(&m, vals.data(), vals.size(),
                             CGOFUZZ_SHM_VALUE_CAP, &err),
              0)
        << err.msg;
  EXPECT_EQ(m.r.state, 6230022552289514153ULL);
  EXPECT_EQ(m.r.inc, 2623536861340474335ULL);
  EXPECT_EQ(m.scratch_cap, CGOFUZZ_SHM_VALUE_CAP / 15 - 100);

  EXPECT_EQ(bytes_of(vals[0]),
            (std::vector<uint8_t>{0x8f, 0x05, 0xff, 0xff, 0x05, 0x63, 0x00,
                                  0x63, 0x72, 0x6c}));
  // The []byte value borrows the scratch; the string owns a copy.
  EXPECT_EQ(vals[0].s.data, m.scratch);
  EXPECT_FALSE(vals[0].flags & CGOFUZZ_VAL_OWNED);
  EXPECT_EQ(bytes_of(vals[1]),
            (std::vector<uint8_t>{0x8f, 0x05, 0xff, 0xff, 0x05, 0x63}));
  EXPECT_TRUE(vals[1].flags & CGOFUZZ_VAL_OWNED);
  EXPECT_EQ(vals[2].i, 61);
  EXPECT_EQ(vals[3].u, 0x29u);
  EXPECT_EQ(f32_bits(vals[4].f32), 0x3fc00000u);
  EXPECT_EQ(f64_bits(vals[5].f64), 0x7ff8000000000001ULL);
  EXPECT_TRUE(vals[6].b);
  EXPECT_EQ(vals[7].i, -73);
  EXPECT_EQ(vals[8].u, 0x43u);
  EXPECT_EQ(vals[9].i, -80);
  EXPECT_EQ(vals[10].u, 0xffffffffffffffa9ULL);
  EXPECT_EQ(vals[11].i, -32730);
  EXPECT_EQ(vals[12].i, -9223372036854775711LL);
  EXPECT_EQ(vals[13].u, 1u);
  EXPECT_EQ(vals[14].u, 3u);
  release(vals);
  cgofuzz_mutator_free(&m);
}

TEST(MutatorTest, FloatsMatchGo) {
  std::vector<cgofuzz_value> vals(4);
  memset(vals.data(), 0, 4 * sizeof(cgofuzz_value));
  vals[0].kind = CGOFUZZ_FLOAT32;
  vals[0].f32 = 3.0e38f;
  vals[1].kind = CGOFUZZ_FLOAT64;
  vals[1].f64 = -1e-300;
  vals[2].kind = CGOFUZZ_FLOAT32;
  vals[2].f32 = -INFINITY;
  vals[3].kind = CGOFUZZ_FLOAT64;
  vals[3].f64 = 0;
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 99, 101);
  cgofuzz_err err;
  for (int i = 0; i < 30; i++)
    ASSERT_EQ(cgofuzz_mutate(&m, vals.data(), 4, CGOFUZZ_SHM_VALUE_CAP, &err),
              0);
  EXPECT_EQ(f32_bits(vals[0].f32), 0x7c967699u);
  EXPECT_EQ(f64_bits(vals[1].f64), 0xc028000000000000ULL);
  EXPECT_EQ(f32_bits(vals[2].f32), 0xff800000u);
  EXPECT_EQ(f64_bits(vals[3].f64), 0x4017555555555555ULL);
  cgofuzz_mutator_free(&m);
}

TEST(MutatorTest, SharedScratchMatchesGo) {
  // Two []byte values and a string, maxPerVal = 40: the first []byte keeps
  // pointing at the scratch and sees what later mutations wrote there.
  std::vector<cgofuzz_value> vals;
  vals.push_back(bytes_val(CGOFUZZ_BYTES, std::string(20, 'A')));
  vals.push_back(bytes_val(CGOFUZZ_BYTES, "bbbb"));
  vals.push_back(bytes_val(CGOFUZZ_STRING, std::string(10, 'c')));
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 42, 55);
  cgofuzz_err err;
  for (int i = 0; i < 12; i++)
    ASSERT_EQ(cgofuzz_mutate(&m, vals.data(), 3, 3 * (100 + 40), &err), 0);
  EXPECT_EQ(m.r.state, 15510644176072121340ULL);
  EXPECT_EQ(m.scratch_cap, 40u);
  EXPECT_EQ(bytes_of(vals[0]),
            (std::vector<uint8_t>{
                0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
                0x63, 0xeb, 0x9e, 0x80, 0x93, 0x63, 0x80, 0x00, 0xc2, 0xd6,
                0x00, 0x88, 0xe4, 0x08, 0x6d, 0x82, 0x27, 0xf9, 0x23}));
  EXPECT_EQ(vals[1].s.len, 0u);
  EXPECT_EQ(bytes_of(vals[2]),
            (std::vector<uint8_t>{
                0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
                0x63, 0xeb, 0x9e, 0x80, 0xb4, 0x63, 0x80, 0x00, 0xc2, 0xd6,
                0x00, 0x88, 0xe4, 0x08, 0x6d, 0x82, 0x27, 0xf9, 0x23, 0x7d,
                0x36, 0xc2, 0xef, 0xe2, 0xc7, 0xdb, 0xba, 0x25}));
  release(vals);
  cgofuzz_mutator_free(&m);
}

TEST(MutatorTest, MutateBytesMatchesGo) {
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 7, 9);
  uint8_t buf[64] = {'0', '1', '2', '3', '4'};
  size_t len = 5;
  for (int i = 0; i < 20; i++)
    cgofuzz_mutate_bytes(&m, buf, &len, sizeof buf);
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + len),
            (std::vector<uint8_t>{0x8b, 0x8b, 0x8b, 0x8b, 0x8b, 0x8b, 0x8b,
                                  0x8b, 0x00, 0x00, 0x00, 0x23}));
  cgofuzz_mutator_free(&m);
}

TEST(MutatorTest, TooLongValueFailsLikeGoPanic) {
  std::vector<cgofuzz_value> vals;
  vals.push_back(bytes_val(CGOFUZZ_STRING, std::string(50, 'x')));
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 1, 3);
  cgofuzz_err err;
  EXPECT_EQ(cgofuzz_mutate(&m, vals.data(), 1, 100 + 49, &err), -1);
  EXPECT_STREQ(err.msg, "cannot mutate bytes of length 50");
  EXPECT_EQ(cgofuzz_mutate(&m, vals.data(), 0, 1000, &err), -1);
  release(vals);
  cgofuzz_mutator_free(&m);
}

TEST(MutatorTest, BorrowersSurviveScratchGrowth) {
  // A bigger max_bytes makes Go allocate a new scratch; the []byte value
  // mutated before still refers to (and keeps) the old one.
  std::vector<cgofuzz_value> vals;
  vals.push_back(bytes_val(CGOFUZZ_BYTES, "abcdef"));
  cgofuzz_mutator m;
  cgofuzz_mutator_init(&m, 5, 7);
  cgofuzz_err err;
  ASSERT_EQ(cgofuzz_mutate(&m, vals.data(), 1, 100 + 16, &err), 0);
  EXPECT_EQ(m.scratch_cap, 16u);
  cgofuzz_value old = vals[0];
  std::vector<uint8_t> before = bytes_of(old);
  ASSERT_EQ(cgofuzz_mutate(&m, vals.data(), 1, 100 + 4096, &err), 0);
  EXPECT_EQ(m.scratch_cap, 4096u);
  EXPECT_NE(vals[0].s.data, old.s.data);
  EXPECT_EQ(bytes_of(old), before); // still readable (ASan checks)
  cgofuzz_mutator_free(&m);
}
