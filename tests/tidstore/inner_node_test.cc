// Inner nodes (inner_node.h) on their own: the kind a burst leaf becomes and the kind a node grows
// into are the smallest that hold its children, at each capacity's exact edge; the zero-byte scan
// that finds a chunk.
#include "storage/tidstore/inner_node.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "storage/tidstore/leaf.h"
#include "storage/tidstore/tid_store_validate.h"
#include "tests/tidstore/test_leaves.h"

namespace pgstore::tidstore::internal {
namespace {

// The kind that holds `children` children.
Kind SmallestKind(size_t children) {
  return children <= 4 ? kNode4 : children <= 16 ? kNode16 : children <= 48 ? kNode48 : kNode256;
}

// FirstZeroByte is the index of the lowest zero byte, whatever the bytes around it (the borrow of
// the subtraction reaches the bytes above a zero byte, which may be 0x01 or zero too), or 8.
TEST(FirstZeroByteTest, TheLowestZeroByteOrEight) {
  for (const uint8_t filler : {0x01, 0x7F, 0x80, 0xFF}) {
    const uint64_t none = 0x0101010101010101ull * filler;
    EXPECT_EQ(FirstZeroByte(none), 8u) << int{filler};
    for (unsigned i = 0; i < 8; ++i) {
      const uint64_t zero_at_i = none & ~(0xFFull << (8 * i));
      EXPECT_EQ(FirstZeroByte(zero_at_i), i) << int{filler} << " " << i;
      const uint64_t zero_from_i = i == 0 ? 0 : none & ((1ull << (8 * i)) - 1);
      EXPECT_EQ(FirstZeroByte(zero_from_i), i) << int{filler} << " " << i;
    }
  }
}

TEST(BurstTest, ALeafBecomesTheSmallestNodeOverOneLeafPerChunk) {
  const std::vector<uint32_t> lows = {7, 0x1234, 0x2000};
  for (size_t chunks : {1, 2, 4, 5, 16, 17, 48, 49, 256}) {
    // A depth-1 leaf (3-byte suffixes) with three blocks under each of `chunks` top bytes, spread
    // over the byte range; each block's offsets a pair (a one-unit pool entry) 3 and 9 + c.
    std::vector<uint32_t> keys;
    for (size_t c = 0; c < chunks; ++c) {
      for (uint32_t low : lows) keys.push_back(static_cast<uint32_t>(c * 256 / chunks) << 16 | low);
    }
    std::unique_ptr<Leaf> leaf = MakeLeaf(1, keys, {});
    for (size_t i = 0; i < keys.size(); ++i) {
      leaf->slots.push_back(static_cast<uint16_t>(kPoolSlotBit | leaf->pool.size()));
      leaf->pool.push_back(static_cast<uint32_t>(9 + i / lows.size()) << 16 | 3);
    }
    std::unique_ptr<Node, void (*)(Node*)> node(Burst(leaf.release()), FreeNode);
    EXPECT_EQ(node->kind, SmallestKind(chunks)) << chunks << " chunks";
    EXPECT_EQ(node->depth, 1);
    EXPECT_EQ(node->count, chunks);
    size_t blocks = 0, tids = 0;
    const Status s = ValidateSubtree(node.get(), 1, &blocks, &tids);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(blocks, lows.size() * chunks);
    EXPECT_EQ(tids, 2 * lows.size() * chunks);
    for (size_t c = 0; c < chunks; ++c) {
      const Node* child = FindChild(node.get(), static_cast<uint8_t>(c * 256 / chunks));
      ASSERT_NE(child, nullptr) << c;
      ASSERT_EQ(child->kind, kLeaf);
      const Leaf* l = static_cast<const Leaf*>(child);
      ASSERT_EQ(l->size(), lows.size());
      for (size_t i = 0; i < lows.size(); ++i) {
        EXPECT_EQ(l->KeyAt(i), lows[i]);
        EXPECT_EQ(l->slots[i], kPoolSlotBit | i);  // each child's pool starts afresh
        EXPECT_EQ(l->pool[i], (static_cast<uint32_t>(9 + c) << 16 | 3));
      }
      // The children's arrays hold no spare capacity: the store's memory (NodeBytes counts
      // capacity) is what they hold.
      EXPECT_EQ(l->keys.capacity(), l->keys.size());
      EXPECT_EQ(l->slots.capacity(), l->slots.size());
      EXPECT_EQ(l->pool.capacity(), l->pool.size());
    }
  }
}

TEST(AddChildTest, ANodeGrowsIntoTheNextKindOnlyWhenFull) {
  std::vector<std::unique_ptr<Leaf>> leaves;
  Node* node = NewInner<Node4>(kNode4, 2);
  for (size_t n = 1; n <= 256; ++n) {
    // Chunks in descending order, so that every insertion into a sorted node shifts the others.
    const uint8_t chunk = static_cast<uint8_t>(256 - n);
    leaves.push_back(LeafOf(3, {1}));
    node = AddChild(node, chunk, leaves.back().get());
    ASSERT_EQ(node->kind, SmallestKind(n)) << n << " children";
    ASSERT_EQ(node->count, n);
    size_t blocks = 0, tids = 0;
    ASSERT_TRUE(ValidateSubtree(node, 2, &blocks, &tids).ok()) << n;
    ASSERT_EQ(blocks, n);
    ASSERT_EQ(FindChild(node, chunk), leaves.back().get());
  }
  // The leaves are the test's: free the node alone.
  delete static_cast<Node256*>(node);
}

}  // namespace
}  // namespace pgstore::tidstore::internal
