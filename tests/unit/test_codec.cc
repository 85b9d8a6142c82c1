// test_codec.cc: the "go test fuzz v1" codec against bytes and verdicts
// taken from the installed Go (go1.26.8 internal/fuzz marshalCorpusFile /
// unmarshalCorpusFile; the default is now go1.27, which differs only where
// noted), plus a check that isprint_table.c still matches the Go
// toolchains' strconv.IsPrint.
#include "codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kHdr = "go test fuzz v1\n";

cgofuzz_value Bits64(uint64_t b) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_FLOAT64;
  std::memcpy(&v.f64, &b, 8);
  return v;
}

cgofuzz_value Bits32(uint32_t b) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_FLOAT32;
  std::memcpy(&v.f32, &b, 4);
  return v;
}

cgofuzz_value Int(cgofuzz_kind k, int64_t i) {
  cgofuzz_value v{};
  v.kind = k;
  v.i = i;
  return v;
}

cgofuzz_value Uint(cgofuzz_kind k, uint64_t u) {
  cgofuzz_value v{};
  v.kind = k;
  v.u = u;
  return v;
}

// Borrowed bytes must outlive the value: keep them here.
std::deque<std::string> g_strs;

cgofuzz_value Str(cgofuzz_kind k, const std::string &s) {
  g_strs.push_back(s);
  cgofuzz_value v{};
  v.kind = k;
  v.s.data = (uint8_t *)g_strs.back().data();
  v.s.len = s.size();
  return v;
}

std::string Enc(const cgofuzz_value &v) {
  cgofuzz_buf b{};
  EXPECT_EQ(cgofuzz_codec_encode_value(&v, &b), 0);
  std::string s((const char *)b.data, b.len);
  cgofuzz_buf_free(&b);
  return s;
}

// Decodes header + line; returns "ERR" or "kind:value".
std::string Dec1(const std::string &line) {
  std::string file = kHdr + line;
  cgofuzz_values vs{};
  cgofuzz_err err{};
  std::string out;
  if (cgofuzz_codec_decode((const uint8_t *)file.data(), file.size(), &vs,
                           &err) < 0) {
    out = "ERR";
  } else if (vs.n != 1) {
    out = "N=" + std::to_string(vs.n);
  } else {
    const cgofuzz_value &v = vs.v[0];
    char buf[64];
    out = std::string(cgofuzz_kind_name(v.kind)) + ":";
    switch (v.kind) {
    case CGOFUZZ_BYTES:
    case CGOFUZZ_STRING:
      out += std::string((const char *)v.s.data, v.s.len);
      break;
    case CGOFUZZ_BOOL:
      out += v.b ? "true" : "false";
      break;
    case CGOFUZZ_FLOAT32: {
      uint32_t b;
      std::memcpy(&b, &v.f32, 4);
      std::snprintf(buf, sizeof buf, "%08x", b);
      out += buf;
      break;
    }
    case CGOFUZZ_FLOAT64: {
      uint64_t b;
      std::memcpy(&b, &v.f64, 8);
      std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)b);
      out += buf;
      break;
    }
    case CGOFUZZ_INT:
    case CGOFUZZ_INT8:
    case CGOFUZZ_INT16:
    case CGOFUZZ_INT32:
    case CGOFUZZ_INT64:
      out += std::to_string(v.i);
      break;
    default:
      out += std::to_string(v.u);
    }
  }
  cgofuzz_values_free(&vs);
  return out;
}

