// test_rawargs.cc: the raw-bytes <-> arguments mapping of rawargs.h, rule by
// rule with exact bytes, plus round-trip and totality properties over
// pseudo-random kinds, values and inputs (fixed seeds).
#include "rawargs.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Kinds = std::vector<cgofuzz_kind>;
using Bytes = std::vector<uint8_t>;

// Decodes a copy of data for kinds, expecting success and one value per
// kind; the copy (raw) outlives the values, which borrow from it.
struct Decoded {
  Bytes raw;
  cgofuzz_values vs{};
  Decoded(const Kinds &k, const Bytes &data) : raw(data) {
    EXPECT_EQ(
        cgofuzz_rawargs_decode(k.data(), k.size(), raw.data(), raw.size(), &vs),
        0);
    EXPECT_EQ(vs.n, k.size());
  }
  ~Decoded() { cgofuzz_values_free(&vs); }
  const cgofuzz_value &operator[](size_t i) const { return vs.v[i]; }
};

std::string Str(const cgofuzz_value &v) {
  return std::string(reinterpret_cast<const char *>(v.s.data), v.s.len);
}

Bytes B(const std::string &s) { return Bytes(s.begin(), s.end()); }

Bytes Encode(const std::vector<cgofuzz_value> &vals) {
  cgofuzz_buf b{};
  EXPECT_EQ(cgofuzz_rawargs_encode(vals.data(), vals.size(), &b), 0);
  Bytes out(b.data, b.data + b.len);
  cgofuzz_buf_free(&b);
  return out;
}

cgofuzz_value Val(cgofuzz_kind k) {
  cgofuzz_value v{};
  v.kind = k;
  return v;
}
cgofuzz_value I(cgofuzz_kind k, int64_t i) {
  cgofuzz_value v = Val(k);
  v.i = i;
  return v;
}
cgofuzz_value U(cgofuzz_kind k, uint64_t u) {
  cgofuzz_value v = Val(k);
  v.u = u;
  return v;
}
cgofuzz_value Bool(bool b) {
  cgofuzz_value v = Val(CGOFUZZ_BOOL);
  v.b = b;
  return v;
}
cgofuzz_value F32(uint32_t bits) {
  cgofuzz_value v = Val(CGOFUZZ_FLOAT32);
  std::memcpy(&v.f32, &bits, 4);
  return v;
}
cgofuzz_value F64(uint64_t bits) {
  cgofuzz_value v = Val(CGOFUZZ_FLOAT64);
  std::memcpy(&v.f64, &bits, 8);
  return v;
}
// s must outlive the value (borrowed, as decode's are).
cgofuzz_value S(cgofuzz_kind k, const std::string &s) {
  cgofuzz_value v = Val(k);
  v.s.data = (uint8_t *)s.data();
  v.s.len = s.size();
  return v;
}
uint32_t Bits32(const cgofuzz_value &v) {
  uint32_t b;
  std::memcpy(&b, &v.f32, 4);
  return b;
}
uint64_t Bits64(const cgofuzz_value &v) {
  uint64_t b;
  std::memcpy(&b, &v.f64, 8);
  return b;
}

// Rule: a lone []byte or string argument is the raw bytes themselves,
// borrowed from the input.
TEST(RawArgs, SingleBytesOrStringIsTheInput) {
  Bytes data = {0x00, 'a', 0xff, '\n', 0x80};
  for (cgofuzz_kind k : {CGOFUZZ_BYTES, CGOFUZZ_STRING}) {
    Decoded d({k}, data);
    EXPECT_EQ(d[0].kind, k);
    EXPECT_EQ(d[0].s.data, d.raw.data());
    EXPECT_EQ(d[0].s.len, data.size());
    EXPECT_EQ(d[0].flags & CGOFUZZ_VAL_OWNED, 0);
    std::string s(data.begin(), data.end());
    EXPECT_EQ(Encode({S(k, s)}), data);
    Decoded e({k}, {});
    EXPECT_EQ(e[0].s.len, 0u);
  }
}

