// The TID store's inner nodes: Node4 and Node16 (sorted chunks and children), Node48 (an index of
// 256 bytes into 48 dense children), Node256 (a child per chunk). Each level consumes one byte of
// the block number, most significant first; a node at depth d decides byte d. A node grows into
// the next kind when full (4 -> 16 -> 48 -> 256) and never shrinks. Internal to storage/tidstore.
//
// Invariants (TidStore::Validate checks them): count is the number of children and at most the
// kind's capacity; chunks of Node4/Node16 ascending; Node48's children dense in 0..count-1, each
// named by exactly one index entry.
#ifndef PGSTORE_STORAGE_TIDSTORE_INNER_NODE_H_
#define PGSTORE_STORAGE_TIDSTORE_INNER_NODE_H_

#include <cstddef>
#include <cstdint>

#include "storage/tidstore/leaf.h"

namespace pgstore::tidstore::internal {

inline constexpr uint8_t kEmpty48 = 0xFF;

// The chunk of `block` a node at `depth` decides.
inline uint8_t KeyByte(uint32_t block, int depth) {
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

// Bytes allocated for a node of any kind (leaves included: their arrays' capacity).
size_t NodeBytes(const Node* n);
// The child pointer slot for `chunk`, or nullptr.
Node** ChildSlot(Node* n, uint8_t chunk);
inline Node* FindChild(const Node* n, uint8_t chunk) {
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

// Adds a child for a chunk not yet present; returns the node, replaced by a larger one when full
// (the old one is freed).
Node* AddChild(Node* n, uint8_t chunk, Node* child);
void RemoveChild(Node* n, uint8_t chunk);
// Frees a node of any kind and everything below it.
void FreeNode(Node* n);
// An inner node at the leaf's depth over leaves one level deeper, holding the leaf's entries.
// Frees the leaf. REQUIRES: depth < 3.
Node* Burst(Leaf* leaf);

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_STORAGE_TIDSTORE_INNER_NODE_H_
