// test_i2s.cc: input-to-state candidates (fb_i2s.c) from comparison
// records, as the patched hooks write them (coord_internal.h): each
// encoding of an operand found in the input is replaced by the other
// operand's, integer arguments are set, byte loops are followed by site.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "fb_internal.h"
}

namespace {

cgofuzz_gobin_cmprec Int(uint32_t kind, uint32_t pc, uint64_t a0, uint64_t a1) {
  cgofuzz_gobin_cmprec r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  r.pc = pc;
  memcpy(r.a0, &a0, 8);
  memcpy(r.a1, &a1, 8);
  return r;
}

cgofuzz_gobin_cmprec Str(uint32_t kind, uint32_t pc, const std::string &s0,
                         const std::string &s1) {
  cgofuzz_gobin_cmprec r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  r.pc = pc;
  r.len0 = (uint32_t)s0.size();
  r.len1 = (uint32_t)s1.size();
  memcpy(r.a0, s0.data(), std::min(s0.size(), (size_t)CMP_REC_DATA));
  memcpy(r.a1, s1.data(), std::min(s1.size(), (size_t)CMP_REC_DATA));
  return r;
}

// A candidate as text: each value on a line, bytes as they are.
struct Got {
  std::vector<std::string> all;
  std::vector<int> how;
  std::set<std::string> set() const { return {all.begin(), all.end()}; }
};

int Collect(void *ctx, const cgofuzz_values *v, uint32_t, int how) {
  Got *g = static_cast<Got *>(ctx);
  std::string s;
  for (size_t i = 0; i < v->n; i++) {
    const cgofuzz_value &x = v->v[i];
    if (x.kind == CGOFUZZ_BYTES || x.kind == CGOFUZZ_STRING)
      s += std::string((const char *)x.s.data, x.s.len);
    else
      s += std::to_string(x.i);
    s += "\n";
  }
  g->all.push_back(s);
  g->how.push_back(how);
  return 0;
}

struct Vals {
  cgofuzz_values v{};
  ~Vals() { cgofuzz_values_free(&v); }
  Vals &Bytes(const std::string &s, cgofuzz_kind k = CGOFUZZ_BYTES) {
    cgofuzz_value x{};
    x.kind = k;
    x.s.data = (uint8_t *)s.data();
    x.s.len = s.size();
    EXPECT_EQ(cgofuzz_values_push(&v, &x), 0);
    return *this;
  }
  Vals &Int(int64_t n, cgofuzz_kind k = CGOFUZZ_INT) {
    cgofuzz_value x{};
    x.kind = k;
    x.i = n;
    EXPECT_EQ(cgofuzz_values_push(&v, &x), 0);
    return *this;
  }
};

Got Derive(const std::vector<cgofuzz_gobin_cmprec> &r, const Vals &in,
           size_t max = 1000, uint32_t only = 0) {
  Got g;
  EXPECT_EQ(cgofuzz_fb_i2s(r.data(), r.size(), &in.v, max, only, Collect, &g),
            0);
  return g;
}

std::string LE(uint64_t v, int w) {
  std::string s;
  for (int i = 0; i < w; i++)
    s += (char)(v >> (8 * i));
  return s;
}

std::string BE(uint64_t v, int w) {
  std::string s;
  for (int i = w - 1; i >= 0; i--)
    s += (char)(v >> (8 * i));
  return s;
}

TEST(I2S, ConstCmp8LittleAndBigEndianInBytes) {
  const uint64_t magic = 0x5f3759df8badf00dull, seen = 0x3837363534333231ull;
  Vals in;
  in.Bytes("open " + LE(seen, 8));
  Got g = Derive({Int(CMP_K_CONST | 8, 1, magic, seen)}, in);
  EXPECT_TRUE(g.set().count("open " + LE(magic, 8) + "\n"));
  Vals be;
  be.Bytes("open " + BE(seen, 8));
  g = Derive({Int(CMP_K_CONST | 8, 1, magic, seen)}, be);
  EXPECT_TRUE(g.set().count("open " + BE(magic, 8) + "\n"));
}

TEST(I2S, ConstantSideIsNeverLookedFor) {
  // The constant (arg0) appears in the input: nothing to replace by arg1.
  Vals in;
  in.Bytes(LE(0x11223344u, 4));
  Got g = Derive({Int(CMP_K_CONST | 4, 1, 0x11223344u, 0x55667788u)}, in);
  EXPECT_TRUE(g.all.empty());
}

TEST(I2S, DecimalOfAParsedNumber) {
  Vals in;
  in.Bytes("len=12", CGOFUZZ_STRING);
  Got g = Derive({Int(CMP_K_CONST | 8, 1, 31337, 12)}, in);
  EXPECT_TRUE(g.set().count("len=31337\n"));
  Vals neg;
  neg.Bytes("t=-5;", CGOFUZZ_STRING);
  g = Derive({Int(CMP_K_CONST | 8, 1, (uint64_t)-4096, (uint64_t)-5)}, neg);
  EXPECT_TRUE(g.set().count("t=-4096;\n"));
}

TEST(I2S, ChecksumWordBothDirections) {
  // crc(payload) == BigEndian.Uint32(trailer): which side came from the
  // input is unknown; the trailer is.
  Vals in;
  in.Bytes("\x00\x04"
           "abcd" +
           BE(0xdeadbeef, 4));
  Got g = Derive({Int(4, 9, 0xed82cd11, 0xdeadbeef)}, in);
  EXPECT_TRUE(g.set().count("\x00\x04"
                            "abcd" +
                            BE(0xed82cd11, 4) + "\n"));
}

TEST(I2S, NarrowerFieldWidened) {
  // A uint16 read from the input, compared as an int.
  Vals in;
  in.Bytes("ab" + LE(0x1234, 2) + "cd");
  Got g = Derive({Int(CMP_K_CONST | 8, 1, 0xbeef, 0x1234)}, in);
  EXPECT_TRUE(g.set().count("ab" + LE(0xbeef, 2) + "cd\n"));
}

TEST(I2S, IntegerArgumentsAreSet) {
  Vals in;
  in.Bytes("x").Int(7).Int(-3, CGOFUZZ_INT8);
  Got g = Derive({Int(CMP_K_CONST | 8, 1, 0x1122334455667788ull, 7),
                  Int(CMP_K_CONST | 1, 2, 0x85, 0xfd)},
                 in);
  EXPECT_TRUE(
      g.set().count("x\n" + std::to_string(0x1122334455667788ll) + "\n-3\n"));
  // int8 -3 is 0xfd; 0x85 as an int8 is -123.
  EXPECT_TRUE(g.set().count("x\n7\n-123\n"));
}

TEST(I2S, StringsExactThenIgnoringCase) {
  Vals in;
  in.Bytes("cmd Restart now", CGOFUZZ_STRING);
  // switch strings.ToLower(s): the lowered word against the case.
  Got g = Derive({Str(CMP_K_STR, 3, "restart", "checkpoint")}, in);
  EXPECT_TRUE(g.set().count("cmd checkpoint now\n"));
  Vals hdr;
  hdr.Bytes("Content-Type: x", CGOFUZZ_STRING).Int(0);
  g = Derive({Str(CMP_K_FOLD, 4, "Content-Type", "Content-Encoding")}, hdr);
  EXPECT_TRUE(g.set().count("Content-Encoding: x\n0\n"));
}

TEST(I2S, EqualStringsAndOverlongStringsGiveNothing) {
  Vals in;
  in.Bytes("same", CGOFUZZ_STRING);
  EXPECT_TRUE(Derive({Str(CMP_K_STR, 3, "same", "same")}, in).all.empty());
  EXPECT_TRUE(Derive({Str(CMP_K_FOLD, 3, "SAME", "same")}, in).all.empty());
  std::string big(CMP_REC_DATA + 1, 'a');
  EXPECT_TRUE(Derive({Str(CMP_K_STR, 3, "same", big)}, in).all.empty());
}

TEST(I2S, ByteLoopSiteIsOneString) {
  // for i := range lit { if b[i] != lit[i] { return } }: the site's records
  // in order, the loop bound's interleaved.
  Vals in;
  in.Bytes("\x89HDX\r\n");
  std::vector<cgofuzz_gobin_cmprec> r = {
      Int(CMP_K_CONST | 8, 5, 8, 0), Int(1, 7, 0x89, 0x89),
      Int(CMP_K_CONST | 8, 5, 8, 1), Int(1, 7, 'H', 'H'),
      Int(CMP_K_CONST | 8, 5, 8, 2), Int(1, 7, 'D', 'D'),
      Int(CMP_K_CONST | 8, 5, 8, 3), Int(1, 7, 'X', 'F')};
  EXPECT_EQ(cgofuzz_fb_i2s_site_len(r.data(), r.size(), 7), 4u);
  EXPECT_EQ(cgofuzz_fb_i2s_site_len(r.data(), r.size(), 5), 0u);
  Got g = Derive(r, in);
  bool seq = false;
  for (size_t i = 0; i < g.all.size(); i++)
    seq |= g.how[i] == I2S_SEQ && g.all[i] == "\x89HDF\r\n\n";
  EXPECT_TRUE(seq);
  // Only that site: every candidate is the sequence's.
  g = Derive(r, in, 1000, 7);
  ASSERT_FALSE(g.all.empty());
  for (int h : g.how)
    EXPECT_EQ(h, I2S_SEQ);
}

TEST(I2S, UnrolledLiteralOfConstantBytesIsOneString) {
  // b[0] == 'F' && b[1] == 'O' && b[2] == 'C' && b[3] == 'S': one record
  // each, at sites of their own, the constant first; Go joins the last
  // three without branches, so only all of them at once is new coverage.
  Vals in;
  in.Bytes("Fabc!");
  std::vector<cgofuzz_gobin_cmprec> r = {
      Int(CMP_K_CONST | 8, 9, 4, 5), Int(CMP_K_CONST | 1, 1, 'F', 'F'),
      Int(CMP_K_CONST | 1, 2, 'O', 'a'), Int(CMP_K_CONST | 1, 3, 'C', 'b'),
      Int(CMP_K_CONST | 1, 4, 'S', 'c')};
  EXPECT_EQ(Derive(r, in).set().count("FOCS!\n"), 1u);
  // One site's records (a loop) are the sequence's (I2S_SEQ), not such a
  // run; and a record of another kind between two bytes ends the run.
  std::vector<cgofuzz_gobin_cmprec> loop = {Int(CMP_K_CONST | 1, 2, 'O', 'a'),
                                            Int(CMP_K_CONST | 1, 2, 'C', 'b')};
  Got g = Derive(loop, in);
  for (size_t i = 0; i < g.all.size(); i++) {
    if (g.all[i] == "FOCc!\n") {
      EXPECT_EQ(g.how[i], I2S_SEQ);
    }
  }
  std::vector<cgofuzz_gobin_cmprec> cut = {Int(CMP_K_CONST | 1, 2, 'O', 'a'),
                                           Int(CMP_K_CONST | 8, 9, 4, 5),
                                           Int(CMP_K_CONST | 1, 3, 'C', 'b')};
  EXPECT_EQ(Derive(cut, in).set().count("FOCc!\n"), 0u);
}

TEST(I2S, SwitchOnOneByteSetsEachCaseInItsPlaces) {
  // switch b[k] { case 1: ...; case 2: ...; case 0xff: ... } on a byte 2:
  // a tree of constant comparisons of that one byte, each its own site. The
  // byte gets each other case at its first places (here both); a lone
  // byte comparison still gives nothing.
  Vals in;
  in.Bytes(std::string("ab\x02"
                       "cd\x02",
                       6));
  std::vector<cgofuzz_gobin_cmprec> r = {Int(CMP_K_CONST | 1, 1, 2, 2),
                                         Int(CMP_K_CONST | 1, 2, 1, 2),
                                         Int(CMP_K_CONST | 1, 3, 0xff, 2)};
  std::set<std::string> got = Derive(r, in).set();
  for (const char *c : {"\x01", "\xff"}) {
    std::string one = std::string("ab") + c + std::string("cd\x02\n", 4);
    std::string two = std::string("ab\x02"
                                  "cd",
                                  5) +
                      c + "\n";
    EXPECT_EQ(got.count(one), 1u) << c;
    EXPECT_EQ(got.count(two), 1u) << c;
  }
  EXPECT_EQ(got.size(), 4u); // no candidate keeps the byte a 2
  std::vector<cgofuzz_gobin_cmprec> lone = {Int(CMP_K_CONST | 1, 2, 1, 2)};
  EXPECT_TRUE(Derive(lone, in).all.empty());
}

TEST(I2S, DuplicatesOnceAndTheCapHolds) {
  Vals in;
  in.Bytes("aaaa bbbb cccc dddd " + LE(1000, 4));
  std::vector<cgofuzz_gobin_cmprec> r(50, Int(CMP_K_CONST | 4, 1, 77777, 1000));
  Got g = Derive(r, in);
  EXPECT_EQ(g.all.size(), g.set().size());
  std::vector<cgofuzz_gobin_cmprec> many;
  for (uint64_t i = 0; i < 100; i++)
    many.push_back(Int(CMP_K_CONST | 4, 1, 5000 + i, 1000));
  EXPECT_EQ(Derive(many, in, 17).all.size(), 17u);
}

} // namespace

