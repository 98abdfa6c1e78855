// pglz-aligned finds what an UPDATE leaves where the old tuple had it: columns unchanged in
// place, columns shifted by a dropped or added column (ahead and back), the old data's end
// aligned with the new data's; it gives up early when nothing matches, never reaches past
// pglz's 4095-byte offsets, and its body always decodes with PglzHistoryDecode.
#include "storage/waldelta/pglz_aligned.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "storage/waldelta/pglz_history.h"
#include "tests/waldelta/test_pairs.h"

namespace pgstore::waldelta {
namespace {

using test_pairs::RandomBytes;

// Encodes new_data[prefix, size - suffix) against old_data and checks it decodes back; the body.
std::vector<uint8_t> EncodeAndCheck(const std::vector<uint8_t>& old_data,
                                    const std::vector<uint8_t>& new_data, size_t prefix,
                                    size_t suffix, bool* matched) {
  const ByteView target(new_data.data() + prefix, new_data.size() - prefix - suffix);
  std::vector<uint8_t> body;
  *matched = PglzAlignedEncodeInto(ByteView(old_data), target, prefix, suffix, &body);
  if (*matched) {
    StatusOr<std::vector<uint8_t>> back = PglzHistoryDecode(ByteView(old_data), body, target.size);
    EXPECT_TRUE(back.ok()) << back.status().ToString();
    if (back.ok()) EXPECT_EQ(*back, std::vector<uint8_t>(target.begin(), target.end()));
  }
  return body;
}

// 100 four-byte columns; `change(i, &col)` edits column i of the new row (false drops it).
template <typename Change>
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> Rows(std::mt19937* rng, Change change) {
  std::vector<uint8_t> old_data, new_data;
  for (int i = 0; i < 100; ++i) {
    std::vector<uint8_t> col = RandomBytes(rng, 4);
    old_data.insert(old_data.end(), col.begin(), col.end());
    if (change(i, &col, rng)) new_data.insert(new_data.end(), col.begin(), col.end());
  }
  return {old_data, new_data};
}

TEST(PglzAlignedTest, UnchangedColumnsInPlaceAreCopied) {
  std::mt19937 rng(1);
  const auto [old_data, new_data] = Rows(&rng, [](int i, std::vector<uint8_t>* col, auto* r) {
    if (i % 2 == 0) *col = RandomBytes(r, 4);
    return true;
  });
  bool matched = false;
  const std::vector<uint8_t> body = EncodeAndCheck(old_data, new_data, 0, 4, &matched);
  ASSERT_TRUE(matched);
  // 50 changed columns as literals, 49 unchanged ones as 2-byte tags, a control byte per 8 items.
  EXPECT_LE(body.size(), 50 * 4 + 49 * 2 + (50 * 4 + 49 + 7) / 8);
}

TEST(PglzAlignedTest, ColumnsShiftedByDroppedOrAddedOnesAreFound) {
  std::mt19937 rng(2);
  // Every other column dropped: each kept one sits 4 bytes further ahead in the old data.
  const auto [old_data, dropped] =
      Rows(&rng, [](int i, std::vector<uint8_t>*, auto*) { return i % 2 == 1; });
  bool matched = false;
  std::vector<uint8_t> body = EncodeAndCheck(old_data, dropped, 0, 0, &matched);
  ASSERT_TRUE(matched);
  EXPECT_LE(body.size(), 50 * 2 + 7);  // a tag per column
  // The other way: the old row is the short one, so each column is found behind.
  body = EncodeAndCheck(dropped, old_data, 0, 0, &matched);
  ASSERT_TRUE(matched);
  EXPECT_LE(body.size(), 50 * 4 + 50 * 2 + (50 * 4 + 50 + 7) / 8);  // 4 literals and a tag each
}

TEST(PglzAlignedTest, TheOldEndIsAlignedWithTheNewEnd) {
  std::mt19937 rng(3);
  // 40 new bytes at the front, then the old data's last 300 bytes unchanged: the start-aligned
  // shift finds nothing, the end-aligned one everything after the new bytes.
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 400);
  std::vector<uint8_t> new_data = RandomBytes(&rng, 20);
  new_data.insert(new_data.end(), old_data.end() - 300, old_data.end());
  bool matched = false;
  const std::vector<uint8_t> body = EncodeAndCheck(old_data, new_data, 0, 0, &matched);
  ASSERT_TRUE(matched);
  EXPECT_LE(body.size(), 20 + 3 + 2 * 3);  // 20 literals, 2 control bytes, two long tags
}

TEST(PglzAlignedTest, GivesUpWhenNothingMatchesEarly) {
  std::mt19937 rng(4);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 400), new_data = RandomBytes(&rng, 400);
  bool matched = true;
  EncodeAndCheck(old_data, new_data, 0, 0, &matched);
  EXPECT_FALSE(matched);
  // A match after the give-up point is not looked for.
  std::vector<uint8_t> late = new_data;
  std::copy(old_data.begin() + 100, old_data.end(), late.begin() + 100);
  EncodeAndCheck(old_data, late, 0, 0, &matched);
  EXPECT_FALSE(matched);
  std::vector<uint8_t> early = new_data;
  std::copy(old_data.begin() + kAlignedGiveUpAfter - 8, old_data.end(),
            early.begin() + kAlignedGiveUpAfter - 8);
  EncodeAndCheck(old_data, early, 0, 0, &matched);
  EXPECT_TRUE(matched);
}

