#include "storage/waldelta/pglz_aligned.h"

#include <algorithm>
#include <cstring>

#include "storage/pglz/pglz_format.h"
#include "storage/waldelta/pglz_writer.h"

namespace pgstore::waldelta {
namespace {

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

}  // namespace

bool PglzAlignedEncodeInto(ByteView history, ByteView target, size_t prefix, size_t suffix,
                           std::vector<uint8_t>* out) {
  const uint8_t* const h = history.data;
  const uint8_t* const t = target.data;
  const size_t hn = history.size, tn = target.size;
  out->resize(tn + (tn + 7) / 8);  // all literals: a control byte per 8
  PglzWriter o{out->data()};
  // A shift s puts target byte i against history byte i + s. Shifts are signed: a history
  // shorter than the target's position puts the end-aligned shift below zero.
  using Shift = int64_t;
  const Shift start_shift = static_cast<Shift>(prefix);
  const Shift end_shift = static_cast<Shift>(hn) - static_cast<Shift>(suffix + tn);
  // The longest match at history position c for target byte i, or 0 if c is out of reach.
  auto match_at = [&](size_t i, Shift c) -> size_t {
    if (c < 0 || static_cast<size_t>(c) >= hn) return 0;
    if (hn + i - static_cast<size_t>(c) > static_cast<size_t>(pglz::kMaxOffset)) return 0;
    const size_t max =
        std::min({static_cast<size_t>(pglz::kMaxMatch), tn - i, hn - static_cast<size_t>(c)});
    return CommonLength(h + c, t + i, max);
  };
  Shift shift = start_shift;
  bool matched = false;
  size_t since_resync = kAlignedResyncEvery;  // search at the first literal
  size_t i = 0;
  // How many literals from target byte i until the current shift matches again, if it does
  // within `limit` bytes (byte i itself is known not to match); 0 if it does not.
  auto literal_run = [&](size_t i, size_t limit) -> size_t {
    const Shift from = static_cast<Shift>(i) + 1 + shift;  // history byte of target byte i + 1
    if (from < 0 || static_cast<size_t>(from) >= hn ||
        static_cast<Shift>(hn) - shift > pglz::kMaxOffset) {
      return 0;
    }
    const size_t readable = std::min(hn - static_cast<size_t>(from), tn - i - 1);
    const size_t k = NextRun3(h + from, t + i + 1, limit, readable);
    return k < limit ? 1 + k : 0;
  };
  while (i < tn) {
    size_t len = match_at(i, static_cast<Shift>(i) + shift);
    size_t run = 0;
    if (len < pglz::kMinMatch) {
      run = literal_run(i, kAlignedResyncEvery);
      // The current shift does not match again soon: try the end-aligned one, then search.
      if (run == 0 && shift != end_shift) {
        len = match_at(i, static_cast<Shift>(i) + end_shift);
        if (len >= pglz::kMinMatch) shift = end_shift;
      }
      if (run == 0 && len < pglz::kMinMatch && since_resync >= kAlignedResyncEvery && i + 4 <= tn) {
        since_resync = 0;
        const uint32_t key = LoadLE32(t + i);
        const Shift here = static_cast<Shift>(i) + shift;
        const Shift lo = std::max<Shift>({here - static_cast<Shift>(kAlignedSearchBack), 0,
                                          static_cast<Shift>(hn + i) - pglz::kMaxOffset});
        const Shift hi = std::min<Shift>(here + static_cast<Shift>(kAlignedSearchAhead),
                                         static_cast<Shift>(hn) - 4);
        Shift c = here + 1 <= hi ? FindKey(h, hn, std::max(here + 1, lo), hi, key, false) : -1;
        if (c < 0 && lo <= here - 1) c = FindKey(h, hn, lo, std::min(here - 1, hi), key, true);
        if (c >= 0) {
          len = match_at(i, c);
          shift = c - static_cast<Shift>(i);
        }
      }
    }
    if (len >= pglz::kMinMatch) {
      o.Tag(static_cast<int>(len), static_cast<int>(static_cast<Shift>(hn) - shift));
      i += len;
      matched = true;
      since_resync = kAlignedResyncEvery;
      continue;
    }
    // Nothing saved by now (matches found, if any, paid no more than their tags and the control
    // bits): the columns have moved or changed too much for this encoder.
    if (i >= kAlignedGiveUpAfter && static_cast<size_t>(o.p - out->data()) >= i) return false;
    if (run == 0) run = std::min(tn - i, kAlignedResyncEvery);
    o.Literals(t + i, run);
    i += run;
    since_resync += run;
  }
  out->resize(static_cast<size_t>(o.p - out->data()));
  return matched;
}

}  // namespace pgstore::waldelta