// Rule: fixed-size arguments take their natural width, little-endian; bool
// is byte & 1; floats are their IEEE bits.
TEST(RawArgs, FixedWidthsLittleEndian) {
  Kinds k = {CGOFUZZ_BOOL,    CGOFUZZ_BOOL,   CGOFUZZ_INT8,  CGOFUZZ_UINT8,
             CGOFUZZ_INT16,   CGOFUZZ_UINT16, CGOFUZZ_INT32, CGOFUZZ_UINT32,
             CGOFUZZ_FLOAT32, CGOFUZZ_INT,    CGOFUZZ_UINT,  CGOFUZZ_INT64,
             CGOFUZZ_UINT64,  CGOFUZZ_FLOAT64};
  Bytes data = {
      0x03,                                           // bool: 3&1 = true
      0x02,                                           // bool: 2&1 = false
      0xff,                                           // int8 -1
      0xff,                                           // uint8 255
      0x00, 0x80,                                     // int16 -32768
      0x34, 0x12,                                     // uint16 0x1234
      0xfe, 0xff, 0xff, 0xff,                         // int32 -2
      0x78, 0x56, 0x34, 0x12,                         // uint32 0x12345678
      0x00, 0x00, 0xc0, 0x3f,                         // float32 1.5
      0x01, 0,    0,    0,    0,    0,    0,    0x80, // int min+1
      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // uint
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // int64 -1
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // uint64 max
      0x01, 0,    0,    0,    0,    0,    0xf0, 0x7f, // float64 NaN payload 1
  };
  Decoded d(k, data);
  EXPECT_TRUE(d[0].b);
  EXPECT_FALSE(d[1].b);
  EXPECT_EQ(d[2].i, -1);
  EXPECT_EQ(d[3].u, 255u);
  EXPECT_EQ(d[4].i, -32768);
  EXPECT_EQ(d[5].u, 0x1234u);
  EXPECT_EQ(d[6].i, -2);
  EXPECT_EQ(d[7].u, 0x12345678u);
  EXPECT_EQ(d[8].f32, 1.5f);
  EXPECT_EQ(d[9].i, INT64_MIN + 1);
  EXPECT_EQ(d[10].u, 0x0102030405060708u);
  EXPECT_EQ(d[11].i, -1);
  EXPECT_EQ(d[12].u, UINT64_MAX);
  EXPECT_EQ(Bits64(d[13]), 0x7ff0000000000001u);

  // Encoding gives the same bytes back, except that bool is 0 or 1.
  std::vector<cgofuzz_value> vals(d.vs.v, d.vs.v + d.vs.n);
  Bytes want = data;
  want[0] = 1;
  want[1] = 0;
  EXPECT_EQ(Encode(vals), want);
}

// Rule: bytes missing at the end read as zero.
TEST(RawArgs, MissingBytesReadAsZero) {
  Kinds k = {CGOFUZZ_UINT32, CGOFUZZ_INT16, CGOFUZZ_BOOL, CGOFUZZ_FLOAT64};
  {
    Decoded d(k, {0x01, 0x02});
    EXPECT_EQ(d[0].u, 0x0201u);
    EXPECT_EQ(d[1].i, 0);
    EXPECT_FALSE(d[2].b);
    EXPECT_EQ(Bits64(d[3]), 0u);
  }
  {
    Decoded d(k, {0x01, 0x02, 0x03, 0x04, 0xff});
    EXPECT_EQ(d[0].u, 0x04030201u);
    EXPECT_EQ(d[1].i, 0xff); // high byte missing: not sign-extended from 0xff
  }
  {
    Decoded d(k, {});
    EXPECT_EQ(d[0].u, 0u);
  }
  // Trailing bytes nobody reads are ignored.
  Decoded d({CGOFUZZ_UINT8}, {0x07, 0x08, 0x09});
  EXPECT_EQ(d[0].u, 7u);
}

