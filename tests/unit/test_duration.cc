// test_duration.cc: cgofuzz_parse_duration, the parser of -fuzztime style
// values, against Go's testing flag (go1.26.8 durationOrCountFlag): "Nx"
// is strconv.ParseInt of what precedes the x, anything else
// time.ParseDuration. The expected values were printed by the installed Go.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "strconv.h"

namespace {

struct Parsed {
  int rc;
  int64_t ns, count;
};

Parsed Parse(const std::string &s) {
  Parsed p{0, -7, -7}; // poisoned: the parser must set both
  p.rc = cgofuzz_parse_duration(s.c_str(), &p.ns, &p.count);
  return p;
}

void ExpectDuration(const std::string &s, int64_t ns) {
  Parsed p = Parse(s);
  EXPECT_EQ(p.rc, 0) << s;
  EXPECT_EQ(p.ns, ns) << s;
  EXPECT_EQ(p.count, 0) << s;
}

void ExpectCount(const std::string &s, int64_t n) {
  Parsed p = Parse(s);
  EXPECT_EQ(p.rc, 0) << s;
  EXPECT_EQ(p.count, n) << s;
  EXPECT_EQ(p.ns, 0) << s;
}

void ExpectRejected(const std::string &s) {
  EXPECT_EQ(Parse(s).rc, -1) << '"' << s << '"';
}

TEST(ParseDuration, GoDurationForms) {
  ExpectDuration("10s", 10000000000);
  ExpectDuration("1m30s", 90000000000);
  ExpectDuration("500ms", 500000000);
  ExpectDuration("0", 0);
  ExpectDuration("-0s", 0);
  ExpectDuration("+1s", 1000000000);
  ExpectDuration("1h2m3.5s", 3723500000000);
  ExpectDuration("1.5h", 5400000000000);
  ExpectDuration(".5s", 500000000);
  ExpectDuration("5.s", 5000000000);
  ExpectDuration("0.3s", 300000000);
  ExpectDuration("1.000000001s", 1000000001);
  ExpectDuration("1us", 1000);
  ExpectDuration("1\xc2\xb5s", 1000); // U+00B5 MICRO SIGN
  ExpectDuration("2ns", 2);
  ExpectDuration("1h1h", 7200000000000); // units may repeat
  // Fractions of a nanosecond are dropped, as Go truncates.
  ExpectDuration("0.9ns", 0);
  ExpectDuration("3.9999999999ns", 3);
  ExpectDuration("0.0000000001s", 0);
  ExpectDuration("2562047h", 9223369200000000000);
}

TEST(ParseDuration, Counts) {
  ExpectCount("1x", 1);
  ExpectCount("100x", 100);
  ExpectCount("+5x", 5);
  ExpectCount("9223372036854775807x", INT64_MAX);
  // "0x" parses (count 0): -fuzztime rejects it and -fuzzminimizetime
  // takes it as "off", which the callers decide (cmd_fuzz.c).
  ExpectCount("0x", 0);
  ExpectCount("00x", 0);
}

TEST(ParseDuration, RejectsGarbage) {
  for (const char *s : {"", "x", "s", "ms", "abc", "1sec", "1S", "1.s.", ".s",
                        "1..5s", "1s ", "10 s", "1x5", "xx", "1.5x", "1hx"})
    ExpectRejected(s);
}

TEST(ParseDuration, RejectsMissingUnit) {
  // Only a bare "0" may omit the unit.
  for (const char *s : {"5", "1s5", "1.5", "10"})
    ExpectRejected(s);
}

TEST(ParseDuration, RejectsNegative) {
  // Go parses these, but -fuzztime refuses a negative duration or count.
  for (const char *s : {"-1s", "-1m30s", "-.5s", "-1x", "-100x"})
    ExpectRejected(s);
}

// What Go rejects (or takes differently) that a strtod/strtoll parser would
// not: exponents, hex, "inf", blanks and signs inside the value, saturated
// counts, and an out-of-range double converted to int64 (undefined
// behaviour; INT64_MIN in practice, so -fuzztime=3000000h became a negative
// time limit before the parser was made Go's integer one).
TEST(ParseDuration, RejectsOverflow) {
  for (const char *s :
       {"2562048h", "9223372036854775808ns", "2562047h47m16.854775808s",
        "99999999999999999999x", "9223372036854775808x", "1e300h"})
    ExpectRejected(s);
  // The largest duration Go accepts is exact, not rounded through a double.
  ExpectDuration("9223372036854775807ns", INT64_MAX);
  ExpectDuration("2562047h47m16.854775807s", INT64_MAX);
}

TEST(ParseDuration, RejectsWhatGoRejects) {
  for (const char *s : {"1e3s", "0x10s", "infs", "nans", " 1s", "1s+1s",
                        "1s-1s", " 5x", "5 x", "0x10x", "1_000s"})
    ExpectRejected(s);
  // Go also takes U+03BC GREEK SMALL LETTER MU for micro, and a bare
  // signed zero.
  ExpectDuration("1\xce\xbcs", 1000);
  ExpectDuration("+0", 0);
  ExpectDuration("-0", 0);
}

// time.ParseDuration itself (flag.Duration, e.g. -test.timeout): signed.
TEST(ParseGoDuration, SignedAsGo) {
  int64_t ns = 7;
  EXPECT_EQ(cgofuzz_parse_go_duration("-1.5s", &ns), 0);
  EXPECT_EQ(ns, -1500000000);
  EXPECT_EQ(cgofuzz_parse_go_duration("-2562047h47m16.854775808s", &ns), 0);
  EXPECT_EQ(ns, INT64_MIN);
  EXPECT_EQ(cgofuzz_parse_go_duration("2562047h47m16.854775808s", &ns), -1);
  EXPECT_EQ(cgofuzz_parse_go_duration("3x", &ns), -1);
  EXPECT_EQ(cgofuzz_parse_go_duration("", &ns), -1);
}

} // namespace
