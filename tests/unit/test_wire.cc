// test_wire.cc: worker-protocol JSON, base64 and SHA-256.
//
// Expected bytes were produced by go1.26's encoding/json on copies of
// internal/fuzz's structs; the accept/reject cases agree with json.Unmarshal
// (they are a hand-picked subset of a randomized differential run).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "base64.h"
#include "sha256.h"
#include "wire.h"

namespace {

std::string Str(const cgofuzz_buf &b) {
  return std::string(reinterpret_cast<const char *>(b.data), b.len);
}
const uint8_t *U(const std::string &s) {
  return reinterpret_cast<const uint8_t *>(s.data());
}
std::string Bytes(const cgofuzz_wire_bytes &b) {
  if (!b.has)
    return "<nil>";
  return std::string(reinterpret_cast<const char *>(b.data), b.len);
}

bool CallOk(const std::string &m, cgofuzz_call *c) {
  cgofuzz_err err;
  return cgofuzz_wire_decode_call(U(m), m.size(), c, &err) == 0;
}
bool FuzzRespOk(const std::string &m, cgofuzz_fuzz_resp *r) {
  cgofuzz_err err;
  return cgofuzz_wire_decode_fuzz_resp(U(m), m.size(), r, &err) == 0;
}
bool MinRespOk(const std::string &m, cgofuzz_minimize_resp *r) {
  cgofuzz_err err;
  return cgofuzz_wire_decode_minimize_resp(U(m), m.size(), r, &err) == 0;
}
bool Accepts(const std::string &m) {
  cgofuzz_fuzz_resp r;
  bool ok = FuzzRespOk(m, &r);
  if (ok)
    cgofuzz_fuzz_resp_free(&r);
  return ok;
}

// Decodes a fuzzResponse and returns its Count, or -999 on error.
int64_t CountOf(const std::string &m) {
  cgofuzz_fuzz_resp r;
  if (!FuzzRespOk(m, &r))
    return -999;
  int64_t c = r.count;
  cgofuzz_fuzz_resp_free(&r);
  return c;
}

// Decodes a fuzzResponse and returns its CoverageData, or "<err>".
std::string CovOf(const std::string &m) {
  cgofuzz_fuzz_resp r;
  if (!FuzzRespOk(m, &r))
    return "<err>";
  std::string s = Bytes(r.coverage_data);
  cgofuzz_fuzz_resp_free(&r);
  return s;
}

std::string ErrOf(const std::string &m) {
  cgofuzz_fuzz_resp r;
  if (!FuzzRespOk(m, &r))
    return "<err>";
  std::string s = r.err ? std::string(r.err, r.err_len) : "<null>";
  cgofuzz_fuzz_resp_free(&r);
  return s;
}

std::string Nest(const std::string &open, const std::string &mid,
                 const std::string &close, int n) {
  std::string s;
  for (int i = 0; i < n; i++)
    s += open;
  s += mid;
  for (int i = 0; i < n; i++)
    s += close;
  return s;
}

} // namespace

// ---- encoding: byte-identical to Go ----

