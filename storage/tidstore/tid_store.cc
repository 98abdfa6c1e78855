#include "storage/tidstore/tid_store.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "storage/tidstore/bitmap_leaf.h"
#include "storage/tidstore/inner_node.h"
#include "storage/tidstore/leaf.h"
#include "storage/tidstore/packed_leaf.h"

namespace pgstore::tidstore {

namespace {

using namespace internal;

// The leaf (Leaf, PackedLeaf or BitmapLeaf) that holds `block` if the store has it, or nullptr.
const Node* FindLeaf(const Node* n, uint32_t block) {
  while (n != nullptr && !IsLeafKind(n)) n = FindChild(n, KeyByte(block, n->depth));
  return n;
}

// The slot of `block` in the leaf `n` and the pool it refers to, or false.
bool FindSlot(const Node* n, uint32_t block, uint16_t* slot, const uint32_t** pool) {
  const uint32_t suffix = internal::KeySuffix(block, n->depth);
  if (n->kind == kPackedLeaf) {
    const PackedLeaf* p = static_cast<const PackedLeaf*>(n);
    *pool = p->pool();
    return p->Find(suffix, slot);
  }
  if (n->kind == kBitmapLeaf) {
    const BitmapLeaf* b = static_cast<const BitmapLeaf*>(n);
    *pool = b->pool();
    return b->Find(suffix, slot);
  }
  const Leaf* l = static_cast<const Leaf*>(n);
  const size_t pos = l->LowerBound(suffix);
  if (pos >= l->size() || l->KeyAt(pos) != suffix) return false;
  *slot = l->slots[pos];
  *pool = l->pool.data();
  return true;
}

// Calls fn(block, slot, pool) for every entry, in ascending block order.
template <typename Fn>
bool Walk(const Node* n, uint32_t prefix, Fn& fn) {
  if (n->kind == kLeaf) {
    const Leaf* l = static_cast<const Leaf*>(n);
    for (size_t i = 0; i < l->size(); ++i) {
      if (!fn(prefix | l->KeyAt(i), l->slots[i], l->pool.data())) return false;
    }
    return true;
  }
  if (n->kind == kPackedLeaf) {
    const PackedLeaf* p = static_cast<const PackedLeaf*>(n);
    std::vector<uint32_t> keys;
    std::vector<uint16_t> slots;
    p->Decode(&keys, &slots);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!fn(prefix | keys[i], slots[i], p->pool())) return false;
    }
    return true;
  }
  if (n->kind == kBitmapLeaf) {
    const BitmapLeaf* b = static_cast<const BitmapLeaf*>(n);
    for (uint32_t suffix = 0, i = 0; suffix < 256; ++suffix) {
      if (b->Has(suffix) && !fn(prefix | suffix, b->slots()[i++], b->pool())) return false;
    }
    return true;
  }
  bool go_on = true;
  const int shift = 8 * (3 - n->depth);
  ForEachChild(n, [&](uint8_t chunk, const Node* child) {
    if (go_on) go_on = Walk(child, prefix | static_cast<uint32_t>(chunk) << shift, fn);
  });
  return go_on;
}

}  // namespace

Status CheckOffsets(const uint16_t* offsets, size_t n) {
  if (n == 0) return Status::InvalidArgument("no offsets");
  for (size_t i = 0; i < n; ++i) {
    if (offsets[i] == 0 || offsets[i] > kMaxOffsetNumber) {
      return Status::InvalidArgument("tuple offset out of range: " + std::to_string(offsets[i]));
    }
    if (i > 0 && offsets[i] <= offsets[i - 1]) {
      return Status::InvalidArgument("offsets not strictly ascending");
    }
  }
  return Status::Ok();
}

TidStore::TidStore(size_t burst_entries) : burst_entries_(burst_entries > 0 ? burst_entries : 1) {}
TidStore::~TidStore() { FreeNode(root_); }

TidStore::TidStore(TidStore&& other) noexcept : burst_entries_(other.burst_entries_) {
  *this = std::move(other);
}

TidStore& TidStore::operator=(TidStore&& other) noexcept {
  if (this != &other) {
    FreeNode(root_);
    root_ = std::exchange(other.root_, nullptr);
    shortcut_ = std::exchange(other.shortcut_, nullptr);
    shortcut_prefix_ = std::exchange(other.shortcut_prefix_, 0);
    burst_entries_ = other.burst_entries_;
    num_blocks_ = std::exchange(other.num_blocks_, 0);
    num_tids_ = std::exchange(other.num_tids_, 0);
    min_block_ = std::exchange(other.min_block_, UINT32_MAX);
    max_block_ = std::exchange(other.max_block_, 0);
  }
  return *this;
}

