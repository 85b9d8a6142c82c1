// test_flags.cc: the one flag parser (csrc/base/flags.c) against Go's flag
// package. The table of MatchesGoFlagPackage is Go's own verdict: each row
// was run through a flag.FlagSet (go1.26.8) holding -b (Bool), -s (String),
// -i (Int64) and -u (Uint64), recording the index of the first non-flag
// argument and the values, or err.Error(), or flag.ErrHelp. The other
// tests cover what that set cannot: durations, callbacks, usage, quoting.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "flags.h"

namespace {

constexpr int ERR = -1;
constexpr int HELP = CGOFUZZ_FLAGS_HELP;

cgofuzz_flag mk(const char *name, cgofuzz_flag_type type, void *dst) {
  cgofuzz_flag f;
  std::memset(&f, 0, sizeof f);
  f.name = name;
  f.type = type;
  f.dst = dst;
  f.usage = "";
  return f;
}

// Runs args through table; returns cgofuzz_flags_parse's result and the
// message in *msg. String values point into argv, so the arguments are kept
// until the next call.
int parse(std::vector<cgofuzz_flag> &table, std::vector<std::string> args,
          std::string *msg) {
  static std::vector<std::string> kept;
  kept = std::move(args);
  std::vector<char *> argv;
  for (auto &a : kept)
    argv.push_back(&a[0]);
  argv.push_back(nullptr);
  cgofuzz_err err{};
  int r = cgofuzz_flags_parse(table.data(), table.size(),
                              static_cast<int>(kept.size()), argv.data(), &err);
  *msg = err.msg;
  return r;
}

struct GoCase {
  std::vector<const char *> args;
  int want; // index of the first non-flag argument, ERR or HELP
  const char *msg;
  bool b;
  const char *s;
  int64_t i;
  uint64_t u;
};

// clang-format off
const GoCase kGoCases[] = {
    {{}, 0, "", false, "", 0LL, 0ULL},
    {{"-b"}, 1, "", true, "", 0LL, 0ULL},
    {{"--b"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=true"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=false"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=1"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=t"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=T"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=TRUE"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=true"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=True"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b=0"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=f"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=F"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=FALSE"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=false"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=False"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b=x"}, ERR, "invalid boolean value \"x\" for -b: parse error", false, "", 0, 0},
    {{"-b=yes"}, ERR, "invalid boolean value \"yes\" for -b: parse error", false, "", 0, 0},
    {{"-b=tRUE"}, ERR, "invalid boolean value \"tRUE\" for -b: parse error", false, "", 0, 0},
    {{"-b="}, ERR, "invalid boolean value \"\" for -b: parse error", false, "", 0, 0},
    {{"-b=2"}, ERR, "invalid boolean value \"2\" for -b: parse error", false, "", 0, 0},
    {{"-b= true"}, ERR, "invalid boolean value \" true\" for -b: parse error", false, "", 0, 0},
    {{"-b", "x"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b", "false"}, 1, "", true, "", 0LL, 0ULL},
    {{"-b", "-s", "v"}, 3, "", true, "v", 0LL, 0ULL},
    {{"-s", "v"}, 2, "", false, "v", 0LL, 0ULL},
    {{"-s=v"}, 1, "", false, "v", 0LL, 0ULL},
    {{"--s=v"}, 1, "", false, "v", 0LL, 0ULL},
    {{"-s="}, 1, "", false, "", 0LL, 0ULL},
    {{"-s", "-b"}, 2, "", false, "-b", 0LL, 0ULL},
    {{"-s", "--"}, 2, "", false, "--", 0LL, 0ULL},
    {{"-s=a=b"}, 1, "", false, "a=b", 0LL, 0ULL},
    {{"-s"}, ERR, "flag needs an argument: -s", false, "", 0, 0},
    {{"-s", "a", "-s", "b"}, 4, "", false, "b", 0LL, 0ULL},
    {{"-i=1", "-i=2"}, 2, "", false, "", 2LL, 0ULL},
    {{"-b", "-b=false"}, 2, "", false, "", 0LL, 0ULL},
    {{"--"}, 1, "", false, "", 0LL, 0ULL},
    {{"--", "-b"}, 1, "", false, "", 0LL, 0ULL},
    {{"-b", "--", "-s", "x"}, 2, "", true, "", 0LL, 0ULL},
    {{"-"}, 0, "", false, "", 0LL, 0ULL},
    {{"-", "-b"}, 0, "", false, "", 0LL, 0ULL},
    {{"x", "-b"}, 0, "", false, "", 0LL, 0ULL},
    {{""}, 0, "", false, "", 0LL, 0ULL},
    {{"-x"}, ERR, "flag provided but not defined: -x", false, "", 0, 0},
    {{"--x=1"}, ERR, "flag provided but not defined: -x", false, "", 0, 0},
    {{"-x=1"}, ERR, "flag provided but not defined: -x", false, "", 0, 0},
    {{"-bb"}, ERR, "flag provided but not defined: -bb", false, "", 0, 0},
    {{"-B"}, ERR, "flag provided but not defined: -B", false, "", 0, 0},
    {{"---b"}, ERR, "bad flag syntax: ---b", false, "", 0, 0},
    {{"-=b"}, ERR, "bad flag syntax: -=b", false, "", 0, 0},
    {{"--=b"}, ERR, "bad flag syntax: --=b", false, "", 0, 0},
    {{"-b==1"}, ERR, "invalid boolean value \"=1\" for -b: parse error", false, "", 0, 0},
    {{"-h"}, HELP, "", false, "", 0, 0},
    {{"-help"}, HELP, "", false, "", 0, 0},
    {{"--help"}, HELP, "", false, "", 0, 0},
    {{"-h=1"}, HELP, "", false, "", 0, 0},
    {{"-i=0"}, 1, "", false, "", 0LL, 0ULL},
    {{"-i=10"}, 1, "", false, "", 10LL, 0ULL},
    {{"-i=-10"}, 1, "", false, "", -10LL, 0ULL},
    {{"-i=+10"}, 1, "", false, "", 10LL, 0ULL},
    {{"-i=0x1F"}, 1, "", false, "", 31LL, 0ULL},
    {{"-i=0X1f"}, 1, "", false, "", 31LL, 0ULL},
    {{"-i=-0x10"}, 1, "", false, "", -16LL, 0ULL},
    {{"-i=0b101"}, 1, "", false, "", 5LL, 0ULL},
    {{"-i=0B11"}, 1, "", false, "", 3LL, 0ULL},
    {{"-i=0o17"}, 1, "", false, "", 15LL, 0ULL},
    {{"-i=0O17"}, 1, "", false, "", 15LL, 0ULL},
    {{"-i=017"}, 1, "", false, "", 15LL, 0ULL},
    {{"-i=08"}, ERR, "invalid value \"08\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0x"}, ERR, "invalid value \"0x\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0b"}, ERR, "invalid value \"0b\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0o"}, ERR, "invalid value \"0o\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0"}, 1, "", false, "", 0LL, 0ULL},
    {{"-i=00"}, 1, "", false, "", 0LL, 0ULL},
    {{"-i=1_000"}, 1, "", false, "", 1000LL, 0ULL},
    {{"-i=0x_1F"}, 1, "", false, "", 31LL, 0ULL},
    {{"-i=_1"}, ERR, "invalid value \"_1\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=1_"}, ERR, "invalid value \"1_\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=1__0"}, ERR, "invalid value \"1__0\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=1_0_0"}, 1, "", false, "", 100LL, 0ULL},
    {{"-i=0_7"}, 1, "", false, "", 7LL, 0ULL},
    {{"-i=-"}, ERR, "invalid value \"-\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=+"}, ERR, "invalid value \"+\" for flag -i: parse error", false, "", 0, 0},
    {{"-i="}, ERR, "invalid value \"\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=9223372036854775807"}, 1, "", false, "", 9223372036854775807LL, 0ULL},
    {{"-i=9223372036854775808"}, ERR, "invalid value \"9223372036854775808\" for flag -i: value out of range", false, "", 0, 0},
    {{"-i=-9223372036854775808"}, 1, "", false, "", INT64_MIN, 0ULL},
    {{"-i=-9223372036854775809"}, ERR, "invalid value \"-9223372036854775809\" for flag -i: value out of range", false, "", 0, 0},
    {{"-i=99999999999999999999"}, ERR, "invalid value \"99999999999999999999\" for flag -i: value out of range", false, "", 0, 0},
    {{"-i=99999999999999999999x"}, ERR, "invalid value \"99999999999999999999x\" for flag -i: value out of range", false, "", 0, 0},
    {{"-i=1e3"}, ERR, "invalid value \"1e3\" for flag -i: parse error", false, "", 0, 0},
    {{"-i= 1"}, ERR, "invalid value \" 1\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=1 "}, ERR, "invalid value \"1 \" for flag -i: parse error", false, "", 0, 0},
    {{"-i=+-1"}, ERR, "invalid value \"+-1\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0xg"}, ERR, "invalid value \"0xg\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0b2"}, ERR, "invalid value \"0b2\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0o8"}, ERR, "invalid value \"0o8\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=0x1_f"}, 1, "", false, "", 31LL, 0ULL},
    {{"-u=0"}, 1, "", false, "", 0LL, 0ULL},
    {{"-u=18446744073709551615"}, 1, "", false, "", 0LL, 18446744073709551615ULL},
    {{"-u=18446744073709551616"}, ERR, "invalid value \"18446744073709551616\" for flag -u: value out of range", false, "", 0, 0},
    {{"-u=-1"}, ERR, "invalid value \"-1\" for flag -u: parse error", false, "", 0, 0},
    {{"-u=+1"}, ERR, "invalid value \"+1\" for flag -u: parse error", false, "", 0, 0},
    {{"-u=0xFFFFFFFFFFFFFFFF"}, 1, "", false, "", 0LL, 18446744073709551615ULL},
    {{"-u=0x10000000000000000"}, ERR, "invalid value \"0x10000000000000000\" for flag -u: value out of range", false, "", 0, 0},
    {{"-u=1_0"}, 1, "", false, "", 0LL, 10ULL},
    {{"-u=0b"}, ERR, "invalid value \"0b\" for flag -u: parse error", false, "", 0, 0},
    {{"-u=__1"}, ERR, "invalid value \"__1\" for flag -u: parse error", false, "", 0, 0},
    {{"-i", "5"}, 2, "", false, "", 5LL, 0ULL},
    {{"-i"}, ERR, "flag needs an argument: -i", false, "", 0, 0},
    {{"-u", "-1"}, ERR, "invalid value \"-1\" for flag -u: parse error", false, "", 0, 0},
    {{"-s=\303\251\001\"\\\011\013\177"}, 1, "", false, "\303\251\001\"\\\011\013\177", 0LL, 0ULL},
    {{"-i=\303\251"}, ERR, "invalid value \"\303\251\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=\303\202\302\205"}, ERR, "invalid value \"\303\202\\u0085\" for flag -i: parse error", false, "", 0, 0},
    {{"-b=\342\200\250"}, ERR, "invalid boolean value \"\\u2028\" for -b: parse error", false, "", 0, 0},
    {{"-i=a\302\240"}, ERR, "invalid value \"a\\u00a0\" for flag -i: parse error", false, "", 0, 0},
    {{"-i=\377"}, ERR, "invalid value \"\\xff\" for flag -i: parse error", false, "", 0, 0},
    {{"-s", "\376", "-i=\300\200x"}, ERR, "invalid value \"\\xc0\\x80x\" for flag -i: parse error", false, "", 0, 0},
    {{"-b=a\377b"}, ERR, "invalid boolean value \"a\\xffb\" for -b: parse error", false, "", 0, 0},
    {{"-i=\303\251\360\237\230\200\357\277\275"}, ERR, "invalid value \"\303\251\360\237\230\200\357\277\275\" for flag -i: parse error", false, "", 0, 0},

};
// clang-format on

} // namespace

