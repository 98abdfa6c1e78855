// Laws of storage/pglz, checked against the reference model (properties/models) and against
// PostgreSQL 15's own pglz from libpgcommon.a (properties/oracles).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <climits>
#include <vector>

#include "properties/generators/pglz_generators.h"
#include "properties/models/pglz_model.h"
#include "properties/oracles/postgres_pglz.h"
#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {
namespace {

using generators::genPglzInput;
using generators::PglzInput;

// PostgreSQL 15 may read 2 bytes past the end on input cut mid-tag: give it slack.
std::optional<std::vector<uint8_t>> PgDecompress(const std::vector<uint8_t>& in, size_t rawsize,
                                                 bool exact) {
  std::vector<uint8_t> src(in);
  src.resize(in.size() + 3, 0);
  std::vector<uint8_t> out(rawsize);
  int32_t n = PgPglzDecompress(src.data(), static_cast<int32_t>(in.size()), out.data(),
                               static_cast<int32_t>(rawsize), exact);
  if (n < 0) return std::nullopt;
  out.resize(n);
  return out;
}

std::optional<std::vector<uint8_t>> OurDecompress(const std::vector<uint8_t>& in, size_t rawsize,
                                                  bool exact) {
  std::vector<uint8_t> out(rawsize);
  StatusOr<size_t> n = Decompress(ByteView(in), out.data(), rawsize,
                                  exact ? Completeness::kExact : Completeness::kPartial);
  if (!n.ok()) return std::nullopt;
  out.resize(*n);
  return out;
}

// Arbitrary compressed-looking bytes: random, or a real stream with bytes changed, cut or added;
// with the raw size it had (or 0 for random bytes).
struct CorruptStream {
  std::vector<uint8_t> bytes;
  size_t natural_rawsize = 0;
};

rc::Gen<CorruptStream> genCorruptStream() {
  return rc::gen::exec([] {
    CorruptStream s;
    if (*rc::gen::inRange(0, 3) == 0) {
      s.bytes = *rc::gen::container<std::vector<uint8_t>>(rc::gen::arbitrary<uint8_t>());
      return s;
    }
    PglzInput in = *genPglzInput();
    std::optional<std::vector<uint8_t>> c = Compress(ByteView(in.bytes), kAlwaysStrategy);
    s.bytes = c ? *c : in.bytes;
    s.natural_rawsize = in.bytes.size();
    const int edits = *rc::gen::element(0, 0, 1, 2, 5);
    for (int i = 0; i < edits && !s.bytes.empty(); ++i) {
      s.bytes[*rc::gen::inRange<size_t>(0, s.bytes.size())] = *rc::gen::arbitrary<uint8_t>();
    }
    if (!s.bytes.empty() && *rc::gen::inRange(0, 4) == 0) {
      s.bytes.resize(*rc::gen::inRange<size_t>(0, s.bytes.size()));
    }
    return s;
  });
}

RC_GTEST_PROP(PglzProperty, DecompressInvertsCompress, (const Strategy& strategy)) {
  const PglzInput in = *genPglzInput();
  RC_TAG(in.shape);
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(in.bytes), strategy);
  RC_CLASSIFY(c.has_value(), "compressed");
  if (!c) return;
  RC_ASSERT(c->size() < in.bytes.size());
  RC_ASSERT(OurDecompress(*c, in.bytes.size(), true) == in.bytes);
  RC_ASSERT(OurDecompress(*c, in.bytes.size(), false) == in.bytes);
}

RC_GTEST_PROP(PglzProperty, CompressIsByteIdenticalToPostgres, (const Strategy& strategy)) {
  const PglzInput in = *genPglzInput();
  RC_TAG(in.shape);
  std::optional<std::vector<uint8_t>> ours = Compress(ByteView(in.bytes), strategy);
  RC_CLASSIFY(ours.has_value(), "compressed");
  RC_ASSERT(ours == PgPglzCompressBytes(in.bytes, strategy));
}

