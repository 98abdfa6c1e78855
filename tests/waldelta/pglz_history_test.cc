// pglz-history's encoder at the edges pglz_history.h names: the longest match among the chain's
// candidates, a walk that ends at the first match of kPglzHistoryGoodMatch bytes, a candidate
// taken only when its bytes agree from the first one, a history of one byte, and an output
// buffer reused between calls; the number of hash lists by window size, and the table started
// afresh before positions pass 2^31.
#include "storage/waldelta/pglz_history.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "tests/waldelta/test_pairs.h"

namespace pgstore::waldelta {
namespace {

using test_pairs::RandomBytes;

std::vector<uint8_t> EncodeAndCheck(const std::vector<uint8_t>& history,
                                    const std::vector<uint8_t>& target) {
  const std::vector<uint8_t> body = PglzHistoryEncode(history, target);
  StatusOr<std::vector<uint8_t>> back = PglzHistoryDecode(history, body, target.size());
  EXPECT_TRUE(back.ok()) << back.status().ToString();
  if (back.ok()) EXPECT_EQ(*back, target);
  return body;
}

// The length of the first item of a body that starts with a tag (pglz's tag layout: the length
// in the low nibble of the first byte, 15 meaning 18 + a third byte).
size_t FirstTagLength(const std::vector<uint8_t>& body) {
  EXPECT_GE(body.size(), 3u);
  EXPECT_EQ(body[0] & 1, 1) << "the first item is a literal";
  const size_t nibble = body[1] & 0x0F;
  return nibble == 0x0F ? 18u + body[3] : nibble + 3u;
}

// Before the target byte y, the history holds byte x and then the same 40 bytes as the target.
// Whatever x and y, and whether or not their 3-byte prefixes share a hash list, the first byte is
// never copied from x.
TEST(PglzHistoryTest, ACandidateMustAgreeFromItsFirstByte) {
  std::mt19937 rng(21);
  const std::vector<uint8_t> rest = RandomBytes(&rng, 40);
  for (int x = 0; x < 256; ++x) {
    for (int y = 0; y < 256; ++y) {
      std::vector<uint8_t> history = {static_cast<uint8_t>(x)}, target = {static_cast<uint8_t>(y)};
      history.insert(history.end(), rest.begin(), rest.end());
      target.insert(target.end(), rest.begin(), rest.end());
      const std::vector<uint8_t> body = PglzHistoryEncode(history, target);
      StatusOr<std::vector<uint8_t>> back = PglzHistoryDecode(history, body, target.size());
      ASSERT_TRUE(back.ok()) << x << " " << y;
      ASSERT_EQ(*back, target) << x << " " << y;
    }
  }
}

// The candidates are walked newest first. The history holds a 100-byte run S whole, then S's
// first `newer` bytes followed by a different byte. A newer match of 64 bytes (the good-match
// length) ends the walk; one of 63 does not, and the older whole copy wins. (The value is part of
// the contract: a change of tuning changes this test.)
TEST(PglzHistoryTest, AGoodMatchEndsTheWalk) {
  std::mt19937 rng(22);
  const std::vector<uint8_t> s = RandomBytes(&rng, 100);
  for (size_t newer : {62, 63, 64, 65}) {
    std::vector<uint8_t> history = s;
    history.push_back(static_cast<uint8_t>(s[0] ^ 0xA5));
    history.insert(history.end(), s.begin(), s.begin() + newer);
    history.push_back(static_cast<uint8_t>(s[newer] ^ 0x5A));
    const std::vector<uint8_t> body = EncodeAndCheck(history, s);
    EXPECT_EQ(FirstTagLength(body), newer >= 64 ? newer : 100u) << newer;
  }
}

// pglz_history.h's list of a 3-byte prefix v in a table of 2^bits lists.
uint32_t ListOf(uint32_t v, int bits) { return (v * 2654435761u) >> (32 - bits); }

// The table's size by window size, checked through the walk's limit: the target is 20 bytes whose
// only match is the history's first 20; after them the history holds 16 three-byte sequences
// that share the target's list at `bits` bits but not at one bit more (or, `fewer`, at one bit
// fewer but not at `bits`). With the lists the header documents, the 16 fill the walk and the
// match is missed exactly when they share its list.
TEST(PglzHistoryTest, ListsAreAsManyAsTheHeaderSays) {
  std::mt19937 rng(24);
  for (size_t w : {255, 256, 1023, 1024, 4095, 4096}) {
    const int bits = w < 256 ? 9 : w < 1024 ? 10 : w < 4096 ? 11 : 12;
    for (bool fewer : {false, true}) {
      const std::vector<uint8_t> target = RandomBytes(&rng, 20);
      const uint32_t key = target[0] | target[1] << 8 | target[2] << 16;
      const int same = fewer ? bits - 1 : bits, other = fewer ? bits : bits + 1;
      std::vector<uint8_t> history = target;
      int fillers = 0;
      for (uint32_t v = 0; fillers < 16; ++v) {
        if (ListOf(v, same) != ListOf(key, same) || ListOf(v, other) == ListOf(key, other))
          continue;
        for (int k = 0; k < 3; ++k) history.push_back(static_cast<uint8_t>(v >> (8 * k)));
        ++fillers;
      }
      const std::vector<uint8_t> padding = RandomBytes(&rng, w - target.size() - history.size());
      history.insert(history.begin() + 20, padding.begin(), padding.end());
      ASSERT_EQ(history.size() + target.size(), w);
      const std::vector<uint8_t> body = EncodeAndCheck(history, target);
      // Missed: the first item is a literal. Found: a tag of all 20 bytes.
      EXPECT_EQ(body[0] & 1, fewer ? 1 : 0) << "window " << w << (fewer ? ", fewer" : "");
    }
  }
}

// The table is never cleared between calls: a list head below the call's base means "empty",
// until positions near 2^31 start it afresh. Around that point, and with heads left from calls
// long before, every encode gives what a fresh encoder gives: with a history, and without one
// (where a stale head taken for the current position would be a tag of offset 0). Each case on
// a new thread: a fresh encoder, whose base only moves forward.
TEST(PglzHistoryTest, TheTableStartsAfreshBeforePositionsPass2To31) {
  std::mt19937 rng(25);
  const std::vector<uint8_t> old_row = RandomBytes(&rng, 300);
  std::vector<uint8_t> new_row(old_row.begin() + 50, old_row.begin() + 250);
  new_row[100] ^= 1;
  const std::vector<uint8_t> no_history;
  for (const auto& pair : {std::pair(old_row, new_row), std::pair(no_history, old_row)}) {
    const std::vector<uint8_t>& history = pair.first;
    const std::vector<uint8_t>& target = pair.second;
    const std::vector<uint8_t> fresh = EncodeAndCheck(history, target);
    const uint32_t window = static_cast<uint32_t>(history.size() + target.size());
    for (uint32_t base :
         {(1u << 31) - 1000, (1u << 31) - 500, (1u << 31) - 1, 1u << 31, 0xFFFFFFFFu - 1000}) {
      std::thread([&] {
        EncodeAndCheck(history, target);  // heads with small positions, from long before
        ASSERT_EQ(PglzHistoryAdvanceBaseForTesting(base - 1 - window), base);
        for (int call = 0; call < 8; ++call) {
          EXPECT_EQ(EncodeAndCheck(history, target), fresh)
              << history.size() << "-byte history, base " << base << ", call " << call;
        }
      }).join();
    }
  }
}

// A history of one byte is part of the window: a run of it is one overlapping tag at offset 1,
// whatever an earlier call left in the encoder's window.
TEST(PglzHistoryTest, AOneByteHistoryIsReferenced) {
  std::mt19937 rng(23);
  PglzHistoryEncode(std::vector<uint8_t>(100, 'b'), RandomBytes(&rng, 100));
  const std::vector<uint8_t> history = {'a'}, target(40, 'a');
  // Control bit 1; a long tag: 0x0F (offset bits 8..11 zero, length 18+), offset 1, 40 - 18.
  EXPECT_EQ(EncodeAndCheck(history, target), (std::vector<uint8_t>{0x01, 0x0F, 0x01, 40 - 18}));
}

// The output vector is cleared first: an empty target leaves it empty, whatever it held.
TEST(PglzHistoryTest, TheOutputIsReplaced) {
  std::vector<uint8_t> out = {1, 2, 3};
  PglzHistoryEncodeInto(std::vector<uint8_t>{'x'}, ByteView(), &out);
  EXPECT_TRUE(out.empty());
  out = std::vector<uint8_t>(500, 7);
  const std::vector<uint8_t> target = {'a', 'b'};
  PglzHistoryEncodeInto(ByteView(), target, &out);
  EXPECT_EQ(out, (std::vector<uint8_t>{0x00, 'a', 'b'}));
}

}  // namespace
}  // namespace pgstore::waldelta