namespace {

TEST(I2S, LengthComparedMakesTheArgumentThatLong) {
  // switch on a string goes by length first: len(s) against 10.
  Vals in;
  in.Bytes("restart", CGOFUZZ_STRING);
  Got g = Derive({Int(CMP_K_CONST | 8, 1, 10, 7)}, in);
  EXPECT_TRUE(g.set().count("restartres\n"));
  g = Derive({Int(CMP_K_CONST | 8, 1, 4, 7)}, in);
  EXPECT_TRUE(g.set().count("rest\n"));
  // len(s) <= 7 was true: one longer takes the other branch.
  g = Derive({Int(CMP_K_CONST | 8, 1, 7, 7)}, in);
  EXPECT_TRUE(g.set().count("restartr\n"));
  // Not for lengths beyond the cap.
  g = Derive({Int(CMP_K_CONST | 8, 1, 1 << 20, 7)}, in);
  for (const std::string &s : g.all)
    EXPECT_LT(s.size(), 5000u);
}

} // namespace

namespace {

// libwebp's WebPMuxCreate: the RIFF size plus 8, rounded up to even,
// compared with the input's length (size_t, both variable).
std::string Riff(uint32_t size, size_t total) {
  std::string s = "RIFF" + LE(size, 4) + "WEBPVP8X" + LE(10, 4);
  s.resize(total, 'x');
  return s;
}

TEST(I2S, SizeFieldPlusAHeaderIsSetFromTheOtherSide) {
  // A seed's 220 + 8 against a cut of 25 bytes: 228 is nowhere in the
  // input, 220 is; the field gets 25 - 8 and 25 - 9.
  Vals in;
  in.Bytes(Riff(220, 25));
  Got g = Derive({Int(8, 1, 228, 25)}, in);
  EXPECT_TRUE(g.set().count(Riff(17, 25) + "\n"));
  EXPECT_TRUE(g.set().count(Riff(16, 25) + "\n"));
  // Big-endian, and the difference on the other side (a field 8 more
  // than the operand).
  Vals be;
  be.Bytes("hd" + BE(0x1008, 4) + "rest");
  g = Derive({Int(8, 1, 0x1000, 0x2000)}, be);
  EXPECT_TRUE(g.set().count("hd" + BE(0x2008, 4) + "rest\n"));
}

TEST(I2S, NoArithmeticWhereTheOperandIsFoundOrNearManyBytes) {
  // Found as it is: only the exact replacement.
  Vals in;
  in.Bytes(Riff(228, 40));
  Got g = Derive({Int(8, 1, 228, 25)}, in);
  EXPECT_TRUE(g.set().count(Riff(25, 40) + "\n"));
  EXPECT_FALSE(g.set().count(Riff(17, 40) + "\n"));
  // Three places near the operand: none is taken as its field.
  Vals many;
  many.Bytes(LE(300, 4) + LE(301, 4) + LE(302, 4));
  g = Derive({Int(CMP_K_CONST | 4, 1, 5000, 310)}, many);
  EXPECT_TRUE(g.all.empty());
  // The input's length compared (lengths() answers that): the field near
  // it (25, near 30) is left alone.
  Vals len30;
  len30.Bytes(Riff(25, 30));
  g = Derive({Int(CMP_K_CONST | 8, 1, 100, 30)}, len30);
  EXPECT_FALSE(g.all.empty());
  for (const std::string &c : g.all)
    EXPECT_EQ(c.substr(4, 4), LE(25, 4)) << c;
  // A small operand (below I2S_ARITH_MIN) is near too many bytes.
  Vals small;
  small.Bytes("ab" + LE(9, 4));
  g = Derive({Int(CMP_K_CONST | 4, 1, 100, 12)}, small);
  EXPECT_TRUE(g.all.empty());
}

} // namespace