// Rule: a []byte/string that is not the last one takes a uvarint length and
// that many bytes.
TEST(RawArgs, VarintLengthPrefix) {
  Kinds k = {CGOFUZZ_BYTES, CGOFUZZ_STRING};
  Decoded d(k, B("\x02"
                 "abcd"));
  EXPECT_EQ(Str(d[0]), "ab");
  EXPECT_EQ(Str(d[1]), "cd");

  // 130 = 0x82 0x01.
  std::string big(130, 'x');
  Bytes data = {0x82, 0x01};
  data.insert(data.end(), big.begin(), big.end());
  data.push_back('y');
  Decoded e(k, data);
  EXPECT_EQ(Str(e[0]), big);
  EXPECT_EQ(Str(e[1]), "y");
  EXPECT_EQ(Encode({S(CGOFUZZ_BYTES, big), S(CGOFUZZ_STRING, "y")}), data);

  // 300 = 0xac 0x02, as binary.PutUvarint writes it.
  std::string s300(300, 'z');
  Bytes enc = Encode({S(CGOFUZZ_STRING, s300), S(CGOFUZZ_BYTES, "")});
  ASSERT_EQ(enc.size(), 302u);
  EXPECT_EQ(enc[0], 0xac);
  EXPECT_EQ(enc[1], 0x02);
}

// Rule: the length is clamped to the bytes remaining.
TEST(RawArgs, VarintLengthClamped) {
  Decoded d({CGOFUZZ_BYTES, CGOFUZZ_BYTES}, B("\x05"
                                              "ab"));
  EXPECT_EQ(Str(d[0]), "ab");
  EXPECT_EQ(Str(d[1]), "");
  Decoded e({CGOFUZZ_STRING, CGOFUZZ_STRING, CGOFUZZ_UINT16}, B("\x05"
                                                                "ab"));
  EXPECT_EQ(Str(e[0]), "ab");
  EXPECT_EQ(Str(e[1]), "");
  EXPECT_EQ(e[2].u, 0u);
}

// Rule: a truncated varint consumes the rest and is what it accumulated.
TEST(RawArgs, VarintTruncated) {
  {
    Decoded d({CGOFUZZ_BYTES, CGOFUZZ_BYTES}, {0x80, 0x80});
    EXPECT_EQ(d[0].s.len, 0u);
    EXPECT_EQ(d[1].s.len, 0u);
  }
  {
    Decoded d({CGOFUZZ_BYTES, CGOFUZZ_BYTES, CGOFUZZ_UINT8}, {0x81});
    EXPECT_EQ(d[0].s.len, 0u); // L = 1, clamped to the 0 bytes left
    EXPECT_EQ(d[1].s.len, 0u);
    EXPECT_EQ(d[2].u, 0u);
  }
  {
    Decoded d({CGOFUZZ_STRING, CGOFUZZ_STRING}, {});
    EXPECT_EQ(d[0].s.len, 0u);
    EXPECT_EQ(d[1].s.len, 0u);
  }
}

// Rule: an over-long varint stops after 10 bytes; bits past 64 are lost.
TEST(RawArgs, VarintOverlongAndOverflow) {
  Bytes data(11, 0x80); // 10 bytes of varint (L = 0), then 0x80 is data
  data.push_back('x');
  {
    Decoded d({CGOFUZZ_BYTES, CGOFUZZ_BYTES}, data);
    EXPECT_EQ(d[0].s.len, 0u);
    EXPECT_EQ(d[1].s.len, 2u);
    EXPECT_EQ(d[1].s.data, d.raw.data() + 10);
  }
  // 10th byte 0x02: 2 << 63 overflows to L = 0.
  Bytes ovf(9, 0x80);
  ovf.push_back(0x02);
  ovf.push_back('z');
  {
    Decoded d({CGOFUZZ_BYTES, CGOFUZZ_STRING}, ovf);
    EXPECT_EQ(Str(d[0]), "");
    EXPECT_EQ(Str(d[1]), "z");
  }
  // 10th byte 0x03: L = 1 << 63, clamped to the one byte left.
  ovf[9] = 0x03;
  {
    Decoded d({CGOFUZZ_BYTES, CGOFUZZ_STRING}, ovf);
    EXPECT_EQ(Str(d[0]), "z");
    EXPECT_EQ(Str(d[1]), "");
  }
}