TEST(CodecEncode, MatchesGoBytes) {
  struct {
    cgofuzz_value v;
    const char *want;
  } cases[] = {
      {Str(CGOFUZZ_BYTES, std::string("\x00\xff"
                                      "a\"\\\xc3\xa9\xe2\x80\xa8",
                                      10)),
       "[]byte(\"\\x00\\xffa\\\"\\\\\xc3\xa9\\u2028\")"},
      {Str(CGOFUZZ_STRING, "\x80\xed\xa0\x80\xf0\x9f\x98\x80\t'"),
       "string(\"\\x80\\xed\\xa0\\x80\xf0\x9f\x98\x80\\t'\")"},
      {Int(CGOFUZZ_INT, INT64_MIN), "int(-9223372036854775808)"},
      {Int(CGOFUZZ_INT8, -128), "int8(-128)"},
      {Int(CGOFUZZ_INT16, 32767), "int16(32767)"},
      {Uint(CGOFUZZ_UINT, UINT64_MAX), "uint(18446744073709551615)"},
      {Uint(CGOFUZZ_UINT64, 0), "uint64(0)"},
      {Uint(CGOFUZZ_UINT8, 0xff), "byte('\xc3\xbf')"},
      {Uint(CGOFUZZ_UINT8, 0x80), "byte('\\u0080')"},
      {Uint(CGOFUZZ_UINT8, '\''), "byte('\\'')"},
      {Uint(CGOFUZZ_UINT8, 0), "byte('\\x00')"},
      {Uint(CGOFUZZ_UINT8, 0xad), "byte('\\u00ad')"},
      {Int(CGOFUZZ_INT32, '"'), "rune('\"')"},
      {Int(CGOFUZZ_INT32, 0x10FFFF), "rune('\\U0010ffff')"},
      {Int(CGOFUZZ_INT32, -1), "int32(-1)"},
      {Int(CGOFUZZ_INT32, 0xD800), "int32(55296)"},
      {Int(CGOFUZZ_INT32, 0x110000), "int32(1114112)"},
      {Bits64(0x412e848000000000), "float64(1e+06)"},
      {Bits64(0x40fe240000000000), "float64(123456)"},
      {Bits64(0x444b1ae4d6e2ef50), "float64(1e+21)"},
      {Bits64(0x3f1a36e2eb1c432d), "float64(0.0001)"},
      {Bits64(0x3ee4f8b588e368f1), "float64(1e-05)"},
      {Bits64(0x7ff0000000000000), "float64(+Inf)"},
      {Bits64(0xfff0000000000000), "float64(-Inf)"},
      {Bits64(0x7ff8000000000001), "float64(NaN)"},
      {Bits64(0x8000000000000000), "float64(-0)"},
      {Bits64(0x3fb999999999999a), "float64(0.1)"},
      {Bits64(1), "float64(5e-324)"},
      {Bits64(0x7fefffffffffffff), "float64(1.7976931348623157e+308)"},
      {Bits64(0x7ff8000000000000), "math.Float64frombits(0x7ff8000000000000)"},
      {Bits64(0xfff8000000000001), "math.Float64frombits(0xfff8000000000001)"},
      {Bits32(0x3dcccccd), "float32(0.1)"},
      {Bits32(0x7fc00000), "float32(NaN)"},
      {Bits32(0x7fc00001), "math.Float32frombits(0x7fc00001)"},
      {Bits32(0xffc00000), "math.Float32frombits(0xffc00000)"},
      {Bits32(0xff800000), "float32(-Inf)"},
      // 2^-12: a tie between two 8-digit candidates; Go rounds it up.
      // 2^-12, an exact tie: go1.26 alone rounds it up to ...063
      // (tests/unit/test_gover.cc); the default, go1.27, to even.
      {Bits32(0x39800000), "float32(0.00024414062)"},
      {Bits32(0x4b800000), "float32(1.6777216e+07)"},
      {Bits32(1), "float32(1e-45)"},
  };
  for (auto &c : cases)
    EXPECT_EQ(Enc(c.v), c.want);
  cgofuzz_value b{};
  b.kind = CGOFUZZ_BOOL;
  b.b = true;
  EXPECT_EQ(Enc(b), "bool(true)");
}

