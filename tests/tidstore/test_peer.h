// TidStoreTestPeer: what the TID store's tests read or break inside a store that its API does not
// show (the tree's root, the block and TID counts, the lookup shortcut).
#ifndef PGSTORE_TESTS_TIDSTORE_TEST_PEER_H_
#define PGSTORE_TESTS_TIDSTORE_TEST_PEER_H_

#include <cstddef>
#include <cstdint>

#include "storage/tidstore/leaf.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::tidstore {

struct TidStoreTestPeer {
  static size_t& Blocks(TidStore& s) { return s.num_blocks_; }
  static size_t& Tids(TidStore& s) { return s.num_tids_; }
  static const TidStore::Node* Root(const TidStore& s) { return s.root_; }
  // REQUIRES: the root is a (mutable) Leaf.
  static const internal::Leaf* RootLeaf(const TidStore& s) {
    return static_cast<const internal::Leaf*>(s.root_);
  }
  static const TidStore::Node*& Shortcut(TidStore& s) { return s.shortcut_; }
  static uint32_t& ShortcutPrefix(TidStore& s) { return s.shortcut_prefix_; }
};

}  // namespace pgstore::tidstore

#endif  // PGSTORE_TESTS_TIDSTORE_TEST_PEER_H_
