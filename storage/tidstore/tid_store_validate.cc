// TidStore::Validate: every structural invariant of the tree (inner_node.h, leaf.h,
// packed_leaf.h, bitmap_leaf.h), the store's counts and its lookup shortcut, for tests and fuzzers.
#include "storage/tidstore/tid_store_validate.h"

#include <memory>
#include <type_traits>
#include <vector>

#include "storage/tidstore/bitmap_leaf.h"
#include "storage/tidstore/inner_node.h"
#include "storage/tidstore/leaf.h"
#include "storage/tidstore/packed_leaf.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {
namespace internal {
namespace {

// The most children a node of kind N holds: the length of its children array (inner_node.h).
template <typename N>
constexpr int CapacityOf() {
  return static_cast<int>(std::extent_v<decltype(N::children)>);
}

}  // namespace

Status ValidateSubtree(const Node* n, uint8_t depth, size_t* blocks, size_t* tids) {
  if (n->depth != depth) return Status::Corruption("node at the wrong depth");
  if (n->kind == kPackedLeaf) {
    // The layout, then its entries as the Leaf they unpack to.
    const PackedLeaf* p = static_cast<const PackedLeaf*>(n);
    PGSTORE_RETURN_IF_ERROR(p->ValidateLayout());
    std::unique_ptr<Leaf> leaf(p->Unpack());
    return ValidateSubtree(leaf.get(), depth, blocks, tids);
  }
  if (n->kind == kBitmapLeaf) {
    const BitmapLeaf* b = static_cast<const BitmapLeaf*>(n);
    PGSTORE_RETURN_IF_ERROR(b->ValidateLayout());
    std::unique_ptr<Leaf> leaf(b->Unpack());
    return ValidateSubtree(leaf.get(), depth, blocks, tids);
  }
  if (n->kind == kLeaf) {
    const Leaf* l = static_cast<const Leaf*>(n);
    if (l->keys.size() != l->size() * l->width()) return Status::Corruption("leaf key array size");
    if (l->size() == 0) return Status::Corruption("empty leaf");
    size_t referenced = 0;
    for (size_t i = 0; i < l->size(); ++i) {
      if (i > 0 && l->KeyAt(i) <= l->KeyAt(i - 1))
        return Status::Corruption("leaf keys not ascending");
      const uint16_t slot = l->slots[i];
      if (!(slot & kPoolSlotBit)) {
        if (!IsValidEmbedded(slot)) return Status::Corruption("bad embedded value");
        *tids += EmbeddedCount(slot);
        continue;
      }
      const size_t unit = slot & ~kPoolSlotBit;
      if (unit >= l->pool.size() || unit + EntryUnits(l->Entry(slot)) > l->pool.size()) {
        return Status::Corruption("pool entry outside the pool");
      }
      std::vector<uint16_t> offsets;
      AppendEntryOffsets(l->Entry(slot), &offsets);
      if (offsets.size() < 2 || CheckOffsets(offsets.data(), offsets.size()).ok() == false) {
        return Status::Corruption("malformed pool entry");
      }
      referenced += EntryUnits(l->Entry(slot));
      *tids += offsets.size();
    }
    if (referenced + l->dead_units != l->pool.size()) {
      return Status::Corruption("dead pool space miscounted");
    }
    *blocks += l->size();
    return Status::Ok();
  }
  if (depth > 2) return Status::Corruption("inner node below depth 2");
  const int capacity = n->kind == kNode4    ? CapacityOf<Node4>()
                       : n->kind == kNode16 ? CapacityOf<Node16>()
                       : n->kind == kNode48 ? CapacityOf<Node48>()
                                            : CapacityOf<Node256>();
  // Before the children are visited: a Node4's or Node16's count bounds the arrays read, and a
  // Node48's index entries name its children.
  if (n->count > capacity) return Status::Corruption("node over capacity");
  if (n->kind == kNode48) {
    const Node48* s48 = static_cast<const Node48*>(n);
    std::vector<bool> used(CapacityOf<Node48>(), false);
    for (int c = 0; c < 256; ++c) {
      const uint8_t i = s48->index[c];
      if (i == kEmpty48) continue;
      if (i >= n->count || used[i]) return Status::Corruption("node48 index");
      used[i] = true;
    }
  }
  int children = 0, previous = -1;
  Status s;
  ForEachChild(n, [&](uint8_t chunk, const Node* child) {
    ++children;
    if (!s.ok()) return;
    if (child == nullptr) {
      s = Status::Corruption("null child");
    } else if (static_cast<int>(chunk) <= previous) {
      s = Status::Corruption("chunks not ascending");
    } else {
      s = ValidateSubtree(child, static_cast<uint8_t>(depth + 1), blocks, tids);
    }
    previous = chunk;
  });
  PGSTORE_RETURN_IF_ERROR(s);
  if (children != n->count || children == 0) return Status::Corruption("child count");
  return Status::Ok();
}

}  // namespace internal

Status TidStore::Validate() const {
  size_t blocks = 0, tids = 0;
  if (root_ != nullptr)
    PGSTORE_RETURN_IF_ERROR(internal::ValidateSubtree(root_, 0, &blocks, &tids));
  if (blocks != num_blocks_) return Status::Corruption("block count");
  if (tids != num_tids_) return Status::Corruption("TID count");
  return ValidateShortcut();
}

// The shortcut is null exactly when the tree is; else the prefix's key bytes lead from the root
// through single-child inner nodes, one a level, to the shortcut, which is a leaf or branches.
Status TidStore::ValidateShortcut() const {
  if ((root_ == nullptr) != (shortcut_ == nullptr)) return Status::Corruption("lookup shortcut");
  if (root_ == nullptr) return Status::Ok();
  const Node* n = root_;
  for (int depth = 0; depth < shortcut_->depth; ++depth) {
    if (internal::IsLeafKind(n) || n->count != 1) return Status::Corruption("lookup shortcut");
    n = internal::FindChild(n, internal::KeyByte(shortcut_prefix_, depth));
    if (n == nullptr) return Status::Corruption("lookup shortcut prefix");
  }
  if (n != shortcut_) return Status::Corruption("lookup shortcut prefix");
  if (!internal::IsLeafKind(n) && n->count == 1) return Status::Corruption("lookup shortcut");
  return Status::Ok();
}

}  // namespace pgstore::tidstore