TEST(CodecEncode, FileAndName) {
  cgofuzz_value vals[2] = {Int(CGOFUZZ_INT, 1), Str(CGOFUZZ_STRING, "x")};
  cgofuzz_buf b{};
  cgofuzz_err err{};
  ASSERT_EQ(cgofuzz_codec_encode(vals, 2, &b, &err), 0);
  EXPECT_EQ(std::string((const char *)b.data, b.len),
            kHdr + "int(1)\nstring(\"x\")\n");
  cgofuzz_buf_free(&b);
  EXPECT_EQ(cgofuzz_codec_encode(vals, 0, &b, &err), -1);
  std::string one = kHdr + "int(1)\n";
  char name[17];
  cgofuzz_codec_name((const uint8_t *)one.data(), one.size(), name);
  EXPECT_STREQ(name, "319194200cbebc1b"); // Go: sha256 hex [:16]
}

TEST(CodecDecode, AcceptsLikeGo) {
  struct {
    const char *line, *want;
  } cases[] = {
      {"int(1 ...)", "int:1"},
      {"int(1 ...,)", "int:1"},
      {"int(1,)", "int:1"},
      {"float64(NaN...)", "float64:7ff8000000000001"},
      {"float32(NaN)", "float32:7fc00000"},
      {"float64(~Inf)", "float64:7ff0000000000000"},
      {"float64(!Inf)", "float64:7ff0000000000000"},
      {"float64(^Inf)", "float64:7ff0000000000000"},
      {"float64(&Inf)", "float64:7ff0000000000000"},
      {"float64(<-Inf)", "float64:7ff0000000000000"},
      {"float64(- Inf)", "float64:fff0000000000000"},
      {"float64(-/*c*/1)", "float64:bff0000000000000"},
      {"float64(017)", "float64:4031000000000000"},
      {"float64(0_17)", "float64:4031000000000000"},
      {"int(0_17)", "int:15"},
      {"float64(1_000.5)", "float64:408f440000000000"},
      {"float64(08.5)", "float64:4021000000000000"},
      {"float64(0x1.8p1)", "float64:4008000000000000"},
      {"float32(1e-50)", "float32:00000000"},
      {"float32(0x1.000001p-150)", "float32:00000001"},
      {"[ ]byte(\"a\")", "[]byte:a"},
      {"[]byte(`a\rb`)", "[]byte:ab"},
      {"int(1) // c", "int:1"},
      {"int(1) /* c */", "int:1"},
      {"\xef\xbb\xbfint(1)", "int:1"},
      {"\xc2\xa0 int8(-0x80)\xe2\x80\x80", "int8:-128"},
      {"rune('\\x80')", "int32:128"},
      {"rune(-1)", "int32:-1"},
      {"byte('\xc3\xbf')", "uint8:255"},
      {"byte(255)", "uint8:255"},
      {"bool( true )", "bool:true"},
      {"string(\"\\u00e9\\377\")", "string:\xc3\xa9\xff"},
      {"math.Float64frombits(0x7ff8000000000002)", "float64:7ff8000000000002"},
      {"math.Float32frombits(0xffffffff)", "float32:ffffffff"},
      {"uint64(18446744073709551615)", "uint64:18446744073709551615"},
  };
  for (auto &c : cases)
    EXPECT_EQ(Dec1(c.line), c.want) << c.line;
}

