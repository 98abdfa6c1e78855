// pglz compressor: PostgreSQL 15's pglz_compress step for step (same hash, same candidates in the
// same order, same stop rules and give-up checks), so the output is byte-identical.
//
// The history is kept differently, with the same contents. PostgreSQL keeps a doubly linked list
// per hash bucket and unlinks the oldest of its 4096 entries as it recycles it. The search stops
// at the first candidate 4095 or more bytes back, and every input position is added once, in
// order; so the unlinked entries (more than 4096 back) are never reached, and a singly linked
// hash chain (zlib's head/prev arrays) visits exactly the same candidates: head[bucket] is the
// newest position in the bucket, chain[pos % 4096] the next older one. Positions are "virtual"
// (base + offset in the input), and each call starts its base at least 4096 past the last
// call's positions, so a position left over from an earlier call is always too far back to be a
// candidate and the 32 KB head array is cleared only when the base wraps, not on every call.
// Speed also comes from comparing candidates eight bytes at a time and rejecting a candidate that
// cannot beat the current best with one byte compare; neither changes which match is chosen.
#include "storage/pglz/compress.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace pgstore::pglz {
namespace {

constexpr uint32_t kChainMask = kHistorySize - 1;
static_assert((kHistorySize & kChainMask) == 0, "the chain is indexed modulo its size");
// A candidate this far back ends the search (pglz_find_match's thisoff >= 0x0fff).
constexpr uint32_t kSearchLimit = kEncoderMaxOffset + 1;
// Bases start here, so the 0 of a cleared head array is a position kFirstBase back: too far.
constexpr uint32_t kFirstBase = kHistorySize;
// Bases wrap (and the head array is cleared) before base + input size could overflow 32 bits.
constexpr uint32_t kMaxBase = 1u << 31;

// pglz_hist_idx. The bytes go through `char`, which is signed on x86-64, so they are sign-extended
// exactly as PostgreSQL's build does; the shifts are done unsigned to stay well-defined.
inline int HistIndex(const uint8_t* s, const uint8_t* end, int mask) {
  auto sext = [](uint8_t b) {
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b)));
  };
  if (end - s < 4) return static_cast<int>(sext(s[0]) & static_cast<uint32_t>(mask));
  return static_cast<int>(((sext(s[0]) << 6) ^ (sext(s[1]) << 4) ^ (sext(s[2]) << 2) ^ sext(s[3])) &
                          static_cast<uint32_t>(mask));
}