RC_GTEST_PROP(PglzProperty, DecompressAgreesWithModelAndPostgres, ()) {
  const CorruptStream corrupt = *genCorruptStream();
  const std::vector<uint8_t>& stream = corrupt.bytes;
  const size_t natural = corrupt.natural_rawsize;
  const size_t rawsize =
      *rc::gen::oneOf(rc::gen::just(natural), rc::gen::inRange<size_t>(natural, natural + 3),
                      rc::gen::inRange<size_t>(0, 64), rc::gen::inRange<size_t>(0, 20000));
  const bool exact = *rc::gen::arbitrary<bool>();
  std::optional<std::vector<uint8_t>> ours = OurDecompress(stream, rawsize, exact);
  RC_TAG(exact ? "exact" : "partial", ours.has_value() ? "accepted" : "rejected");
  RC_ASSERT(ours == models::PglzModelDecompress(stream, rawsize, exact));
  RC_ASSERT(ours == PgDecompress(stream, rawsize, exact));
}

RC_GTEST_PROP(PglzProperty, SliceIsPrefixOfFullOutput, ()) {
  const PglzInput in = *genPglzInput();
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(in.bytes), kAlwaysStrategy);
  RC_PRE(c.has_value());
  const size_t k = *rc::gen::inRange<size_t>(0, in.bytes.size() + 1);
  const std::vector<uint8_t> prefix(in.bytes.begin(), in.bytes.begin() + k);
  RC_ASSERT(OurDecompress(*c, k, false) == prefix);
}

RC_GTEST_PROP(PglzProperty, PrefixNeedsAtMostMaximumCompressedSize, ()) {
  const PglzInput in = *genPglzInput();
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(in.bytes), kAlwaysStrategy);
  RC_PRE(c.has_value());
  RC_ASSERT(static_cast<int64_t>(c->size()) <= MaxOutput(in.bytes.size()));
  const int32_t k = *rc::gen::inRange<int32_t>(0, static_cast<int32_t>(in.bytes.size()) + 1);
  const int32_t need = MaximumCompressedSize(k, static_cast<int32_t>(c->size()));
  const std::vector<uint8_t> head(c->begin(), c->begin() + need);
  const std::vector<uint8_t> prefix(in.bytes.begin(), in.bytes.begin() + k);
  RC_ASSERT(OurDecompress(head, k, false) == prefix);
}

RC_GTEST_PROP(PglzProperty, MaximumCompressedSizeMatchesPostgres, ()) {
  const int32_t raw = *rc::gen::oneOf(rc::gen::arbitrary<int32_t>(), rc::gen::inRange(0, 100000),
                                      rc::gen::element(0, 1, INT_MAX, INT_MIN, -1));
  const int32_t total = *rc::gen::oneOf(rc::gen::arbitrary<int32_t>(), rc::gen::inRange(0, 100000),
                                        rc::gen::element(0, 1, INT_MAX, INT_MIN, -1));
  RC_ASSERT(MaximumCompressedSize(raw, total) == PgPglzMaximumCompressedSize(raw, total));
}

TEST(PglzConstantsTest, StrategiesMatchPostgres) {
  PgPglzStrategy d = PgPglzDefaultStrategy();
  PgPglzStrategy a = PgPglzAlwaysStrategy();
  PgPglzStrategy our_d = ToPgPglzStrategy(kDefaultStrategy);
  PgPglzStrategy our_a = ToPgPglzStrategy(kAlwaysStrategy);
  EXPECT_EQ(0, memcmp(&d, &our_d, sizeof d));
  EXPECT_EQ(0, memcmp(&a, &our_a, sizeof a));
}

// The history wraps after 4096 positions and offsets stop at 4094: long inputs exercise both.
TEST(PglzDifferentialTest, LongInputsMatchPostgres) {
  for (int size : {4095, 4096, 4097, 8191, 8192, 8193, 100000}) {
    std::vector<uint8_t> raw(size);
    uint32_t x = 7;
    for (int i = 0; i < size; ++i) {
      x = x * 1664525 + 1013904223;
      raw[i] = (i % 5000 < 2500) ? static_cast<uint8_t>(x >> 28) : static_cast<uint8_t>(i % 4095);
    }
    for (const Strategy& s : {kDefaultStrategy, kAlwaysStrategy}) {
      std::optional<std::vector<uint8_t>> ours = Compress(ByteView(raw), s);
      EXPECT_EQ(ours, PgPglzCompressBytes(raw, s)) << "size " << size;
      if (ours) {
        EXPECT_EQ(OurDecompress(*ours, raw.size(), true), raw);
      }
    }
  }
}

}  // namespace
}  // namespace pgstore::pglz