TEST(CodecDecode, RejectsLikeGo) {
  const std::string bad[] = {
      "int(1...)",
      "int(x...)",
      "int(1,...)",
      "float64(*Inf)",
      "float64(-NaN)",
      "float64(0o17)",
      "float64(0x10)",
      "float64(0b1)",
      "uint(-0)",
      "int(08)",
      "float64(0x1.8)",
      "int(0x)",
      "int(1__0)",
      "int(0x_)",
      "[]uint8(\"a\")",
      "[5]byte(\"a\")",
      "int(1);",
      "rune(-'a')",
      "byte('\\u0100')",
      "float32(1e39)",
      "float64(1e400)",
      "math.Float32frombits(1.0)",
      "math.Float64frombits(1.0)",
      "int('a')",
      "rune(1i)",
      "bool((true))",
      "string(\"a\" + \"b\")",
      "int(+1)",
      "int8(128)",
      "uint8(256)",
      "rune('ab')",
      "rune('')",
      "string(\"\\'\")",
      "rune('\\\"')",
      "string(\"\\uD800\")",
      "string(\"\\400\")",
      "int(1) /* open",
      "int(1)\xef\xbb\xbf",
      "string(\"\xff\")",
      "int(1) // \xff",
      std::string("int(1) // \x00", 11),
      "float64(Inf)",
      "bool(True)",
      "int()",
      "int(1, 2)",
      "(int)(1)",
      "int((1))",
      "math.Sin(1)",
      "x.Float64frombits(1)",
  };
  for (const std::string &line : bad)
    EXPECT_EQ(Dec1(line), "ERR") << line;
}

TEST(CodecDecode, FileStructure) {
  cgofuzz_values vs{};
  cgofuzz_err err{};
  auto dec = [&](const std::string &f) {
    return cgofuzz_codec_decode((const uint8_t *)f.data(), f.size(), &vs, &err);
  };
  EXPECT_EQ(dec(""), -1);
  EXPECT_EQ(err.line, 0);
  EXPECT_EQ(dec("go test fuzz v1"), -1); // no '\n': Go needs two lines
  EXPECT_EQ(dec("go test fuzz v2\nint(1)"), -1);
  EXPECT_EQ(err.line, 1);
  EXPECT_EQ(dec("go test fuzz v1 \nint(1)"), -1);
  ASSERT_EQ(dec("go test fuzz v1\n"), 0);
  EXPECT_EQ(vs.n, 0u);
  ASSERT_EQ(dec("go test fuzz v1\r\n\n  \t\nint(1)\r\n\nbool(false)"), 0);
  ASSERT_EQ(vs.n, 2u);
  EXPECT_EQ(vs.v[0].kind, CGOFUZZ_INT);
  EXPECT_EQ(vs.v[1].kind, CGOFUZZ_BOOL);
  EXPECT_EQ(dec("go test fuzz v1\nint(1)\n\nint(x)\n"), -1);
  EXPECT_EQ(err.line, 4);
  EXPECT_NE(std::strstr(err.msg, "malformed line \"int(x)\""), nullptr)
      << err.msg;
  EXPECT_EQ(vs.n, 0u);
  cgofuzz_values_free(&vs);
}

TEST(CodecDecode, RoundTripsEncodedValues) {
  std::vector<cgofuzz_value> vals = {
      Bits64(0x0000000000000001),
      Bits64(0xc00921fb54442d18),
      Bits32(0x00800000),
      Bits32(0x7f7fffff),
      Int(CGOFUZZ_INT32, 0xFFFD),
      Uint(CGOFUZZ_UINT8, 0x85),
      Str(CGOFUZZ_BYTES, std::string("\x00\x01\x7f\xef\xbb\xbf", 6)),
  };
  cgofuzz_buf b{};
  cgofuzz_err err{};
  ASSERT_EQ(cgofuzz_codec_encode(vals.data(), vals.size(), &b, &err), 0);
  cgofuzz_values got{}, want{};
  for (auto &v : vals)
    ASSERT_EQ(cgofuzz_values_push(&want, &v), 0);
  ASSERT_EQ(cgofuzz_codec_decode(b.data, b.len, &got, &err), 0) << err.msg;
  EXPECT_TRUE(cgofuzz_values_equal(&got, &want));
  cgofuzz_values_free(&got);
  cgofuzz_values_free(&want);
  cgofuzz_buf_free(&b);
}