TEST(PglzAlignedTest, GivesUpWhenEarlyMatchesSaveNothing) {
  std::mt19937 rng(7);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 400);
  std::vector<uint8_t> new_data = RandomBytes(&rng, 400);
  // 3-byte matches every 10 bytes: each costs a 2-byte tag and a control bit, the bytes between
  // them a byte and a bit each, so by the give-up point the stream is no shorter than its input.
  for (size_t at = 0; at < 2 * kAlignedGiveUpAfter; at += 10) {
    std::copy(old_data.begin() + at, old_data.begin() + at + 3, new_data.begin() + at);
  }
  std::copy(old_data.begin() + 100, old_data.end(), new_data.begin() + 100);
  bool matched = true;
  EncodeAndCheck(old_data, new_data, 0, 0, &matched);
  EXPECT_FALSE(matched);
}

TEST(PglzAlignedTest, OffsetsStayWithinPglzsReach) {
  std::mt19937 rng(5);
  // A long old row: the bytes at the same place are 5000 bytes back in the window, out of reach
  // from a target starting at 0; from a target past a 5000-byte prefix they are in reach.
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 6000);
  std::vector<uint8_t> new_data = old_data;
  for (size_t i = 0; i < new_data.size(); i += 50) new_data[i] ^= 1;
  for (size_t prefix : {size_t{0}, size_t{1}, size_t{4000}, size_t{5000}}) {
    bool matched = false;
    const std::vector<uint8_t> body = EncodeAndCheck(old_data, new_data, prefix, 0, &matched);
    if (!matched) continue;
    EXPECT_GE(prefix + 4095, old_data.size()) << prefix;  // only then is anything in reach
    EXPECT_LT(body.size(), (new_data.size() - prefix) / 4) << prefix;
  }
}

// pglz's reach is 4095 bytes inclusive: a 5000-byte old row and a target of its bytes 905..1004
// (one of them changed) after a 905-byte prefix put every target byte exactly 4095 bytes after
// its old copy in the window. The body, exactly: a tag of 50 bytes, the changed byte as a
// literal (the shift matches again right after it), a tag of 49 bytes, both at offset 4095.
TEST(PglzAlignedTest, MatchesExactly4095BytesBackAreTaken) {
  std::mt19937 rng(11);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 5000);
  std::vector<uint8_t> new_data(old_data.begin(), old_data.begin() + 1005);
  new_data[955] ^= 0x5A;
  bool matched = false;
  const std::vector<uint8_t> body = EncodeAndCheck(old_data, new_data, 905, 0, &matched);
  EXPECT_TRUE(matched);
  // Control bits 1, 0, 1; a long tag is 0xF0 | 0x0F (offset bits 8..11, length 18+), the offset's
  // low byte, then the length - 18.
  EXPECT_EQ(body,
            (std::vector<uint8_t>{0x05, 0xFF, 0xFF, 50 - 18, new_data[955], 0xFF, 0xFF, 49 - 18}));
}

