// Unit tests for storage/pglz: one test per failure mode, constants pinned, round trips compared
// as bytes. Agreement with PostgreSQL's own pglz is checked in properties/pglz_property_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/pglz/toast_datum.h"

namespace pgstore::pglz {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> b) {
  return std::vector<uint8_t>(b.begin(), b.end());
}

std::vector<uint8_t> Repeat(const std::string& s, int n) {
  std::vector<uint8_t> out;
  for (int i = 0; i < n; ++i) out.insert(out.end(), s.begin(), s.end());
  return out;
}

StatusOr<std::vector<uint8_t>> Decode(const std::vector<uint8_t>& in, size_t rawsize,
                                      Completeness mode = Completeness::kExact) {
  std::vector<uint8_t> out(rawsize);
  StatusOr<size_t> n = Decompress(ByteView(in), out.data(), rawsize, mode);
  if (!n.ok()) return n.status();
  out.resize(*n);
  return out;
}

TEST(PglzFormatTest, ConstantsMatchPostgres) {
  EXPECT_EQ(kMinMatch, 3);
  EXPECT_EQ(kMaxMatch, 273);
  EXPECT_EQ(kMaxOffset, 4095);
  EXPECT_EQ(kEncoderMaxOffset, 4094);
  EXPECT_EQ(kHistorySize, 4096);
  EXPECT_EQ(kMaxHistoryLists, 8192);
  EXPECT_EQ(kMaxExpansion, 91);
  EXPECT_EQ(MaxOutput(100), 104);
  EXPECT_EQ(kDefaultStrategy.min_input_size, 32);
  EXPECT_EQ(kDefaultStrategy.min_comp_rate, 25);
  EXPECT_EQ(kDefaultStrategy.first_success_by, 1024);
  EXPECT_EQ(kDefaultStrategy.match_size_good, 128);
  EXPECT_EQ(kDefaultStrategy.match_size_drop, 10);
  EXPECT_EQ(kAlwaysStrategy.min_input_size, 0);
  EXPECT_EQ(kAlwaysStrategy.match_size_drop, 6);
  EXPECT_EQ(kCompressedHeaderSize, 8u);
}

TEST(PglzFormatTest, MaximumCompressedSize) {
  EXPECT_EQ(MaximumCompressedSize(0, 1000), 2);
  EXPECT_EQ(MaximumCompressedSize(8, 1000), 11);  // 9 bytes of literals + 2
  EXPECT_EQ(MaximumCompressedSize(100, 1000), 115);
  EXPECT_EQ(MaximumCompressedSize(100, 50), 50);                         // capped at the total
  EXPECT_EQ(MaximumCompressedSize(0x7fffffff, 0x7fffffff), 0x7fffffff);  // no overflow
}

// PostgreSQL's regression cases (compression_pglz.sql): corrupt inputs.
TEST(PglzDecompressTest, ControlBitWithNoTagIsIncomplete) {
  EXPECT_EQ(Decode(Bytes({0x01}), 10).status().message(), "output shorter than raw size");
}

TEST(PglzDecompressTest, OneTagByteIsTruncatedTag) {
  EXPECT_EQ(Decode(Bytes({0x01, 0xff}), 10).status().message(), "truncated match tag");
}

TEST(PglzDecompressTest, ExtendedLengthWithoutThirdByteIsTruncatedTag) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x0f, 0x01}), 10).status().message(), "truncated match tag");
}

TEST(PglzDecompressTest, OffsetBeyondOutputIsCorruption) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x10, 0x01}), 10).status().message(), "match offset beyond output");
}

TEST(PglzDecompressTest, OffsetZeroIsCorruption) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x03, 0x00}), 10).status().message(), "match offset is zero");
}

TEST(PglzDecompressTest, ShortOutputFailsExactButNotPartial) {
  std::vector<uint8_t> c = *Compress(ByteView(Repeat("abcd", 100)), kAlwaysStrategy);
  EXPECT_EQ(Decode(c, 500).status().message(), "output shorter than raw size");
  StatusOr<std::vector<uint8_t>> partial = Decode(c, 500, Completeness::kPartial);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, Repeat("abcd", 100));
}

TEST(PglzDecompressTest, UnconsumedInputFailsExactButNotPartial) {
  std::vector<uint8_t> c = *Compress(ByteView(Repeat("abcd", 100)), kAlwaysStrategy);
  EXPECT_EQ(Decode(c, 100).status().message(), "unconsumed compressed input");
  StatusOr<std::vector<uint8_t>> partial = Decode(c, 100, Completeness::kPartial);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, Repeat("abcd", 25));
}

TEST(PglzDecompressTest, OverlappingMatchReplicatesPattern) {
  // "ab" then a tag: len 3 + 7 = 10, off 2.
  StatusOr<std::vector<uint8_t>> out = Decode(Bytes({0x04, 'a', 'b', 0x07, 0x02}), 12);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(std::string(out->begin(), out->end()), "abababababab");
}

TEST(PglzDecompressTest, LongestMatchUsesThirdByte) {
  // 'x', then a 3-byte tag: len 18 + 255 = 273, off 1.
  StatusOr<std::vector<uint8_t>> out = Decode(Bytes({0x02, 'x', 0x0f, 0x01, 0xff}), 274);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, std::vector<uint8_t>(274, 'x'));
}

TEST(PglzDecompressTest, MatchIsClampedToRawSize) {
  StatusOr<std::vector<uint8_t>> out =
      Decode(Bytes({0x02, 'x', 0x0f, 0x01, 0xff}), 10, Completeness::kPartial);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<uint8_t>(10, 'x'));
}