// Checks the decoder's contract on one file: a rejected file gets a
// message and a line within the file; an accepted one re-encodes to bytes
// that decode to the same values (bit for bit) and are a fixed point of
// encoding (Go's canonical form). Returns 1 if accepted with values, 0 if
// accepted empty, -1 if rejected.
int CheckJunk(const std::string &f) {
  cgofuzz_values vs{}, again{};
  cgofuzz_err err{};
  int verdict = -1;
  if (cgofuzz_codec_decode((const uint8_t *)f.data(), f.size(), &vs, &err) !=
      0) {
    size_t nl = (size_t)std::count(f.begin(), f.end(), '\n');
    EXPECT_GT(std::strlen(err.msg), 0u) << testing::PrintToString(f);
    EXPECT_GE(err.line, 0) << testing::PrintToString(f);
    EXPECT_LE((size_t)err.line, nl + 1) << testing::PrintToString(f);
  } else if (vs.n == 0) {
    // Header and blank lines only: Go refuses to marshal no values.
    cgofuzz_buf b{};
    EXPECT_EQ(cgofuzz_codec_encode(vs.v, 0, &b, &err), -1);
    cgofuzz_buf_free(&b);
    verdict = 0;
  } else {
    cgofuzz_buf b1{}, b2{};
    EXPECT_EQ(cgofuzz_codec_encode(vs.v, vs.n, &b1, &err), 0) << err.msg;
    EXPECT_EQ(cgofuzz_codec_decode(b1.data, b1.len, &again, &err), 0)
        << err.msg << " in " << std::string((const char *)b1.data, b1.len);
    EXPECT_TRUE(cgofuzz_values_equal(&vs, &again)) << testing::PrintToString(f);
    EXPECT_EQ(cgofuzz_codec_encode(again.v, again.n, &b2, &err), 0);
    EXPECT_EQ(std::string((const char *)b1.data, b1.len),
              std::string((const char *)b2.data, b2.len));
    cgofuzz_buf_free(&b1);
    cgofuzz_buf_free(&b2);
    verdict = 1;
  }
  cgofuzz_values_free(&vs);
  cgofuzz_values_free(&again);
  return verdict;
}

TEST(CodecDecode, JunkIsRejectedOrRoundTrips) {
  // A cheap in-process check with a fixed seed (the real fuzzing runs in
  // tests/selffuzz/libfuzzer). Half the files are random characters of the
  // corpus syntax, half are valid lines with a few random edits, so that both
  // verdicts are frequent.
  uint32_t x = 12345;
  auto next = [&x] {
    x = x * 1103515245u + 12345u;
    return x >> 16;
  };
  const char alpha[] = "()[]._-+'\"`/*\\0xXeEpP19 \t\r\n,;aInNfbyte\x80\xc2";
  const char *const valid[] = {
      "[]byte(\"a\\x00\\xff\")",
      "string(\"h\xc3\xa9llo\\n\")",
      "int(-42)",
      "int8(0x7f)",
      "uint16(0o17)",
      "uint64(18446744073709551615)",
      "rune('\\u00e9')",
      "byte('a')",
      "float64(-1.5e+300)",
      "float32(0x1p-3)",
      "float64(-Inf)",
      "float64(NaN)",
      "bool(true)",
      "math.Float64frombits(0x7ff8000000000001)",
      "int32(-2147483648)",
      "uint(1_000)",
  };
  int counts[3] = {0, 0, 0}; // rejected, accepted empty, accepted
  for (int it = 0; it < 20000; it++) {
    std::string f = kHdr;
    if (it % 2 == 0) {
      int n = (int)(next() % 40);
      for (int i = 0; i < n; i++)
        f += alpha[next() % (sizeof alpha - 1)];
    } else {
      int lines = 1 + (int)(next() % 3);
      for (int l = 0; l < lines; l++) {
        f += valid[next() % (sizeof valid / sizeof valid[0])];
        f += '\n';
      }
      int edits = (int)(next() % 3);
      for (int e = 0; e < edits; e++) {
        size_t at = kHdr.size() + next() % (f.size() - kHdr.size());
        char c = alpha[next() % (sizeof alpha - 1)];
        switch (next() % 3) {
        case 0:
          f[at] = c;
          break;
        case 1:
          f.insert(f.begin() + (long)at, c);
          break;
        default:
          f.erase(at, 1);
        }
      }
    }
    counts[CheckJunk(f) + 1]++;
    if (HasFailure())
      break; // one bad input is enough to read
  }
  // Both verdicts must be well represented, or this checks little. The
  // fixed seed makes the split exact; recount it if the codec's verdicts
  // change on purpose (they follow Go's).
  EXPECT_EQ(counts[0] + counts[1] + counts[2], 20000);
  EXPECT_EQ(counts[0], 15697);
  EXPECT_EQ(counts[1], 276);
  EXPECT_EQ(counts[2], 4027);
}

