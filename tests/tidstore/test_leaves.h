// Leaves built by hand for the package's tests (tid_store_validate_test, inner_node_test,
// leaf_test), valid or not: keys are written as leaf.h lays them out, with no check.
#ifndef PGSTORE_TESTS_TIDSTORE_TEST_LEAVES_H_
#define PGSTORE_TESTS_TIDSTORE_TEST_LEAVES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "storage/tidstore/leaf.h"
#include "storage/tidstore/offset_set.h"

namespace pgstore::tidstore::internal {

// A leaf at `depth` holding `keys` (suffixes, in the order given) with the given slots.
inline std::unique_ptr<Leaf> MakeLeaf(uint8_t depth, const std::vector<uint32_t>& keys,
                                      const std::vector<uint16_t>& slots) {
  std::unique_ptr<Leaf> l(NewLeaf(depth));
  for (uint32_t k : keys) {
    for (int b = 0; b < l->width(); ++b) l->keys.push_back(static_cast<uint8_t>(k >> (8 * b)));
  }
  l->slots = slots;
  return l;
}

// A leaf with one embedded offset (1) per key.
inline std::unique_ptr<Leaf> LeafOf(uint8_t depth, const std::vector<uint32_t>& keys) {
  return MakeLeaf(depth, keys, std::vector<uint16_t>(keys.size(), 1));
}

// Appends `offsets` to the leaf's pool and returns the slot naming them.
inline uint16_t AddEntry(Leaf* l, const std::vector<uint16_t>& offsets) {
  return AppendValue(l, EncodePoolEntry(offsets.data(), offsets.size()), 0);
}

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_TESTS_TIDSTORE_TEST_LEAVES_H_
