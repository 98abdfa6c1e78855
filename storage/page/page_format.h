// Heap page format: PostgreSQL 15's PageHeaderData and ItemIdData (storage/bufpage.h, itemid.h),
// frozen on disk. Every page is BLCKSZ = 8192 bytes.
//
//   page    := header linp* free tuples special
//   header  := pd_lsn:(xlogid:u32 xrecoff:u32) pd_checksum:u16 pd_flags:u16 pd_lower:u16
//              pd_upper:u16 pd_special:u16 pd_pagesize_version:u16 pd_prune_xid:u32  (24 bytes)
//   linp    := u32, lp_off bits 0-14, lp_flags bits 15-16, lp_len bits 17-31 (GCC's bitfields)
//   free    := pd_lower .. pd_upper
//   tuples  := pd_upper .. pd_special, each tuple MAXALIGNed, growing down
//   special := pd_special .. 8192 (empty on heap pages)
//
// Invariants: 24 <= pd_lower <= pd_upper <= pd_special <= 8192, pd_special MAXALIGNed, flags within
// 0x7, pd_pagesize_version = 0x2004; line pointer count = (pd_lower - 24) / 4 (1-based offset
// numbers); LP_UNUSED has lp_len 0, LP_NORMAL lp_len > 0 with its storage MAXALIGNed inside
// [pd_upper, pd_special), LP_REDIRECT has lp_len 0 and lp_off = the target's offset number. A heap
// page has at most MaxHeapTuplesPerPage = 291 line pointers. An all-zero page is a valid new page.
#ifndef PGSTORE_STORAGE_PAGE_PAGE_FORMAT_H_
#define PGSTORE_STORAGE_PAGE_PAGE_FORMAT_H_

#include <cstddef>
#include <cstdint>

#include "storage/common/bytes.h"

namespace pgstore::page {

inline constexpr size_t kPageSize = kBlockSize;                           // BLCKSZ
inline constexpr size_t kPageHeaderSize = 24;                             // SizeOfPageHeaderData
inline constexpr size_t kItemIdSize = 4;                                  // sizeof(ItemIdData)
inline constexpr uint16_t kLayoutVersion = 4;                             // PG_PAGE_LAYOUT_VERSION
inline constexpr uint16_t kPageSizeVersion = kPageSize | kLayoutVersion;  // 0x2004

// Header field offsets (pd_lsn at 0 and pd_prune_xid at 20 are neither read nor written here).
inline constexpr size_t kOffChecksum = 8;
inline constexpr size_t kOffFlags = 10;
inline constexpr size_t kOffLower = 12;
inline constexpr size_t kOffUpper = 14;
inline constexpr size_t kOffSpecial = 16;
inline constexpr size_t kOffPageSizeVersion = 18;

// pd_flags.
inline constexpr uint16_t kHasFreeLines = 0x1;  // PD_HAS_FREE_LINES
inline constexpr uint16_t kPageFull = 0x2;      // PD_PAGE_FULL
inline constexpr uint16_t kAllVisible = 0x4;    // PD_ALL_VISIBLE
inline constexpr uint16_t kValidFlagBits = 0x7;

// lp_flags.
enum class LpFlags : uint8_t { kUnused = 0, kNormal = 1, kRedirect = 2, kDead = 3 };

inline constexpr uint16_t kInvalidOffsetNumber = 0;
inline constexpr uint16_t kFirstOffsetNumber = 1;
inline constexpr uint16_t kMaxOffsetNumber = kPageSize / kItemIdSize;  // 2048
inline constexpr size_t kMaxItemField = 0x7FFF;                        // 15-bit lp_off / lp_len
// MaxHeapTuplesPerPage: (8192 - 24) / (MAXALIGN(23) + 4).
inline constexpr int kMaxHeapTuplesPerPage = (kPageSize - kPageHeaderSize) / (24 + kItemIdSize);
static_assert(kMaxHeapTuplesPerPage == 291, "MaxHeapTuplesPerPage");

struct ItemId {
  uint16_t off = 0;
  LpFlags flags = LpFlags::kUnused;
  uint16_t len = 0;
};

constexpr ItemId DecodeItemId(uint32_t word) {
  return ItemId{static_cast<uint16_t>(word & 0x7FFF), static_cast<LpFlags>((word >> 15) & 0x3),
                static_cast<uint16_t>(word >> 17)};
}
constexpr uint32_t EncodeItemId(ItemId id) {
  return (id.off & 0x7FFFu) | (static_cast<uint32_t>(id.flags) << 15) |
         (static_cast<uint32_t>(id.len & 0x7FFF) << 17);
}
static_assert(EncodeItemId(ItemId{8160, LpFlags::kNormal, 28}) == (8160u | 1u << 15 | 28u << 17),
              "lp_off bits 0-14, lp_flags 15-16, lp_len 17-31");

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_PAGE_FORMAT_H_