TEST(CodecQuote, Strings) {
  auto q = [](const std::string &s) {
    cgofuzz_buf b{};
    EXPECT_EQ(cgofuzz_quote((const uint8_t *)s.data(), s.size(), &b), 0);
    std::string r((const char *)b.data, b.len);
    cgofuzz_buf_free(&b);
    return r;
  };
  EXPECT_EQ(q(""), "\"\"");
  EXPECT_EQ(q("\a\b\f\n\r\t\v\x7f"), "\"\\a\\b\\f\\n\\r\\t\\v\\x7f\"");
  EXPECT_EQ(q("\xef\xbf\xbd"), "\"\xef\xbf\xbd\""); // U+FFFD is printable
  EXPECT_EQ(q("\xf4\x90\x80\x80"), "\"\\xf4\\x90\\x80\\x80\""); // > U+10FFFF
  EXPECT_EQ(q("\xf3\xa0\x80\x81"), "\"\\U000e0001\"");
  EXPECT_EQ(q("\xc2\xa0"), "\"\\u00a0\"");
  EXPECT_TRUE(cgofuzz_is_print(0xFF));
  EXPECT_FALSE(cgofuzz_is_print(0xAD));
  EXPECT_FALSE(cgofuzz_is_print(0x378));
}

TEST(CodecFloat, FormatsLikeGo) {
  auto f64 = [](double d) {
    cgofuzz_buf b{};
    cgofuzz_numfmt_format_float64(d, &b);
    std::string r((const char *)b.data, b.len);
    cgofuzz_buf_free(&b);
    return r;
  };
  EXPECT_EQ(f64(100000), "100000");
  EXPECT_EQ(f64(999999), "999999");
  EXPECT_EQ(f64(1e6), "1e+06");
  EXPECT_EQ(f64(1e100), "1e+100");
  EXPECT_EQ(f64(1.5e-5), "1.5e-05");
  EXPECT_EQ(f64(0.00012), "0.00012");
  EXPECT_EQ(f64(-2.5), "-2.5");
  EXPECT_EQ(f64(1.0 / 3), "0.3333333333333333");
}

// isprint_table.c must be what tools/gen_isprint prints, asking each Go
// release go1.18 ... go1.27 (from the module cache: GOPROXY=off, no
// download). Skipped without go or without those toolchains
// (scripts/diff_matrix.sh fetches them).
TEST(CodecIsPrint, TableMatchesGenerator) {
  std::string root = CGOFUZZ_TESTDATA;
  root = root.substr(0, root.rfind('/'));
  std::string cmd =
      "cd '" + root +
      "' && command -v go >/dev/null && GOPROXY=off go run ./tools/gen_isprint";
  FILE *p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string gen;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    gen.append(buf, n);
  int rc = pclose(p);
  if (rc != 0 || gen.empty())
    GTEST_SKIP() << "go or the go1.18 ... go1.27 toolchains not available";
  std::ifstream in(root + "/csrc/core/isprint_table.c");
  std::stringstream have;
  have << in.rdbuf();
  EXPECT_EQ(gen, have.str()) << "regenerate: go run ./tools/gen_isprint > "
                                "csrc/core/isprint_table.c";
}

} // namespace
