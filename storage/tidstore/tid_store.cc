#include "storage/tidstore/tid_store.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "storage/tidstore/leaf.h"
#include "storage/tidstore/packed_leaf.h"

namespace pgstore::tidstore {

namespace {

using internal::IsLeafKind;
using internal::kMaxPoolUnits;
using internal::Leaf;
using internal::Node;
using internal::PackedLeaf;
constexpr uint8_t kEmpty48 = 0xFF;
// ShrinkToFit packs leaves with keys this wide or wider (depths 0 to 2), where sparse blocks make
// the key bytes most of the cost; narrower leaves stay fast to search.
constexpr int kMinPackedWidth = 2;

uint8_t KeyByte(uint32_t block, int depth) {
  return static_cast<uint8_t>(block >> (8 * (3 - depth)));
}

template <int N>
struct NodeSorted : Node {
  uint8_t chunks[N];
  Node* children[N];
};
using Node4 = NodeSorted<4>;
using Node16 = NodeSorted<16>;
struct Node48 : Node {
  uint8_t index[256];  // slot in children, or kEmpty48
  Node* children[48];
};
struct Node256 : Node {
  Node* children[256];
};

// Grows vectors by 1/8 instead of doubling, so that a large leaf wastes little capacity.
template <typename T>
void ReserveOneMore(std::vector<T>* v, size_t extra = 1) {
  if (v->size() + extra > v->capacity()) v->reserve(v->size() + extra + v->size() / 8 + 4);
}

// Copies the live pool entries into a fresh pool and renumbers the slots.
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

// The slot for a value: the offset itself, or a pool entry appended to the leaf.
// REQUIRES: the leaf's pool has room for the entry.
uint16_t AppendValue(Leaf* leaf, const std::vector<uint32_t>& entry, const uint16_t* offsets) {
  if (entry.empty()) return offsets[0];
  const uint16_t slot = static_cast<uint16_t>(kPoolSlotBit | leaf->pool.size());
  ReserveOneMore(&leaf->pool, entry.size());
  leaf->pool.insert(leaf->pool.end(), entry.begin(), entry.end());
  return slot;
}

void FreeNode(Node* n);

size_t NodeBytes(const Node* n) {
  switch (n->kind) {
    case kNode4:
      return sizeof(Node4);
    case kNode16:
      return sizeof(Node16);
    case kNode48:
      return sizeof(Node48);
    case kNode256:
      return sizeof(Node256);
    case kPackedLeaf:
      return static_cast<const PackedLeaf*>(n)->Bytes();
    default: {
      const Leaf* l = static_cast<const Leaf*>(n);
      return sizeof(Leaf) + l->keys.capacity() + l->slots.capacity() * sizeof(uint16_t) +
             l->pool.capacity() * sizeof(uint32_t);
    }
  }
}

// The child pointer slot for `chunk`, or nullptr.
Node** ChildSlot(Node* n, uint8_t chunk) {
  switch (n->kind) {
    case kNode4: {
      Node4* s = static_cast<Node4*>(n);
      for (int i = 0; i < s->count; ++i) {
        if (s->chunks[i] == chunk) return &s->children[i];
      }
      return nullptr;
    }
    case kNode16: {
      Node16* s = static_cast<Node16*>(n);
      for (int i = 0; i < s->count; ++i) {
        if (s->chunks[i] == chunk) return &s->children[i];
      }
      return nullptr;
    }
    case kNode48: {
      Node48* s = static_cast<Node48*>(n);
      return s->index[chunk] == kEmpty48 ? nullptr : &s->children[s->index[chunk]];
    }
    default: {
      Node256* s = static_cast<Node256*>(n);
      return s->children[chunk] ? &s->children[chunk] : nullptr;
    }
  }
}

Node* FindChild(const Node* n, uint8_t chunk) {
  Node** slot = ChildSlot(const_cast<Node*>(n), chunk);
  return slot ? *slot : nullptr;
}

template <typename T>
T* NewInner(Kind kind, uint8_t depth) {
  T* n = new T();
  n->kind = kind;
  n->depth = depth;
  n->count = 0;
  return n;
}

// Calls fn(chunk, child) in ascending chunk order.
template <typename Fn>
void ForEachChild(const Node* n, Fn fn) {
  switch (n->kind) {
    case kNode4: {
      const Node4* s = static_cast<const Node4*>(n);
      for (int i = 0; i < s->count; ++i) fn(s->chunks[i], s->children[i]);
      break;
    }
    case kNode16: {
      const Node16* s = static_cast<const Node16*>(n);
      for (int i = 0; i < s->count; ++i) fn(s->chunks[i], s->children[i]);
      break;
    }
    case kNode48: {
      const Node48* s = static_cast<const Node48*>(n);
      for (int c = 0; c < 256; ++c) {
        if (s->index[c] != kEmpty48) fn(static_cast<uint8_t>(c), s->children[s->index[c]]);
      }
      break;
    }
    case kNode256: {
      const Node256* s = static_cast<const Node256*>(n);
      for (int c = 0; c < 256; ++c) {
        if (s->children[c]) fn(static_cast<uint8_t>(c), s->children[c]);
      }
      break;
    }
    default:
      break;
  }
}

template <int N>
void InsertSorted(NodeSorted<N>* s, uint8_t chunk, Node* child) {
  int i = s->count;
  while (i > 0 && s->chunks[i - 1] > chunk) {
    s->chunks[i] = s->chunks[i - 1];
    s->children[i] = s->children[i - 1];
    --i;
  }
  s->chunks[i] = chunk;
  s->children[i] = child;
  ++s->count;
}

// Adds a child for a chunk not yet present; returns the node, replaced by a larger one when full
// (the old one is freed).
Node* AddChild(Node* n, uint8_t chunk, Node* child) {
  switch (n->kind) {
    case kNode4: {
      Node4* s = static_cast<Node4*>(n);
      if (s->count < 4) {
        InsertSorted(s, chunk, child);
        return n;
      }
      Node16* g = NewInner<Node16>(kNode16, n->depth);
      for (int i = 0; i < 4; ++i) InsertSorted(g, s->chunks[i], s->children[i]);
      InsertSorted(g, chunk, child);
      delete s;
      return g;
    }
    case kNode16: {
      Node16* s = static_cast<Node16*>(n);
      if (s->count < 16) {
        InsertSorted(s, chunk, child);
        return n;
      }
      Node48* g = NewInner<Node48>(kNode48, n->depth);
      std::memset(g->index, kEmpty48, sizeof g->index);
      for (int i = 0; i < 16; ++i) {
        g->index[s->chunks[i]] = static_cast<uint8_t>(i);
        g->children[i] = s->children[i];
      }
      g->count = 16;
      delete s;
      return AddChild(g, chunk, child);
    }
    case kNode48: {
      Node48* s = static_cast<Node48*>(n);
      if (s->count < 48) {
        // children[] is kept dense: slots 0..count-1 are used, so the next free one is count.
        s->index[chunk] = static_cast<uint8_t>(s->count);
        s->children[s->count] = child;
        ++s->count;
        return n;
      }
      Node256* g = NewInner<Node256>(kNode256, n->depth);
      for (int c = 0; c < 256; ++c) {
        if (s->index[c] != kEmpty48) g->children[c] = s->children[s->index[c]];
      }
      g->count = 48;
      delete s;
      return AddChild(g, chunk, child);
    }
    default: {
      Node256* s = static_cast<Node256*>(n);
      s->children[chunk] = child;
      ++s->count;
      return n;
    }
  }
}

void RemoveChild(Node* n, uint8_t chunk) {
  switch (n->kind) {
    case kNode4:
    case kNode16: {
      // Node4 and Node16 share the layout up to their capacity.
      uint8_t* chunks =
          n->kind == kNode4 ? static_cast<Node4*>(n)->chunks : static_cast<Node16*>(n)->chunks;
      Node** children =
          n->kind == kNode4 ? static_cast<Node4*>(n)->children : static_cast<Node16*>(n)->children;
      int i = 0;
      while (chunks[i] != chunk) ++i;
      for (; i + 1 < n->count; ++i) {
        chunks[i] = chunks[i + 1];
        children[i] = children[i + 1];
      }
      --n->count;
      break;
    }
    case kNode48: {
      Node48* s = static_cast<Node48*>(n);
      const uint8_t slot = s->index[chunk];
      const uint8_t last = static_cast<uint8_t>(s->count - 1);
      if (slot != last) {  // keep children[] dense: move the last child into the hole
        for (int c = 0; c < 256; ++c) {
          if (s->index[c] == last) {
            s->index[c] = slot;
            break;
          }
        }
        s->children[slot] = s->children[last];
      }
      s->index[chunk] = kEmpty48;
      --s->count;
      break;
    }
    default:
      static_cast<Node256*>(n)->children[chunk] = nullptr;
      --n->count;
      break;
  }
}

void FreeNode(Node* n) {
  if (n == nullptr) return;
  if (n->kind == kLeaf) {
    delete static_cast<Leaf*>(n);
    return;
  }
  if (n->kind == kPackedLeaf) {
    PackedLeaf::Free(static_cast<PackedLeaf*>(n));
    return;
  }
  ForEachChild(n, [](uint8_t, Node* child) { FreeNode(child); });
  switch (n->kind) {
    case kNode4:
      delete static_cast<Node4*>(n);
      break;
    case kNode16:
      delete static_cast<Node16*>(n);
      break;
    case kNode48:
      delete static_cast<Node48*>(n);
      break;
    default:
      delete static_cast<Node256*>(n);
      break;
  }
}

// A packed leaf made mutable again (the packed one is freed).
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

// An inner node at the leaf's depth over leaves one level deeper, holding the leaf's entries.
// Frees the leaf. REQUIRES: depth < 3.
Node* Burst(Leaf* leaf) {
  const uint8_t depth = leaf->depth;
  const int shift = 8 * (leaf->width() - 1);  // the suffix's top byte is this level's chunk
  std::vector<std::pair<uint8_t, Leaf*>> groups;
  for (size_t i = 0; i < leaf->size(); ++i) {
    const uint32_t suffix = leaf->KeyAt(i);
    const uint8_t chunk = static_cast<uint8_t>(suffix >> shift);
    if (groups.empty() || groups.back().first != chunk) {
      groups.emplace_back(chunk, NewLeaf(static_cast<uint8_t>(depth + 1)));
    }
    Leaf* child = groups.back().second;
    const uint32_t child_suffix = suffix & ((1u << shift) - 1);
    const uint8_t* kb = reinterpret_cast<const uint8_t*>(&child_suffix);
    child->keys.insert(child->keys.end(), kb, kb + child->width());
    const uint16_t slot = leaf->slots[i];
    if (slot & kPoolSlotBit) {
      const uint32_t* e = leaf->Entry(slot);
      child->slots.push_back(static_cast<uint16_t>(kPoolSlotBit | child->pool.size()));
      child->pool.insert(child->pool.end(), e, e + EntryUnits(e));
    } else {
      child->slots.push_back(slot);
    }
  }
  Node* node;
  if (groups.size() <= 4) {
    node = NewInner<Node4>(kNode4, depth);
  } else if (groups.size() <= 16) {
    node = NewInner<Node16>(kNode16, depth);
  } else if (groups.size() <= 48) {
    Node48* n48 = NewInner<Node48>(kNode48, depth);
    std::memset(n48->index, kEmpty48, sizeof n48->index);
    node = n48;
  } else {
    node = NewInner<Node256>(kNode256, depth);
  }
  for (auto& [chunk, child] : groups) {
    child->keys.shrink_to_fit();
    child->slots.shrink_to_fit();
    child->pool.shrink_to_fit();
    node = AddChild(node, chunk, child);
  }
  delete leaf;
  return node;
}

// The leaf (Leaf or PackedLeaf) that holds `block` if the store has it, or nullptr.
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
  bool go_on = true;
  const int shift = 8 * (3 - n->depth);
  ForEachChild(n, [&](uint8_t chunk, const Node* child) {
    if (go_on) go_on = Walk(child, prefix | static_cast<uint32_t>(chunk) << shift, fn);
  });
  return go_on;
}

// Validate's walk: checks `n` at `depth`, adding its blocks and TIDs.
Status ValidateNode(const Node* n, uint8_t depth, size_t* blocks, size_t* tids) {
  if (n->depth != depth) return Status::Corruption("node at the wrong depth");
  if (n->kind == kPackedLeaf) {
    // The layout, then its entries as the Leaf they unpack to.
    const PackedLeaf* p = static_cast<const PackedLeaf*>(n);
    PGSTORE_RETURN_IF_ERROR(p->ValidateLayout());
    std::unique_ptr<Leaf> leaf(p->Unpack());
    return ValidateNode(leaf.get(), depth, blocks, tids);
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
        if (slot == 0 || slot > kMaxOffsetNumber) return Status::Corruption("bad embedded offset");
        *tids += 1;
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
      s = ValidateNode(child, static_cast<uint8_t>(depth + 1), blocks, tids);
    }
    previous = chunk;
  });
  PGSTORE_RETURN_IF_ERROR(s);
  if (children != n->count || children == 0) return Status::Corruption("child count");
  const int capacity = n->kind == kNode4    ? 4
                       : n->kind == kNode16 ? 16
                       : n->kind == kNode48 ? 48
                                            : 256;
  if (children > capacity) return Status::Corruption("node over capacity");
  if (n->kind == kNode48) {
    const Node48* s48 = static_cast<const Node48*>(n);
    std::vector<bool> used(48, false);
    for (int c = 0; c < 256; ++c) {
      const uint8_t i = s48->index[c];
      if (i == kEmpty48) continue;
      if (i >= n->count || used[i]) return Status::Corruption("node48 index");
      used[i] = true;
    }
  }
  return Status::Ok();
}

}  // namespace

