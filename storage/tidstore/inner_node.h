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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

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
// The index of the first zero byte of `v`, or 8 when none is (the classic has-zero-byte test:
// the borrow can mark bytes above a zero byte, never below one, so the lowest mark is exact).
inline unsigned FirstZeroByte(uint64_t v) {
  const uint64_t marks = (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;
  return marks ? __builtin_ctzll(marks) / 8 : 8;
}

// The child of a Node4 or Node16 for `chunk`: its chunks compared eight at a time, without a
// branch per chunk (lookups come in no order a predictor could learn). Chunks are distinct, and
// those at or past count are ignored.
template <int N>
inline Node** SortedChildSlot(NodeSorted<N>* s, uint8_t chunk) {
  static_assert(N == 4 || N == 16);
  const uint64_t broadcast = 0x0101010101010101ull * chunk;
  unsigned index;
  if constexpr (N == 4) {
    uint32_t w;
    std::memcpy(&w, s->chunks, 4);
    index = std::min(FirstZeroByte((uint64_t{w} ^ broadcast) | 0xFFFFFFFF00000000ull), 4u);
  } else {
    uint64_t lo, hi;
    std::memcpy(&lo, s->chunks, 8);
    std::memcpy(&hi, s->chunks + 8, 8);
    const unsigned in_lo = FirstZeroByte(lo ^ broadcast), in_hi = FirstZeroByte(hi ^ broadcast);
    index = in_lo < 8 ? in_lo : 8 + in_hi;
  }
  return index < s->count ? &s->children[index] : nullptr;
}

// The child pointer slot for `chunk`, or nullptr.
inline Node** ChildSlot(Node* n, uint8_t chunk) {
  switch (n->kind) {
    case kNode4:
      return SortedChildSlot(static_cast<Node4*>(n), chunk);
    case kNode16:
      return SortedChildSlot(static_cast<Node16*>(n), chunk);
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
inline Node* FindChild(const Node* n, uint8_t chunk) {
  Node** slot = ChildSlot(const_cast<Node*>(n), chunk);
  return slot ? *slot : nullptr;
}

template <typename T>
T* NewInner(Kind kind, uint8_t depth) {
  T* n = new T();
  n->kind = kind;
  n->depth = depth;
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