// Rule: the last []byte/string takes all but what the later fixed-size
// arguments need; they read from what is left.
TEST(RawArgs, LastVariableTakesAllButTheTail) {
  Kinds k = {CGOFUZZ_UINT8, CGOFUZZ_BYTES, CGOFUZZ_UINT16, CGOFUZZ_BOOL};
  Bytes data = {7, 'a', 'b', 'c', 0x34, 0x12, 0x01};
  {
    Decoded d(k, data);
    EXPECT_EQ(d[0].u, 7u);
    EXPECT_EQ(Str(d[1]), "abc");
    EXPECT_EQ(d[2].u, 0x1234u);
    EXPECT_TRUE(d[3].b);
  }
  EXPECT_EQ(Encode({U(CGOFUZZ_UINT8, 7), S(CGOFUZZ_BYTES, "abc"),
                    U(CGOFUZZ_UINT16, 0x1234), Bool(true)}),
            data);
  // Fewer bytes than the tail needs: the []byte is empty, the tail reads
  // what there is and zeros.
  {
    Decoded d(k, {7, 'a', 'b'});
    EXPECT_EQ(d[0].u, 7u);
    EXPECT_EQ(d[1].s.len, 0u);
    EXPECT_EQ(d[2].u, 0x6261u);
    EXPECT_FALSE(d[3].b);
  }
  // Exactly the tail: empty []byte.
  {
    Decoded d(k, {7, 0x01, 0x00, 0x01});
    EXPECT_EQ(d[1].s.len, 0u);
    EXPECT_EQ(d[2].u, 1u);
    EXPECT_TRUE(d[3].b);
  }
}

// Prefixed and unprefixed variable-length arguments mixed with scalars.
TEST(RawArgs, MixedLayoutExactBytes) {
  Kinds k = {CGOFUZZ_STRING, CGOFUZZ_INT32, CGOFUZZ_BYTES, CGOFUZZ_UINT8};
  Bytes data = {0x01, 's', 0x01, 0, 0, 0, 'x', 'y', 0x09};
  Decoded d(k, data);
  EXPECT_EQ(Str(d[0]), "s");
  EXPECT_EQ(d[1].i, 1);
  EXPECT_EQ(Str(d[2]), "xy");
  EXPECT_EQ(d[3].u, 9u);
  EXPECT_EQ(Encode({S(CGOFUZZ_STRING, "s"), I(CGOFUZZ_INT32, 1),
                    S(CGOFUZZ_BYTES, "xy"), U(CGOFUZZ_UINT8, 9)}),
            data);
}

// The worked example of docs/raw-inputs.md:
// func(t *testing.T, name string, n int32, data []byte, ok bool).
TEST(RawArgs, DocWorkedExample) {
  Kinds k = {CGOFUZZ_STRING, CGOFUZZ_INT32, CGOFUZZ_BYTES, CGOFUZZ_BOOL};
  Bytes raw = {0x02, 'g', 'o', 0xfe, 0xff, 0xff, 0xff, 0x01, 0x02, 0x01};
  EXPECT_EQ(Encode({S(CGOFUZZ_STRING, "go"), I(CGOFUZZ_INT32, -2),
                    S(CGOFUZZ_BYTES, std::string("\x01\x02", 2)), Bool(true)}),
            raw);
  cgofuzz_buf b{};
  cgofuzz_err err{};
  ASSERT_EQ(cgofuzz_rawargs_to_corpus(k.data(), k.size(), raw.data(),
                                      raw.size(), &b, &err),
            0)
      << err.msg;
  EXPECT_EQ(std::string((char *)b.data, b.len),
            "go test fuzz v1\nstring(\"go\")\nint32(-2)\n"
            "[]byte(\"\\x01\\x02\")\nbool(true)\n");
  cgofuzz_buf_free(&b);
  // A mutated, shorter input is still valid.
  Decoded d(k, {0x05, 'g', 'o'});
  EXPECT_EQ(Str(d[0]), "go");
  EXPECT_EQ(d[1].i, 0);
  EXPECT_EQ(d[2].s.len, 0u);
  EXPECT_FALSE(d[3].b);
}

