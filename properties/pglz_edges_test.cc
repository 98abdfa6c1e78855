// pglz's edges, swept deterministically and compared byte for byte with PostgreSQL 15's own
// pglz_compress (libpgcommon.a): input sizes at the hash-table size steps, strategy values just
// inside and just outside the ranges pglz clamps them to, the points where compression gives up,
// and the output limit of inputs over INT_MAX / 100 bytes, computed another way there. Random
// properties (pglz_property_test) seldom land exactly on such an edge.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "properties/oracles/postgres_pglz.h"
#include "storage/pglz/compress.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {
namespace {

std::vector<uint8_t> RandomBytes(std::mt19937* rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (uint8_t& b : out) b = static_cast<uint8_t>((*rng)() >> 24);
  return out;
}

// `size` bytes of words drawn from a vocabulary of 12 random 3- to 7-byte words: many repeated
// 4-byte sequences (matches) and many distinct ones (hash-bucket collisions).
std::vector<uint8_t> Words(uint32_t seed, size_t size) {
  std::mt19937 rng(seed);
  std::vector<std::vector<uint8_t>> vocabulary;
  for (int i = 0; i < 12; ++i) vocabulary.push_back(RandomBytes(&rng, 3 + rng() % 5));
  std::vector<uint8_t> out;
  while (out.size() < size) {
    const std::vector<uint8_t>& w = vocabulary[rng() % vocabulary.size()];
    out.insert(out.end(), w.begin(), w.end());
  }
  out.resize(size);
  return out;
}

// A 300-byte random block B, then for each length L in `ladder` (oldest first) B's first L bytes
// followed by 8 random bytes, then B again. The final B's search meets the copies newest first,
// with match lengths `ladder` reversed: which one wins depends on good_match and its drop.
std::vector<uint8_t> Ladder(uint32_t seed, const std::vector<int>& ladder) {
  std::mt19937 rng(seed);
  const std::vector<uint8_t> block = RandomBytes(&rng, 300);
  std::vector<uint8_t> out = RandomBytes(&rng, 8);
  for (int len : ladder) {
    out.insert(out.end(), block.begin(), block.begin() + len);
    const std::vector<uint8_t> junk = RandomBytes(&rng, 8);
    out.insert(out.end(), junk.begin(), junk.end());
  }
  out.insert(out.end(), block.begin(), block.end());
  return out;
}

Strategy Always() { return kAlwaysStrategy; }

// Ours and PostgreSQL's output for `raw` under `s`, with a message naming the case.
void ExpectSameAsPostgres(const std::vector<uint8_t>& raw, const Strategy& s,
                          const std::string& what) {
  ASSERT_EQ(Compress(ByteView(raw), s), PgPglzCompressBytes(raw, s))
      << what << " (" << raw.size() << " bytes; strategy " << s.min_input_size << " "
      << s.max_input_size << " " << s.min_comp_rate << " " << s.first_success_by << " "
      << s.match_size_good << " " << s.match_size_drop << ")";
}

// The hash table has 512, 1024, 2048, 4096 or 8192 buckets by input size (steps at 128, 256, 512
// and 1024 bytes). The bucket count decides which positions collide, and every colliding
// candidate visited lowers good_match, so the chosen matches change with it.
TEST(PglzEdgesTest, HashTableSizeStepsMatchPostgres) {
  for (size_t size : {127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025}) {
    for (uint32_t seed = 0; seed < 40; ++seed) {
      const std::vector<uint8_t> raw = Words(seed, size);
      for (int drop : {50, 90, 100}) {
        Strategy s = Always();
        s.match_size_drop = drop;
        ExpectSameAsPostgres(raw, s, "words seed " + std::to_string(seed));
      }
    }
  }
}

// match_size_good is clamped to 17..273, match_size_drop to 0..100, min_comp_rate to 0..99; each
// value at, just inside and just outside those bounds, on ladders whose winning match changes
// with good_match (17 vs 16 and 18 bytes, 273 vs 272 and 271) and on random words.
TEST(PglzEdgesTest, StrategyClampsMatchPostgres) {
  std::vector<std::vector<uint8_t>> inputs = {
      Ladder(1, {30, 16}),   Ladder(2, {30, 17}),
      Ladder(3, {30, 18}),   Ladder(4, {273, 272, 100}),
      Ladder(5, {273, 271}), Ladder(6, {40, 20, 19, 18, 17, 16, 3}),
      Words(7, 200),         Words(8, 3000)};
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (int good : {1, 16, 17, 18, 19, 100, 271, 272, 273, 274, 1000}) {
      for (int drop : {-5, -1, 0, 1, 2, 50, 94, 95, 99, 100, 101, 150}) {
        Strategy s = Always();
        s.match_size_good = good;
        s.match_size_drop = drop;
        ExpectSameAsPostgres(inputs[i], s, "input " + std::to_string(i));
      }
    }
  }
}