TEST(PglzDecompressTest, EmptyInputEmptyOutputIsExact) { EXPECT_TRUE(Decode({}, 0).ok()); }

TEST(PglzCompressTest, RoundTripOfRepetitiveText) {
  std::vector<uint8_t> raw = Repeat("abcd", 100);
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(raw));
  ASSERT_TRUE(c.has_value());
  EXPECT_LT(c->size(), raw.size() * 3 / 4);
  StatusOr<std::vector<uint8_t>> out = Decode(*c, raw.size());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, raw);
}

TEST(PglzCompressTest, DefaultStrategyRefusesShortInput) {
  EXPECT_FALSE(Compress(ByteView(Repeat("a", 31))).has_value());
  EXPECT_TRUE(Compress(ByteView(Repeat("a", 32))).has_value());
}

TEST(PglzCompressTest, EmptyInputAlwaysGivesUp) {
  EXPECT_FALSE(Compress(ByteView(), kAlwaysStrategy).has_value());
}

TEST(PglzCompressTest, NonPositiveGoodMatchGivesUp) {
  Strategy s = kAlwaysStrategy;
  s.match_size_good = 0;
  EXPECT_FALSE(Compress(ByteView(Repeat("ab", 100)), s).has_value());
}

TEST(PglzCompressTest, IncompressibleInputGivesUp) {
  std::vector<uint8_t> raw(2000);
  uint32_t x = 12345;
  for (auto& b : raw) {
    x = x * 1103515245 + 12345;
    b = static_cast<uint8_t>(x >> 24);
  }
  EXPECT_FALSE(Compress(ByteView(raw)).has_value());
}

TEST(PglzCompressTest, KnownOutputForRun) {
  // 40 x 'a': literal 'a', then a 3-byte tag (len 39 = 18 + 21, off 1).
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(Repeat("a", 40)));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, Bytes({0x02, 'a', 0x0f, 0x01, 21}));
}

TEST(ToastDatumTest, HeaderLayout) {
  std::vector<uint8_t> out;
  PutCompressedDatumHeader(&out, {20, 100, kPglzMethodId});
  EXPECT_EQ(out, Bytes({0x52, 0x00, 0x00, 0x00, 100, 0, 0, 0}));  // 20 << 2 | 2
  out.clear();
  PutCompressedDatumHeader(&out, {20, 100, kLz4MethodId});
  EXPECT_EQ(out[7], 0x40);
}

TEST(ToastDatumTest, RoundTripAndSlice) {
  std::vector<uint8_t> raw = Repeat("hello world, ", 50);
  std::optional<std::vector<uint8_t>> d = CompressDatum(ByteView(raw));
  ASSERT_TRUE(d.has_value());
  StatusOr<CompressedDatumHeader> h = GetCompressedDatumHeader(ByteView(*d));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->total_size, d->size());
  EXPECT_EQ(h->raw_size, raw.size());
  EXPECT_EQ(h->method_id, kPglzMethodId);
  StatusOr<std::vector<uint8_t>> full = DecompressDatum(ByteView(*d));
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(*full, raw);
  StatusOr<std::vector<uint8_t>> slice = DecompressDatumSlice(ByteView(*d), 7);
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(*slice, std::vector<uint8_t>(raw.begin(), raw.begin() + 7));
}

TEST(ToastDatumTest, ShortDatumIsCorruption) {
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(Bytes({0x52, 0, 0}))).status().message(),
            "truncated compressed datum header");
}

TEST(ToastDatumTest, UncompressedHeaderIsRejected) {
  EXPECT_EQ(
      GetCompressedDatumHeader(ByteView(Bytes({0x20, 0, 0, 0, 1, 0, 0, 0}))).status().message(),
      "not an inline-compressed varlena");
}

TEST(ToastDatumTest, SizeMismatchIsCorruption) {
  EXPECT_EQ(
      GetCompressedDatumHeader(ByteView(Bytes({0x52, 0, 0, 0, 1, 0, 0, 0}))).status().message(),
      "varlena size differs from datum length");
}

TEST(ToastDatumTest, InvalidMethodIsCorruption) {
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(Bytes({0x2a, 0, 0, 0, 1, 0, 0, 0x80, 0, 0})))
                .status()
                .message(),
            "bad compression method id");
}

TEST(ToastDatumTest, RawSizeBeyondExpansionBoundIsCorruption) {
  // 2 payload bytes can produce at most 182 bytes.
  std::vector<uint8_t> d = Bytes({0x2a, 0, 0, 0, 183, 0, 0, 0, 0, 0});
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(d)).status().message(),
            "raw size exceeds what the payload can expand to");
  d[4] = 182;
  EXPECT_TRUE(GetCompressedDatumHeader(ByteView(d)).ok());
}

TEST(ToastDatumTest, Lz4IsNotSupported) {
  std::vector<uint8_t> d = Bytes({0x2a, 0, 0, 0, 10, 0, 0, 0x40, 0, 0});
  EXPECT_EQ(DecompressDatum(ByteView(d)).status().code(), StatusCode::kNotSupported);
}

TEST(ToastDatumTest, IncompressibleValueStaysUncompressed) {
  EXPECT_FALSE(CompressDatum(ByteView(Repeat("x", 10))).has_value());  // below 32 bytes
}

}  // namespace
}  // namespace pgstore::pglz