TEST(Wire, EncodeCallsLikeGo) {
  cgofuzz_buf b = {};
  cgofuzz_call c = {};
  c.kind = CGOFUZZ_CALL_PING;
  ASSERT_EQ(cgofuzz_wire_encode_call(&c, &b), 0);
  EXPECT_EQ(Str(b), "{\"Ping\":{},\"Fuzz\":null,\"Minimize\":null}\n");
  b.len = 0;
  c.kind = CGOFUZZ_CALL_NONE;
  ASSERT_EQ(cgofuzz_wire_encode_call(&c, &b), 0);
  EXPECT_EQ(Str(b), "{\"Ping\":null,\"Fuzz\":null,\"Minimize\":null}\n");

  b.len = 0;
  uint8_t cov[] = {0, 1, 2, 255};
  c.kind = CGOFUZZ_CALL_FUZZ;
  c.fuzz.timeout_ns = 100000000;
  c.fuzz.limit = 0;
  c.fuzz.warmup = true;
  c.fuzz.coverage_data = {true, cov, 4};
  ASSERT_EQ(cgofuzz_wire_encode_call(&c, &b), 0);
  EXPECT_EQ(Str(b), "{\"Ping\":null,\"Fuzz\":{\"Timeout\":100000000,\"Limit\":"
                    "0,\"Warmup\":true,\"CoverageData\":\"AAEC/w==\"},"
                    "\"Minimize\":null}\n");

  b.len = 0;
  c = {};
  c.kind = CGOFUZZ_CALL_MINIMIZE;
  c.minimize.timeout_ns = -1;
  c.minimize.limit = int64_t(1) << 62;
  c.minimize.keep_coverage = {true, nullptr, 0};
  c.minimize.index = INT64_MIN;
  ASSERT_EQ(cgofuzz_wire_encode_call(&c, &b), 0);
  EXPECT_EQ(Str(b),
            "{\"Ping\":null,\"Fuzz\":null,\"Minimize\":{\"Timeout\":-1,"
            "\"Limit\":4611686018427387904,\"KeepCoverage\":\"\",\"Index\":"
            "-9223372036854775808}}\n");
  cgofuzz_buf_free(&b);
}

TEST(Wire, EncodeResponsesLikeGo) {
  cgofuzz_buf b = {};
  cgofuzz_fuzz_resp r = {};
  r.total_duration_ns = 5;
  r.interesting_duration_ns = 6;
  r.count = 7;
  // HTML-safe escapes, U+2028/9, control characters, DEL kept raw, invalid
  // UTF-8 (including an encoded surrogate) as \ufffd per byte, and a NUL
  // that only err_len can carry.
  static const char e[] =
      "a<b>&c\xe2\x80\xa8\xe2\x80\xa9\x00\x1f\x7f\"\\\b\f\n\r\t\xff\xed\xa0"
      "\x80\xc3\xa9";
  std::string es(e, sizeof e - 1);
  r.err = const_cast<char *>(es.c_str());
  r.err_len = es.size();
  // The bytes of go1.26's encoding/json (go1.27's writes invalid UTF-8 as
  // raw U+FFFD: tests/unit/test_gover.cc).
  ASSERT_EQ(cgofuzz_wire_encode_fuzz_resp_v(&r, 26, &b), 0);
  EXPECT_EQ(Str(b), "{\"TotalDuration\":5,\"InterestingDuration\":6,\"Count\":"
                    "7,\"CoverageData\":null,\"Err\":\"a\\u003cb\\u003e\\u0026"
                    "c\\u2028\\u2029\\u0000\\u001f\x7f\\\"\\\\\\b\\f\\n\\r\\t"
                    "\\ufffd\\ufffd\\ufffd\\ufffd\xc3\xa9\",\"InternalErr\":"
                    "\"\"}\n");

  b.len = 0;
  cgofuzz_minimize_resp m = {};
  m.wrote_to_mem = true;
  m.err = const_cast<char *>("x"); // err_len 0: NUL-terminated
  m.coverage_data = {true, (uint8_t *)"hello", 5};
  m.duration_ns = 9;
  m.count = -3;
  ASSERT_EQ(cgofuzz_wire_encode_minimize_resp(&m, &b), 0);
  EXPECT_EQ(Str(b), "{\"WroteToMem\":true,\"Err\":\"x\",\"CoverageData\":"
                    "\"aGVsbG8=\",\"Duration\":9,\"Count\":-3}\n");

  b.len = 0;
  ASSERT_EQ(cgofuzz_wire_encode_ping_resp(&b), 0);
  EXPECT_EQ(Str(b), "{}\n");
  cgofuzz_buf_free(&b);
}