// The search after a match ends looks kAlignedSearchAhead = 32 bytes ahead of the current
// alignment and kAlignedSearchBack = 16 bytes behind it, and no further (the values are part of
// the contract: a change of tuning changes this test). The old data is 200 random bytes; the
// new data keeps the first 50, then continues from `distance` bytes further ahead (or behind) in
// the old data, and ends with 30 bytes of its own (so that the end-aligned shift finds nothing).
TEST(PglzAlignedTest, SearchReachesExactlyItsWindow) {
  std::mt19937 rng(8);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 200);
  const std::vector<uint8_t> tail = RandomBytes(&rng, 30);
  auto body_size = [&](int64_t distance) {
    std::vector<uint8_t> new_data(old_data.begin(), old_data.begin() + 50);
    new_data.insert(new_data.end(), old_data.begin() + 50 + distance,
                    old_data.begin() + 130 + distance);
    new_data.insert(new_data.end(), tail.begin(), tail.end());
    bool matched = false;
    const size_t size = EncodeAndCheck(old_data, new_data, 0, 0, &matched).size();
    EXPECT_TRUE(matched) << distance;
    return size;
  };
  // Found: three tags (the first 50 bytes, the 80 moved ones, nothing else) and 30 literals.
  // Missed: the 80 bytes are literals too.
  constexpr size_t kFound = 30 + 3 * 3 + 5, kMissed = 80;
  const int64_t ahead = 32, back = 16;
  EXPECT_LE(body_size(1), kFound);
  EXPECT_LE(body_size(ahead), kFound);
  EXPECT_GE(body_size(ahead + 1), kMissed);
  EXPECT_LE(body_size(-1), kFound);
  EXPECT_LE(body_size(-back), kFound);
  EXPECT_GE(body_size(-back - 1), kMissed);
}

// The target (`prefix` and `suffix` filler bytes around it) is `from`'s bytes of the old data at
// [from, from + n); the first byte's aligned and end-aligned old bytes differ from it, so only
// the search can find it.
std::vector<uint8_t> EncodeMoved(const std::vector<uint8_t>& old_data, size_t from, size_t n,
                                 size_t prefix, size_t suffix, bool* matched) {
  std::vector<uint8_t> new_data(prefix, 0xEE);
  new_data.insert(new_data.end(), old_data.begin() + from, old_data.begin() + from + n);
  new_data.insert(new_data.end(), suffix, 0xEE);
  return EncodeAndCheck(old_data, new_data, prefix, suffix, matched);
}

// The search reaches the old data's last 4 bytes, ahead of the current alignment by up to 32
// bytes and by as little as 1; and behind it by as little as 1. Each body is one tag.
TEST(PglzAlignedTest, SearchReachesTheOldDataEndsAndItsNeighbours) {
  std::mt19937 rng(12);
  const std::vector<uint8_t> short_old = RandomBytes(&rng, 36);
  bool matched = false;
  // The old data's last 4 bytes, 32 ahead of the start (prefix 0) or 1 ahead (prefix 31): a
  // 2-byte tag of length 4 at offset 4 (36 - 32).
  for (size_t prefix : {0, 31}) {
    EXPECT_EQ(EncodeMoved(short_old, 32, 4, prefix, 5, &matched),
              (std::vector<uint8_t>{0x01, 0x01, 0x04}))
        << prefix;
    EXPECT_TRUE(matched) << prefix;
  }
  // The old data's first 50 bytes, one behind the start (prefix 1): a 3-byte tag, offset 200.
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 200);
  EXPECT_EQ(EncodeMoved(old_data, 0, 50, 1, 0, &matched),
            (std::vector<uint8_t>{0x01, 0x0F, 0xC8, 50 - 18}));
  EXPECT_TRUE(matched);
}

// After a match ends, the search runs at the first literal and then at every 4th
// (kAlignedResyncEvery): 68 new bytes (17 runs of 4) followed by moved old data are found right
// where the moved data starts. The body, exactly: a 3-byte tag for the first 50 bytes, 68
// literals, a 3-byte tag for the 100 moved bytes, 30 literals, and a control byte per 8 of those
// 100 items (13).
TEST(PglzAlignedTest, SearchesAgainEveryFourthLiteral) {
  std::mt19937 rng(9);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 300);
  std::vector<uint8_t> new_data(old_data.begin(), old_data.begin() + 50);
  const std::vector<uint8_t> fresh = RandomBytes(&rng, 68), tail = RandomBytes(&rng, 30);
  new_data.insert(new_data.end(), fresh.begin(), fresh.end());
  new_data.insert(new_data.end(), old_data.begin() + 150, old_data.begin() + 250);
  new_data.insert(new_data.end(), tail.begin(), tail.end());
  bool matched = false;
  EXPECT_EQ(EncodeAndCheck(old_data, new_data, 0, 0, &matched).size(), 3u + 68 + 3 + 30 + 13);
  EXPECT_TRUE(matched);
}

