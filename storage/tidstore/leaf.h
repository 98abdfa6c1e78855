// The TID store's tree nodes (tid_store.h describes the tree; inner_node.h the inner nodes) and
// its mutable leaf with the leaf's pool. Internal to storage/tidstore.
//
// A leaf at depth d holds sorted (suffix, slot) pairs, the suffix being the key's low 4 - d bytes,
// stored little-endian in keys[]; a slot is an embedded offset or a pool entry (offset_set.h).
// Invariants: keys strictly ascending, size() >= 1, every pool slot names a well-formed entry
// inside pool[], and dead_units is exactly the pool space no slot references.
#ifndef PGSTORE_STORAGE_TIDSTORE_LEAF_H_
#define PGSTORE_STORAGE_TIDSTORE_LEAF_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "storage/tidstore/offset_set.h"
#include "storage/tidstore/partition_point.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {

enum Kind : uint8_t { kLeaf, kPackedLeaf, kBitmapLeaf, kNode4, kNode16, kNode48, kNode256 };

struct TidStore::Node {
  uint8_t kind;
  uint8_t depth;       // 0..3: how many key bytes are above this node
  uint16_t count = 0;  // children of an inner node (0 in a leaf, where nothing reads it)
};

namespace internal {

using Node = TidStore::Node;

inline constexpr size_t kMaxPoolUnits = 1u << 15;  // 15-bit unit index in a slot

// The key bytes below a node at `depth`: what a leaf there stores of `block`.
inline uint32_t KeySuffix(uint32_t block, int depth) {
  return depth == 0 ? block : block & ((1u << (8 * (4 - depth))) - 1);
}

// A read-only leaf that ShrinkToFit made (Thaw makes it a Leaf again).
inline bool IsFrozenLeaf(const Node* n) { return n->kind == kPackedLeaf || n->kind == kBitmapLeaf; }
inline bool IsLeafKind(const Node* n) { return n->kind == kLeaf || IsFrozenLeaf(n); }

// A slot's value against its leaf's pool.
inline const uint32_t* SlotEntry(uint16_t slot, const uint32_t* pool) {
  return pool + (slot & ~kPoolSlotBit);
}
inline size_t SlotCount(uint16_t slot, const uint32_t* pool) {
  return (slot & kPoolSlotBit) ? EntryCount(SlotEntry(slot, pool)) : EmbeddedCount(slot);
}
inline bool SlotContains(uint16_t slot, const uint32_t* pool, uint16_t offset) {
  return (slot & kPoolSlotBit) ? EntryContains(SlotEntry(slot, pool), offset)
                               : EmbeddedContains(slot, offset);
}
inline void AppendSlotOffsets(uint16_t slot, const uint32_t* pool, std::vector<uint16_t>* out) {
  if (slot & kPoolSlotBit) {
    AppendEntryOffsets(SlotEntry(slot, pool), out);
  } else {
    AppendEmbeddedOffsets(slot, out);
  }
}

struct Leaf : Node {
  std::vector<uint8_t> keys;    // width() bytes per block: the key's low bytes, little-endian
  std::vector<uint16_t> slots;  // offset_set.h
  std::vector<uint32_t> pool;
  size_t dead_units = 0;

  int width() const { return 4 - depth; }
  size_t size() const { return slots.size(); }
  uint32_t SuffixOf(uint32_t block) const { return KeySuffix(block, depth); }
  uint32_t KeyAt(size_t i) const {
    uint32_t k = 0;
    std::memcpy(&k, keys.data() + i * width(), width());
    return k;
  }
  // The first entry whose suffix is >= s.
  size_t LowerBound(uint32_t s) const {
    switch (width()) {
      case 1:
        // A full depth-3 leaf holds every suffix 0..255 in order: index directly.
        if (size() == 256) return s;
        return LowerBoundOf<1>(s);
      case 2:
        return LowerBoundOf<2>(s);
      case 3:
        return LowerBoundOf<3>(s);
      default:
        return LowerBoundOf<4>(s);
    }
  }
  template <int W>
  uint32_t KeyOf(size_t i) const {
    const uint8_t* p = keys.data() + i * W;
    if constexpr (W == 1) return p[0];
    uint32_t k = 0;
    std::memcpy(&k, p, W);
    return k;
  }
  template <int W>
  size_t LowerBoundOf(uint32_t s) const {
    return PartitionPoint(size(), [this, s](size_t i) { return KeyOf<W>(i) < s; });
  }
  const uint32_t* Entry(uint16_t slot) const { return SlotEntry(slot, pool.data()); }
  size_t CountOf(uint16_t slot) const { return SlotCount(slot, pool.data()); }
  size_t LiveUnits() const { return pool.size() - dead_units; }
  // The memory the leaf takes: its header and its arrays' capacity (as MemoryUsage counts it).
  size_t Bytes() const {
    return sizeof(Leaf) + keys.capacity() + slots.capacity() * sizeof(uint16_t) +
           pool.capacity() * sizeof(uint32_t);
  }
};

// The capacity a leaf's array holding `units` grows to: 1/8 more plus 4, not double, so that a
// large leaf wastes little capacity and a small one is not reallocated on every insert. It is in
// MemoryUsage (tid_store.h counts capacity), so it is a policy that tests pin.
inline size_t WithHeadroom(size_t units) { return units + units / 8 + 4; }

// Makes room for `extra` more elements, growing by WithHeadroom when the capacity is short.
template <typename T>
inline void ReserveOneMore(std::vector<T>* v, size_t extra = 1) {
  if (v->size() + extra > v->capacity()) v->reserve(WithHeadroom(v->size()) + extra);
}

Leaf* NewLeaf(uint8_t depth);
// The leaf's slots renumbered to a compact copy of its live pool entries (the leaf unchanged).
void CompactValues(const Leaf& leaf, std::vector<uint16_t>* slots, std::vector<uint32_t>* pool);
// Copies the live pool entries into a fresh pool (capacity WithHeadroom of them) and renumbers the
// slots.
void CompactPool(Leaf* leaf);
// The slot for a value: `embedded` when it is not 0, else `entry` appended to the leaf's pool.
// REQUIRES: the leaf's pool has room for the entry.
uint16_t AppendValue(Leaf* leaf, const std::vector<uint32_t>& entry, uint16_t embedded);
// A frozen leaf (PackedLeaf or BitmapLeaf) made mutable again (the frozen one is freed); a Leaf
// is returned as it is.
Leaf* Thaw(Node* leaf);
// What ShrinkToFit keeps of a compacted leaf: a frozen copy when one is smaller (the leaf is then
// freed), else the leaf itself.
Node* Freeze(Leaf* leaf);

}  // namespace internal
}  // namespace pgstore::tidstore

#endif  // PGSTORE_STORAGE_TIDSTORE_LEAF_H_