// cgofuzz's own member of a fuzz reply (a C worker's slow unit under
// libFuzzer's command line) is written only when set, after Go's members,
// and read back; a reply without it decodes to 0.
TEST(Wire, SlowUnitMemberOnlyWhenSet) {
  cgofuzz_buf b = {};
  cgofuzz_fuzz_resp r = {};
  r.count = 3;
  r.slow_unit_sec = 12;
  ASSERT_EQ(cgofuzz_wire_encode_fuzz_resp(&r, &b), 0);
  EXPECT_EQ(Str(b), "{\"TotalDuration\":0,\"InterestingDuration\":0,\"Count\":"
                    "3,\"CoverageData\":null,\"Err\":\"\",\"InternalErr\":"
                    "\"\",\"CgofuzzSlowUnitSec\":12}\n");
  cgofuzz_fuzz_resp d = {};
  cgofuzz_err err = {};
  ASSERT_EQ(cgofuzz_wire_decode_fuzz_resp(b.data, b.len, &d, &err), 0)
      << err.msg;
  EXPECT_EQ(d.slow_unit_sec, 12);
  EXPECT_EQ(d.count, 3);
  cgofuzz_fuzz_resp_free(&d);
  b.len = 0;
  r.slow_unit_sec = 0;
  ASSERT_EQ(cgofuzz_wire_encode_fuzz_resp(&r, &b), 0);
  EXPECT_EQ(Str(b).find("Cgofuzz"), std::string::npos);
  memset(&d, 0, sizeof d);
  ASSERT_EQ(cgofuzz_wire_decode_fuzz_resp(b.data, b.len, &d, &err), 0);
  EXPECT_EQ(d.slow_unit_sec, 0);
  cgofuzz_fuzz_resp_free(&d);
  cgofuzz_buf_free(&b);
}

// ---- decoding ----

TEST(Wire, DecodeRoundTripsEncodedCalls) {
  std::mt19937_64 rng(1);
  cgofuzz_buf b = {};
  for (int i = 0; i < 200; i++) {
    std::string cov(rng() % 300, '\0');
    for (auto &ch : cov)
      ch = char(rng());
    cgofuzz_call c = {};
    c.kind = cgofuzz_call_kind(rng() % 4);
    c.fuzz = {int64_t(rng()),
              int64_t(rng()),
              bool(rng() & 1),
              {bool(rng() & 1), (uint8_t *)cov.data(), cov.size()}};
    c.minimize = {int64_t(rng()),
                  int64_t(rng()),
                  {bool(rng() & 1), (uint8_t *)cov.data(), cov.size()},
                  int64_t(rng())};
    b.len = 0;
    ASSERT_EQ(cgofuzz_wire_encode_call(&c, &b), 0);
    cgofuzz_call d;
    ASSERT_TRUE(CallOk(Str(b), &d)) << Str(b);
    ASSERT_EQ(d.kind, c.kind);
    if (c.kind == CGOFUZZ_CALL_FUZZ) {
      EXPECT_EQ(d.fuzz.timeout_ns, c.fuzz.timeout_ns);
      EXPECT_EQ(d.fuzz.limit, c.fuzz.limit);
      EXPECT_EQ(d.fuzz.warmup, c.fuzz.warmup);
      EXPECT_EQ(Bytes(d.fuzz.coverage_data), Bytes(c.fuzz.coverage_data));
    } else if (c.kind == CGOFUZZ_CALL_MINIMIZE) {
      EXPECT_EQ(d.minimize.timeout_ns, c.minimize.timeout_ns);
      EXPECT_EQ(d.minimize.limit, c.minimize.limit);
      EXPECT_EQ(d.minimize.index, c.minimize.index);
      EXPECT_EQ(Bytes(d.minimize.keep_coverage),
                Bytes(c.minimize.keep_coverage));
    }
    cgofuzz_call_free(&d);
  }
  cgofuzz_buf_free(&b);
}

