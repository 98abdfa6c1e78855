// pglz compressor: PostgreSQL 15's pglz_compress step for step (same history lists, hash, match
// search order, give-up checks), so the output is byte-identical. Speed comes from comparing
// candidate matches eight bytes at a time and rejecting candidates that cannot beat the current
// best with one byte compare; neither changes which match is chosen.
#include "storage/pglz/compress.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace pgstore::pglz {
namespace {

// One remembered input position, linked into the list of its hash bucket. Index 0 of the entry
// array is the list terminator ("invalid"), as in PostgreSQL; it may be scribbled on harmlessly.
struct HistEntry {
  int16_t next;    // next (older) entry in this bucket, 0 = end of list
  int16_t prev;    // previous (newer) entry, kNoPrev if this entry is the bucket's head
  int32_t hindex;  // bucket this entry is linked into
  int32_t pos;     // input position (offset from the start of the source)
};
constexpr int16_t kNoPrev = -1;
static_assert(kHistorySize + 1 <= INT16_MAX, "entry numbers are int16 in hist_start");

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
  int16_t hist_start[kMaxHistoryLists];
  HistEntry entries[kHistorySize + 1];
};

Compressor::Compressor() : ws_(new Workspace) {}
Compressor::~Compressor() = default;

namespace {

class Encoder {
 public:
  Encoder(int16_t* hist_start, HistEntry* entries, const uint8_t* src, int32_t slen, int mask)
      : hist_start_(hist_start), entries_(entries), src_(src), end_(src + slen), mask_(mask) {}

  int Hash(const uint8_t* s) const { return HistIndex(s, end_, mask_); }

  // pglz_hist_add: remember position `s` (whose hash is `hindex`), recycling the oldest entry
  // once 4096 are in use.
  inline void HistAdd(const uint8_t* s) { HistAdd(s, Hash(s)); }
  inline void HistAdd(const uint8_t* s, int hindex) {
    int16_t* head = &hist_start_[hindex];
    HistEntry* e = &entries_[next_];
    if (recycle_) {
      if (e->prev == kNoPrev) {
        hist_start_[e->hindex] = e->next;
      } else {
        entries_[e->prev].next = e->next;
      }
      entries_[e->next].prev = e->prev;  // next is never "null": entry 0 ends every list
    }
    e->next = *head;
    e->prev = kNoPrev;
    e->hindex = hindex;
    e->pos = static_cast<int32_t>(s - src_);
    entries_[*head].prev = static_cast<int16_t>(next_);
    *head = static_cast<int16_t>(next_);
    if (++next_ >= kHistorySize + 1) {
      next_ = 1;
      recycle_ = true;
    }
  }

  // pglz_find_match: the longest match in the bucket list, searched in PostgreSQL's order and
  // with its stop rules. Returns false unless the match is longer than 2 bytes.
  // `hindex` is Hash(input).
  inline bool FindMatch(const uint8_t* input, int hindex, int32_t good_match, int32_t good_drop,
                        int32_t* lenp, int32_t* offp) const {
    const int32_t max_len = static_cast<int32_t>(std::min<ptrdiff_t>(kMaxMatch, end_ - input));
    int32_t len = 0;
    int32_t off = 0;
    int16_t entry = hist_start_[hindex];
    while (entry != 0) {
      const HistEntry& h = entries_[entry];
      const uint8_t* hp = src_ + h.pos;
      const int32_t thisoff = static_cast<int32_t>(input - hp);
      if (thisoff >= 0x0fff) break;
      // A candidate beats the best only if it matches the best's length plus one more byte.
      if (len < max_len && input[len] == hp[len]) {
        int32_t thislen = CommonPrefix(input, hp, max_len);
        if (thislen > len) {
          len = thislen;
          off = thisoff;
        }
      }
      entry = h.next;
      if (entry != 0) {
        if (len >= good_match) break;
        good_match -= (good_match * good_drop) / 100;
      }
    }
    if (len > 2) {
      *lenp = len;
      *offp = off;
      return true;
    }
    return false;
  }

 private:
  int16_t* hist_start_;
  HistEntry* entries_;
  const uint8_t* src_;
  const uint8_t* end_;
  int mask_;
  int next_ = 1;
  bool recycle_ = false;
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
  std::memset(ws_->hist_start, 0, hashsz * sizeof(int16_t));
  Encoder enc(ws_->hist_start, ws_->entries, src.data, slen, hashsz - 1);

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