TEST(RawArgs, EncodeBoolIsZeroOrOneAndNegativesTwosComplement) {
  EXPECT_EQ(Encode({Bool(true), Bool(false)}), Bytes({1, 0}));
  EXPECT_EQ(Encode({I(CGOFUZZ_INT16, -2), I(CGOFUZZ_INT8, -128)}),
            Bytes({0xfe, 0xff, 0x80}));
  EXPECT_EQ(Encode({}), Bytes());
}

TEST(RawArgs, FloatNaNPayloadsRoundTrip) {
  std::vector<cgofuzz_value> vals = {F32(0x7fa00001), F32(0xffc00123),
                                     F64(0x7ff0000000000001),
                                     F64(0xfff8000000000abc)};
  Bytes raw = Encode(vals);
  Kinds k = {CGOFUZZ_FLOAT32, CGOFUZZ_FLOAT32, CGOFUZZ_FLOAT64,
             CGOFUZZ_FLOAT64};
  Decoded d(k, raw);
  EXPECT_EQ(Bits32(d[0]), 0x7fa00001u);
  EXPECT_EQ(Bits32(d[1]), 0xffc00123u);
  EXPECT_EQ(Bits64(d[2]), 0x7ff0000000000001u);
  EXPECT_EQ(Bits64(d[3]), 0xfff8000000000abcu);
}

TEST(RawArgs, DecodeClearsOwnedValuesFirst) {
  cgofuzz_values vs{};
  std::string s = "owned";
  cgofuzz_value v = S(CGOFUZZ_STRING, s);
  ASSERT_EQ(cgofuzz_values_push(&vs, &v), 0); // an owned copy
  Kinds k = {CGOFUZZ_UINT8};
  uint8_t b = 5;
  ASSERT_EQ(cgofuzz_rawargs_decode(k.data(), 1, &b, 1, &vs), 0);
  ASSERT_EQ(vs.n, 1u);
  EXPECT_EQ(vs.v[0].u, 5u);
  ASSERT_EQ(cgofuzz_rawargs_decode(nullptr, 0, nullptr, 0, &vs), 0);
  EXPECT_EQ(vs.n, 0u);
  cgofuzz_values_free(&vs);
}

// A random valid value of kind k (integers in their type's range, floats
// any bit pattern, bytes of random length up to 300 so varints take two
// bytes). Bytes are stored in *store.
cgofuzz_value RandomValue(std::mt19937_64 &r, cgofuzz_kind k,
                          std::vector<std::string> *store) {
  cgofuzz_value v = Val(k);
  uint64_t x = r();
  switch (k) {
  case CGOFUZZ_BYTES:
  case CGOFUZZ_STRING: {
    size_t n = r() % 4 == 0 ? r() % 300 : r() % 8;
    std::string s(n, '\0');
    for (auto &c : s)
      c = (char)r();
    store->push_back(s);
    v.s.data = (uint8_t *)store->back().data();
    v.s.len = n;
    break;
  }
  case CGOFUZZ_BOOL:
    v.b = x & 1;
    break;
  case CGOFUZZ_INT8:
    v.i = (int8_t)x;
    break;
  case CGOFUZZ_INT16:
    v.i = (int16_t)x;
    break;
  case CGOFUZZ_INT32:
    v.i = (int32_t)x;
    break;
  case CGOFUZZ_INT:
  case CGOFUZZ_INT64:
    v.i = (int64_t)x;
    break;
  case CGOFUZZ_UINT8:
    v.u = (uint8_t)x;
    break;
  case CGOFUZZ_UINT16:
    v.u = (uint16_t)x;
    break;
  case CGOFUZZ_UINT32:
    v.u = (uint32_t)x;
    break;
  case CGOFUZZ_FLOAT32: {
    uint32_t b = (uint32_t)x;
    if (r() % 4 == 0) // NaNs with payloads, often
      b |= 0x7f800001;
    std::memcpy(&v.f32, &b, 4);
    break;
  }
  case CGOFUZZ_FLOAT64:
    if (r() % 4 == 0)
      x |= 0x7ff0000000000001;
    std::memcpy(&v.f64, &x, 8);
    break;
  default:
    v.u = x;
    break;
  }
  return v;
}

