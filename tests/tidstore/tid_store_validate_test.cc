// TidStore::Validate is the store's amcheck: the fuzzers and property tests trust it to see a
// broken tree. These tests build nodes by hand (valid ones, then each broken in one way) and check
// that every invariant of leaf.h, bitmap_leaf.h, packed_leaf.h and inner_node.h is reported, by
// name, at its exact boundary, and that the blocks and TIDs are counted.
#include "storage/tidstore/tid_store_validate.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "storage/tidstore/bitmap_leaf.h"
#include "storage/tidstore/inner_node.h"
#include "storage/tidstore/leaf.h"
#include "storage/tidstore/offset_set.h"
#include "storage/tidstore/packed_leaf.h"
#include "tests/tidstore/test_leaves.h"
#include "tests/tidstore/test_peer.h"

namespace pgstore::tidstore::internal {
namespace {

// "ok", or the Corruption's message.
std::string Check(const Node* n, uint8_t depth) {
  size_t blocks = 0, tids = 0;
  const Status s = ValidateSubtree(n, depth, &blocks, &tids);
  if (s.ok()) return "ok";
  EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.ToString();
  return s.message();
}

TEST(ValidateLeafTest, CountsBlocksAndTidsOfEveryKindOfSlot) {
  std::unique_ptr<Leaf> l = MakeLeaf(3, {2, 7, 9, 200}, {});
  l->slots = {1, static_cast<uint16_t>(kPrefixRunSlot + 5), AddEntry(l.get(), {3, 9}),
              AddEntry(l.get(), {2, 4, 100, 300, 2048})};
  size_t blocks = 10, tids = 20;  // added to, not replaced
  ASSERT_TRUE(ValidateSubtree(l.get(), 3, &blocks, &tids).ok());
  EXPECT_EQ(blocks, 10u + 4);
  EXPECT_EQ(tids, 20u + 1 + 5 + 2 + 5);
}

TEST(ValidateLeafTest, DepthKeyArrayAndOrder) {
  EXPECT_EQ(Check(LeafOf(3, {5}).get(), 2), "node at the wrong depth");
  EXPECT_EQ(Check(LeafOf(2, {5}).get(), 2), "ok");
  // Width 2 at depth 2: the largest suffix fits.
  EXPECT_EQ(Check(LeafOf(2, {0, 1, 65535}).get(), 2), "ok");

  std::unique_ptr<Leaf> extra_byte = LeafOf(2, {5, 6});
  extra_byte->keys.push_back(0);
  EXPECT_EQ(Check(extra_byte.get(), 2), "leaf key array size");
  std::unique_ptr<Leaf> short_keys = LeafOf(2, {5, 6});
  short_keys->keys.pop_back();
  EXPECT_EQ(Check(short_keys.get(), 2), "leaf key array size");

  EXPECT_EQ(Check(LeafOf(1, {}).get(), 1), "empty leaf");
  EXPECT_EQ(Check(LeafOf(1, {4, 4}).get(), 1), "leaf keys not ascending");
  EXPECT_EQ(Check(LeafOf(1, {4, 5, 3}).get(), 1), "leaf keys not ascending");
  // Keys compare as numbers, not by their first (least significant) byte.
  EXPECT_EQ(Check(LeafOf(1, {0x0201, 0x0102}).get(), 1), "leaf keys not ascending");
  EXPECT_EQ(Check(LeafOf(1, {0x0102, 0x0201}).get(), 1), "ok");
}

TEST(ValidateLeafTest, EmbeddedValuesAtTheirBounds) {
  const std::vector<std::pair<uint16_t, bool>> cases = {
      {0, false},
      {1, true},
      {kMaxOffsetNumber, true},
      {kMaxOffsetNumber + 1, false},
      {kPrefixRunSlot, false},
      {kPrefixRunSlot + 1, false},  // offsets 1..1 are the embedded offset 1
      {kPrefixRunSlot + 2, true},
      {kPrefixRunSlot + kMaxOffsetNumber, true},
      {kPrefixRunSlot + kMaxOffsetNumber + 1, false},
  };
  for (const auto& [slot, valid] : cases) {
    EXPECT_EQ(Check(MakeLeaf(3, {1}, {slot}).get(), 3), valid ? "ok" : "bad embedded value")
        << "slot " << slot;
  }
}

TEST(ValidateLeafTest, PoolEntriesInsideThePoolAndWellFormed) {
  // A list of three offsets: a 2-byte header and 6 bytes, two units.
  std::unique_ptr<Leaf> l = MakeLeaf(3, {1}, {});
  l->slots = {AddEntry(l.get(), {3, 700, 2000})};
  ASSERT_EQ(l->pool.size(), 2u);
  EXPECT_EQ(Check(l.get(), 3), "ok");
  // The entry ends exactly at the pool's end; one unit short, it runs past it.
  l->pool.pop_back();
  EXPECT_EQ(Check(l.get(), 3), "pool entry outside the pool");
  l->pool.clear();
  EXPECT_EQ(Check(l.get(), 3), "pool entry outside the pool");

  // A slot naming the unit just past the pool.
  std::unique_ptr<Leaf> past = MakeLeaf(3, {1, 2}, {});
  past->slots = {AddEntry(past.get(), {3, 9}), static_cast<uint16_t>(kPoolSlotBit | 1)};
  past->pool.shrink_to_fit();  // so that reading the unit past it is out of bounds under ASan
  EXPECT_EQ(Check(past.get(), 3), "pool entry outside the pool");

  // A pair (first in the low 14 bits, second in the high 16) out of order, one with offset 0, one
  // past MaxOffsetNumber.
  for (const uint32_t pair : {(3u << 16) | 9u, (3u << 16) | 0u, (0x0801u << 16) | 0x0800u}) {
    std::unique_ptr<Leaf> bad = MakeLeaf(3, {1}, {static_cast<uint16_t>(kPoolSlotBit)});
    bad->pool = {pair};
    EXPECT_EQ(Check(bad.get(), 3), "malformed pool entry") << std::hex << pair;
  }
  std::unique_ptr<Leaf> good_pair = MakeLeaf(3, {1}, {static_cast<uint16_t>(kPoolSlotBit)});
  good_pair->pool = {(9u << 16) | 3u};
  ASSERT_EQ(EntryEncoding(good_pair->pool.data()), OffsetEncoding::kPair);
  EXPECT_EQ(Check(good_pair.get(), 3), "ok");
  // A list of one offset (a 2-byte payload): an entry must hold at least two.
  std::unique_ptr<Leaf> one = MakeLeaf(3, {1}, {static_cast<uint16_t>(kPoolSlotBit)});
  one->pool = {(1u << 14 | 2u) | (7u << 16)};
  ASSERT_EQ(EntryEncoding(one->pool.data()), OffsetEncoding::kList);
  ASSERT_EQ(EntryCount(one->pool.data()), 1u);
  EXPECT_EQ(Check(one.get(), 3), "malformed pool entry");
}

TEST(ValidateLeafTest, DeadPoolSpaceIsExactlyWhatNoSlotReferences) {
  std::unique_ptr<Leaf> l = MakeLeaf(3, {1, 2}, {});
  const uint16_t dead = AddEntry(l.get(), {3, 9});
  l->slots = {AddEntry(l.get(), {4, 8}), AddEntry(l.get(), {2, 4, 100, 300, 2048})};
  ASSERT_EQ(dead, kPoolSlotBit);
  l->dead_units = 1;
  EXPECT_EQ(Check(l.get(), 3), "ok");
  l->dead_units = 0;
  EXPECT_EQ(Check(l.get(), 3), "dead pool space miscounted");
  l->dead_units = 2;
  EXPECT_EQ(Check(l.get(), 3), "dead pool space miscounted");
}

// A frozen depth-3 leaf over `keys` (each with one offset), owned.
struct BitmapDeleter {
  void operator()(BitmapLeaf* b) const { BitmapLeaf::Free(b); }
};
std::unique_ptr<BitmapLeaf, BitmapDeleter> BitmapOf(const std::vector<uint32_t>& keys) {
  return std::unique_ptr<BitmapLeaf, BitmapDeleter>(BitmapLeaf::Freeze(*LeafOf(3, keys)));
}

TEST(ValidateBitmapLeafTest, EveryHeaderFieldIsChecked) {
  // Two blocks in each 64-block word, so that every rank is distinct and above the one before.
  const std::vector<uint32_t> keys = {1, 63, 64, 100, 128, 190, 192, 255};
  EXPECT_EQ(Check(BitmapOf(keys).get(), 3), "ok");
  EXPECT_EQ(Check(BitmapOf({0}).get(), 3), "ok");

  auto above = BitmapOf(keys);
  above->depth = 2;
  EXPECT_EQ(Check(above.get(), 2), "bitmap leaf above depth 3");
  for (int w = 0; w < 4; ++w) {
    for (int delta : {-1, 1}) {
      auto b = BitmapOf(keys);
      b->rank[w] = static_cast<uint8_t>(b->rank[w] + delta);
      EXPECT_EQ(Check(b.get(), 3), "bitmap leaf rank") << "rank[" << w << "] " << delta;
    }
  }
  for (int delta : {-1, 1}) {
    auto b = BitmapOf(keys);
    b->size += delta;
    EXPECT_EQ(Check(b.get(), 3), "bitmap leaf size") << delta;
  }
  // No block at all: the size agrees with the bitmap, and the leaf is still broken.
  auto empty = BitmapOf({200});  // in the last word: every rank 0
  empty->present[3] = 0;
  empty->size = 0;
  EXPECT_EQ(Check(empty.get(), 3), "bitmap leaf size");
  // A slot the layout checks cannot see is checked as a Leaf's.
  auto bad_slot = BitmapOf(keys);
  const_cast<uint16_t*>(bad_slot->slots())[3] = 0;
  EXPECT_EQ(Check(bad_slot.get(), 3), "bad embedded value");
}

// A packed copy of a leaf, owned, and its parts where packed_leaf.h's layout puts them.
struct PackedDeleter {
  void operator()(PackedLeaf* p) const { PackedLeaf::Free(p); }
};
using PackedPtr = std::unique_ptr<PackedLeaf, PackedDeleter>;

PackedPtr Copy(const PackedLeaf& p) {
  PackedLeaf* copy = static_cast<PackedLeaf*>(::operator new(p.Bytes()));
  std::memcpy(static_cast<void*>(copy), &p, p.Bytes());
  return PackedPtr(copy);
}
uint32_t* Firsts(PackedLeaf* p) { return const_cast<uint32_t*>(p->pool()) + p->pool_units; }
uint32_t* Buckets(PackedLeaf* p) { return Firsts(p) + p->num_groups; }
uint8_t* Layout(PackedLeaf* p, size_t group) {
  return reinterpret_cast<uint8_t*>(Buckets(p) + p->num_buckets + 1) + 8 * group;
}
// A group layout's fields (bit_offset:24 | extra_bits:6 | slot_bits:5 | tagged:1 | step:28).
uint64_t LoadLayout(PackedLeaf* p, size_t g) {
  uint64_t v;
  std::memcpy(&v, Layout(p, g), 8);
  return v;
}
void StoreLayout(PackedLeaf* p, size_t g, uint64_t v) { std::memcpy(Layout(p, g), &v, 8); }
void SetField(PackedLeaf* p, size_t g, int shift, int bits, uint64_t value) {
  const uint64_t mask = ((uint64_t{1} << bits) - 1) << shift;
  StoreLayout(p, g, (LoadLayout(p, g) & ~mask) | (value << shift));
}
constexpr int kExtraShift = 24, kSlotShift = 30, kStepShift = 36;

// `n` blocks 63 apart from 0 (130: three groups, of 64, 64 and 2), at `depth`.
PackedPtr Packed(uint8_t depth, uint32_t n = 130) {
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < n; ++i) keys.push_back(63 * i);
  PackedLeaf* p = PackedLeaf::Pack(*LeafOf(depth, keys));
  EXPECT_NE(p, nullptr);
  return PackedPtr(p);
}

// (Not a check of Validate's, but of what it reads: Decode gives exactly the leaf's entries,
// replacing whatever the vectors held.)
TEST(ValidatePackedLeafTest, DecodeReplacesTheVectorsContents) {
  const PackedPtr p = Packed(2, 3);
  std::vector<uint32_t> keys = {7, 8};
  std::vector<uint16_t> slots = {9};
  p->Decode(&keys, &slots);
  EXPECT_EQ(keys, (std::vector<uint32_t>{0, 63, 126}));
  EXPECT_EQ(slots, (std::vector<uint16_t>{1, 1, 1}));
}

TEST(ValidatePackedLeafTest, TheLayoutAsPackMakesIt) {
  const PackedPtr valid = Packed(2);
  ASSERT_EQ(valid->num_groups, 3u);
  ASSERT_EQ(Check(valid.get(), 2), "ok");
  // Group 0's layout as Pack writes it: constant gaps, so no extra bits; step 63.
  ASSERT_EQ(LoadLayout(valid.get(), 0) >> kStepShift, 63u);
  ASSERT_EQ((LoadLayout(valid.get(), 0) >> kExtraShift) & 63, 0u);

  auto broken = [&](auto&& edit) {
    PackedPtr p = Copy(*valid);
    edit(p.get());
    return Check(p.get(), 2);
  };
  EXPECT_EQ(broken([](PackedLeaf* p) { p->size = 0; }), "empty packed leaf");
  EXPECT_EQ(broken([](PackedLeaf* p) { p->num_groups = 2; }), "packed leaf group count");
  EXPECT_EQ(broken([](PackedLeaf* p) { p->num_groups = 4; }), "packed leaf group count");
  // 128 blocks are two full groups; 129 need a third.
  EXPECT_EQ(broken([](PackedLeaf* p) { p->size = 128; }), "packed leaf group count");
  // Pack's own leaves of 128 and 129 blocks (a last group of one) are valid.
  EXPECT_EQ(Check(Packed(2, 128).get(), 2), "ok");
  EXPECT_EQ(Check(Packed(2, 129).get(), 2), "ok");

  EXPECT_EQ(broken([](PackedLeaf* p) { ++p->bucket_shift; }), "packed group index");
  EXPECT_EQ(broken([](PackedLeaf* p) { --p->bucket_shift; }), "packed group index");
  EXPECT_EQ(broken([](PackedLeaf* p) { --p->num_buckets; }), "packed group index");
  EXPECT_EQ(broken([](PackedLeaf* p) { ++p->num_buckets; }), "packed group index");
  for (uint32_t b = 0; b <= valid->num_buckets; ++b) {
    EXPECT_EQ(broken([b](PackedLeaf* p) { ++Buckets(p)[b]; }), "packed group index") << b;
  }

  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 1, 0, 24, 1); }), "packed group bit offset");
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 0, 0, 24, 1); }), "packed group bit offset");
  // Widths up to 32 extra bits and 16 slot bits are read (and here make the stream too short).
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 2, kExtraShift, 6, 32); }),
            "packed stream size");
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 2, kExtraShift, 6, 33); }),
            "packed group widths");
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 2, kSlotShift, 5, 16); }), "packed stream size");
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 2, kSlotShift, 5, 17); }),
            "packed group widths");
  EXPECT_EQ(broken([](PackedLeaf* p) { SetField(p, 1, kStepShift, 28, 0); }),
            "packed group widths");
  EXPECT_EQ(broken([](PackedLeaf* p) { ++p->stream_bytes; }), "packed stream size");
  EXPECT_EQ(broken([](PackedLeaf* p) { --p->stream_bytes; }), "packed stream size");
}