TEST(Wire, CallKindFollowsGoWorkerPriority) {
  cgofuzz_call c;
  ASSERT_TRUE(
      CallOk("{\"Ping\":{},\"Minimize\":{\"Index\":3},\"Fuzz\":{}}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_FUZZ);
  cgofuzz_call_free(&c);
  ASSERT_TRUE(CallOk("{\"Ping\":{},\"Minimize\":{\"Index\":3}}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_MINIMIZE);
  EXPECT_EQ(c.minimize.index, 3);
  cgofuzz_call_free(&c);
  ASSERT_TRUE(CallOk("{\"Ping\":{\"x\":[1,{}]}}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_PING);
  ASSERT_TRUE(CallOk("{\"Ping\":null}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_NONE);
  ASSERT_TRUE(CallOk(" null ", &c)); // Unmarshal accepts a top-level null
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_NONE);
  ASSERT_TRUE(CallOk("{}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_NONE);
  EXPECT_FALSE(CallOk("{\"Ping\":[]}", &c));
  EXPECT_FALSE(CallOk("{\"Fuzz\":1}", &c));
  EXPECT_FALSE(CallOk("{\"Fuzz\":\"\"}", &c));
}

TEST(Wire, RepeatedObjectMembersMerge) {
  // A second "Fuzz" updates the struct decoded by the first...
  cgofuzz_call c;
  ASSERT_TRUE(CallOk("{\"Fuzz\":{\"Timeout\":1},\"Fuzz\":{\"Limit\":2}}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_FUZZ);
  EXPECT_EQ(c.fuzz.timeout_ns, 1);
  EXPECT_EQ(c.fuzz.limit, 2);
  cgofuzz_call_free(&c);
  // ...unless a null in between made it nil.
  ASSERT_TRUE(CallOk(
      "{\"Fuzz\":{\"Timeout\":1},\"Fuzz\":null,\"Fuzz\":{\"Limit\":2}}", &c));
  EXPECT_EQ(c.fuzz.timeout_ns, 0);
  EXPECT_EQ(c.fuzz.limit, 2);
  cgofuzz_call_free(&c);
  ASSERT_TRUE(CallOk("{\"Fuzz\":{},\"Fuzz\":null}", &c));
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_NONE);
}

TEST(Wire, MemberNamesFoldLikeGo) {
  EXPECT_EQ(CountOf("{\"count\":1}"), 1);
  EXPECT_EQ(CountOf("{\"COUNT\":2}"), 2);
  EXPECT_EQ(CountOf("{\"\\u0043ount\":3}"), 3);
  EXPECT_EQ(CountOf("{\"Count\":4,\"count\":5}"), 5); // last one wins
  EXPECT_EQ(CountOf("{\"Countx\":4}"), 0);            // unknown: ignored
  EXPECT_EQ(CountOf("{\"Coun\":4}"), 0);
  // Go's simple folding: U+017F (long s) ~ 's', U+212A (Kelvin) ~ 'k'.
  EXPECT_EQ(ErrOf("{\"InternalErr\":\"\",\"Err\":\"e\"}"), "e");
  cgofuzz_fuzz_resp r;
  ASSERT_TRUE(FuzzRespOk("{\"Intere\xc5\xbftingDuration\":6}", &r));
  EXPECT_EQ(r.interesting_duration_ns, 6);
  cgofuzz_fuzz_resp_free(&r);
  ASSERT_TRUE(FuzzRespOk("{\"intere\\u017ftingduration\":7}", &r));
  EXPECT_EQ(r.interesting_duration_ns, 7);
  cgofuzz_fuzz_resp_free(&r);
  cgofuzz_call c;
  ASSERT_TRUE(CallOk("{\"Minimize\":{\"\xe2\x84\xaa"
                     "eepCoverage\":\"AQ==\"}}",
                     &c));
  EXPECT_EQ(Bytes(c.minimize.keep_coverage), "\x01");
  cgofuzz_call_free(&c);
  // Dotted capital I does not fold to 'i'.
  EXPECT_EQ(CountOf("{\"\xc4\xb0ndex\":1,\"Count\":1}"), 1);
  ASSERT_TRUE(CallOk("{\"Minimize\":{\"\xc4\xb0ndex\":9}}", &c));
  EXPECT_EQ(c.minimize.index, 0);
  cgofuzz_call_free(&c);
}

TEST(Wire, NullKeepsScalarsAndClearsBytes) {
  EXPECT_EQ(CountOf("{\"Count\":4,\"Count\":null}"), 4);
  EXPECT_EQ(ErrOf("{\"Err\":\"x\",\"Err\":null}"), "x");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"AQ==\",\"CoverageData\":null}"),
            "<nil>");
  EXPECT_EQ(CovOf("{}"), "<nil>");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"\"}"), "");
  EXPECT_EQ(CovOf("{\"CoverageData\":[]}"), "");
  cgofuzz_minimize_resp m;
  ASSERT_TRUE(MinRespOk("{\"WroteToMem\":true,\"WroteToMem\":null}", &m));
  EXPECT_TRUE(m.wrote_to_mem);
  cgofuzz_minimize_resp_free(&m);
}

TEST(Wire, BytesFromArrays) {
  EXPECT_EQ(CovOf("{\"CoverageData\":[1, 2 ,255]}"), "\x01\x02\xff");
  EXPECT_EQ(CovOf("{\"CoverageData\":[256]}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":[-1]}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":[-0]}"), "<err>"); // ParseUint
  EXPECT_EQ(CovOf("{\"CoverageData\":[1.0]}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":[\"1\"]}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":[1,]}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":[null]}"), std::string(1, '\0'));
  // Go decodes into the old backing array: a null element keeps what was
  // there, even past the length of the previous value.
  EXPECT_EQ(CovOf("{\"CoverageData\":\"AQID\",\"CoverageData\":[null,9]}"),
            "\x01\x09");
  EXPECT_EQ(CovOf("{\"CoverageData\":[1,2,3],\"CoverageData\":[null],"
                  "\"CoverageData\":[null,null,null]}"),
            "\x01\x02\x03");
  EXPECT_EQ(CovOf("{\"CoverageData\":[1,2,3],\"CoverageData\":[],"
                  "\"CoverageData\":[null,null]}"),
            std::string(2, '\0'));
  EXPECT_EQ(CovOf("{\"CoverageData\":[1,2,3],\"CoverageData\":\"\","
                  "\"CoverageData\":[null,null]}"),
            std::string(2, '\0'));
}

TEST(Wire, BytesFromBase64) {
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVsbG8=\"}"), "hello");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVs\\nbG8=\\r\\n\"}"), "hello");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVs\\u0062G8=\"}"), "hello");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"a\\/==\"}"), "k");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVsbG8\"}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVsbG8=A\"}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"aGVsbG-=\"}"), "<err>");
  EXPECT_EQ(CovOf("{\"CoverageData\":\"\xc3\xa9\"}"), "<err>");
}

