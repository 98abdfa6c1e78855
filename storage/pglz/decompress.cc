// pglz decompressor. Far from both ends of the buffers, a fast path copies each run of literals
// with one eight-byte copy and each match eight bytes at a time, checking the output room once
// per run and per match instead of once per item; near the ends, the careful path mirrors
// PostgreSQL's loop with the bounds checks moved before each read. Both check every offset.
#include "storage/pglz/decompress.h"

#include <algorithm>
#include <cstring>

#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {
namespace {

// A fast turn reads at most a control byte and then 10 bytes: eight literals (one eight-byte
// copy), or up to seven literals (the same copy) and a tag of up to 3 bytes.
constexpr ptrdiff_t kTurnMaxInput = 1 + 7 + 3;
// CopyMatchWild writes up to this many bytes past the end of its match.
constexpr ptrdiff_t kWildCopySlop = 13;
// A fast turn starts with room for its literals' eight-byte copy and for at least one more
// output byte after them (the tag, whose own room is checked once its length is known).
constexpr ptrdiff_t kTurnMinOutputRoom = 16;

// The error for a tag whose offset is 0 or reaches before the start of the output.
Status BadOffset(int32_t off) {
  return Status::Corruption(off == 0 ? "match offset is zero" : "match offset beyond output");
}

// Copies a `len`-byte match from `off` bytes back, replicating the last `off` bytes when they
// overlap the destination. Writes at least 16 bytes (up to 13 past dp + len; len >= 3).
// REQUIRES: 1 <= off <= bytes before dp; room for max(len + 7, 16) bytes at dp.
inline void CopyMatchWild(uint8_t* dp, int32_t off, int32_t len) {
  if (off < 8) {
    // Build the first 8 bytes from the last `off` (independent loads, no byte-by-byte chain);
    // after that the pattern repeats with a period that is a multiple of off and at least 8, so
    // 8-byte copies are exact.
    static constexpr uint8_t kRepeat[8][8] = {{},
                                              {0, 0, 0, 0, 0, 0, 0, 0},
                                              {0, 1, 0, 1, 0, 1, 0, 1},
                                              {0, 1, 2, 0, 1, 2, 0, 1},
                                              {0, 1, 2, 3, 0, 1, 2, 3},
                                              {0, 1, 2, 3, 4, 0, 1, 2},
                                              {0, 1, 2, 3, 4, 5, 0, 1},
                                              {0, 1, 2, 3, 4, 5, 6, 0}};
    static constexpr int32_t kPeriod[8] = {0, 8, 8, 9, 8, 10, 12, 14};
    const uint8_t* from = dp - off;
    uint8_t first[8];
    for (int i = 0; i < 8; ++i) first[i] = from[kRepeat[off][i]];
    std::memcpy(dp, first, 8);
    for (int32_t i = 8; i < len; i += 8) std::memcpy(dp + i, dp + i - kPeriod[off], 8);
    return;
  }
  // Two copies cover the common lengths (up to 16) without a loop test.
  std::memcpy(dp, dp - off, 8);
  std::memcpy(dp + 8, dp + 8 - off, 8);
  for (int32_t i = 16; i < len; i += 8) std::memcpy(dp + i, dp + i - off, 8);
}

// Exact-length match copy, byte by byte (the meaning of an overlapping match).
inline void CopyMatchExact(uint8_t* dp, int32_t off, int32_t len) {
  if (off >= len) {
    std::memcpy(dp, dp - off, len);
    return;
  }
  for (int32_t i = 0; i < len; ++i) dp[i] = dp[i - off];
}

}  // namespace

StatusOr<size_t> Decompress(ByteView src, uint8_t* dest, size_t rawsize, Completeness mode) {
  return DecompressAfterHistory(src, dest, 0, rawsize, mode);
}

StatusOr<size_t> DecompressAfterHistory(ByteView src, uint8_t* window, size_t history_size,
                                        size_t rawsize, Completeness mode) {
  uint8_t* const dest = window + history_size;
  const uint8_t* sp = src.data;
  const uint8_t* const srcend = src.data + src.size;
  uint8_t* dp = dest;
  uint8_t* const destend = dest + rawsize;

  // The items left in the current control byte are its bits above a sentinel 1; bits == 1
  // means the next input byte is a control byte.
  uint32_t bits = 1;

  // Fast path, far from both ends: each turn copies the run of literals before the next tag (its
  // length is the number of zero bits, at most 8) with one eight-byte copy, then the tag.
  while (srcend - sp >= kTurnMaxInput && destend - dp >= kTurnMinOutputRoom) {
    if (bits == 1) bits = *sp++ | 0x100u;
    const int literals = __builtin_ctz(bits);
    std::memcpy(dp, sp, 8);
    dp += literals;
    sp += literals;
    bits >>= literals;
    if (bits == 1) continue;
    bits >>= 1;
    int32_t len = (sp[0] & 0x0f) + 3;
    const int32_t off = ((sp[0] & 0xf0) << 4) | sp[1];
    if (len == 18) {
      len += sp[2];
      sp += 3;
    } else {
      sp += 2;
    }
    if (static_cast<size_t>(off - 1) >= static_cast<size_t>(dp - window)) return BadOffset(off);
    if (destend - dp >= len + kWildCopySlop) {
      CopyMatchWild(dp, off, len);
    } else {  // the match reaches the end of the output: clamp it there
      len = static_cast<int32_t>(std::min<ptrdiff_t>(len, destend - dp));
      CopyMatchExact(dp, off, len);
    }
    dp += len;
  }

  // Careful path near the ends: PostgreSQL's loop, checking bounds before every read.
  while (dp < destend) {
    if (bits == 1) {
      if (sp >= srcend) break;
      bits = *sp++ | 0x100u;
    }
    if (sp >= srcend) break;
    const bool is_tag = bits & 1;
    bits >>= 1;
    if (!is_tag) {
      *dp++ = *sp++;
      continue;
    }
    if (srcend - sp < 2) return Status::Corruption("truncated match tag");
    int32_t len = (sp[0] & 0x0f) + 3;
    const int32_t off = ((sp[0] & 0xf0) << 4) | sp[1];
    sp += 2;
    if (len == 18) {
      if (sp >= srcend) return Status::Corruption("truncated match tag");
      len += *sp++;
    }
    if (off == 0 || off > dp - window) return BadOffset(off);
    len = static_cast<int32_t>(std::min<ptrdiff_t>(len, destend - dp));
    CopyMatchExact(dp, off, len);
    dp += len;
  }

  if (mode == Completeness::kExact) {
    if (dp != destend) return Status::Corruption("output shorter than raw size");
    if (sp != srcend) return Status::Corruption("unconsumed compressed input");
  }
  return static_cast<size_t>(dp - dest);
}

}  // namespace pgstore::pglz