Status TidStore::SetBlockOffsets(uint32_t block, const uint16_t* offsets, size_t n) {
  PGSTORE_RETURN_IF_ERROR(CheckOffsets(offsets, n));
  const uint16_t embedded = EmbeddedSlot(offsets, n);
  const std::vector<uint32_t> entry =
      embedded == 0 ? EncodePoolEntry(offsets, n) : std::vector<uint32_t>();
  Node** slot = &root_;
  uint8_t depth = 0;
  for (;;) {
    Node* node = *slot;
    if (node == nullptr) {
      Leaf* leaf = NewLeaf(depth);
      *slot = leaf;
      continue;  // insert into the new, empty leaf
    }
    if (IsFrozenLeaf(node)) {
      *slot = Thaw(node);
      continue;
    }
    if (node->kind != kLeaf) {
      const uint8_t chunk = KeyByte(block, depth);
      Node** child = ChildSlot(node, chunk);
      if (child == nullptr) {
        Leaf* leaf = NewLeaf(static_cast<uint8_t>(depth + 1));
        *slot = AddChild(node, chunk, leaf);
        child = ChildSlot(*slot, chunk);
      }
      slot = child;
      ++depth;
      continue;
    }
    Leaf* leaf = static_cast<Leaf*>(node);
    const uint32_t suffix = leaf->SuffixOf(block);
    const size_t pos = leaf->LowerBound(suffix);
    const bool present = pos < leaf->size() && leaf->KeyAt(pos) == suffix;
    const uint16_t old_slot = present ? leaf->slots[pos] : 0;
    const size_t old_units = (old_slot & kPoolSlotBit) ? EntryUnits(leaf->Entry(old_slot)) : 0;
    // Above depth 3 a leaf bursts when it would hold too many blocks or more pool than a slot
    // can address; a depth-3 leaf (at most 256 blocks of at most 65 units) never runs out.
    if (leaf->depth < 3 && ((!present && leaf->size() + 1 > burst_entries_) ||
                            leaf->LiveUnits() - old_units + entry.size() > kMaxPoolUnits)) {
      *slot = Burst(leaf);
      continue;  // descend into the new inner node
    }
    if (present) {
      num_tids_ -= leaf->CountOf(old_slot);
      leaf->dead_units += old_units;
      leaf->slots[pos] = 0;  // dead while the pool is compacted
    }
    if (leaf->pool.size() + entry.size() > kMaxPoolUnits || leaf->dead_units > leaf->LiveUnits()) {
      CompactPool(leaf);
    }
    const uint16_t value = AppendValue(leaf, entry, embedded);
    if (present) {
      leaf->slots[pos] = value;
    } else {
      const uint8_t* kb = reinterpret_cast<const uint8_t*>(&suffix);
      ReserveOneMore(&leaf->keys, leaf->width());
      ReserveOneMore(&leaf->slots);
      leaf->keys.insert(leaf->keys.begin() + pos * leaf->width(), kb, kb + leaf->width());
      leaf->slots.insert(leaf->slots.begin() + pos, value);
      ++num_blocks_;
    }
    num_tids_ += n;
    min_block_ = std::min(min_block_, block);
    max_block_ = std::max(max_block_, block);
    UpdateShortcut();
    return Status::Ok();
  }
}

bool TidStore::RemoveBlock(uint32_t block) {
  if (block < min_block_ || block > max_block_) return false;
  // The path of child slots from the root to the leaf: at most the three inner nodes of depths 0
  // to 2 (a leaf at depth 3 never bursts).
  Node** path[3];
  uint8_t chunks[3];
  int len = 0;
  Node** slot = &root_;
  while (*slot != nullptr && !IsLeafKind(*slot)) {
    path[len] = slot;
    chunks[len] = KeyByte(block, (*slot)->depth);
    slot = ChildSlot(*slot, chunks[len]);
    ++len;
    if (slot == nullptr) return false;
  }
  if (*slot == nullptr) return false;
  {
    uint16_t found;
    const uint32_t* pool;
    if (!FindSlot(*slot, block, &found, &pool)) return false;
  }
  Leaf* leaf = Thaw(*slot);
  *slot = leaf;
  const uint32_t suffix = leaf->SuffixOf(block);
  const size_t pos = leaf->LowerBound(suffix);
  const uint16_t old = leaf->slots[pos];
  num_tids_ -= leaf->CountOf(old);
  --num_blocks_;
  if (old & kPoolSlotBit) leaf->dead_units += EntryUnits(leaf->Entry(old));
  leaf->keys.erase(leaf->keys.begin() + pos * leaf->width(),
                   leaf->keys.begin() + (pos + 1) * leaf->width());
  leaf->slots.erase(leaf->slots.begin() + pos);
  if (leaf->size() > 0) {
    if (leaf->dead_units > leaf->LiveUnits()) CompactPool(leaf);
    UpdateShortcut();
    return true;
  }
  // The leaf is empty: unlink it, and every inner node left without children.
  delete leaf;
  *slot = nullptr;
  for (int i = len - 1; i >= 0; --i) {
    Node* parent = *path[i];
    RemoveChild(parent, chunks[i]);
    if (parent->count > 0) break;
    FreeNode(parent);
    *path[i] = nullptr;
  }
  if (num_blocks_ == 0) {
    min_block_ = UINT32_MAX;
    max_block_ = 0;
  }
  UpdateShortcut();
  return true;
}