// The group index's shift is the least that puts the last group's first key in a bucket
// (packed_leaf.h). Four groups make two buckets; first keys 0, 64, 128 and `last`: a span of 256 is
// 2 << 7, the first span that needs a shift of 8 (256 >> 7 is bucket 2, past the last).
TEST(ValidatePackedLeafTest, BucketShiftIsTheLeastThatPutsTheLastGroupInABucket) {
  auto shift_for = [](uint32_t last) {
    std::vector<uint32_t> keys;
    for (uint32_t k = 0; k < 192; ++k) keys.push_back(k);
    for (uint32_t k = last; k < last + 64; ++k) keys.push_back(k);
    const PackedPtr p(PackedLeaf::Pack(*LeafOf(2, keys)));
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(p->num_groups, 4u);
    EXPECT_EQ(p->num_buckets, 2u);
    EXPECT_EQ(Check(p.get(), 2), "ok");
    return p->bucket_shift;
  };
  EXPECT_EQ(shift_for(255), 7u);
  EXPECT_EQ(shift_for(256), 8u);
  EXPECT_EQ(shift_for(511), 8u);
  EXPECT_EQ(shift_for(512), 9u);
}

// Each key is compared with the one before, from a group's second: keys 0, 1, 2 with slots 3, 1,
// 1 are a stream of 2-bit slots; read instead as 2-bit extras (no slot bits, the same stream
// length) they are extras 3, 1, 1 and keys 3, 2, 3, the second below the first.
TEST(ValidatePackedLeafTest, AGroupsSecondKeyIsAboveItsFirst) {
  const PackedPtr p(PackedLeaf::Pack(*MakeLeaf(2, {0, 1, 2}, {3, 1, 1})));
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->ValidateLayout().ok());
  SetField(p.get(), 0, kExtraShift, 6, 2);
  SetField(p.get(), 0, kSlotShift, 5, 0);
  EXPECT_EQ(p->ValidateLayout().message(), "leaf keys not ascending");
}

