// The mutable leaf's growth policy (WithHeadroom) where its arrays grow and where CompactPool
// rebuilds the pool: the store's MemoryUsage counts capacity, so the headroom is what a leaf
// costs beyond its data. Capacities are compared exactly: std::vector::reserve(n) allocates n in
// libstdc++, the only standard library pgstore builds with.
#include "storage/tidstore/leaf.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "storage/tidstore/inner_node.h"
#include "storage/tidstore/offset_set.h"
#include "tests/tidstore/test_leaves.h"

namespace pgstore::tidstore::internal {
namespace {

// A Leaf's memory is its header and its arrays' capacity (keys of width() bytes, 2-byte slots,
// 4-byte pool units), which is what the store's MemoryUsage counts for it.
TEST(LeafMemoryTest, HeaderAndTheArraysCapacity) {
  std::unique_ptr<Leaf> l = LeafOf(2, {1, 2, 3});
  l->keys.reserve(10);
  l->slots.reserve(5);
  l->pool.reserve(7);
  ASSERT_EQ(l->keys.capacity(), 10u);
  ASSERT_EQ(l->slots.capacity(), 5u);
  ASSERT_EQ(l->pool.capacity(), 7u);
  EXPECT_EQ(l->Bytes(), sizeof(Leaf) + 10 + 5 * 2 + 7 * 4);
  EXPECT_EQ(NodeBytes(l.get()), l->Bytes());
}

TEST(LeafGrowthTest, HeadroomIsAnEighthPlusFour) {
  EXPECT_EQ(WithHeadroom(0), 4u);
  EXPECT_EQ(WithHeadroom(7), 11u);  // 7 / 8 rounds down
  EXPECT_EQ(WithHeadroom(8), 13u);
  EXPECT_EQ(WithHeadroom(800), 904u);
}

TEST(LeafGrowthTest, ReserveOneMoreGrowsOnlyWhenShort) {
  std::vector<uint16_t> v(16);
  v.shrink_to_fit();
  ASSERT_EQ(v.capacity(), 16u);
  ReserveOneMore(&v, 3);
  EXPECT_EQ(v.capacity(), WithHeadroom(16) + 3);

  std::vector<uint16_t> exact(16);
  exact.reserve(19);
  ReserveOneMore(&exact, 3);  // 16 + 3 fit exactly: no reallocation
  EXPECT_EQ(exact.capacity(), 19u);
  ReserveOneMore(&exact, 4);
  EXPECT_EQ(exact.capacity(), WithHeadroom(16) + 4);
}

TEST(LeafGrowthTest, AppendValueGrowsThePoolWithHeadroom) {
  std::unique_ptr<Leaf> l = MakeLeaf(3, {1}, {});
  EXPECT_EQ(AppendValue(l.get(), {}, 9), 9);  // an embedded value takes no pool space
  EXPECT_TRUE(l->pool.empty());
  l->pool.assign(40, 0);
  l->pool.shrink_to_fit();
  ASSERT_EQ(l->pool.capacity(), 40u);
  const std::vector<uint32_t> entry = {1, 2, 3};
  EXPECT_EQ(AppendValue(l.get(), entry, 0), kPoolSlotBit | 40);
  EXPECT_EQ(l->pool.size(), 43u);
  EXPECT_EQ(l->pool.capacity(), WithHeadroom(40) + 3);
}

TEST(LeafGrowthTest, CompactPoolKeepsLiveEntriesWithHeadroom) {
  // Keys 1..20, each with a pool entry of two offsets; then every other key's value is replaced by
  // an embedded offset, leaving its entry dead.
  std::vector<uint32_t> keys;
  for (uint32_t k = 1; k <= 20; ++k) keys.push_back(k);
  std::unique_ptr<Leaf> l = MakeLeaf(3, keys, {});
  for (uint16_t k = 1; k <= 20; ++k) l->slots.push_back(AddEntry(l.get(), {k, uint16_t(k + 300)}));
  for (size_t i = 0; i < l->slots.size(); i += 2) {
    l->dead_units += EntryUnits(l->Entry(l->slots[i]));
    l->slots[i] = 7;
  }
  const size_t live = l->LiveUnits();
  ASSERT_GT(l->dead_units, 0u);

  CompactPool(l.get());
  EXPECT_EQ(l->dead_units, 0u);
  EXPECT_EQ(l->pool.size(), live);
  EXPECT_EQ(l->pool.capacity(), WithHeadroom(live));
  for (size_t i = 0; i < l->slots.size(); ++i) {
    std::vector<uint16_t> offsets;
    AppendSlotOffsets(l->slots[i], l->pool.data(), &offsets);
    const uint16_t k = static_cast<uint16_t>(i + 1);
    if (i % 2 == 0) {
      EXPECT_EQ(offsets, std::vector<uint16_t>{7});
    } else {
      EXPECT_EQ(offsets, (std::vector<uint16_t>{k, uint16_t(k + 300)}));
    }
  }
}

}  // namespace
}  // namespace pgstore::tidstore::internal
