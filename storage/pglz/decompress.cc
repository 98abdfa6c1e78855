// pglz decompressor. Whole control groups far from both ends of the buffers take a fast path
// with no per-item bounds checks (a group reads at most 25 input bytes and writes at most
// 8 * 273 output bytes) and copies matches eight bytes at a time; everything else takes the
// careful path, which mirrors PostgreSQL's loop with the bounds checks moved before each read.
#include "storage/pglz/decompress.h"

#include <algorithm>
#include <cstring>

#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {
namespace {

constexpr ptrdiff_t kGroupMaxInput = 1 + kItemsPerControlByte * 3;
// A fast group may write up to 7 bytes past the end of its last match (8-byte copies).
constexpr ptrdiff_t kGroupMaxOutput = kItemsPerControlByte * kMaxMatch + 8;

// Copies a `len`-byte match from `off` bytes back, replicating the last `off` bytes when they
// overlap the destination. May write up to 7 bytes past dp + len.
// REQUIRES: 1 <= off <= bytes before dp; room for len + 7 bytes at dp.
inline void CopyMatchWild(uint8_t* dp, int32_t off, int32_t len) {
  if (off < 8) {
    // Write the first 8 bytes one at a time; after that the pattern repeats with a period that
    // is a multiple of off and at least 8, so 8-byte copies are exact.
    for (int i = 0; i < 8; ++i) dp[i] = dp[i - off];
    if (len <= 8) return;
    int32_t period = off * ((8 + off - 1) / off);
    for (int32_t i = 8; i < len; i += 8) std::memcpy(dp + i, dp + i - period, 8);
    return;
  }
  for (int32_t i = 0; i < len; i += 8) std::memcpy(dp + i, dp + i - off, 8);
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

  while (sp < srcend && dp < destend) {
    if (srcend - sp >= kGroupMaxInput && destend - dp >= kGroupMaxOutput) {
      // Fast path: the whole group fits in both buffers.
      uint8_t ctrl = *sp++;
      if (ctrl == 0) {  // eight literals
        std::memcpy(dp, sp, 8);
        sp += 8;
        dp += 8;
        continue;
      }
      for (int item = 0; item < kItemsPerControlByte; ++item, ctrl >>= 1) {
        if ((ctrl & 1) == 0) {
          *dp++ = *sp++;
          continue;
        }
        int32_t len = (sp[0] & 0x0f) + 3;
        const int32_t off = ((sp[0] & 0xf0) << 4) | sp[1];
        sp += 2;
        if (len == 18) len += *sp++;
        if (off == 0) return Status::Corruption("match offset is zero");
        if (off > dp - window) return Status::Corruption("match offset beyond output");
        CopyMatchWild(dp, off, len);
        dp += len;
      }
      continue;
    }

    // Careful path: PostgreSQL's loop, checking bounds before every read.
    uint8_t ctrl = *sp++;
    for (int item = 0; item < kItemsPerControlByte && sp < srcend && dp < destend;
         ++item, ctrl >>= 1) {
      if ((ctrl & 1) == 0) {
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
      if (off == 0) return Status::Corruption("match offset is zero");
      if (off > dp - window) return Status::Corruption("match offset beyond output");
      len = static_cast<int32_t>(std::min<ptrdiff_t>(len, destend - dp));
      CopyMatchExact(dp, off, len);
      dp += len;
    }
  }

  if (mode == Completeness::kExact) {
    if (dp != destend) return Status::Corruption("output shorter than raw size");
    if (sp != srcend) return Status::Corruption("unconsumed compressed input");
  }
  return static_cast<size_t>(dp - dest);
}

}  // namespace pgstore::pglz
