// A frozen depth-3 TID-store leaf in one allocation: which of its 256 blocks are present is a
// 256-bit bitmap, so a lookup is a bit test and a rank (a population count), not a search. It is
// what ShrinkToFit makes of every depth-3 leaf, and always smaller than the Leaf it replaces (a
// 56-byte header for the Leaf's key byte per block and three vectors).
//
// Layout (one allocation of Bytes(), 4-aligned):
//   header  BitmapLeaf (Node; size, pool_units: u32; rank: u8[4]; present: u64[4]), 48 bytes
//   slots   u16[size], then one u16 of padding when size is odd
//   pool    u32[pool_units]              offset_set.h entries, compact (no dead space)
// Block suffix s is present when bit s % 64 of present[s / 64] is set; its slot is slots[rank[s /
// 64] + the number of set bits below it in that word]. Invariants: size >= 1 is the number of set
// bits; rank[w] the number in the words before w; slots valid for the pool, as in a Leaf. A bitmap
// leaf is read-only: the store unpacks it into a Leaf before changing it.
#ifndef PGSTORE_STORAGE_TIDSTORE_BITMAP_LEAF_H_
#define PGSTORE_STORAGE_TIDSTORE_BITMAP_LEAF_H_

#include <cstddef>
#include <cstdint>

#include "storage/common/status.h"
#include "storage/tidstore/leaf.h"

namespace pgstore::tidstore::internal {

// The number of set bits (no library call and no branch, whatever the target's instruction set).
inline unsigned PopCount64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<unsigned>((v * 0x0101010101010101ull) >> 56);
}

struct BitmapLeaf : Node {
  uint32_t size;
  uint32_t pool_units;
  uint8_t
      rank[4];  // before present: no padding, and not a trailing array (UBSan checks its bounds)
  uint64_t present[4];

  // A frozen copy of `leaf` (the leaf is not changed). REQUIRES: leaf.depth == 3.
  static BitmapLeaf* Freeze(const Leaf& leaf);
  static void Free(BitmapLeaf* b);
  // A mutable copy (the caller frees this).
  Leaf* Unpack() const;

  size_t Bytes() const { return BytesFor(size, pool_units); }
  const uint16_t* slots() const { return reinterpret_cast<const uint16_t*>(this + 1); }
  const uint32_t* pool() const {
    return reinterpret_cast<const uint32_t*>(slots() + PaddedSlots(size));
  }

  // Whether block suffix `suffix` (< 256) is present.
  bool Has(uint32_t suffix) const { return (present[suffix >> 6] >> (suffix & 63)) & 1; }
  // The slot of block suffix `suffix` (< 256), or false.
  bool Find(uint32_t suffix, uint16_t* slot) const {
    if (!Has(suffix)) return false;
    const uint64_t below = present[suffix >> 6] & ((uint64_t{1} << (suffix & 63)) - 1);
    *slot = slots()[rank[suffix >> 6] + PopCount64(below)];
    return true;
  }
  // The layout invariants above (the slots are then checked as a Leaf's).
  Status ValidateLayout() const;

 private:
  // The slots array's length with its padding: the pool after it stays 4-aligned.
  static size_t PaddedSlots(size_t size) { return size + (size & 1); }
  // The bytes of a bitmap leaf of `size` slots and `pool_units` pool units.
  static size_t BytesFor(size_t size, size_t pool_units) {
    return sizeof(BitmapLeaf) + PaddedSlots(size) * 2 + pool_units * 4;
  }
};
static_assert(sizeof(BitmapLeaf) == 48, "the header layout above");

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_STORAGE_TIDSTORE_BITMAP_LEAF_H_