bool TidStore::IsMember(Tid tid) const {
  if (tid.block < min_block_ || tid.block > max_block_) return false;
  // (min_block_ and max_block_ may be wider than the blocks left after RemoveBlock: the skipped
  // key bytes are checked, not assumed.)
  const int skipped = shortcut_ != nullptr ? shortcut_->depth : 0;
  if (skipped > 0 && (tid.block ^ shortcut_prefix_) >> (32 - 8 * skipped) != 0) return false;
  const Node* leaf = FindLeaf(shortcut_, tid.block);
  uint16_t slot;
  const uint32_t* pool;
  return leaf != nullptr && FindSlot(leaf, tid.block, &slot, &pool) &&
         internal::SlotContains(slot, pool, tid.offset);
}

std::vector<uint16_t> TidStore::BlockOffsets(uint32_t block) const {
  std::vector<uint16_t> out;
  const Node* leaf = FindLeaf(root_, block);
  uint16_t slot;
  const uint32_t* pool;
  if (leaf != nullptr && FindSlot(leaf, block, &slot, &pool)) {
    internal::AppendSlotOffsets(slot, pool, &out);
  }
  return out;
}

void TidStore::ForEachBlock(
    const std::function<bool(uint32_t, const std::vector<uint16_t>&)>& fn) const {
  if (root_ == nullptr) return;
  std::vector<uint16_t> offsets;
  auto visit = [&](uint32_t block, uint16_t slot, const uint32_t* pool) {
    offsets.clear();
    internal::AppendSlotOffsets(slot, pool, &offsets);
    return fn(block, offsets);
  };
  Walk(root_, 0, visit);
}

size_t TidStore::MemoryUsage() const {
  if (root_ == nullptr) return 0;
  size_t bytes = 0;
  std::vector<const Node*> stack = {root_};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    bytes += NodeBytes(n);
    ForEachChild(n, [&stack](uint8_t, const Node* child) { stack.push_back(child); });
  }
  return bytes;
}

void TidStore::ShrinkToFit() {
  if (root_ == nullptr) return;
  std::vector<Node**> stack = {&root_};
  while (!stack.empty()) {
    Node** slot = stack.back();
    stack.pop_back();
    Node* n = *slot;
    if (IsFrozenLeaf(n)) continue;
    if (n->kind == kLeaf) {
      Leaf* l = static_cast<Leaf*>(n);
      CompactPool(l);  // (its slots are then a fresh copy, no larger than they need be)
      l->pool.shrink_to_fit();
      l->keys.shrink_to_fit();
      *slot = Freeze(l);
      continue;
    }
    ForEachChild(n, [&](uint8_t chunk, Node*) { stack.push_back(ChildSlot(n, chunk)); });
  }
  UpdateShortcut();
}

void TidStore::UpdateShortcut() {
  const Node* n = root_;
  uint32_t prefix = 0;
  while (n != nullptr && !IsLeafKind(n) && n->count == 1) {
    const int shift = 8 * (3 - n->depth);
    ForEachChild(n, [&](uint8_t chunk, const Node* child) {
      prefix |= uint32_t{chunk} << shift;
      n = child;
    });
  }
  shortcut_ = n;
  shortcut_prefix_ = prefix;
}

StatusOr<TidStore> TidStore::BuildFromSorted(const std::vector<Tid>& tids, size_t burst_entries) {
  TidStore store(burst_entries);
  std::vector<uint16_t> offsets;
  size_t i = 0;
  while (i < tids.size()) {
    const uint32_t block = tids[i].block;
    if (i > 0 && block < tids[i - 1].block) {
      return Status::InvalidArgument("TIDs not strictly ascending");
    }
    offsets.clear();
    for (; i < tids.size() && tids[i].block == block; ++i) offsets.push_back(tids[i].offset);
    PGSTORE_RETURN_IF_ERROR(store.SetBlockOffsets(block, offsets));
  }
  store.ShrinkToFit();
  return store;
}

TidStore TidStore::Union(const TidStore& a, const TidStore& b) {
  TidStore out(a.burst_entries_);
  std::vector<std::pair<uint32_t, std::vector<uint16_t>>> bs;
  b.ForEachBlock([&bs](uint32_t block, const std::vector<uint16_t>& offsets) {
    bs.emplace_back(block, offsets);
    return true;
  });
  size_t j = 0;
  std::vector<uint16_t> merged;
  a.ForEachBlock([&](uint32_t block, const std::vector<uint16_t>& offsets) {
    for (; j < bs.size() && bs[j].first < block; ++j) {
      (void)out.SetBlockOffsets(bs[j].first, bs[j].second);
    }
    if (j < bs.size() && bs[j].first == block) {
      merged.clear();
      std::set_union(offsets.begin(), offsets.end(), bs[j].second.begin(), bs[j].second.end(),
                     std::back_inserter(merged));
      (void)out.SetBlockOffsets(block, merged);
      ++j;
    } else {
      (void)out.SetBlockOffsets(block, offsets);
    }
    return true;
  });
  for (; j < bs.size(); ++j) (void)out.SetBlockOffsets(bs[j].first, bs[j].second);
  out.ShrinkToFit();
  return out;
}

}  // namespace pgstore::tidstore