// Length of the common prefix of a and b, at most max_len.
// REQUIRES: a and b are readable for max_len bytes.
inline int32_t CommonPrefix(const uint8_t* a, const uint8_t* b, int32_t max_len) {
  int32_t n = 0;
  while (n + 8 <= max_len) {
    uint64_t x = LoadLE64(a + n) ^ LoadLE64(b + n);
    if (x != 0) return n + (__builtin_ctzll(x) >> 3);
    n += 8;
  }
  while (n < max_len && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

struct Compressor::Workspace {
  uint32_t head[kMaxHistoryLists];  // newest virtual position per bucket (0: none)
  uint32_t chain[kHistorySize];     // chain[v % 4096]: the next older position in v's bucket
  uint32_t base = kFirstBase;       // virtual position of the next input's first byte
};

Compressor::Compressor() : ws_(new Workspace) { std::memset(ws_->head, 0, sizeof(ws_->head)); }
Compressor::~Compressor() = default;

void Compressor::AdvanceBase(uint64_t positions) {
  // At kMaxBase the next call clears the head array and starts again from kFirstBase.
  ws_->base = static_cast<uint32_t>(std::min<uint64_t>(ws_->base + positions, kMaxBase));
}

namespace {

class Encoder {
 public:
  Encoder(uint32_t* head, uint32_t* chain, uint32_t base, const uint8_t* src, int32_t slen,
          int mask)
      : head_(head), chain_(chain), base_(base), src_(src), end_(src + slen), mask_(mask) {}

  int Hash(const uint8_t* s) const { return HistIndex(s, end_, mask_); }

  // pglz_hist_add: remember position `s`, whose hash is `hindex`.
  inline void HistAdd(const uint8_t* s) { HistAdd(s, Hash(s)); }
  inline void HistAdd(const uint8_t* s, int hindex) {
    const uint32_t v = Virtual(s);
    chain_[v & kChainMask] = head_[hindex];
    head_[hindex] = v;
  }

  // pglz_find_match: the longest match among the bucket's positions, newest first, with
  // PostgreSQL's stop rules. Returns false unless the match is longer than 2 bytes. `hindex` is
  // Hash(input). (PostgreSQL skips the good_match update after its list's last entry; here the
  // next entry is too far back instead, so the loop ends there just the same.)
  inline bool FindMatch(const uint8_t* input, int hindex, int32_t good_match, int32_t good_drop,
                        int32_t* lenp, int32_t* offp) const {
    const int32_t max_len = static_cast<int32_t>(std::min<ptrdiff_t>(kMaxMatch, end_ - input));
    const uint32_t here = Virtual(input);
    int32_t len = 0;
    int32_t off = 0;
    uint32_t candidate = head_[hindex];
    for (;;) {
      const uint32_t thisoff = here - candidate;
      if (thisoff >= kSearchLimit) break;
      const uint8_t* hp = input - thisoff;
      // A candidate beats the best only if it matches the best's length plus one more byte.
      if (len < max_len && input[len] == hp[len]) {
        int32_t thislen = CommonPrefix(input, hp, max_len);
        if (thislen > len) {
          len = thislen;
          off = static_cast<int32_t>(thisoff);
        }
      }
      if (len >= good_match) break;
      good_match -= (good_match * good_drop) / 100;
      candidate = chain_[candidate & kChainMask];
    }
    if (len > 2) {
      *lenp = len;
      *offp = off;
      return true;
    }
    return false;
  }

 private:
  uint32_t Virtual(const uint8_t* s) const { return base_ + static_cast<uint32_t>(s - src_); }

  uint32_t* head_;
  uint32_t* chain_;
  uint32_t base_;
  const uint8_t* src_;
  const uint8_t* end_;
  int mask_;
};

}  // namespace

std::optional<int32_t> Compressor::Compress(ByteView src, uint8_t* dest, const Strategy& strategy) {
  if (src.size > static_cast<size_t>(INT32_MAX)) return std::nullopt;
  const int32_t slen = static_cast<int32_t>(src.size);
  if (strategy.match_size_good <= 0 || slen < strategy.min_input_size ||
      slen > strategy.max_input_size) {
    return std::nullopt;
  }
  const int32_t good_match = std::clamp(strategy.match_size_good, 17, kMaxMatch);
  const int32_t good_drop = std::clamp(strategy.match_size_drop, 0, 100);
  const int32_t need_rate = std::clamp(strategy.min_comp_rate, 0, 99);
  const int32_t result_max =
      slen > INT_MAX / 100 ? (slen / 100) * (100 - need_rate) : (slen * (100 - need_rate)) / 100;
  const int hashsz = slen < 128    ? 512
                     : slen < 256  ? 1024
                     : slen < 512  ? 2048
                     : slen < 1024 ? 4096
                                   : kMaxHistoryLists;
  if (ws_->base >= kMaxBase) {
    std::memset(ws_->head, 0, sizeof(ws_->head));
    ws_->base = kFirstBase;
  }
  Encoder enc(ws_->head, ws_->chain, ws_->base, src.data, slen, hashsz - 1);
  // The next call's positions start past every position of this one by at least the search limit.
  AdvanceBase(uint64_t{static_cast<uint32_t>(slen)} + kHistorySize);

  uint8_t* bp = dest;
  uint8_t ctrl_dummy = 0;
  uint8_t* ctrlp = &ctrl_dummy;  // where the current control byte will be stored
  uint8_t ctrlb = 0;             // the control byte being built
  uint8_t ctrl = 0;              // its next bit; 0 once 8 items are out
  bool found_match = false;
  auto start_item = [&]() {
    if (ctrl == 0) {
      *ctrlp = ctrlb;
      ctrlp = bp++;
      ctrlb = 0;
      ctrl = 1;
    }
  };

  const uint8_t* dp = src.data;
  const uint8_t* dend = src.data + slen;
  while (dp < dend) {
    const ptrdiff_t out_len = bp - dest;
    if (out_len >= result_max) return std::nullopt;
    if (!found_match && out_len >= strategy.first_success_by) return std::nullopt;
    int32_t match_len;
    int32_t match_off;
    const int hindex = enc.Hash(dp);
    if (enc.FindMatch(dp, hindex, good_match, good_drop, &match_len, &match_off)) {
      start_item();
      ctrlb |= ctrl;
      ctrl <<= 1;
      if (match_len > kMaxShortTagMatch) {
        bp[0] = static_cast<uint8_t>(((match_off & 0xf00) >> 4) | 0x0f);
        bp[1] = static_cast<uint8_t>(match_off & 0xff);
        bp[2] = static_cast<uint8_t>(match_len - 18);
        bp += 3;
      } else {
        bp[0] = static_cast<uint8_t>(((match_off & 0xf00) >> 4) | (match_len - 3));
        bp[1] = static_cast<uint8_t>(match_off & 0xff);
        bp += 2;
      }
      enc.HistAdd(dp++, hindex);
      for (int32_t i = 1; i < match_len; ++i) enc.HistAdd(dp++);
      found_match = true;
    } else {
      start_item();
      *bp++ = *dp;
      ctrl <<= 1;
      enc.HistAdd(dp++, hindex);
    }
  }
  *ctrlp = ctrlb;
  const int32_t result_size = static_cast<int32_t>(bp - dest);
  if (result_size >= result_max) return std::nullopt;
  return result_size;
}

std::optional<int32_t> Compress(ByteView src, uint8_t* dest, const Strategy& strategy) {
  thread_local Compressor compressor;
  return compressor.Compress(src, dest, strategy);
}

std::optional<std::vector<uint8_t>> Compress(ByteView src, const Strategy& strategy) {
  std::vector<uint8_t> out(MaxOutput(src.size));
  std::optional<int32_t> n = Compress(src, out.data(), strategy);
  if (!n) return std::nullopt;
  out.resize(*n);
  return out;
}

}  // namespace pgstore::pglz
