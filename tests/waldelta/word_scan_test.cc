// The word-at-a-time scans answer exactly what the byte-by-byte loops of their specifications
// answer, for every length and position around the 8-byte steps, on strings over small alphabets
// (so that agreements and key bytes are frequent, and a borrow or carry between bytes of a word
// would show).
#include "storage/waldelta/word_scan.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace pgstore::waldelta {
namespace {

std::vector<uint8_t> RandomBytes(std::mt19937* rng, size_t n, int alphabet) {
  std::vector<uint8_t> v(n);
  // Letters 0x00, 0x01, 0x80, 0xFF, ...: the bytes where a SWAR trick's carries go wrong.
  static constexpr uint8_t kLetters[] = {0x00, 0x01, 0x80, 0xFF, 0x7F, 0x81, 0x02, 0xFE};
  for (uint8_t& b : v) b = kLetters[(*rng)() % alphabet];
  return v;
}

size_t CommonLengthByBytes(const uint8_t* a, const uint8_t* b, size_t max) {
  size_t n = 0;
  while (n < max && a[n] == b[n]) ++n;
  return n;
}

size_t NextRun3ByBytes(const uint8_t* a, const uint8_t* b, size_t n, size_t len) {
  for (size_t k = 0; k < n && k + 3 <= len; ++k) {
    if (a[k] == b[k] && a[k + 1] == b[k + 1] && a[k + 2] == b[k + 2]) return k;
  }
  return n;
}

int64_t FindKeyByBytes(const std::vector<uint8_t>& h, int64_t lo, int64_t hi, uint32_t key,
                       bool last) {
  int64_t found = -1;
  for (int64_t c = lo; c <= hi; ++c) {
    if (LoadLE32(h.data() + c) != key) continue;
    if (!last) return c;
    found = c;
  }
  return found;
}

TEST(WordScanTest, CommonLengthIsTheByteLoops) {
  std::mt19937 rng(1);
  for (int round = 0; round < 3000; ++round) {
    const size_t len = rng() % 40;
    const std::vector<uint8_t> a = RandomBytes(&rng, len, 2 + round % 3);
    std::vector<uint8_t> b = a;
    if (len > 0 && rng() % 4 != 0) b[rng() % len] ^= static_cast<uint8_t>(1 + rng() % 255);
    for (size_t max = 0; max <= len; ++max) {
      ASSERT_EQ(CommonLength(a.data(), b.data(), max), CommonLengthByBytes(a.data(), b.data(), max))
          << "round " << round << " max " << max;
    }
  }
}

TEST(WordScanTest, NextRun3IsTheByteLoops) {
  std::mt19937 rng(2);
  for (int round = 0; round < 3000; ++round) {
    const size_t len = rng() % 40;
    const int alphabet = 2 + round % 3;
    const std::vector<uint8_t> a = RandomBytes(&rng, len, alphabet);
    const std::vector<uint8_t> b = RandomBytes(&rng, len, alphabet);
    for (size_t n = 0; n <= len + 2; ++n) {
      ASSERT_EQ(NextRun3(a.data(), b.data(), n, len), NextRun3ByBytes(a.data(), b.data(), n, len))
          << "round " << round << " n " << n << " len " << len;
    }
  }
}

TEST(WordScanTest, FindKeyIsTheByteLoops) {
  std::mt19937 rng(3);
  for (int round = 0; round < 600; ++round) {
    const size_t hn = 4 + rng() % 36;
    const std::vector<uint8_t> h = RandomBytes(&rng, hn, 2 + round % 3);
    // A key that occurs (taken from h) or one that most likely does not.
    const uint32_t key =
        round % 4 == 0 ? static_cast<uint32_t>(rng()) : LoadLE32(h.data() + rng() % (hn - 3));
    const int64_t max_hi = static_cast<int64_t>(hn) - 4;
    for (int64_t lo = 0; lo <= max_hi + 1; ++lo) {
      for (int64_t hi = lo - 1; hi <= max_hi; ++hi) {
        for (bool last : {false, true}) {
          ASSERT_EQ(FindKey(h.data(), hn, lo, hi, key, last), FindKeyByBytes(h, lo, hi, key, last))
              << "round " << round << " [" << lo << ", " << hi << "] last " << last;
        }
      }
    }
  }
}

}  // namespace
}  // namespace pgstore::waldelta