TEST(ValidatePackedLeafTest, DecodedKeysAscendAndFitTheWidth) {
  const PackedPtr valid = Packed(2);
  auto with_step = [&](size_t group, uint64_t step) {
    PackedPtr p = Copy(*valid);
    SetField(p.get(), group, kStepShift, 28, step);
    return Check(p.get(), 2);
  };
  // Group 0 with step 64 ends at 63 * 64, group 1's first key: equal is not ascending (in the
  // layout's own check, before the unpacked leaf's).
  EXPECT_EQ(with_step(0, 64), "leaf keys not ascending");
  PackedPtr equal = Copy(*valid);
  SetField(equal.get(), 0, kStepShift, 28, 64);
  EXPECT_EQ(equal->ValidateLayout().message(), "leaf keys not ascending");
  EXPECT_EQ(with_step(0, 65), "leaf keys not ascending");
  // The last group is blocks 128 * 63 and 128 * 63 + step: at most 65535 at depth 2.
  EXPECT_EQ(with_step(2, 65535 - 128 * 63), "ok");
  EXPECT_EQ(with_step(2, 65536 - 128 * 63), "packed key beyond the leaf's width");
  // At depth 1 the same keys have three bytes.
  const PackedPtr wide = Packed(1);
  PackedPtr p = Copy(*wide);
  SetField(p.get(), 2, kStepShift, 28, 65536 - 128 * 63);
  EXPECT_EQ(Check(p.get(), 1), "ok");
  SetField(p.get(), 2, kStepShift, 28, (1u << 24) - 128 * 63);
  EXPECT_EQ(Check(p.get(), 1), "packed key beyond the leaf's width");
}

