// The baseline: PostgreSQL 16's dead-TID store (VacDeadItems in vacuumlazy.c), a sorted array of
// 6-byte ItemPointerData (bi_hi u16, bi_lo u16, ip_posid u16) searched with bsearch after a range
// check against the first and last item (vac_tid_reaped), in the same API as TidStore.
//
// memory_usage() is the array's bytes: 6 per TID (its capacity), as MAXDEADITEMS counts them.
#ifndef PGSTORE_STORAGE_TIDSTORE_SORTED_ARRAY_TID_STORE_H_
#define PGSTORE_STORAGE_TIDSTORE_SORTED_ARRAY_TID_STORE_H_

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "storage/common/status.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {

class SortedArrayTidStore {
 public:
  // Replaces the block's offsets (an insertion in the middle moves the tail, as an array must).
  Status SetBlockOffsets(uint32_t block, const uint16_t* offsets, size_t n);
  Status SetBlockOffsets(uint32_t block, const std::vector<uint16_t>& offsets) {
    return SetBlockOffsets(block, offsets.data(), offsets.size());
  }
  bool RemoveBlock(uint32_t block);
  bool IsMember(Tid tid) const;
  void ForEachBlock(const std::function<bool(uint32_t, const std::vector<uint16_t>&)>& fn) const;
  size_t num_blocks() const;
  size_t num_tids() const { return items_.size(); }
  size_t MemoryUsage() const { return items_.capacity() * sizeof(Item); }

  static StatusOr<SortedArrayTidStore> BuildFromSorted(const std::vector<Tid>& tids);

 private:
  struct Item {  // ItemPointerData: 6 bytes, 2-aligned
    uint16_t bi_hi, bi_lo, posid;
    uint32_t Block() const { return static_cast<uint32_t>(bi_hi) << 16 | bi_lo; }
    uint64_t Key() const {
      return static_cast<uint64_t>(bi_hi) << 32 | static_cast<uint64_t>(bi_lo) << 16 | posid;
    }
  };
  static_assert(sizeof(Item) == 6, "ItemPointerData is 6 bytes");
  static Item MakeItem(uint32_t block, uint16_t offset) {
    return Item{static_cast<uint16_t>(block >> 16), static_cast<uint16_t>(block), offset};
  }
  // The items of `block`: [first, last).
  std::pair<std::vector<Item>::iterator, std::vector<Item>::iterator> BlockRange(uint32_t block);

  std::vector<Item> items_;
};

}  // namespace pgstore::tidstore

#endif  // PGSTORE_STORAGE_TIDSTORE_SORTED_ARRAY_TID_STORE_H_
