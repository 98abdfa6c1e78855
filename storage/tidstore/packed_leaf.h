// A frozen TID-store leaf in one allocation with bit-packed keys and slots: what ShrinkToFit makes
// of a wide leaf (depth 0 to 2: 2- to 4-byte suffixes) when that is smaller. A sparse store is
// such leaves: a width-4 Leaf costs 6 bytes a block plus three vectors, as much as PostgreSQL's
// 6-byte array; packed, a block costs its key's extra bits, its slot's bits and 1.75 bits of group
// header and index.
//
// Layout (one allocation of Bytes(), 4-aligned):
//   header  PackedLeaf (Node; size, pool_units, num_groups, stream_bytes, num_buckets,
//                       bucket_shift: u32)
//   pool    u32[pool_units]              offset_set.h entries, compact (no dead space)
//   firsts  u32[num_groups]              each group's first key: the group search reads only these
//   buckets u32[num_buckets + 1]         the group index: entry b is the number of groups whose
//                                        first key is below firsts[0] + (b << bucket_shift); the
//                                        last is num_groups
//   layouts u64[num_groups]              bit_offset:24 | extra_bits:6 | slot_bits:5 | tagged:1 |
//                                        step:28, from the least significant bit
//   stream  u8[stream_bytes]             LSB-first bit stream
// A key's bucket is its distance from firsts[0] shifted right by bucket_shift (at most the last
// bucket); its group is among those the bucket's two entries bound, about two for evenly spread
// keys (num_buckets is num_groups / 2, bucket_shift the least that puts the last group's first
// key in a bucket). Entries come in groups of kPackedGroupSize (the last may be shorter). Entry i
// of a group (from 0) is at bit_offset + i * (extra_bits + slot_bits): its extra (extra_bits), then
// its slot code (slot_bits). Its key is first + i * step + extra, step being the group's smallest
// key gap (at most 2^28 - 1; a group of one entry has no gap and records 2^28 - 1, never used), so
// keys a constant gap apart take no key bits at all and any entry's key is read without decoding
// the others. A slot code is the slot itself when the group has no pool entry (tagged 0);
// otherwise offset << 1 for an embedded value and unit << 1 | 1 for a pool entry. extra_bits and
// slot_bits are the group's widest values (0 bits when every value is 0). The stream ends with 7
// bytes of padding (written as zeros, never part of a value: a read masks its bits), so that any
// value is read with one unaligned 8-byte load.
// Invariants: keys strictly ascending and below 2^(8 * width); the group index exactly as above;
// every group but the last full; bit offsets exactly the sums of the groups' widths; slots valid
// for the pool, as in a Leaf. A packed leaf is read-only: the store unpacks it into a Leaf before
// changing it.
#ifndef PGSTORE_STORAGE_TIDSTORE_PACKED_LEAF_H_
#define PGSTORE_STORAGE_TIDSTORE_PACKED_LEAF_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/status.h"
#include "storage/tidstore/leaf.h"

namespace pgstore::tidstore::internal {

inline constexpr size_t kPackedGroupSize = 64;

struct PackedLeaf : Node {
  uint32_t size;
  uint32_t pool_units;
  uint32_t num_groups;
  uint32_t stream_bytes;
  uint32_t num_buckets;
  uint32_t bucket_shift;

  // A packed copy of `leaf`, or nullptr when it would not be smaller than the leaf is (Leaf::Bytes;
  // ShrinkToFit trims the leaf's arrays first) or its stream would not fit the 24-bit offsets. The
  // leaf is not changed.
  static PackedLeaf* Pack(const Leaf& leaf);
  static void Free(PackedLeaf* p);
  // A mutable copy (the caller frees this).
  Leaf* Unpack() const;

  size_t Bytes() const { return BytesFor(pool_units, num_groups, num_buckets, stream_bytes); }
  const uint32_t* pool() const { return reinterpret_cast<const uint32_t*>(this + 1); }

  // The slot of `suffix`, or false.
  bool Find(uint32_t suffix, uint16_t* slot) const;
  // Every (suffix, slot), ascending.
  void Decode(std::vector<uint32_t>* keys, std::vector<uint16_t>* slots) const;
  // The layout invariants above (the slots are then checked as a Leaf's).
  Status ValidateLayout() const;

 private:
  // The bytes of a packed leaf with these counts (the layout above).
  static size_t BytesFor(size_t pool_units, size_t num_groups, size_t num_buckets,
                         size_t stream_bytes);
  const uint32_t* firsts() const { return pool() + pool_units; }
  const uint32_t* buckets() const { return firsts() + num_groups; }
  const uint8_t* layouts() const {
    return reinterpret_cast<const uint8_t*>(buckets() + num_buckets + 1);
  }
  const uint8_t* stream() const { return layouts() + 8 * size_t{num_groups}; }
};

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_STORAGE_TIDSTORE_PACKED_LEAF_H_
