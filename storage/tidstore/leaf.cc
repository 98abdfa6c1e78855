// The mutable leaf's pool (leaf.h).
#include "storage/tidstore/leaf.h"

#include <utility>

#include "storage/tidstore/packed_leaf.h"

namespace pgstore::tidstore::internal {

void CompactPool(Leaf* leaf) {
  std::vector<uint32_t> pool;
  pool.reserve(leaf->LiveUnits() + leaf->LiveUnits() / 8 + 4);
  for (uint16_t& slot : leaf->slots) {
    if (!(slot & kPoolSlotBit)) continue;
    const uint32_t* e = leaf->Entry(slot);
    slot = static_cast<uint16_t>(kPoolSlotBit | pool.size());
    pool.insert(pool.end(), e, e + EntryUnits(e));
  }
  leaf->pool = std::move(pool);
  leaf->dead_units = 0;
}

uint16_t AppendValue(Leaf* leaf, const std::vector<uint32_t>& entry, uint16_t embedded) {
  if (embedded != 0) return embedded;
  const uint16_t slot = static_cast<uint16_t>(kPoolSlotBit | leaf->pool.size());
  ReserveOneMore(&leaf->pool, entry.size());
  leaf->pool.insert(leaf->pool.end(), entry.begin(), entry.end());
  return slot;
}

Leaf* Thaw(PackedLeaf* packed) {
  Leaf* leaf = packed->Unpack();
  PackedLeaf::Free(packed);
  return leaf;
}

Leaf* NewLeaf(uint8_t depth) {
  Leaf* l = new Leaf();
  l->kind = kLeaf;
  l->depth = depth;
  l->count = 0;
  return l;
}

}  // namespace pgstore::tidstore::internal