Kinds RandomKinds(std::mt19937_64 &r, size_t max) {
  Kinds k(r() % (max + 1));
  for (auto &x : k) // []byte and string more often than their share
    x = r() % 3 == 0 ? (r() % 2 ? CGOFUZZ_BYTES : CGOFUZZ_STRING)
                     : (cgofuzz_kind)(r() % CGOFUZZ_NKINDS);
  return k;
}

TEST(RawArgs, RoundTripRandomValues) {
  std::mt19937_64 r(20240601);
  for (int iter = 0; iter < 5000; iter++) {
    Kinds k = RandomKinds(r, 7);
    std::vector<std::string> store;
    store.reserve(k.size()); // no reallocation: values point into it
    cgofuzz_values want{};
    std::vector<cgofuzz_value> vals;
    for (cgofuzz_kind kind : k) {
      vals.push_back(RandomValue(r, kind, &store));
      ASSERT_EQ(cgofuzz_values_push(&want, &vals.back()), 0);
    }
    Bytes raw = Encode(vals);
    Decoded d(k, raw);
    EXPECT_TRUE(cgofuzz_values_equal(&d.vs, &want)) << "iteration " << iter;
    cgofuzz_values_free(&want);
    if (HasFailure())
      break;
  }
}

TEST(RawArgs, DecodeIsTotalOnRandomBytes) {
  std::mt19937_64 r(7);
  for (int iter = 0; iter < 5000; iter++) {
    Kinds k = RandomKinds(r, 7);
    Bytes data(r() % 64);
    for (auto &b : data)
      b = (uint8_t)(r() % 3 == 0 ? 0x80 | r() : r() % 16);
    cgofuzz_values vs{};
    ASSERT_EQ(cgofuzz_rawargs_decode(k.data(), k.size(), data.data(),
                                     data.size(), &vs),
              0);
    ASSERT_EQ(vs.n, k.size());
    for (size_t i = 0; i < vs.n; i++) {
      const cgofuzz_value &v = vs.v[i];
      ASSERT_EQ(v.kind, k[i]);
      if (v.kind == CGOFUZZ_BYTES || v.kind == CGOFUZZ_STRING) {
        ASSERT_GE(v.s.data, data.data());
        ASSERT_LE(v.s.data + v.s.len, data.data() + data.size());
      }
      if (v.kind == CGOFUZZ_INT8) {
        ASSERT_TRUE(v.i >= -128 && v.i <= 127);
      }
      if (v.kind == CGOFUZZ_UINT16) {
        ASSERT_LE(v.u, 0xffffu);
      }
    }
    // What decodes re-encodes to bytes that decode to the same values.
    std::vector<cgofuzz_value> vals(vs.v, vs.v + vs.n);
    Bytes again = Encode(vals);
    Decoded d(k, again);
    ASSERT_TRUE(cgofuzz_values_equal(&d.vs, &vs)) << "iteration " << iter;
    cgofuzz_values_free(&vs);
  }
}

std::string Corpus(const Kinds &k, const Bytes &raw) {
  cgofuzz_buf b{};
  cgofuzz_err err{};
  EXPECT_EQ(cgofuzz_rawargs_to_corpus(k.data(), k.size(), raw.data(),
                                      raw.size(), &b, &err),
            0)
      << err.msg;
  std::string s((char *)b.data, b.len);
  cgofuzz_buf_free(&b);
  return s;
}

// Returns the raw bytes, or "ERR: <msg>".
std::string FromCorpus(const Kinds &k, const std::string &file) {
  cgofuzz_buf b{};
  cgofuzz_err err{};
  int rc = cgofuzz_rawargs_from_corpus(
      k.data(), k.size(), (const uint8_t *)file.data(), file.size(), &b, &err);
  std::string s = rc == 0 ? std::string((char *)b.data, b.len)
                          : "ERR: " + std::string(err.msg);
  cgofuzz_buf_free(&b);
  return s;
}

