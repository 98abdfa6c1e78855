// Pairs of byte strings for the delta encoders' tests: random strings over a small alphabet (long
// hash chains, repeated chunks) and edits of them (bytes inserted, dropped or changed, blocks of
// the old string repeated elsewhere). mt19937 streams, so the same pairs on every platform.
#ifndef PGSTORE_TESTS_WALDELTA_TEST_PAIRS_H_
#define PGSTORE_TESTS_WALDELTA_TEST_PAIRS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace pgstore::waldelta::test_pairs {

// n bytes, each one of 0 .. alphabet - 1.
inline std::vector<uint8_t> RandomBytes(std::mt19937* rng, size_t n, int alphabet) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>((*rng)() % alphabet);
  return v;
}

// n bytes, each any value.
inline std::vector<uint8_t> RandomBytes(std::mt19937* rng, size_t n) {
  return RandomBytes(rng, n, 256);
}

// The old data edited: bytes inserted, dropped or changed, blocks moved or repeated.
inline std::vector<uint8_t> Edited(std::mt19937* rng, const std::vector<uint8_t>& old_data,
                                   int alphabet) {
  std::vector<uint8_t> v = old_data;
  for (int edits = (*rng)() % 6; edits-- > 0;) {
    const size_t at = (*rng)() % (v.size() + 1);
    const size_t n = 1 + (*rng)() % (8 + v.size() / 8);
    switch ((*rng)() % 4) {
      case 0: {
        const std::vector<uint8_t> bytes = RandomBytes(rng, n, alphabet);
        v.insert(v.begin() + at, bytes.begin(), bytes.end());
        break;
      }
      case 1:
        v.erase(v.begin() + at, v.begin() + std::min(v.size(), at + n));
        break;
      case 2:
        for (size_t i = at; i < std::min(v.size(), at + n); ++i) {
          v[i] = static_cast<uint8_t>((*rng)() % alphabet);
        }
        break;
      default: {
        const size_t from = (*rng)() % (old_data.size() + 1);
        const std::vector<uint8_t> block(old_data.begin() + from,
                                         old_data.begin() + std::min(old_data.size(), from + n));
        v.insert(v.begin() + at, block.begin(), block.end());
      }
    }
  }
  return v;
}

}  // namespace pgstore::waldelta::test_pairs

#endif  // PGSTORE_TESTS_WALDELTA_TEST_PAIRS_H_