// It gives up at the first literal past kAlignedGiveUpAfter = 32 target bytes when nothing was
// saved by then: unrelated bytes up to position 32 leave a chance, up to 33 do not.
TEST(PglzAlignedTest, GivesUpAtTheFirstLiteralPast32Bytes) {
  std::mt19937 rng(10);
  const std::vector<uint8_t> old_data = RandomBytes(&rng, 300);
  for (size_t fresh : {32, 33}) {
    std::vector<uint8_t> new_data = RandomBytes(&rng, fresh);
    new_data.insert(new_data.end(), old_data.begin() + fresh, old_data.end());
    bool matched = false;
    EncodeAndCheck(old_data, new_data, 0, 0, &matched);
    EXPECT_EQ(matched, fresh == 32) << fresh;
  }
  // A literal at position 31 is not yet past the point: 28 fresh bytes, a 3-byte match, one
  // fresh byte, then the old data.
  std::vector<uint8_t> new_data = RandomBytes(&rng, 28);
  new_data.insert(new_data.end(), old_data.begin() + 28, old_data.begin() + 31);
  new_data.push_back(static_cast<uint8_t>(old_data[31] ^ 0x55));
  new_data.insert(new_data.end(), old_data.begin() + 32, old_data.end());
  bool matched = false;
  EncodeAndCheck(old_data, new_data, 0, 0, &matched);
  EXPECT_TRUE(matched);
}

// "No shorter than the bytes it covers" includes equal. The new row: 8 periods of one changed
// byte and 3 unchanged ones (each a literal and a 3-byte tag: 3 bytes for 4), then `fresh`
// changed bytes (literals, 4 at a time). At the start of the 12th group of fresh literals the
// stream covers 32 + 44 = 76 bytes with 8 * 3 + 44 = 68 bytes of items and 8 control bytes
// (for 16 + 44 = 60 items): 76 bytes, exactly as many. So 44 fresh bytes (11 groups) are
// encoded and 48 are not.
TEST(PglzAlignedTest, GivesUpWhenTheStreamIsExactlyAsLongAsWhatItCovers) {
  std::mt19937 rng(13);
  for (size_t fresh : {44, 48}) {
    const std::vector<uint8_t> old_data = RandomBytes(&rng, 32 + fresh);
    std::vector<uint8_t> new_data = old_data;
    for (size_t j = 0; j < new_data.size(); ++j) {
      if (j >= 32 || j % 4 == 0) new_data[j] ^= 0xFF;
    }
    bool matched = false;
    EncodeAndCheck(old_data, new_data, 0, 0, &matched);
    EXPECT_EQ(matched, fresh == 44) << fresh;
  }
}

TEST(PglzAlignedTest, RandomPairsAlwaysDecode) {
  std::mt19937 rng(6);
  for (int round = 0; round < 2000; ++round) {
    const std::vector<uint8_t> old_data = RandomBytes(&rng, rng() % 300);
    std::vector<uint8_t> new_data = old_data;
    for (int edits = rng() % 6; edits-- > 0;) {  // insert, drop or change a few bytes
      const size_t at = new_data.empty() ? 0 : rng() % (new_data.size() + 1);
      const std::vector<uint8_t> bytes = RandomBytes(&rng, 1 + rng() % 12);
      if (rng() % 3 == 0 && at + bytes.size() <= new_data.size()) {
        new_data.erase(new_data.begin() + at, new_data.begin() + at + bytes.size());
      } else if (rng() % 2 == 0 && at + bytes.size() <= new_data.size()) {
        std::copy(bytes.begin(), bytes.end(), new_data.begin() + at);
      } else {
        new_data.insert(new_data.begin() + at, bytes.begin(), bytes.end());
      }
    }
    const size_t prefix = new_data.empty() ? 0 : rng() % (new_data.size() / 4 + 1);
    const size_t suffix = rng() % (new_data.size() - prefix + 1) / 4;
    bool matched = false;
    EncodeAndCheck(old_data, new_data, prefix, suffix, &matched);
  }
}

}  // namespace
}  // namespace pgstore::waldelta
