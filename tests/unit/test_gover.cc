// test_gover.cc: the per-release behaviour of the core (gover.h), against
// bytes observed with the real toolchains (go1.18.10, go1.19.13, go1.20.14,
// go1.21.13, go1.26.11, go1.27.4; tests/core/diff --goversion compares tens of
// thousands of cases per release). Each case names the release boundary it
// pins, so a wrong boundary fails here and not only in the long run.
#include "codec.h"
#include "gover.h"
#include "wire.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

std::string Enc(const cgofuzz_value &v, cgofuzz_gover g) {
  cgofuzz_buf b = {};
  EXPECT_EQ(cgofuzz_codec_encode_value_v(&v, g, &b), 0);
  std::string s(reinterpret_cast<const char *>(b.data), b.len);
  cgofuzz_buf_free(&b);
  return s;
}

cgofuzz_value Bytes(const char *s, size_t n) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_BYTES;
  v.s.data = reinterpret_cast<uint8_t *>(const_cast<char *>(s));
  v.s.len = n;
  return v;
}

cgofuzz_value Rune(int32_t r) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_INT32;
  v.i = r;
  return v;
}

cgofuzz_value Byte(uint8_t c) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_UINT8;
  v.u = c;
  return v;
}

cgofuzz_value F32Bits(uint32_t b) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_FLOAT32;
  std::memcpy(&v.f32, &b, 4);
  return v;
}

// 0 when data decodes as release g, -1 otherwise.
int Dec(const std::string &data, cgofuzz_gover g) {
  cgofuzz_values vs = {};
  cgofuzz_err err = {};
  int rc =
      cgofuzz_codec_decode_v(reinterpret_cast<const uint8_t *>(data.data()),
                             data.size(), g, &vs, &err);
  cgofuzz_values_free(&vs);
  return rc;
}

TEST(Gover, Parse) {
  struct {
    const char *s;
    int want; // -1: refused
  } cases[] = {
      {"go1.18", 18},     {"go1.18.10", 18}, {"1.27", 27},
      {"1.20.14", 20},    {"go1.27rc1", 27}, {"go1.22beta2", 22},
      {"go1.30.1", 30},   {"go1", -1},       {"go1.", -1},
      {"go2.1", -1},      {"1.x", -1},       {"go1.18.", -1},
      {"go1.18.1a", -1},  {"go1.27rc", -1},  {"go1.27alpha1", -1},
      {"go1.18.10 ", -1}, {"", -1},
  };
  for (const auto &c : cases) {
    cgofuzz_gover g = -7;
    int rc = cgofuzz_gover_parse(c.s, std::strlen(c.s), &g);
    if (c.want < 0) {
      EXPECT_EQ(rc, -1) << c.s;
    } else {
      EXPECT_EQ(rc, 0) << c.s;
      EXPECT_EQ(g, c.want) << c.s;
    }
  }
  EXPECT_TRUE(cgofuzz_gover_known(18));
  EXPECT_TRUE(cgofuzz_gover_known(27));
  EXPECT_FALSE(cgofuzz_gover_known(17));
  EXPECT_FALSE(cgofuzz_gover_known(28));
  EXPECT_EQ(cgofuzz_gover_clamp(30), CGOFUZZ_GOVER_NEWEST);
  EXPECT_EQ(cgofuzz_gover_clamp(5), CGOFUZZ_GOVER_OLDEST);
  EXPECT_EQ(CGOFUZZ_GOVER_DEFAULT, 27);
}

TEST(Gover, UnicodeTables) {
  EXPECT_STREQ(cgofuzz_gover_unicode(18), "13.0.0");
  EXPECT_STREQ(cgofuzz_gover_unicode(20), "13.0.0");
  EXPECT_STREQ(cgofuzz_gover_unicode(21), "15.0.0");
  EXPECT_STREQ(cgofuzz_gover_unicode(26), "15.0.0");
  EXPECT_STREQ(cgofuzz_gover_unicode(27), "17.0.0");
  // U+0897 (Unicode 16) is printable only in go1.27; U+061D (Unicode 14)
  // from go1.21; U+00AD never; 'a' always.
  for (cgofuzz_gover g = 18; g <= 27; g++) {
    EXPECT_EQ(cgofuzz_is_print_v(0x897, g), g >= 27) << g;
    EXPECT_EQ(cgofuzz_is_print_v(0x61D, g), g >= 21) << g;
    EXPECT_FALSE(cgofuzz_is_print_v(0xAD, g)) << g;
    EXPECT_TRUE(cgofuzz_is_print_v('a', g)) << g;
  }
  EXPECT_EQ(cgofuzz_is_print(0x897), 1); // the default is the newest
  EXPECT_EQ(Enc(Rune(0x897), 26), "rune('\\u0897')");
  EXPECT_EQ(Enc(Rune(0x897), 27), "rune('\xe0\xa2\x97')");
  EXPECT_EQ(Enc(Bytes("\xd8\x9d", 2), 20), "[]byte(\"\\u061d\")");
  EXPECT_EQ(Enc(Bytes("\xd8\x9d", 2), 21), "[]byte(\"\xd8\x9d\")");
}

// go1.18's strconv writes DEL as \u007f; from go1.19 as \x7f. Mutators
// write 0x7F often (it is one of Go's "interesting" int8 values), so this
// one difference made most of go1.18's mutation replays (compared as
// corpus files) disagree.
TEST(Gover, DelQuoting) {
  EXPECT_EQ(Enc(Bytes("a\x7f", 2), 18), "[]byte(\"a\\u007f\")");
  EXPECT_EQ(Enc(Bytes("a\x7f", 2), 19), "[]byte(\"a\\x7f\")");
  EXPECT_EQ(Enc(Byte(0x7F), 18), "byte('\\u007f')");
  EXPECT_EQ(Enc(Byte(0x7F), 27), "byte('\\x7f')");
  EXPECT_EQ(Enc(Rune(0x7F), 18), "rune('\\u007f')");
}

