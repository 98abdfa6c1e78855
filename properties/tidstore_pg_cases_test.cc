// PostgreSQL's own TID store and radix tree test cases (src/test/modules/test_tidstore and
// test_radixtree, PostgreSQL 17), ported as properties of storage/tidstore against the model
// std::map<block, std::set<offset>>:
//   - test_tidstore's extreme blocks (0, 1, max/2, max - 1, 4294967295) with offsets at the edges
//     (1, 2, MaxHeapTuplesPerPage 291 and past it, 512 and past it, 2047, 2048), set in any order;
//   - test_radixtree's node-size tests: keys 0..n-1 shifted to each key byte, n crossing every
//     node size (4, 16, 48, 256), inserted ascending and descending, then deleted in either order,
//     with membership of every key checked after every step;
//   - test_tidstore's value replacement crossing between the embedded single offset and pool
//     storage (a list, a bitmap, runs) in both directions, on blocks that share leaves.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "properties/generators/tidstore_generators.h"
#include "properties/models/tidstore_model.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {
namespace {

using models::TidStoreModel;

constexpr uint32_t kMaxBlock = 0xFFFFFFFFu;  // test_tidstore's :maxblkno
constexpr uint16_t kMaxOffset = 2048;        // the store's MaxOffsetNumber

// The store equals the model: structure valid, counts, every block's offsets in order.
void CheckEqual(const TidStore& s, const TidStoreModel& m) {
  const Status valid = s.Validate();
  RC_ASSERT(valid.ok());
  RC_ASSERT(s.num_blocks() == m.size());
  RC_ASSERT(s.num_tids() == models::ModelTidCount(m));
  std::map<uint32_t, std::vector<uint16_t>> seen;
  s.ForEachBlock([&seen](uint32_t b, const std::vector<uint16_t>& o) {
    seen[b] = o;
    return true;
  });
  RC_ASSERT(seen == models::ModelContents(m));
}

// Every offset of every block in the model is a member; its neighbours are members exactly when
// the model says so, as are the same offsets on the neighbouring blocks.
void CheckLookups(const TidStore& s, const TidStoreModel& m) {
  for (const auto& [block, offsets] : m) {
    for (uint16_t o : offsets) {
      for (int d : {-1, 0, 1}) {
        const uint16_t off = static_cast<uint16_t>(o + d);
        RC_ASSERT(s.IsMember({block, off}) == models::ModelIsMember(m, block, off));
        for (uint32_t b : {block - 1, block + 1}) {
          RC_ASSERT(s.IsMember({b, off}) == models::ModelIsMember(m, b, off));
        }
      }
    }
  }
}

RC_GTEST_PROP(TidStorePgCases, ExtremeBlocksAndOffsets, ()) {
  const std::vector<uint32_t> blocks = {0, 1, kMaxBlock / 2, kMaxBlock - 1, kMaxBlock};
  const std::vector<uint16_t> edge_offsets = {1,   2,   290,  291,  292,       511,
                                              512, 513, 1024, 2047, kMaxOffset};
  const size_t burst = *rc::gen::element<size_t>(1, 2, 8, kDefaultBurstEntries);
  TidStore s(burst);
  TidStoreModel m;
  // Each step sets one of the blocks to a non-empty subset of the edge offsets (some steps
  // replace an earlier set), in a generated order.
  const int steps = *rc::gen::inRange(1, 16);
  for (int i = 0; i < steps; ++i) {
    const uint32_t block = *rc::gen::elementOf(blocks);
    std::set<uint16_t> chosen;
    for (uint16_t o : edge_offsets) {
      if (*rc::gen::arbitrary<bool>()) chosen.insert(o);
    }
    if (chosen.empty()) chosen.insert(*rc::gen::elementOf(edge_offsets));
    const std::vector<uint16_t> offsets(chosen.begin(), chosen.end());
    RC_ASSERT(s.SetBlockOffsets(block, offsets).ok());
    m[block] = chosen;
    CheckEqual(s, m);
  }
  CheckLookups(s, m);
  // Past the maximum offset and offset 0 are rejected and change nothing.
  const size_t memory = s.MemoryUsage();
  RC_ASSERT(
      s.SetBlockOffsets(*rc::gen::elementOf(blocks), {1, kMaxOffset + 1}).IsInvalidArgument());
  RC_ASSERT(s.SetBlockOffsets(*rc::gen::elementOf(blocks), {0}).IsInvalidArgument());
  RC_ASSERT(s.MemoryUsage() == memory);
  CheckEqual(s, m);
  // Built in one sorted pass, the same TIDs give the same answers.
  std::vector<Tid> sorted;
  for (const auto& [block, offsets] : m) {
    for (uint16_t o : offsets) sorted.push_back({block, o});
  }
  StatusOr<TidStore> built = TidStore::BuildFromSorted(sorted, burst);
  RC_ASSERT(built.ok());
  CheckEqual(*built, m);
  CheckLookups(*built, m);
}

// test_radixtree's test_node_types_insert/delete: n keys i << shift, i in [0, n), n at and
// around every node size, inserted ascending or descending; after each insertion every inserted
// key is a member and the next one is not; then deleted ascending or descending, checked the
// same way, until the store is empty again.
RC_GTEST_PROP(TidStorePgCases, EveryNodeSizeAscendingAndDescending, ()) {
  const int shift = *rc::gen::element(0, 8, 16, 24);
  const uint32_t n = *rc::gen::element<uint32_t>(1, 3, 4, 5, 15, 16, 17, 47, 48, 49, 255, 256);
  const bool insert_ascending = *rc::gen::arbitrary<bool>();
  const bool delete_ascending = *rc::gen::arbitrary<bool>();
  const size_t burst = *rc::gen::element<size_t>(1, 2, 4);
  RC_TAG(shift, n, insert_ascending, delete_ascending, burst);
  TidStore s(burst);
  TidStoreModel m;
  auto key = [shift](uint32_t i) { return i << shift; };
  auto offset_of = [](uint32_t i) { return static_cast<uint16_t>(1 + i % kMaxOffset); };
  auto check = [&] {
    const Status valid = s.Validate();
    RC_ASSERT(valid.ok());
    RC_ASSERT(s.num_blocks() == m.size());
    for (uint32_t i = 0; i < n; ++i) {
      RC_ASSERT(s.IsMember({key(i), offset_of(i)}) == (m.count(key(i)) > 0));
    }
  };
  for (uint32_t step = 0; step < n; ++step) {
    const uint32_t i = insert_ascending ? step : n - 1 - step;
    RC_ASSERT(s.SetBlockOffsets(key(i), {offset_of(i)}).ok());
    m[key(i)] = {offset_of(i)};
    check();
  }
  CheckEqual(s, m);
  for (uint32_t step = 0; step < n; ++step) {
    const uint32_t i = delete_ascending ? step : n - 1 - step;
    RC_ASSERT(s.RemoveBlock(key(i)));
    RC_ASSERT(!s.RemoveBlock(key(i)));
    m.erase(key(i));
    check();
  }
  RC_ASSERT(s.MemoryUsage() == 0u);
}

// A block's value replaced again and again, each time by a set of a generated shape: a single
// offset (embedded in the slot) or several (a pool entry), so replacements cross embedded ->
// pool, pool -> embedded, and pool -> pool of another encoding, in every order, on blocks that
// share a leaf with others. After each replacement the store equals the model; at the end,
// ShrinkToFit leaves it equal too (packed leaves, compacted pools).
RC_GTEST_PROP(TidStorePgCases, ReplacementsCrossEmbeddedAndPoolBothWays, ()) {
  const size_t burst = *rc::gen::element<size_t>(1, 4, kDefaultBurstEntries);
  TidStore s(burst);
  TidStoreModel m;
  const uint32_t base = *generators::genBlock();
  const int blocks = *rc::gen::inRange(1, 6);
  const int replacements = *rc::gen::inRange(1, 40);
  int crossings_to_pool = 0, crossings_to_embedded = 0;
  for (int r = 0; r < replacements; ++r) {
    const uint32_t block = base + static_cast<uint32_t>(*rc::gen::inRange(0, blocks));
    const std::vector<uint16_t> offsets = *rc::gen::weightedOneOf<std::vector<uint16_t>>(
        {{1, rc::gen::map(rc::gen::inRange<uint16_t>(1, kMaxOffset + 1),
                          [](uint16_t o) { return std::vector<uint16_t>{o}; })},
         {1, generators::genOffsets()}});
    const auto before = m.find(block);
    if (before != m.end()) {
      if (before->second.size() == 1 && offsets.size() > 1) ++crossings_to_pool;
      if (before->second.size() > 1 && offsets.size() == 1) ++crossings_to_embedded;
    }
    RC_ASSERT(s.SetBlockOffsets(block, offsets).ok());
    m[block] = {offsets.begin(), offsets.end()};
    CheckEqual(s, m);
  }
  RC_CLASSIFY(crossings_to_pool > 0, "embedded -> pool");
  RC_CLASSIFY(crossings_to_embedded > 0, "pool -> embedded");
  CheckLookups(s, m);
  s.ShrinkToFit();
  CheckEqual(s, m);
  CheckLookups(s, m);
}

}  // namespace
}  // namespace pgstore::tidstore
