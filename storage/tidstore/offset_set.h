// The set of offsets on one heap block, as the TID store keeps it (offsets 1..MaxOffsetNumber,
// strictly ascending). A set of one offset, or of every offset 1..n (a page whose tuples all died),
// is embedded in the leaf's 16-bit value slot; other sets are pool entries in whichever encoding is
// smallest for that set:
//
//   slot   := 0                          no value
//           | 1..2048                    one offset, embedded
//           | 0x1000 + n (2 <= n <= 2048) offsets 1..n, embedded
//           | 0b1 unit:15                a pool entry starting at 4-byte unit `unit` of the leaf
//   entry  := pair | header:u16 payload, padded to a multiple of 4 bytes
//   pair   := 0b00 first:14 second:u16   two offsets in one unit (kind 0)
//   header := kind:2 (bits 14-15) length:14 (payload bytes)
//   kind 1 list    u16 offsets[length / 2], ascending
//   kind 2 bitmap  first:u16 bytes[length - 2]; offset o is bit (o & 7) of bytes[(o >> 3) - first]
//   kind 3 runs    (start:u16 end:u16)[length / 4], ascending, disjoint, not adjacent
//
// Ties between encodings go to the bitmap, then the runs (constant-time and logarithmic tests).
#ifndef PGSTORE_STORAGE_TIDSTORE_OFFSET_SET_H_
#define PGSTORE_STORAGE_TIDSTORE_OFFSET_SET_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pgstore::tidstore {

inline constexpr uint16_t kMaxOffsetNumber = 2048;  // BLCKSZ / sizeof(ItemIdData)
inline constexpr uint16_t kPoolSlotBit = 0x8000;
inline constexpr uint16_t kPrefixRunSlot = 0x1000;

enum class OffsetEncoding : uint8_t {
  kPair = 0,
  kList = 1,
  kBitmap = 2,
  kRuns = 3,
  kEmbedded,   // one offset in the slot
  kPrefixRun,  // offsets 1..n in the slot
};

// The embedded slot of `offsets`, or 0 when they need a pool entry. REQUIRES: non-empty, valid.
uint16_t EmbeddedSlot(const uint16_t* offsets, size_t n);
// Whether `slot` (without kPoolSlotBit) is one of the embedded values above.
bool IsValidEmbedded(uint16_t slot);
// An embedded value's offsets. REQUIRES: IsValidEmbedded(slot).
size_t EmbeddedCount(uint16_t slot);
bool EmbeddedContains(uint16_t slot, uint16_t offset);
void AppendEmbeddedOffsets(uint16_t slot, std::vector<uint16_t>* out);

// The encoding EncodeOffsets picks for `offsets`. REQUIRES: non-empty, valid.
OffsetEncoding ChooseEncoding(const uint16_t* offsets, size_t n);

// The pool entry of `offsets` (a pair when n == 2) as 4-byte units, ready to append to a leaf's
// pool. REQUIRES: offsets strictly ascending within 1..kMaxOffsetNumber, not embeddable
// (EmbeddedSlot 0).
std::vector<uint32_t> EncodePoolEntry(const uint16_t* offsets, size_t n);

// Size in 4-byte units of the entry starting at entry[0].
size_t EntryUnits(const uint32_t* entry);
bool EntryContains(const uint32_t* entry, uint16_t offset);
size_t EntryCount(const uint32_t* entry);
void AppendEntryOffsets(const uint32_t* entry, std::vector<uint16_t>* out);
OffsetEncoding EntryEncoding(const uint32_t* entry);

}  // namespace pgstore::tidstore

#endif  // PGSTORE_STORAGE_TIDSTORE_OFFSET_SET_H_