// min_comp_rate decides the largest output accepted: a run compresses to about 1.15% of its
// size, so it passes a rate of 98 but never 99 (nor anything clamped to 99).
TEST(PglzEdgesTest, CompressionRateLimitsMatchPostgres) {
  std::vector<std::vector<uint8_t>> inputs = {std::vector<uint8_t>(10000, 'a'), Words(9, 4000),
                                              Ladder(10, {200, 100})};
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (int rate : {-1, 0, 1, 2, 50, 75, 76, 97, 98, 99, 100, 150}) {
      Strategy s = Always();
      s.min_comp_rate = rate;
      ExpectSameAsPostgres(inputs[i], s, "input " + std::to_string(i));
    }
  }
}

// Compression gives up when the input size is outside [min_input_size, max_input_size], or when
// first_success_by output bytes are out before any match: every limit at and next to the point
// where it starts to matter.
TEST(PglzEdgesTest, GiveUpPointsMatchPostgres) {
  std::mt19937 rng(11);
  std::vector<uint8_t> raw = RandomBytes(&rng, 40);  // 45 output bytes before the first match
  const std::vector<uint8_t> repeat(raw.begin(), raw.begin() + 30);
  raw.insert(raw.end(), repeat.begin(), repeat.end());
  const int32_t n = static_cast<int32_t>(raw.size());
  for (int32_t limit = n - 2; limit <= n + 2; ++limit) {
    Strategy s = Always();
    s.max_input_size = limit;
    ExpectSameAsPostgres(raw, s, "max_input_size");
    s = Always();
    s.min_input_size = limit;
    ExpectSameAsPostgres(raw, s, "min_input_size");
  }
  for (int32_t by = -1; by <= 60; ++by) {
    Strategy s = Always();
    s.first_success_by = by;
    ExpectSameAsPostgres(raw, s, "first_success_by");
  }
}

// Above INT_MAX / 100 bytes the output limit is (size / 100) * (100 - rate), so that the product
// cannot overflow. Three inputs of 21.6 and 22 MB, random bytes then zeros, put the output just
// below and just above the limit at a rate of 50 (11,000,000 bytes for 22 MB), within 1% of it,
// and, at a rate of 0, just past INT_MAX / 100 bytes, where size * 100 would overflow.
TEST(PglzEdgesTest, LimitOfHugeInputsMatchesPostgres) {
  struct Case {
    size_t size;
    size_t random;  // leading random bytes; each costs 9/8 output bytes, the zeros next to none
    int rate;
  };
  // Outputs: about 10,950,000, 11,050,000 and 1,400,000 bytes.
  for (const Case& c :
       {Case{22000000, 9607000, 50}, Case{22000000, 9697000, 50}, Case{21600000, 1000000, 0}}) {
    std::mt19937 rng(12);
    std::vector<uint8_t> raw = RandomBytes(&rng, c.random);
    raw.resize(c.size, 0);
    Strategy s = Always();
    s.min_comp_rate = c.rate;
    const std::optional<std::vector<uint8_t>> pg = PgPglzCompressBytes(raw, s);
    if (c.rate == 50) {  // the case is the one meant: an output within 1% of the limit
      s.min_comp_rate = 0;
      const size_t out = PgPglzCompressBytes(raw, s)->size();
      EXPECT_GT(out, 10890000u);
      EXPECT_LT(out, 11110000u);
      EXPECT_EQ(pg.has_value(), out < 11000000u);
      s.min_comp_rate = c.rate;
    } else {
      EXPECT_TRUE(pg.has_value());
    }
    EXPECT_EQ(Compress(ByteView(raw), s), pg) << c.size << " bytes";
  }
}

// At exactly INT_MAX / 100 bytes the limit is still size * (100 - rate) / 100: at a rate of 0,
// 21,474,836 bytes, where (size / 100) * 100 would be 36 bytes less. 19,064,247 random bytes then
// zeros compress to 21,474,819 bytes (found by a search over the random part's length): inside
// those 36 bytes, so compression succeeds only with the exact limit.
TEST(PglzEdgesTest, LimitAtIntMaxOver100IsExact) {
  const size_t size = INT_MAX / 100;
  std::mt19937 rng(13);
  std::vector<uint8_t> raw = RandomBytes(&rng, 19064247);
  raw.resize(size, 0);
  Strategy s = Always();
  s.min_comp_rate = 0;
  const std::optional<std::vector<uint8_t>> pg = PgPglzCompressBytes(raw, s);
  ASSERT_TRUE(pg.has_value());
  ASSERT_GE(pg->size(), (size / 100) * 100);  // the case is the one meant
  EXPECT_EQ(Compress(ByteView(raw), s), pg);
}

}  // namespace
}  // namespace pgstore::pglz
