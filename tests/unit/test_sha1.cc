// test_sha1.cc: SHA-1 (libFuzzer's file names) against the FIPS 180-1
// vectors and, around the padding boundaries, values from Python's
// hashlib.sha1.
#include "sha1.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string Hex(const std::vector<uint8_t> &m) {
  char out[41];
  cgofuzz_sha1_hex(m.data(), m.size(), out);
  return out;
}

std::vector<uint8_t> Bytes(const std::string &s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

TEST(Sha1, KnownVectors) {
  EXPECT_EQ(Hex({}), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex(Bytes("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(
      Hex(Bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex(std::vector<uint8_t>(1000000, 'a')),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, EmptyInputMayBeNull) {
  char out[41];
  cgofuzz_sha1_hex(nullptr, 0, out);
  EXPECT_STREQ(out, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

// Lengths around the one-or-two padding blocks split (55/56) and the block
// size (63/64/65, 119/120, 127/128) of the message byte i = (7*i + 3) & 0xff;
// expected values from Python: hashlib.sha1(m).hexdigest().
TEST(Sha1, PaddingBoundaries) {
  struct {
    size_t n;
    const char *hex;
  } cases[] = {
      {55, "ddf57317ef34bfee3b6df83d359098930eb278bc"},
      {56, "a0d492bb0fc889d0eca3bc137066ab6f4f74f369"},
      {63, "c55856749bef509bdfe6bfebfc7bf4e793e82132"},
      {64, "bede92be29c3874e1b54ddc77988d606fc857a8e"},
      {65, "b05a80522b053d6dc7e0a517d0e70212c7dad11f"},
      {119, "504e27376a6e0f0dba8295b85cb25dc4dfa17d23"},
      {120, "82134b02fb3f702491be9bed581eeab59334acb2"},
      {127, "34d5e582029e9b9b85b2febe31da3db7cdabaaea"},
      {128, "a09133e6730ffe899efb70204cb5646cd5dc24ee"},
  };
  for (const auto &c : cases) {
    std::vector<uint8_t> m(c.n);
    for (size_t i = 0; i < c.n; i++)
      m[i] = (uint8_t)((i * 7 + 3) & 0xff);
    EXPECT_EQ(Hex(m), c.hex) << "length " << c.n;
  }
}

TEST(Sha1, RawDigestMatchesHex) {
  uint8_t d[20];
  cgofuzz_sha1(reinterpret_cast<const uint8_t *>("abc"), 3, d);
  EXPECT_EQ(d[0], 0xa9);
  EXPECT_EQ(d[1], 0x99);
  EXPECT_EQ(d[19], 0x9d);
}

} // namespace
