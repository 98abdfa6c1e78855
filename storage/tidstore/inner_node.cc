#include "storage/tidstore/inner_node.h"

#include <cstring>

#include "storage/tidstore/bitmap_leaf.h"
#include "storage/tidstore/packed_leaf.h"

namespace pgstore::tidstore::internal {
namespace {

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

}  // namespace

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
    case kBitmapLeaf:
      return static_cast<const BitmapLeaf*>(n)->Bytes();
    default:
      return static_cast<const Leaf*>(n)->Bytes();
  }
}

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
  if (n->kind == kBitmapLeaf) {
    BitmapLeaf::Free(static_cast<BitmapLeaf*>(n));
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

}  // namespace pgstore::tidstore::internal