// Inner nodes own nothing here: the leaves below them are the test's.
template <typename T>
std::unique_ptr<T> Inner(Kind kind, uint8_t depth) {
  return std::unique_ptr<T>(NewInner<T>(kind, depth));
}

TEST(ValidateInnerNodeTest, SortedNodes) {
  std::vector<std::unique_ptr<Leaf>> leaves;
  for (int i = 0; i < 16; ++i) leaves.push_back(LeafOf(3, {static_cast<uint32_t>(i)}));
  auto node4 = Inner<Node4>(kNode4, 2);
  for (int i = 0; i < 4; ++i) {
    node4->chunks[i] = static_cast<uint8_t>(10 * i);
    node4->children[i] = leaves[i].get();
  }
  node4->count = 4;
  size_t blocks = 0, tids = 0;
  ASSERT_TRUE(ValidateSubtree(node4.get(), 2, &blocks, &tids).ok());
  EXPECT_EQ(blocks, 4u);
  EXPECT_EQ(tids, 4u);
  EXPECT_EQ(Check(node4.get(), 1), "node at the wrong depth");
  node4->depth = 3;
  EXPECT_EQ(Check(node4.get(), 3), "inner node below depth 2");
  node4->depth = 2;

  node4->chunks[2] = node4->chunks[1];
  EXPECT_EQ(Check(node4.get(), 2), "chunks not ascending");
  node4->chunks[2] = 5;
  EXPECT_EQ(Check(node4.get(), 2), "chunks not ascending");
  node4->chunks[2] = 20;
  node4->children[3] = nullptr;
  EXPECT_EQ(Check(node4.get(), 2), "null child");
  node4->count = 0;
  EXPECT_EQ(Check(node4.get(), 2), "child count");
  // A count past the arrays is reported before they are read.
  node4->count = 5;
  EXPECT_EQ(Check(node4.get(), 2), "node over capacity");
  // A child at the wrong depth below it.
  node4->count = 1;
  node4->children[0] = leaves[0].get();
  leaves[0]->depth = 2;
  EXPECT_EQ(Check(node4.get(), 2), "node at the wrong depth");
  leaves[0]->depth = 3;

  std::vector<std::unique_ptr<Leaf>> wide;
  auto node16 = Inner<Node16>(kNode16, 0);
  for (int i = 0; i < 16; ++i) {
    wide.push_back(LeafOf(1, {static_cast<uint32_t>(i)}));
    node16->chunks[i] = static_cast<uint8_t>(i);
    node16->children[i] = wide.back().get();
  }
  node16->count = 16;
  EXPECT_EQ(Check(node16.get(), 0), "ok");
  node16->count = 17;
  EXPECT_EQ(Check(node16.get(), 0), "node over capacity");
}

