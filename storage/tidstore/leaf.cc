// The mutable leaf's pool, and freezing and thawing leaves (leaf.h).
#include "storage/tidstore/leaf.h"

#include <utility>

#include "storage/tidstore/bitmap_leaf.h"
#include "storage/tidstore/packed_leaf.h"

namespace pgstore::tidstore::internal {
namespace {

// Leaves with keys this wide or wider (depths 0 to 2) are packed, where sparse blocks make the
// key bytes most of the cost.
constexpr int kMinPackedWidth = 2;

}  // namespace

void CompactValues(const Leaf& leaf, std::vector<uint16_t>* slots, std::vector<uint32_t>* pool) {
  slots->assign(leaf.slots.begin(), leaf.slots.end());
  pool->clear();
  for (uint16_t& slot : *slots) {
    if (!(slot & kPoolSlotBit)) continue;
    const uint32_t* e = leaf.Entry(slot);
    slot = static_cast<uint16_t>(kPoolSlotBit | pool->size());
    pool->insert(pool->end(), e, e + EntryUnits(e));
  }
}

void CompactPool(Leaf* leaf) {
  std::vector<uint16_t> slots;
  std::vector<uint32_t> pool;
  pool.reserve(WithHeadroom(leaf->LiveUnits()));
  CompactValues(*leaf, &slots, &pool);
  leaf->slots = std::move(slots);
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

Leaf* Thaw(Node* leaf) {
  if (leaf->kind == kPackedLeaf) {
    PackedLeaf* packed = static_cast<PackedLeaf*>(leaf);
    Leaf* thawed = packed->Unpack();
    PackedLeaf::Free(packed);
    return thawed;
  }
  if (leaf->kind == kBitmapLeaf) {
    BitmapLeaf* bitmap = static_cast<BitmapLeaf*>(leaf);
    Leaf* thawed = bitmap->Unpack();
    BitmapLeaf::Free(bitmap);
    return thawed;
  }
  return static_cast<Leaf*>(leaf);
}

Node* Freeze(Leaf* leaf) {
  Node* frozen = nullptr;
  if (leaf->depth == 3) {
    frozen = BitmapLeaf::Freeze(*leaf);
  } else if (leaf->width() >= kMinPackedWidth) {
    frozen = PackedLeaf::Pack(*leaf);
  }
  if (frozen == nullptr) return leaf;
  delete leaf;
  return frozen;
}

Leaf* NewLeaf(uint8_t depth) {
  Leaf* l = new Leaf();
  l->kind = kLeaf;
  l->depth = depth;
  return l;
}

}  // namespace pgstore::tidstore::internal
