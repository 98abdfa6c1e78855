// Word-at-a-time byte scans of pglz-aligned (pglz_aligned.h), eight bytes per step: the length
// of a common run, the next 3-byte agreement of two strings, and the next occurrence of a 4-byte
// key. Each answers exactly what a byte-by-byte loop would (tests/waldelta/word_scan_test.cc
// compares them with one); the word loops only skip the bytes that cannot be the answer. Loads
// are unaligned little-endian (storage/common/bytes.h) and never reach past the readable lengths
// given.
#ifndef PGSTORE_STORAGE_WALDELTA_WORD_SCAN_H_
#define PGSTORE_STORAGE_WALDELTA_WORD_SCAN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "storage/common/bytes.h"

namespace pgstore::waldelta {

// How many of the first `max` bytes at a and b are equal.
inline size_t CommonLength(const uint8_t* a, const uint8_t* b, size_t max) {
  size_t n = 0;
  while (n + 8 <= max) {
    const uint64_t x = LoadLE64(a + n) ^ LoadLE64(b + n);
    if (x != 0) return n + __builtin_ctzll(x) / 8;
    n += 8;
  }
  while (n < max && a[n] == b[n]) ++n;
  return n;
}

// The first k < n at which a and b agree on 3 bytes in a row (a[k..k+2] == b[k..k+2]; both have
// `len` bytes readable, and k + 3 <= len), or n if none: where a run of literals ends.
inline size_t NextRun3(const uint8_t* a, const uint8_t* b, size_t n, size_t len) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;
  size_t k = 0;
  for (; k < n && k + 8 <= len; k += 6) {  // 6 starts per word: each needs 3 of its 8 bytes
    const uint64_t x = LoadLE64(a + k) ^ LoadLE64(b + k);
    const uint64_t zero = ~(((x & kLow7) + kLow7) | x | kLow7);  // the high bit of each 0 byte
    const uint64_t run = zero & (zero >> 8) & (zero >> 16) & 0x0000808080808080ull;
    if (run != 0) return std::min(n, k + __builtin_ctzll(run) / 8);
  }
  for (; k < n && k + 3 <= len; ++k) {
    if (a[k] == b[k] && a[k + 1] == b[k + 1] && a[k + 2] == b[k + 2]) return k;
  }
  return n;
}

// The first position c in [lo, hi] (or the last, when `last`) whose 4 bytes at h + c are `key`,
// or -1; hi + 4 <= hn. Eight candidate positions per step: the bytes equal to the key's first
// byte are found as the zero bytes of a XOR (a superset: each is checked in full).
inline int64_t FindKey(const uint8_t* h, size_t hn, int64_t lo, int64_t hi, uint32_t key,
                       bool last) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = kOnes << 7;
  const uint64_t first = kOnes * (key & 0xFF);
  int64_t found = -1;
  int64_t c = lo;
  for (; c <= hi && c + 8 <= static_cast<int64_t>(hn); c += 8) {
    const uint64_t v = LoadLE64(h + c) ^ first;
    for (uint64_t m = (v - kOnes) & ~v & kHighs; m != 0; m &= m - 1) {
      const int64_t at = c + __builtin_ctzll(m) / 8;
      if (at > hi) break;
      if (LoadLE32(h + at) != key) continue;
      if (!last) return at;
      found = at;
    }
  }
  for (; c <= hi; ++c) {
    if (LoadLE32(h + c) != key) continue;
    if (!last) return c;
    found = c;
  }
  return found;
}

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_WORD_SCAN_H_