TEST(ValidateInnerNodeTest, Node48IndexAndCapacity) {
  std::vector<std::unique_ptr<Leaf>> leaves;
  for (int i = 0; i < 49; ++i) leaves.push_back(LeafOf(2, {static_cast<uint32_t>(i)}));
  auto full = [&]() {
    auto n = Inner<Node48>(kNode48, 1);
    std::memset(n->index, kEmpty48, sizeof(n->index));
    // Chunk 5 * i is child 47 - i: the index, not the children, is in chunk order.
    for (int i = 0; i < 48; ++i) {
      n->index[5 * i] = static_cast<uint8_t>(47 - i);
      n->children[47 - i] = leaves[i].get();
    }
    n->count = 48;
    return n;
  };
  EXPECT_EQ(Check(full().get(), 1), "ok");
  size_t blocks = 0, tids = 0;
  ASSERT_TRUE(ValidateSubtree(full().get(), 1, &blocks, &tids).ok());
  EXPECT_EQ(blocks, 48u);

  auto fewer = full();
  fewer->count = 47;  // 48 index entries, one of them naming child 47
  EXPECT_EQ(Check(fewer.get(), 1), "node48 index");
  auto unnamed = full();
  unnamed->index[0] = kEmpty48;  // child 47 named by no entry: 47 children counted
  EXPECT_EQ(Check(unnamed.get(), 1), "child count");
  // 48 entries for 48 children, child 47 named twice (and child 46 by none).
  auto twice = full();
  twice->index[5] = 47;
  EXPECT_EQ(Check(twice.get(), 1), "node48 index");
  // 47 entries for 47 children, one of them naming child 47, past count.
  auto past_count = full();
  past_count->index[0] = kEmpty48;  // 47 entries, naming 0..46 (child 47 dropped)
  past_count->index[5] = kEmpty48;  // 46 entries
  past_count->index[7] = 47;        // child 47 named again, and counted: 47 children
  past_count->count = 47;
  EXPECT_EQ(Check(past_count.get(), 1), "node48 index");
  // The index is checked at both ends, and before any child is read: an entry naming no child
  // (past the children array) at chunk 3, a child named again at chunk 255.
  auto beyond = full();
  beyond->index[3] = 200;
  EXPECT_EQ(Check(beyond.get(), 1), "node48 index");
  auto last_chunk = full();
  last_chunk->index[255] = 47;  // chunk 0 names it too
  EXPECT_EQ(Check(last_chunk.get(), 1), "node48 index");
  // 49 entries (one child named twice) in a node counting 49: over capacity.
  auto over = full();
  over->index[1] = 0;
  over->count = 49;
  EXPECT_EQ(Check(over.get(), 1), "node over capacity");
}

