// test_cgo_pick.cc: what the cgo loop (csrc/runtime/cgo/cgo_loop.c) reads
// the way Go's worker does. The coordinator's pick (cgofuzz_cgo_pick):
// every []byte value as Go writes it (core/codec's encoding, bit-exact with
// Go's) decodes to its bytes, the index picks the value, the forms people
// write by hand decode, and whatever it does not know is refused, never
// decoded wrong. A hit count's bucket (core/bucket.h, which the loop's
// finds and a C target's snapshot share): Go's.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bucket.h"
#include "cgo_loop.h"
#include "codec.h"

namespace {

// Go's encoding of the values, a corpus file.
std::string File(std::vector<cgofuzz_value> vals) {
  cgofuzz_buf b{};
  cgofuzz_err err{};
  EXPECT_EQ(cgofuzz_codec_encode(vals.data(), vals.size(), &b, &err), 0);
  std::string s((const char *)b.data, b.len);
  cgofuzz_buf_free(&b);
  return s;
}

cgofuzz_value Bytes(const std::string &s) {
  cgofuzz_value v{};
  v.kind = CGOFUZZ_BYTES;
  v.s.data = (uint8_t *)s.data();
  v.s.len = s.size();
  return v;
}

// The decoded index-th value, or "<refused>".
std::string Pick(const std::string &file, uint64_t index, size_t cap = 4096) {
  std::vector<uint8_t> out(cap + 1);
  long n = cgofuzz_cgo_pick((const uint8_t *)file.data(), file.size(), index,
                            out.data(), cap);
  if (n < 0)
    return "<refused>";
  EXPECT_LE((size_t)n, cap);
  return std::string((const char *)out.data(), (size_t)n);
}

TEST(CgoPick, GoEncodingOfRandomBytesDecodes) {
  std::mt19937_64 r(7);
  for (int i = 0; i < 2000; i++) {
    std::string s(r() % 200, '\0');
    int shape = i % 3; // any byte, text with UTF-8, control bytes
    for (char &c : s)
      c = shape == 0   ? (char)r()
          : shape == 1 ? (char)(r() % 2 ? 0x20 + r() % 95 : 0x80 + r() % 64)
                       : (char)(r() % 40);
    if (shape == 1 && s.size() >= 4) // a valid 4-byte rune and U+FFFD
      s.replace(0, 4, "\xf0\x9f\x98\x80"), s += "\xef\xbf\xbd\xe2\x80\xa8";
    std::string f = File({Bytes(s)});
    ASSERT_EQ(Pick(f, 0), s) << f;
  }
}

TEST(CgoPick, IndexCountsValuesNotLines) {
  cgofuzz_value n{};
  n.kind = CGOFUZZ_INT;
  n.i = 7;
  std::string f = File({Bytes("first"), n, Bytes("third\n")});
  EXPECT_EQ(Pick(f, 0), "first");
  EXPECT_EQ(Pick(f, 1), "<refused>"); // int(7)
  EXPECT_EQ(Pick(f, 2), "third\n");
  EXPECT_EQ(Pick(f, 3), "<refused>");
  // Blank lines are no values (Go skips them).
  EXPECT_EQ(Pick("go test fuzz v1\n\n  \n[]byte(\"a\")\n\n[]byte(\"b\")", 1),
            "b");
}

TEST(CgoPick, HandWrittenForms) {
  const std::string h = "go test fuzz v1\n";
  // Go drops carriage returns from raw strings; its files split at
  // newlines first, so a raw string never holds one.
  EXPECT_EQ(Pick(h + "[]byte(`raw \\x00\rline`)\n", 0), "raw \\x00line");
  EXPECT_EQ(Pick(h + "[]byte(`raw\nline`)\n", 0), "<refused>");
  EXPECT_EQ(Pick(h + "\t[]byte(\"\\101\\u00e9\\U0001F600\\a\\v\\\"\",)\r\n", 0),
            "A\xc3\xa9\xf0\x9f\x98\x80\a\v\"");
  EXPECT_EQ(Pick(h + "[]byte(\"\")\n", 0), "");
  EXPECT_EQ(Pick("go test fuzz v1\r\n[]byte(\"x\")\r\n", 0), "x");
}

TEST(CgoPick, RefusesWhatItDoesNotKnow) {
  const std::string h = "go test fuzz v1\n";
  for (const char *v : {
           "string(\"x\")",           // not []byte
           "[]byte(\"x\") // note",   // a comment
           "[]byte(\"a\" + \"b\")",   // an expression
           "[]byte(\"\\q\")",         // no such escape
           "[]byte(\"\\'\")",         // only in rune literals
           "[]byte(\"\\400\")",       // octal past a byte
           "[]byte(\"\\xg0\")",       // not hex
           "[]byte(\"\\ud800\")",     // a surrogate
           "[]byte(\"\\U00110000\")", // past the last rune
           "[]byte(\"x\\\")",         // the quote escaped
           "[]byte(`a`b`)",           // a backquote inside
           "[]byte(\"x'\")x",         // after the call
           "[]byte('x')",             // a rune
       })
    EXPECT_EQ(Pick(h + v + "\n", 0), "<refused>") << v;
  EXPECT_EQ(Pick("go test fuzz v2\n[]byte(\"x\")\n", 0), "<refused>");
  EXPECT_EQ(Pick("[]byte(\"x\")\n", 0), "<refused>");
  EXPECT_EQ(Pick("", 0), "<refused>");
  // Longer than the room: refused, nothing written past it.
  EXPECT_EQ(Pick(File({Bytes("12345")}), 0, 4), "<refused>");
  EXPECT_EQ(Pick(File({Bytes("1234")}), 0, 4), "1234");
  EXPECT_EQ(Pick(h + "[]byte(\"\\U0001F600\")", 0, 3), "<refused>");
  EXPECT_EQ(Pick(h + "[]byte(`12345`)", 0, 4), "<refused>");
  EXPECT_EQ(Pick(h + "[]byte(`1234\r`)", 0, 4), "1234"); // \r takes no room
}

// internal/fuzz's pow2Table and the workers' snapshot stub keep a count's
// highest bit: 1, 2-3, 4-7, ..., 128-255. A loop find is a new bit in those
// terms, or Go's worker does not see it (the loop once rounded up).
TEST(CgoBucket, HighestBitAsGoRoundsCounts) {
  for (int c = 0; c < 256; c++) {
    uint8_t want = 0;
    for (int b = 1; b <= c; b <<= 1)
      want = (uint8_t)b;
    EXPECT_EQ(cgofuzz_bucket((uint8_t)c), want) << c;
  }
}

} // namespace