TEST(FlagsTest, MatchesGoFlagPackage) {
  for (const GoCase &c : kGoCases) {
    std::string where;
    for (const char *a : c.args)
      where += std::string("[") + a + "]";
    SCOPED_TRACE(where);
    bool b = false;
    const char *s = "";
    int64_t i = 0;
    uint64_t u = 0;
    std::vector<cgofuzz_flag> t = {
        mk("b", CGOFUZZ_FLAG_BOOL, &b), mk("s", CGOFUZZ_FLAG_STRING, &s),
        mk("i", CGOFUZZ_FLAG_INT, &i), mk("u", CGOFUZZ_FLAG_UINT, &u)};
    std::string msg;
    int r =
        parse(t, std::vector<std::string>(c.args.begin(), c.args.end()), &msg);
    EXPECT_EQ(r, c.want);
    if (c.want == ERR) {
      EXPECT_EQ(msg, c.msg);
    } else if (c.want >= 0) {
      EXPECT_EQ(b, c.b);
      EXPECT_STREQ(s, c.s);
      EXPECT_EQ(i, c.i);
      EXPECT_EQ(u, c.u);
    }
  }
}

TEST(FlagsTest, SeenMarksOnlyTheFlagsGiven) {
  bool b = true;
  int64_t i = 7;
  std::vector<cgofuzz_flag> t = {mk("b", CGOFUZZ_FLAG_BOOL, &b),
                                 mk("i", CGOFUZZ_FLAG_INT, &i)};
  t[1].seen = true; // a stale mark from an earlier parse is cleared
  std::string msg;
  ASSERT_EQ(parse(t, {"-b=false", "rest"}, &msg), 1);
  EXPECT_TRUE(t[0].seen);
  EXPECT_FALSE(t[1].seen);
  EXPECT_FALSE(b);
  EXPECT_EQ(i, 7); // untouched unless given
}