TEST(ValidateInnerNodeTest, Node256) {
  std::vector<std::unique_ptr<Leaf>> leaves;
  for (int i = 0; i < 256; ++i) leaves.push_back(LeafOf(1, {static_cast<uint32_t>(i)}));
  auto n = Inner<Node256>(kNode256, 0);
  for (int i = 0; i < 256; ++i) n->children[i] = leaves[i].get();
  n->count = 256;
  size_t blocks = 0, tids = 0;
  ASSERT_TRUE(ValidateSubtree(n.get(), 0, &blocks, &tids).ok());
  EXPECT_EQ(blocks, 256u);
  n->children[9] = nullptr;
  EXPECT_EQ(Check(n.get(), 0), "child count");
  n->count = 255;
  EXPECT_EQ(Check(n.get(), 0), "ok");
  n->count = 257;
  EXPECT_EQ(Check(n.get(), 0), "node over capacity");
  for (auto& c : n->children) c = nullptr;
  n->count = 0;
  EXPECT_EQ(Check(n.get(), 0), "child count");
}

}  // namespace
}  // namespace pgstore::tidstore::internal

namespace pgstore::tidstore {
namespace {

// The store's own counts, which no API call can make wrong: the test breaks them directly.

TEST(ValidateStoreTest, TheStoresBlockAndTidCountsMustMatchItsTree) {
  StatusOr<TidStore> built = TidStore::BuildFromSorted({{1, 1}, {1, 2}, {7, 3}});
  ASSERT_TRUE(built.ok());
  TidStore& s = *built;
  ASSERT_TRUE(s.Validate().ok());
  for (const int delta : {1, -1}) {
    TidStoreTestPeer::Blocks(s) += delta;
    EXPECT_EQ(s.Validate().message(), "block count") << delta;
    TidStoreTestPeer::Blocks(s) -= delta;
    TidStoreTestPeer::Tids(s) += delta;
    EXPECT_EQ(s.Validate().message(), "TID count") << delta;
    TidStoreTestPeer::Tids(s) -= delta;
  }
  EXPECT_TRUE(s.Validate().ok());
}

// The lookup shortcut: the first node on the root's path that is a leaf or branches, reached by
// its prefix's key bytes. Blocks 0x01020300 and 0x01020400 branch at the depth-2 node.
TEST(ValidateStoreTest, TheShortcutIsTheFirstBranchingNodeOnThePrefixsPath) {
  TidStore s(/*burst_entries=*/1);
  ASSERT_TRUE(s.SetBlockOffsets(0x01020300, {1}).ok());
  ASSERT_TRUE(s.SetBlockOffsets(0x01020400, {1}).ok());
  ASSERT_TRUE(s.Validate().ok());
  const TidStore::Node* shortcut = TidStoreTestPeer::Shortcut(s);
  ASSERT_EQ(shortcut->depth, 2);
  const TidStore::Node* root = TidStoreTestPeer::Root(s);
  const TidStore::Node* depth1 = internal::FindChild(root, 0x01);
  struct Case {
    const TidStore::Node* shortcut;
    uint32_t prefix;
    const char* message;
  };
  TidStore other(/*burst_entries=*/1);  // the same shape under other key bytes
  ASSERT_TRUE(other.SetBlockOffsets(0x05060300, {1}).ok());
  ASSERT_TRUE(other.SetBlockOffsets(0x05060400, {1}).ok());
  const Case cases[] = {
      {TidStoreTestPeer::Shortcut(other), 0x01020000,  // a branching node, not this store's
       "lookup shortcut prefix"},
      {root, 0, "lookup shortcut"},                      // a single-child node above the branch
      {depth1, 0x01000000, "lookup shortcut"},           // the same, one level down
      {internal::FindChild(shortcut, 0x03), 0x01020300,  // past the branch
       "lookup shortcut"},
      {shortcut, 0x01030000, "lookup shortcut prefix"},  // a byte that leads nowhere
      {shortcut, 0x02020000, "lookup shortcut prefix"},
      {nullptr, 0, "lookup shortcut"},
  };
  const uint32_t prefix = TidStoreTestPeer::ShortcutPrefix(s);
  EXPECT_EQ(prefix >> 16, 0x0102u);
  for (const Case& c : cases) {
    TidStoreTestPeer::Shortcut(s) = c.shortcut;
    TidStoreTestPeer::ShortcutPrefix(s) = c.prefix;
    EXPECT_EQ(s.Validate().message(), c.message) << std::hex << c.prefix;
  }
  TidStoreTestPeer::Shortcut(s) = shortcut;
  TidStoreTestPeer::ShortcutPrefix(s) = prefix;
  EXPECT_TRUE(s.Validate().ok());
  TidStore empty;
  TidStoreTestPeer::Shortcut(empty) = shortcut;
  EXPECT_EQ(empty.Validate().message(), "lookup shortcut");
  TidStoreTestPeer::Shortcut(empty) = nullptr;
}

}  // namespace
}  // namespace pgstore::tidstore