TEST(Wire, IntegersMustBeInt64Integers) {
  EXPECT_EQ(CountOf("{\"Count\":9223372036854775807}"), INT64_MAX);
  EXPECT_EQ(CountOf("{\"Count\":-9223372036854775808}"), INT64_MIN);
  EXPECT_EQ(CountOf("{\"Count\":-0}"), 0);
  EXPECT_EQ(CountOf("{\"Count\":9223372036854775808}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":-9223372036854775809}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":1.0}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":1e3}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":01}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":+1}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":\"1\"}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":true}"), -999);
  EXPECT_EQ(CountOf("{\"Count\":[]}"), -999);
  // Numbers of any shape are fine where nothing reads them.
  EXPECT_EQ(CountOf("{\"x\":-1.5e+300,\"Count\":1}"), 1);
}

TEST(Wire, StringsUnquoteLikeGo) {
  EXPECT_EQ(ErrOf("{\"Err\":\"\\u00e9\\ud83d\\ude00\\/\\b\"}"),
            "\xc3\xa9\xf0\x9f\x98\x80/\b");
  // Unpaired surrogates become U+FFFD; the next escape stands alone.
  EXPECT_EQ(ErrOf("{\"Err\":\"\\ud800\\u0041\\udc00\"}"), "\xef\xbf\xbd"
                                                          "A\xef\xbf\xbd");
  EXPECT_EQ(ErrOf("{\"Err\":\"\\ud800\\ud800\\udc00\"}"),
            "\xef\xbf\xbd\xf0\x90\x80\x80");
  // Invalid UTF-8: one U+FFFD per bad byte.
  EXPECT_EQ(ErrOf("{\"Err\":\"\xff\xed\xa0\x80x\"}"),
            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx");
  EXPECT_EQ(ErrOf("{\"Err\":\"a\\u0000b\"}"), std::string("a\0b", 3));
  EXPECT_EQ(ErrOf("{\"Err\":\"\"}"), "<null>"); // "" means no error
  EXPECT_EQ(ErrOf("{\"Err\":\"\\x\"}"), "<err>");
  EXPECT_EQ(ErrOf("{\"Err\":\"\\u12\"}"), "<err>");
  EXPECT_EQ(ErrOf("{\"Err\":\"\t\"}"), "<err>");
  EXPECT_EQ(ErrOf("{\"Err\":'x'}"), "<err>");
}

TEST(Wire, SyntaxAndWhiteSpace) {
  EXPECT_TRUE(Accepts(" \t\r\n{ \"Count\" : 1 , \"Err\" : \"\" }\n\n"));
  EXPECT_FALSE(Accepts(""));
  EXPECT_FALSE(Accepts("   "));
  EXPECT_FALSE(Accepts("{"));
  EXPECT_FALSE(Accepts("{}{}"));
  EXPECT_FALSE(Accepts("{} x"));
  EXPECT_FALSE(Accepts("{,}"));
  EXPECT_FALSE(Accepts("{\"a\":1,}"));
  EXPECT_FALSE(Accepts("{\"a\"}"));
  EXPECT_FALSE(Accepts("{\"a\":nul}"));
  EXPECT_FALSE(Accepts("{\"a\":[1 2]}"));
  EXPECT_FALSE(Accepts("{\"a\":{\"b\":1,}}"));
  EXPECT_FALSE(Accepts("\xef\xbb\xbf{}")); // no BOM
  EXPECT_FALSE(Accepts("[]"));
  EXPECT_FALSE(Accepts("1"));
  EXPECT_FALSE(Accepts("{\"a\":\v1}"));
  EXPECT_TRUE(Accepts("null"));
  EXPECT_TRUE(Accepts("{\"a\":[{\"b\":[true,false,null,\"s\",-0.5e-7]}]}"));
  cgofuzz_err err;
  EXPECT_EQ(
      cgofuzz_wire_decode_ping_resp(U(std::string("{\"x\":[]}")), 8, &err), 0);
  EXPECT_EQ(cgofuzz_wire_decode_ping_resp(U(std::string("[]")), 2, &err), -1);
  EXPECT_NE(strstr(err.msg, "offset 0"), nullptr) << err.msg;
}

TEST(Wire, NestingLimitIs10000) {
  // The top-level object is one level, so 9999 arrays inside it is the most
  // Go accepts, and the scanner checks this even in ignored members.
  EXPECT_TRUE(Accepts("{\"x\":" + Nest("[", "", "]", 9999) + "}"));
  EXPECT_FALSE(Accepts("{\"x\":" + Nest("[", "", "]", 10000) + "}"));
  EXPECT_TRUE(Accepts("{\"x\":" + Nest("{\"a\":", "1", "}", 9999) + "}"));
  EXPECT_FALSE(Accepts("{\"x\":" + Nest("{\"a\":", "1", "}", 10000) + "}"));
  cgofuzz_call c;
  EXPECT_TRUE(
      CallOk("{\"Fuzz\":{\"x\":" + Nest("[", "", "]", 9998) + "}}", &c));
  cgofuzz_call_free(&c);
  EXPECT_FALSE(
      CallOk("{\"Fuzz\":{\"x\":" + Nest("[", "", "]", 9999) + "}}", &c));
  // Far deeper input fails cleanly instead of exhausting the stack.
  EXPECT_FALSE(Accepts("{\"x\":" + Nest("[", "", "]", 1000000) + "}"));
}

TEST(Wire, LargeMessagesAreLinear) {
  // A 16 MB Err with escapes and a 64 KB coverage mask.
  std::string err(16 << 20, 'a');
  for (size_t i = 0; i < err.size(); i += 1000)
    err[i] = '<';
  std::string cov(64 << 10, '\0');
  for (size_t i = 0; i < cov.size(); i++)
    cov[i] = char(i * 7);
  cgofuzz_fuzz_resp r = {};
  r.err = err.data();
  r.err_len = err.size();
  r.coverage_data = {true, (uint8_t *)cov.data(), cov.size()};
  cgofuzz_buf b = {};
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(cgofuzz_wire_encode_fuzz_resp(&r, &b), 0);
  cgofuzz_fuzz_resp d;
  ASSERT_TRUE(FuzzRespOk(Str(b), &d));
  auto secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_LT(secs, 5.0); // generous for sanitizer builds
  ASSERT_NE(d.err, nullptr);
  EXPECT_EQ(std::string(d.err, d.err_len), err);
  EXPECT_EQ(d.err[d.err_len], '\0');
  EXPECT_EQ(Bytes(d.coverage_data), cov);
  cgofuzz_fuzz_resp_free(&d);
  cgofuzz_buf_free(&b);
}

TEST(Wire, ErrorsLeaveNothingToFree) {
  // Fails after allocating strings and bytes: must not leak (ASan checks).
  cgofuzz_fuzz_resp r;
  cgofuzz_err err;
  std::string m = "{\"Err\":\"abc\",\"InternalErr\":\"d\",\"CoverageData\":"
                  "\"AQ==\",\"Count\":x}";
  ASSERT_EQ(cgofuzz_wire_decode_fuzz_resp(U(m), m.size(), &r, &err), -1);
  EXPECT_EQ(r.err, nullptr);
  EXPECT_EQ(r.coverage_data.data, nullptr);
  cgofuzz_call c;
  m = "{\"Fuzz\":{\"CoverageData\":\"AQ==\"},\"Minimize\":{\"KeepCoverage\":["
      "1]},\"Ping\":7}";
  ASSERT_EQ(cgofuzz_wire_decode_call(U(m), m.size(), &c, &err), -1);
  EXPECT_EQ(c.kind, CGOFUZZ_CALL_NONE);
}

// ---- base64 ----

TEST(Base64, Rfc4648Vectors) {
  const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char *out[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                       "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; i++) {
    cgofuzz_buf b = {};
    ASSERT_EQ(cgofuzz_base64_encode((const uint8_t *)in[i], strlen(in[i]), &b),
              0);
    EXPECT_EQ(Str(b), out[i]);
    b.len = 0;
    ASSERT_EQ(cgofuzz_base64_decode(out[i], strlen(out[i]), &b), 0);
    EXPECT_EQ(Str(b), in[i]);
    cgofuzz_buf_free(&b);
  }
}

TEST(Base64, DecodeRulesMatchGoStdEncoding) {
  struct {
    const char *in;
    const char *out; // nullptr: error
  } cases[] = {
      {"Zg==", "f"},
      {"Zh==", "f"}, // unused bits are not checked
      {"Z\ng=\r=\n", "f"},
      {"\r\n", ""},
      {"Zg=", nullptr},
      {"Zg", nullptr},
      {"Z", nullptr},
      {"Z===", nullptr},
      {"====", nullptr},
      {"=", nullptr},
      {"Zg==Zg==", nullptr},
      {"Zg==\nx", nullptr},
      {"Zm8=", "fo"},
      {"Zm8==", nullptr},
      {"Zm9v!", nullptr},
      {"Zm-v", nullptr},
      {"Zm_v", nullptr},
      {"Zm9 v", nullptr},
      {"Zm9vYmFy\n", "foobar"},
  };
  for (auto &c : cases) {
    cgofuzz_buf b = {};
    cgofuzz_buf_append(&b, "pre", 3);
    int rc = cgofuzz_base64_decode(c.in, strlen(c.in), &b);
    if (c.out) {
      EXPECT_EQ(rc, 0) << c.in;
      EXPECT_EQ(Str(b), std::string("pre") + c.out) << c.in;
    } else {
      EXPECT_EQ(rc, -1) << c.in;
      EXPECT_EQ(Str(b), "pre") << c.in; // nothing appended on error
    }
    cgofuzz_buf_free(&b);
  }
}

TEST(Base64, RandomRoundTrip) {
  std::mt19937 rng(7);
  for (int i = 0; i < 500; i++) {
    std::string s(rng() % 200, '\0');
    for (auto &ch : s)
      ch = char(rng());
    cgofuzz_buf e = {}, d = {};
    ASSERT_EQ(cgofuzz_base64_encode(U(s), s.size(), &e), 0);
    EXPECT_EQ(e.len, (s.size() + 2) / 3 * 4);
    ASSERT_EQ(cgofuzz_base64_decode((const char *)e.data, e.len, &d), 0);
    EXPECT_EQ(Str(d), s);
    cgofuzz_buf_free(&e);
    cgofuzz_buf_free(&d);
  }
}

// ---- SHA-256 ----

namespace {
std::string Sha(const std::string &s) {
  uint8_t h[32];
  cgofuzz_sha256(U(s), s.size(), h);
  char hex[65];
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
  return hex;
}
} // namespace

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(Sha(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, PaddingBoundaries) {
  struct {
    size_t n;
    const char *hex;
  } cases[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"},
  };
  for (auto &c : cases)
    EXPECT_EQ(Sha(std::string(c.n, 'a')), c.hex) << c.n;
}

// Go's coordinator decodes with json.Decoder: the first byte that cannot
// begin a value fails it, quoted as encoding/json's quoteChar does.
TEST(Wire, BadStartIsGosDecoderError) {
  struct {
    std::string in;
    const char *want; // nullptr: no error (yet)
  } cases[] = {
      {"!!", "invalid character '!' looking for beginning of value"},
      {" \r\n\tx", "invalid character 'x' looking for beginning of value"},
      {"'", "invalid character '\\'' looking for beginning of value"},
      {std::string("\x01", 1),
       "invalid character '\\x01' looking for beginning of value"},
      {std::string("\0", 1),
       "invalid character '\\x00' looking for beginning of value"},
      {"\v", "invalid character '\\v' looking for beginning of value"},
      {"\x85", "invalid character '\\u0085' looking for beginning of value"},
      {"\xe9", "invalid character '\xc3\xa9' looking for beginning of value"},
      {"{\"Count\":1}", nullptr},
      {"  ", nullptr},
      {"", nullptr},
      {"[", nullptr},
      {"-1", nullptr},
      {"null", nullptr},
  };
  for (auto &c : cases) {
    cgofuzz_err err = {};
    int rc = cgofuzz_wire_bad_start(
        reinterpret_cast<const uint8_t *>(c.in.data()), c.in.size(), &err);
    if (c.want) {
      EXPECT_EQ(rc, -1) << c.in;
      EXPECT_STREQ(err.msg, c.want) << c.in;
    } else {
      EXPECT_EQ(rc, 0) << c.in << ": " << err.msg;
    }
  }
}