TEST(FlagsTest, LongNamesAreMatchedExactly) {
  // "fuzztime" is a prefix of "fuzztimeout": neither may take the other.
  const char *a = nullptr, *b = nullptr;
  std::vector<cgofuzz_flag> t = {
      mk("test.fuzztime", CGOFUZZ_FLAG_STRING, &a),
      mk("test.fuzztimeout", CGOFUZZ_FLAG_STRING, &b)};
  std::string msg;
  ASSERT_EQ(parse(t, {"-test.fuzztimeout=1s", "--test.fuzztime", "5x"}, &msg),
            3);
  EXPECT_STREQ(a, "5x");
  EXPECT_STREQ(b, "1s");
  EXPECT_EQ(parse(t, {"-test.fuzz=x"}, &msg), ERR);
  EXPECT_EQ(msg, "flag provided but not defined: -test.fuzz");
}

TEST(FlagsTest, DurationOrCountFollowsGoTesting) {
  struct {
    const char *arg;
    bool allow_zero;
    const char *err; // nullptr: accepted
    int64_t ns, count;
  } cases[] = {
      {"10x", false, nullptr, 0, 10},
      {"+3x", false, nullptr, 0, 3},
      {"2s", false, nullptr, 2000000000, 0},
      {"0x", false, "invalid count", 0, 0},
      {"0x", true, nullptr, 0, 0},
      {"0", false, "invalid duration", 0, 0},
      {"0", true, nullptr, 0, 0},
      {"-1x", true, "invalid count", 0, 0},
      {"x", true, "invalid count", 0, 0},
      {"1_0x", true, "invalid count", 0, 0}, // base 10: no '_'
      {"0x10x", true, "invalid count", 0, 0},
      {"99999999999999999999x", true, "invalid count", 0, 0},
      {"abc", true, "invalid duration", 0, 0},
      {"", true, "invalid duration", 0, 0},
  };
  for (auto &c : cases) {
    SCOPED_TRACE(c.arg);
    cgofuzz_flag_dur d{};
    std::vector<cgofuzz_flag> t = {
        mk("fuzztime", CGOFUZZ_FLAG_DURATION_OR_COUNT, &d)};
    t[0].allow_zero = c.allow_zero;
    std::string msg;
    int r = parse(t, {std::string("-fuzztime=") + c.arg}, &msg);
    if (c.err) {
      EXPECT_EQ(r, ERR);
      EXPECT_EQ(msg, std::string("invalid value \"") + c.arg +
                         "\" for flag -fuzztime: " + c.err);
    } else {
      ASSERT_EQ(r, 1);
      EXPECT_STREQ(d.text, c.arg);
      EXPECT_EQ(d.ns, c.ns);
      EXPECT_EQ(d.count, c.count);
    }
  }
}