Status TidStore::Validate() const {
  size_t blocks = 0, tids = 0;
  if (root_ != nullptr) PGSTORE_RETURN_IF_ERROR(ValidateNode(root_, 0, &blocks, &tids));
  if (blocks != num_blocks_) return Status::Corruption("block count");
  if (tids != num_tids_) return Status::Corruption("TID count");
  return Status::Ok();
}

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
  const std::vector<uint32_t> entry =
      n >= 2 ? EncodePoolEntry(offsets, n) : std::vector<uint32_t>();
  Node** slot = &root_;
  uint8_t depth = 0;
  for (;;) {
    Node* node = *slot;
    if (node == nullptr) {
      Leaf* leaf = NewLeaf(depth);
      *slot = leaf;
      continue;  // insert into the new, empty leaf
    }
    if (node->kind == kPackedLeaf) {
      *slot = Thaw(static_cast<PackedLeaf*>(node));
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
    const uint16_t value = AppendValue(leaf, entry, offsets);
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
    return Status::Ok();
  }
}

bool TidStore::RemoveBlock(uint32_t block) {
  if (block < min_block_ || block > max_block_) return false;
  // The path of child slots from the root to the leaf.
  Node** path[5];
  uint8_t chunks[5];
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
  if ((*slot)->kind == kPackedLeaf) *slot = Thaw(static_cast<PackedLeaf*>(*slot));
  Leaf* leaf = static_cast<Leaf*>(*slot);
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
  return true;
}

bool TidStore::IsMember(Tid tid) const {
  if (tid.block < min_block_ || tid.block > max_block_) return false;
  const Node* leaf = FindLeaf(root_, tid.block);
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
    if (n->kind == kPackedLeaf) continue;
    if (n->kind == kLeaf) {
      Leaf* l = static_cast<Leaf*>(n);
      CompactPool(l);
      l->pool.shrink_to_fit();
      l->keys.shrink_to_fit();
      l->slots.shrink_to_fit();
      if (l->width() >= kMinPackedWidth) {
        if (PackedLeaf* packed = PackedLeaf::Pack(*l)) {
          delete l;
          *slot = packed;
        }
      }
      continue;
    }
    ForEachChild(n, [&](uint8_t chunk, Node*) { stack.push_back(ChildSlot(n, chunk)); });
  }
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