TEST(Gover, DecodeDifferences) {
  const std::string crlf = "go test fuzz v1\r\nint(1)\n";
  EXPECT_EQ(Dec(crlf, 18), -1); // go1.18 keeps the '\r' in the version
  EXPECT_EQ(Dec(crlf, 19), 0);
  EXPECT_EQ(Dec(crlf, 27), 0);
  const std::string tilde = "go test fuzz v1\nfloat64(~Inf)\n";
  EXPECT_EQ(Dec(tilde, 18), -1); // go1.18's parser: no unary ~
  EXPECT_EQ(Dec(tilde, 19), 0);
  EXPECT_EQ(Dec("go test fuzz v1\nfloat64(-Inf)\n", 18), 0);
}

TEST(Gover, FloatTie) {
  // float32 2^-12 = 0.000244140625 exactly: a tie between 11-digit
  // candidates that only go1.26's Dragonbox rounds up.
  for (cgofuzz_gover g = 18; g <= 27; g++)
    EXPECT_EQ(Enc(F32Bits(0x39800000), g),
              g == 26 ? "float32(0.00024414063)" : "float32(0.00024414062)")
        << g;
}

TEST(Gover, CorpusNames) {
  const uint8_t data[] = "go test fuzz v1\nint(1)\n";
  char n18[CGOFUZZ_CODEC_NAME_MAX], n19[CGOFUZZ_CODEC_NAME_MAX],
      n20[CGOFUZZ_CODEC_NAME_MAX], n27[CGOFUZZ_CODEC_NAME_MAX], old[17];
  cgofuzz_codec_name_v(data, sizeof data - 1, 18, n18);
  cgofuzz_codec_name_v(data, sizeof data - 1, 19, n19);
  cgofuzz_codec_name_v(data, sizeof data - 1, 20, n20);
  cgofuzz_codec_name_v(data, sizeof data - 1, 27, n27);
  cgofuzz_codec_name(data, sizeof data - 1, old);
  EXPECT_EQ(std::strlen(n18), 64u);
  EXPECT_STREQ(n18, n19);
  EXPECT_EQ(std::strlen(n20), 16u);
  EXPECT_STREQ(n20, n27);
  EXPECT_STREQ(n27, old);
  EXPECT_EQ(std::string(n18, 16), std::string(n20));
  // sha256("go test fuzz v1\nint(1)\n"), as `sha256sum` prints it.
  EXPECT_STREQ(
      n18, "319194200cbebc1b28cd91ec5abfe2914d02e370e20c0c2495f6a9c559ba26a3");
}

TEST(Gover, WireStrings) {
  cgofuzz_fuzz_resp r = {};
  static const char e[] = "\b\f\xff";
  r.err = const_cast<char *>(e);
  r.err_len = 3;
  auto enc = [&](cgofuzz_gover g) {
    cgofuzz_buf b = {};
    EXPECT_EQ(cgofuzz_wire_encode_fuzz_resp_v(&r, g, &b), 0);
    std::string s(reinterpret_cast<const char *>(b.data), b.len);
    cgofuzz_buf_free(&b);
    size_t at = s.find("\"Err\":");
    return s.substr(at, s.find(",\"InternalErr\"") - at);
  };
  EXPECT_EQ(enc(21), "\"Err\":\"\\u0008\\u000c\\ufffd\"");
  EXPECT_EQ(enc(22), "\"Err\":\"\\b\\f\\ufffd\"");
  EXPECT_EQ(enc(26), "\"Err\":\"\\b\\f\\ufffd\"");
  EXPECT_EQ(enc(27), "\"Err\":\"\\b\\f\xef\xbf\xbd\"");
}

TEST(Gover, CoordinatorFacts) {
  EXPECT_EQ(cgofuzz_gover_hang_timeout_ns(18), INT64_C(10000000000));
  EXPECT_EQ(cgofuzz_gover_hang_timeout_ns(26), INT64_C(10000000000));
  EXPECT_EQ(cgofuzz_gover_hang_timeout_ns(27), INT64_C(60000000000));
  EXPECT_TRUE(cgofuzz_gover_limit_after_result(20));
  EXPECT_FALSE(cgofuzz_gover_limit_after_result(21));
  EXPECT_FALSE(cgofuzz_gover_stop_checks_outer_ctx(26));
  EXPECT_TRUE(cgofuzz_gover_stop_checks_outer_ctx(27));
  EXPECT_EQ(cgofuzz_gover_name_digits(19), 64);
  EXPECT_EQ(cgofuzz_gover_name_digits(20), 16);
  struct {
    const char *flag;
    cgofuzz_gover since;
  } flags[] = {{"fuzzworker", 18}, {"paniconexit0", 18}, {"skip", 20},
               {"gocoverdir", 20}, {"fullpath", 21},     {"artifacts", 26}};
  for (const auto &f : flags)
    for (cgofuzz_gover g = 18; g <= 27; g++)
      EXPECT_EQ(cgofuzz_gover_has_test_flag(g, f.flag), g >= f.since)
          << f.flag << " " << g;
  EXPECT_FALSE(cgofuzz_gover_has_test_flag(27, "nosuchflag"));
}

} // namespace