TEST(FlagsTest, DurationRefusesCountsLikeFlagDuration) {
  cgofuzz_flag_dur d{};
  d.ns = -1;
  std::vector<cgofuzz_flag> t = {mk("test.timeout", CGOFUZZ_FLAG_DURATION, &d)};
  std::string msg;
  ASSERT_EQ(parse(t, {"-test.timeout", "0"}, &msg), 2);
  EXPECT_EQ(d.ns, 0);
  ASSERT_EQ(parse(t, {"-test.timeout=3s"}, &msg), 1);
  EXPECT_EQ(d.ns, 3000000000LL);
  EXPECT_STREQ(d.text, "3s");
  for (const char *bad : {"1x", "0x", "5", ""}) {
    EXPECT_EQ(parse(t, {std::string("-test.timeout=") + bad}, &msg), ERR);
    EXPECT_EQ(msg, std::string("invalid value \"") + bad +
                       "\" for flag -test.timeout: parse error");
  }
}

// A Go flag.Value with IsBoolFlag, like testing's -test.v.
static int chatty(void *dst, const char *v, cgofuzz_err *why) {
  if (std::strcmp(v, "true") == 0 || std::strcmp(v, "test2json") == 0)
    *static_cast<int *>(dst) = 1;
  else if (std::strcmp(v, "false") == 0)
    *static_cast<int *>(dst) = 0;
  else
    return cgofuzz_errf(why, 0, "invalid flag -test.v=%s", v);
  return 0;
}

static int never(void *, const char *, cgofuzz_err *) { return -1; }

