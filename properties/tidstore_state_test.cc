// Stateful laws of storage/tidstore: every operation sequence leaves the radix store (and the
// sorted-array baseline) equal to the model, std::map<block, std::set<offset>>.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <map>
#include <ostream>
#include <vector>

#include "properties/generators/tidstore_generators.h"
#include "properties/models/tidstore_model.h"
#include "storage/tidstore/sorted_array_tid_store.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {
namespace {

using generators::genBlock;
using generators::genInvalidOffsets;
using generators::genOffsets;
using models::TidStoreModel;

struct Stores {
  explicit Stores(size_t burst) : radix(burst) {}
  TidStore radix;
  SortedArrayTidStore array;
};

using Command = rc::state::Command<TidStoreModel, Stores>;

std::map<uint32_t, std::vector<uint16_t>> Contents(const TidStore& s) {
  std::map<uint32_t, std::vector<uint16_t>> out;
  s.ForEachBlock([&out](uint32_t b, const std::vector<uint16_t>& o) {
    const bool ascending = out.empty() || b > out.rbegin()->first;  // each block once, in order
    RC_ASSERT(ascending);
    out[b] = o;
    return true;
  });
  return out;
}

void CheckCounts(const TidStoreModel& m, const Stores& s) {
  const Status valid = s.radix.Validate();
  RC_ASSERT(valid.ok());
  RC_ASSERT(s.radix.num_blocks() == m.size());
  RC_ASSERT(s.radix.num_tids() == models::ModelTidCount(m));
  RC_ASSERT(s.array.num_tids() == models::ModelTidCount(m));
}

// A block already in the model half of the time (replacing it), else a generated one.
uint32_t PickBlock(const TidStoreModel& m) {
  if (!m.empty() && *rc::gen::arbitrary<bool>()) {
    auto it = m.begin();
    std::advance(it, *rc::gen::inRange<size_t>(0, m.size()));
    return it->first;
  }
  return *genBlock();
}

struct SetOffsets : Command {
  uint32_t block;
  std::vector<uint16_t> offsets;
  explicit SetOffsets(const TidStoreModel& m) : block(PickBlock(m)), offsets(*genOffsets()) {}
  void apply(TidStoreModel& m) const override { m[block] = {offsets.begin(), offsets.end()}; }
  void run(const TidStoreModel& m, Stores& s) const override {
    RC_ASSERT(s.radix.SetBlockOffsets(block, offsets).ok());
    RC_ASSERT(s.array.SetBlockOffsets(block, offsets).ok());
    RC_ASSERT(s.radix.BlockOffsets(block) == offsets);
    TidStoreModel next = m;
    apply(next);
    CheckCounts(next, s);
  }
  void show(std::ostream& os) const override {
    os << "SetOffsets(" << block << ", " << offsets.size() << " offsets)";
  }
};

struct SetInvalidOffsets : Command {
  uint32_t block;
  std::vector<uint16_t> offsets;
  explicit SetInvalidOffsets(const TidStoreModel& m)
      : block(PickBlock(m)), offsets(*genInvalidOffsets()) {}
  void apply(TidStoreModel&) const override {}
  void run(const TidStoreModel& m, Stores& s) const override {
    const size_t memory = s.radix.MemoryUsage();
    RC_ASSERT(s.radix.SetBlockOffsets(block, offsets).IsInvalidArgument());
    RC_ASSERT(s.array.SetBlockOffsets(block, offsets).IsInvalidArgument());
    RC_ASSERT(s.radix.MemoryUsage() == memory);
    RC_ASSERT(Contents(s.radix) == models::ModelContents(m));
    CheckCounts(m, s);
  }
  void show(std::ostream& os) const override {
    os << "SetInvalidOffsets(" << block << ", " << offsets.size() << " offsets)";
  }
};

struct IsMember : Command {
  uint32_t block;
  uint16_t offset;
  explicit IsMember(const TidStoreModel& m) {
    block = PickBlock(m);
    const auto it = m.find(block);
    if (it != m.end() && *rc::gen::arbitrary<bool>()) {
      // One of the set, often its first or last (a run's edges), or a neighbour of it.
      const size_t n = it->second.size();
      auto o = it->second.begin();
      std::advance(o, *rc::gen::element<size_t>(0, n - 1, *rc::gen::inRange<size_t>(0, n)));
      offset = static_cast<uint16_t>(*o + *rc::gen::element(-1, 0, 0, 1));
    } else {
      offset = *rc::gen::inRange<uint16_t>(0, 2050);
    }
    if (*rc::gen::weightedElement<bool>({{4, false}, {1, true}})) {
      block += *rc::gen::element(-1, 1);  // a neighbouring block
    }
  }
  void apply(TidStoreModel&) const override {}
  void run(const TidStoreModel& m, Stores& s) const override {
    const bool want = models::ModelIsMember(m, block, offset);  // NOLINT
    RC_ASSERT(s.radix.IsMember({block, offset}) == want);
    RC_ASSERT(s.array.IsMember({block, offset}) == want);
    CheckCounts(m, s);
  }
  void show(std::ostream& os) const override {
    os << "IsMember(" << block << ", " << offset << ")";
  }
};

struct Iterate : Command {
  explicit Iterate(const TidStoreModel&) {}
  void apply(TidStoreModel&) const override {}
  void run(const TidStoreModel& m, Stores& s) const override {
    RC_ASSERT(Contents(s.radix) == models::ModelContents(m));
    std::map<uint32_t, std::vector<uint16_t>> array;
    s.array.ForEachBlock([&array](uint32_t b, const std::vector<uint16_t>& o) {
      array[b] = o;
      return true;
    });
    RC_ASSERT(array == models::ModelContents(m));
    CheckCounts(m, s);
  }
  void show(std::ostream& os) const override { os << "Iterate"; }
};

struct RemoveBlock : Command {
  uint32_t block;
  explicit RemoveBlock(const TidStoreModel& m) : block(PickBlock(m)) {}
  void apply(TidStoreModel& m) const override { m.erase(block); }
  void run(const TidStoreModel& m, Stores& s) const override {
    const bool present = m.count(block) > 0;
    RC_ASSERT(s.radix.RemoveBlock(block) == present);
    RC_ASSERT(s.array.RemoveBlock(block) == present);
    RC_ASSERT(!s.radix.IsMember({block, present ? *m.at(block).begin() : uint16_t{1}}));
    TidStoreModel next = m;
    apply(next);
    CheckCounts(next, s);
  }
  void show(std::ostream& os) const override { os << "RemoveBlock(" << block << ")"; }
};

struct UnionWith : Command {
  std::map<uint32_t, std::vector<uint16_t>> other;
  explicit UnionWith(const TidStoreModel& m) {
    for (int i = *rc::gen::inRange(0, 12); i > 0; --i) other[PickBlock(m)] = *genOffsets();
  }
  void apply(TidStoreModel& m) const override {
    for (const auto& [b, o] : other) m[b].insert(o.begin(), o.end());
  }
  void run(const TidStoreModel& m, Stores& s) const override {
    TidStore b;
    for (const auto& [block, offsets] : other) RC_ASSERT(b.SetBlockOffsets(block, offsets).ok());
    s.radix = TidStore::Union(s.radix, b);
    TidStoreModel next = m;
    apply(next);
    RC_ASSERT(Contents(s.radix) == models::ModelContents(next));
    // Keep the baseline in step.
    for (const auto& [block, offsets] : models::ModelContents(next)) {
      RC_ASSERT(s.array.SetBlockOffsets(block, offsets).ok());
    }
    CheckCounts(next, s);
  }
  void show(std::ostream& os) const override { os << "UnionWith(" << other.size() << " blocks)"; }
};

// What BuildFromSorted and Union end with: wide leaves packed, changed again later.
struct Shrink : Command {
  explicit Shrink(const TidStoreModel&) {}
  void apply(TidStoreModel&) const override {}
  void run(const TidStoreModel& m, Stores& s) const override {
    const size_t before = s.radix.MemoryUsage();
    s.radix.ShrinkToFit();
    RC_ASSERT(s.radix.MemoryUsage() <= before);
    RC_ASSERT(Contents(s.radix) == models::ModelContents(m));
    CheckCounts(m, s);
  }
  void show(std::ostream& os) const override { os << "Shrink"; }
};

struct MemorySanity : Command {
  explicit MemorySanity(const TidStoreModel&) {}
  void apply(TidStoreModel&) const override {}
  void run(const TidStoreModel& m, Stores& s) const override {
    const size_t bytes = s.radix.MemoryUsage();
    RC_ASSERT((bytes == 0) == m.empty());
    // Every block costs at least the one bit of its (non-zero) slot in a packed leaf.
    RC_ASSERT(bytes * 8 >= m.size());
    RC_ASSERT(s.array.MemoryUsage() >= 6 * models::ModelTidCount(m));
  }
  void show(std::ostream& os) const override { os << "MemorySanity"; }
};

RC_GTEST_PROP(TidStoreProperty, OperationSequencesMatchTheModel, ()) {
  // Small burst thresholds grow trees of every height and node size from few blocks.
  const size_t burst = *rc::gen::element<size_t>(1, 2, 4, 16, 64, kDefaultBurstEntries);
  RC_TAG(burst);
  Stores stores(burst);
  rc::state::check(
      TidStoreModel(), stores,
      rc::state::gen::execOneOfWithArgs<SetOffsets, SetOffsets, SetOffsets, SetInvalidOffsets,
                                        IsMember, IsMember, Iterate, RemoveBlock, UnionWith, Shrink,
                                        MemorySanity>());
  RC_ASSERT(Contents(stores.radix).size() == stores.radix.num_blocks());
}

// Many keys sharing prefixes: every node size (4, 16, 48, 256) at every depth; then half of them
// removed in random order, new ones added into the holes, and everything removed.
RC_GTEST_PROP(TidStoreProperty, DenseKeySpacesGrowAndShrinkEveryNodeSize, ()) {
  const size_t burst = *rc::gen::element<size_t>(1, 3, 8);
  TidStore s(burst);
  TidStoreModel m;
  const uint32_t base = *genBlock();
  const uint32_t stride = *rc::gen::element<uint32_t>(1, 3, 256, 257, 65536, 16777216);
  const auto add = [&](uint32_t block) {
    const std::vector<uint16_t> offsets = *genOffsets();
    RC_ASSERT(s.SetBlockOffsets(block, offsets).ok());
    m[block] = {offsets.begin(), offsets.end()};
  };
  const auto check = [&] {
    const Status valid = s.Validate();
    RC_ASSERT(valid.ok());
    RC_ASSERT(Contents(s) == models::ModelContents(m));
  };
  const int count = *rc::gen::inRange(1, 700);
  for (int i = 0; i < count; ++i) add(base + static_cast<uint32_t>(i) * stride);
  check();
  std::vector<uint32_t> blocks;
  for (const auto& [b, o] : m) blocks.push_back(b);
  // A random order: swap each position with a generated later one.
  for (size_t i = 0; i + 1 < blocks.size(); ++i) {
    std::swap(blocks[i], blocks[*rc::gen::inRange<size_t>(i, blocks.size())]);
  }
  for (size_t i = 0; i < blocks.size() / 2; ++i) {
    RC_ASSERT(s.RemoveBlock(blocks[i]));
    m.erase(blocks[i]);
  }
  check();
  for (int i = 0; i < count / 2; ++i) add(base + static_cast<uint32_t>(i) * stride + stride / 2);
  check();
  while (!m.empty()) {
    RC_ASSERT(s.RemoveBlock(m.begin()->first));
    m.erase(m.begin());
  }
  check();
  RC_ASSERT(s.MemoryUsage() == 0u);
}

// Sparse blocks a constant step apart, some of them moved by a jitter, bulk-loaded: the leaves are
// packed (groups of 64, a group index over them). Every stored TID is found, and nothing else: the
// blocks between, each block's neighbouring offsets, and the blocks past either end.
RC_GTEST_PROP(TidStoreProperty, PackedLeavesFindExactlyTheirTids, ()) {
  const uint32_t step = *rc::gen::element<uint32_t>(1, 2, 10, 1000, 65537, 16777259);
  const uint32_t jitter = *rc::gen::element<uint32_t>(0, 0, 1, 7, 300);
  const uint32_t base = *rc::gen::inRange<uint32_t>(0, 1000);
  const int count = *rc::gen::inRange(1, 3000);
  std::vector<Tid> tids;
  TidStoreModel m;
  for (int i = 0; i < count; ++i) {
    const uint64_t block = base + uint64_t{step} * i * (jitter + 1) +
                           (jitter ? *rc::gen::inRange<uint32_t>(0, jitter + 1) : 0);
    if (block > 0xFFFFFFFFu) break;
    const std::vector<uint16_t> offsets = *genOffsets();
    for (uint16_t o : offsets) tids.push_back({static_cast<uint32_t>(block), o});
    m[static_cast<uint32_t>(block)] = {offsets.begin(), offsets.end()};
  }
  StatusOr<TidStore> s = TidStore::BuildFromSorted(tids);
  RC_ASSERT(s.ok());
  const Status valid = s->Validate();
  RC_ASSERT(valid.ok());
  const auto probe = [&](uint32_t block, int offset) {
    if (offset < 0 || offset > 0xFFFF) return;
    const uint16_t o = static_cast<uint16_t>(offset);
    RC_ASSERT(s->IsMember({block, o}) == models::ModelIsMember(m, block, o));
  };
  for (const auto& [block, offsets] : m) {
    for (int o : {int{*offsets.begin()}, int{*offsets.rbegin()}}) {
      for (int d : {-1, 0, 1}) probe(block, o + d);
    }
    for (uint32_t b : {block - 1, block + 1, block + step / 2}) probe(b, *offsets.begin());
  }
  probe(base - 1, 1);
  probe(UINT32_MAX, 1);
}

}  // namespace
}  // namespace pgstore::tidstore
