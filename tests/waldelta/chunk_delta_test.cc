// The chunk delta's encoder does what chunk_delta.h says, checked on its output rather than by
// re-running its steps: boundaries are the same on every build (fixed inputs, recorded ends);
// every copy is extended as far as the bytes agree, forwards to the target's or the old data's
// end and backwards to the end of the previous copy; and no chunk of the target that is also a
// chunk of the old data is left among the literals.
#include "storage/waldelta/chunk_delta.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/waldelta/test_pairs.h"

namespace pgstore::waldelta {
namespace {

using test_pairs::Edited;
using test_pairs::RandomBytes;

// One op of a body (chunk_delta.h's grammar): a literal run [t, t + len) of the target, or a
// copy of old[off, off + len) to target position t.
struct Op {
  bool copy;
  size_t t, len, off;
};

std::vector<Op> Ops(const std::vector<uint8_t>& body) {
  std::vector<Op> ops;
  size_t i = 0, t = 0;
  while (i < body.size()) {
    const uint8_t op = body[i++];
    if (!(op & 0x80)) {
      ops.push_back({false, t, size_t{op} + 1u, 0});
      i += op + 1u;
    } else {
      size_t len = (op & 0x7F) + kCopyMin;
      if ((op & 0x7F) == 0x7F) {
        len = LoadLE16(body.data() + i);
        i += 2;
      }
      ops.push_back({true, t, len, LoadLE16(body.data() + i)});
      i += 2;
    }
    t += ops.back().len;
  }
  return ops;
}

TEST(ChunkDeltaTest, BoundariesAreTheSameOnEveryBuild) {
  std::vector<uint8_t> pattern;
  for (int i = 0; i < 300; ++i) pattern.push_back(static_cast<uint8_t>((i * i * 7 + i * 13) % 256));
  EXPECT_EQ(ChunkBoundaries(pattern),
            (std::vector<uint32_t>{14,  19,  31,  35,  42,  47,  51,  57,  72,  90,
                                   110, 116, 129, 138, 144, 171, 184, 201, 221, 227,
                                   239, 254, 270, 275, 287, 291, 298, 300}));
  const std::string text =
      "Chunk boundaries depend only on the last few bytes, so an insertion or deletion shifts no "
      "boundary beyond it.";
  EXPECT_EQ(ChunkBoundaries(std::vector<uint8_t>(text.begin(), text.end())),
            (std::vector<uint32_t>{8, 20, 29, 34, 38, 42, 46, 52, 60, 69, 78, 92, 103, 107, 109}));
  // A run of 0x00 meets the boundary condition at every byte: chunks of kChunkMin (after the
  // first, whose hash has not settled yet). A run of 0x01 never does: chunks of kChunkMax.
  std::vector<uint32_t> every_fourth = {6};
  for (uint32_t e = 10; e <= 150; e += 4) every_fourth.push_back(e);
  EXPECT_EQ(ChunkBoundaries(std::vector<uint8_t>(150, 0x00)), every_fourth);
  EXPECT_EQ(ChunkBoundaries(std::vector<uint8_t>(150, 0x01)),
            (std::vector<uint32_t>{64, 128, 150}));
}

// Chunks that differ in one byte, anywhere, or only in length have different fingerprints (a
// collision would hide the second chunk from the index, as the first occurrence wins).
TEST(ChunkDeltaTest, FingerprintsSeeEveryByteAndTheLength) {
  std::mt19937 rng(13);
  for (size_t n = 1; n <= kChunkMax; ++n) {
    const std::vector<uint8_t> chunk = RandomBytes(&rng, n, 256);
    const uint64_t fp = ChunkFingerprint(chunk);
    for (size_t at = 0; at < n; ++at) {
      for (uint8_t flip : {0x01, 0x80, 0xFF}) {
        std::vector<uint8_t> other = chunk;
        other[at] ^= flip;
        EXPECT_NE(ChunkFingerprint(other), fp) << "length " << n << ", byte " << at;
      }
    }
    std::vector<uint8_t> longer = chunk;
    longer.push_back(0);
    EXPECT_NE(ChunkFingerprint(longer), fp) << "length " << n;
    EXPECT_NE(ChunkFingerprint(ByteView(chunk.data(), n - 1)), fp) << "length " << n;
  }
}

// chunk_delta.h's definition of the fingerprint, byte by byte: the words assembled from bytes.
constexpr uint64_t kFingerprintSeed = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kWordMultiplier = 0xBF58476D1CE4E5B9ull;
constexpr uint64_t kByteMultiplier = 0x100000001B3ull;

uint64_t WordStep(uint64_t h, uint64_t word) {
  h = (h ^ word) * kWordMultiplier;
  return h ^ (h >> 29);
}

uint64_t DocumentedFingerprint(const std::vector<uint8_t>& chunk) {
  const size_t n = chunk.size();
  uint64_t h = kFingerprintSeed ^ n;
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t word = 0;
    for (int k = 7; k >= 0; --k) word = (word << 8) | chunk[i + k];
    h = WordStep(h, word);
  }
  for (; i < n; ++i) h = (h ^ chunk[i]) * kByteMultiplier;
  return h ^ (h >> 32);
}

TEST(ChunkDeltaTest, FingerprintIsTheDocumentedHash) {
  std::mt19937 rng(14);
  for (size_t n = 0; n <= 3 * kChunkMax; ++n) {
    for (int round = 0; round < 8; ++round) {
      const std::vector<uint8_t> chunk = RandomBytes(&rng, n, 256);
      EXPECT_EQ(ChunkFingerprint(chunk), DocumentedFingerprint(chunk)) << "length " << n;
    }
  }
}

// The word w that takes the fingerprint state from h to `to` (WordStep inverted: the xor-shift
// by 29 undone by two more, the odd multiplier by its inverse modulo 2^64).
uint64_t WordLeadingTo(uint64_t h, uint64_t to) {
  uint64_t inverse = kWordMultiplier;
  for (int i = 0; i < 6; ++i) inverse *= 2 - kWordMultiplier * inverse;
  const uint64_t product = to ^ (to >> 29) ^ (to >> 58);
  return (product * inverse) ^ h;
}

std::vector<uint8_t> WordBytes(uint64_t a, uint64_t b) {
  std::vector<uint8_t> bytes(16);
  for (int k = 0; k < 8; ++k) {
    bytes[k] = static_cast<uint8_t>(a >> (8 * k));
    bytes[8 + k] = static_cast<uint8_t>(b >> (8 * k));
  }
  return bytes;
}

// Two different 16-byte chunks with one fingerprint, built by inverting the second word step:
// the index keeps the first, so the second is not found (its match is lost), and the encoder,
// comparing bytes, never copies the first in its place.
TEST(ChunkDeltaTest, AFingerprintCollisionCostsTheMatchNeverCorrectness) {
  std::mt19937_64 rng(15);
  for (int attempt = 0; attempt < 1000000; ++attempt) {
    const uint64_t start = kFingerprintSeed ^ 16;
    const uint64_t a1 = rng(), a2 = rng(), b1 = rng();
    const uint64_t b2 = WordLeadingTo(WordStep(start, b1), WordStep(WordStep(start, a1), a2));
    const std::vector<uint8_t> first = WordBytes(a1, a2), second = WordBytes(b1, b2);
    std::vector<uint8_t> old_data = first, swapped = second;
    old_data.insert(old_data.end(), second.begin(), second.end());
    swapped.insert(swapped.end(), first.begin(), first.end());
    // Both must be whole chunks of the old data in either order, and the second of itself.
    const std::vector<uint32_t> two_chunks = {16, 32};
    if (ChunkBoundaries(old_data) != two_chunks || ChunkBoundaries(swapped) != two_chunks ||
        ChunkBoundaries(second) != std::vector<uint32_t>{16} || first == second) {
      continue;
    }
    ASSERT_EQ(ChunkFingerprint(first), ChunkFingerprint(second));
    std::vector<uint8_t> all_literals = {15};
    all_literals.insert(all_literals.end(), second.begin(), second.end());
    EXPECT_EQ(ChunkEncode(old_data, second), all_literals);
    // The same bytes with the second chunk first: it is indexed, and the target is one copy.
    const std::vector<Op> ops = Ops(ChunkEncode(swapped, second));
    ASSERT_EQ(ops.size(), 1u);
    EXPECT_TRUE(ops[0].copy);
    EXPECT_EQ(ops[0].off, 0u);
    return;
  }
  FAIL() << "no colliding pair of whole chunks found";
}

TEST(ChunkDeltaTest, AnUnchangedStringIsOneCopy) {
  std::mt19937 rng(11);
  for (size_t n : {4, 5, 63, 64, 200, 3000}) {
    const std::vector<uint8_t> s = RandomBytes(&rng, n, 26);
    const std::vector<Op> ops = Ops(ChunkEncode(s, s));
    ASSERT_EQ(ops.size(), 1u) << n;
    EXPECT_TRUE(ops[0].copy);
    EXPECT_EQ(ops[0].off, 0u);
    EXPECT_EQ(ops[0].len, n);
  }
}

// Over random pairs: copies are maximal, and every target chunk among the literals is no chunk
// of the old data.
TEST(ChunkDeltaTest, CopiesAreMaximalAndNoOldChunkIsLeftAsLiterals) {
  std::mt19937 rng(12);
  for (int round = 0; round < 1500; ++round) {
    const int alphabet = round % 2 == 0 ? 3 : 26;  // few letters: chunks repeat within a string
    const std::vector<uint8_t> old_data = RandomBytes(&rng, rng() % 600, alphabet);
    const std::vector<uint8_t> target = Edited(&rng, old_data, alphabet);
    const std::vector<uint8_t> body = ChunkEncode(old_data, target);
    StatusOr<std::vector<uint8_t>> back = ChunkDecode(old_data, body, target.size());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ASSERT_EQ(*back, target);

    std::map<std::vector<uint8_t>, size_t> old_chunks;
    size_t start = 0;
    for (uint32_t end : ChunkBoundaries(old_data)) {
      old_chunks.emplace(std::vector<uint8_t>(old_data.begin() + start, old_data.begin() + end),
                         start);
      start = end;
    }
    std::vector<bool> literal(target.size() + 1, false);
    size_t previous_copy_end = 0;
    for (const Op& op : Ops(body)) {
      if (!op.copy) {
        for (size_t i = op.t; i < op.t + op.len; ++i) literal[i] = true;
      } else {
        const size_t end = op.t + op.len, old_end = op.off + op.len;
        EXPECT_TRUE(end == target.size() || old_end == old_data.size() ||
                    target[end] != old_data[old_end])
            << "round " << round << ": the copy to " << op.t << " stops short";
        EXPECT_TRUE(op.t == previous_copy_end || op.off == 0 ||
                    target[op.t - 1] != old_data[op.off - 1])
            << "round " << round << ": the copy to " << op.t << " starts late";
        previous_copy_end = end;
      }
    }
    start = 0;
    for (uint32_t end : ChunkBoundaries(target)) {
      bool all_literal = true;
      for (size_t i = start; i < end; ++i) all_literal = all_literal && literal[i];
      if (all_literal && end - start >= kCopyMin) {
        EXPECT_EQ(
            old_chunks.count(std::vector<uint8_t>(target.begin() + start, target.begin() + end)),
            0u)
            << "round " << round << ": target chunk [" << start << ", " << end
            << ") is an old chunk but was written as literals";
      }
      start = end;
    }
  }
}

}  // namespace
}  // namespace pgstore::waldelta