TEST(FlagsTest, FuncFlagsReportTheirReason) {
  int v = -1;
  const char *rest = nullptr;
  std::vector<cgofuzz_flag> t = {mk("test.v", CGOFUZZ_FLAG_BOOL_FUNC, &v),
                                 mk("n", CGOFUZZ_FLAG_FUNC, &rest)};
  t[0].func = chatty;
  t[1].func = never;
  std::string msg;
  // A bool-like flag takes no separate value.
  ASSERT_EQ(parse(t, {"-test.v", "false"}, &msg), 1);
  EXPECT_EQ(v, 1);
  ASSERT_EQ(parse(t, {"-test.v=test2json"}, &msg), 1);
  EXPECT_EQ(v, 1);
  ASSERT_EQ(parse(t, {"--test.v=false"}, &msg), 1);
  EXPECT_EQ(v, 0);
  EXPECT_EQ(parse(t, {"-test.v=t"}, &msg), ERR);
  EXPECT_EQ(msg,
            "invalid boolean value \"t\" for -test.v: invalid flag -test.v=t");
  // A callback that gives no reason gets Go's generic one.
  EXPECT_EQ(parse(t, {"-n", "1"}, &msg), ERR);
  EXPECT_EQ(msg, "invalid value \"1\" for flag -n: parse error");
  // -name alone on a bool-like flag whose Set("true") fails.
  t[0].func = never;
  EXPECT_EQ(parse(t, {"-test.v"}, &msg), ERR);
  EXPECT_EQ(msg, "invalid boolean flag test.v: parse error");
}

TEST(FlagsTest, ValueParsersStandAlone) {
  const char *why = nullptr;
  bool b = false;
  EXPECT_EQ(cgofuzz_flag_parse_bool("True", &b, &why), 0);
  EXPECT_TRUE(b);
  EXPECT_EQ(cgofuzz_flag_parse_bool("on", &b, &why), -1);
  EXPECT_STREQ(why, "parse error");
  int64_t i = 0;
  EXPECT_EQ(cgofuzz_flag_parse_int("-0b1_1", &i, &why), 0);
  EXPECT_EQ(i, -3);
  uint64_t u = 0;
  EXPECT_EQ(cgofuzz_flag_parse_uint("0o7_7", &u, &why), 0);
  EXPECT_EQ(u, 63u);
  EXPECT_EQ(cgofuzz_flag_parse_uint("0x1_0000_0000_0000_0000", &u, &why), -1);
  EXPECT_STREQ(why, "value out of range");
}

TEST(FlagsTest, QuoteIsGoPercentQ) {
  struct {
    const char *in, *want;
  } cases[] = {
      {"", "\"\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\""},
      {"\a\b\f\n\r\t\v", "\"\\a\\b\\f\\n\\r\\t\\v\""},
      {"\x01\x1f\x7f", "\"\\x01\\x1f\\x7f\""},
      {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
       "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""},
      {"\xff\xc3", "\"\\xff\\xc3\""},
      {"\xed\xa0\x80", "\"\\xed\\xa0\\x80\""}, // a surrogate is not UTF-8
      {"\xc2\x85\xef\xbb\xbf", "\"\\u0085\\ufeff\""},
      {"\xf3\xb0\x80\x80", "\"\\U000f0000\""}, // private use
  };
  for (auto &c : cases) {
    cgofuzz_buf b{};
    ASSERT_EQ(cgofuzz_flag_quote(&b, c.in), 0);
    EXPECT_EQ(std::string(reinterpret_cast<char *>(b.data), b.len), c.want);
    cgofuzz_buf_free(&b);
  }
}

TEST(FlagsTest, UsageHasGoLayout) {
  bool w = false;
  uint64_t cap = 0;
  const char *dir = nullptr;
  cgofuzz_flag_dur d{};
  std::vector<cgofuzz_flag> t = {
      mk("w", CGOFUZZ_FLAG_BOOL, &w), mk("cap", CGOFUZZ_FLAG_UINT, &cap),
      mk("cachedir", CGOFUZZ_FLAG_STRING, &dir),
      mk("fuzztime", CGOFUZZ_FLAG_DURATION_OR_COUNT, &d)};
  t[0].usage = "write the result";
  t[1].usage = "capacity in `BYTES`";
  t[2].usage = "cache dir\nsecond line";
  t[3].usage = "time";
  cgofuzz_buf b{};
  ASSERT_EQ(cgofuzz_flags_usage(&b, t.data(), t.size()), 0);
  EXPECT_EQ(std::string(reinterpret_cast<char *>(b.data), b.len),
            "  -w\twrite the result\n"
            "  -cap BYTES\n    \tcapacity in BYTES\n"
            "  -cachedir string\n    \tcache dir\n    \tsecond line\n"
            "  -fuzztime value\n    \ttime\n");
  cgofuzz_buf_free(&b);
}