TEST(RawArgs, CorpusConversionBothWays) {
  EXPECT_EQ(Corpus({CGOFUZZ_BYTES}, B(std::string("\0ab", 3))),
            "go test fuzz v1\n[]byte(\"\\x00ab\")\n");
  EXPECT_EQ(
      FromCorpus({CGOFUZZ_BYTES}, "go test fuzz v1\n[]byte(\"\\x00ab\")\n"),
      std::string("\0ab", 3));

  Kinds k = {CGOFUZZ_STRING, CGOFUZZ_INT, CGOFUZZ_BYTES, CGOFUZZ_UINT8};
  Bytes raw = {0x02, 'h', 'i', 5, 0, 0, 0, 0, 0, 0, 0, 'z', 'A'};
  std::string file = "go test fuzz v1\nstring(\"hi\")\nint(5)\n"
                     "[]byte(\"z\")\nbyte('A')\n";
  EXPECT_EQ(Corpus(k, raw), file);
  EXPECT_EQ(FromCorpus(k, file), std::string(raw.begin(), raw.end()));
  // Go's other spellings, CRLF and blank lines are accepted.
  EXPECT_EQ(FromCorpus(k, "go test fuzz v1\r\n\nstring(\"hi\")\r\nint(5)\n"
                          "[]byte(\"z\")\nuint8(65)\n"),
            std::string(raw.begin(), raw.end()));
  // rune is int32.
  EXPECT_EQ(FromCorpus({CGOFUZZ_INT32}, "go test fuzz v1\nrune('a')\n"),
            std::string("a\0\0\0", 4));
  // A truncated raw input goes to the corpus as the values it decodes to.
  EXPECT_EQ(Corpus(k, {0x09, 'h'}), "go test fuzz v1\nstring(\"h\")\nint(0)\n"
                                    "[]byte(\"\")\nbyte('\\x00')\n");
}

TEST(RawArgs, CorpusKindMismatchIsAnError) {
  EXPECT_EQ(FromCorpus({CGOFUZZ_BYTES}, "go test fuzz v1\nstring(\"x\")\n"),
            "ERR: corpus file value 1 is string, the target's argument 1 is "
            "[]byte");
  EXPECT_EQ(FromCorpus({CGOFUZZ_BYTES, CGOFUZZ_INT64},
                       "go test fuzz v1\n[]byte(\"\")\nint(1)\n"),
            "ERR: corpus file value 2 is int, the target's argument 2 is "
            "int64");
  EXPECT_EQ(FromCorpus({CGOFUZZ_BYTES},
                       "go test fuzz v1\n[]byte(\"\")\n[]byte(\"\")\n"),
            "ERR: corpus file has 2 values, the target takes 1");
  EXPECT_EQ(FromCorpus({CGOFUZZ_BYTES}, "go test fuzz v1\n"),
            "ERR: corpus file has 0 values, the target takes 1");
  // The codec's own errors pass through.
  EXPECT_EQ(FromCorpus({CGOFUZZ_BYTES}, "go test fuzz v2\n[]byte(\"\")\n"),
            "ERR: unknown encoding version: go test fuzz v2");
  // Go cannot encode zero values.
  cgofuzz_buf b{};
  cgofuzz_err err{};
  EXPECT_EQ(cgofuzz_rawargs_to_corpus(nullptr, 0, nullptr, 0, &b, &err), -1);
  cgofuzz_buf_free(&b);
}

TEST(RawArgs, IsCorpusFileMatchesGosVersionLine) {
  auto is = [](const std::string &s) {
    return cgofuzz_rawargs_is_corpus_file((const uint8_t *)s.data(), s.size());
  };
  EXPECT_TRUE(is("go test fuzz v1\n"));
  EXPECT_TRUE(is("go test fuzz v1\r\n[]byte(\"\")\n"));
  EXPECT_TRUE(is("go test fuzz v1\nnot even a value"));
  EXPECT_FALSE(is("go test fuzz v1"));       // Go needs a second line
  EXPECT_FALSE(is("go test fuzz v1\r"));     // likewise
  EXPECT_FALSE(is("go test fuzz v1\r\r\n")); // only one '\r' is dropped
  EXPECT_FALSE(is("go test fuzz v1 \n"));
  EXPECT_FALSE(is(" go test fuzz v1\n"));
  EXPECT_FALSE(is("go test fuzz v2\n"));
  EXPECT_FALSE(is(""));
  EXPECT_FALSE(cgofuzz_rawargs_is_corpus_file(nullptr, 0));
}

} // namespace
