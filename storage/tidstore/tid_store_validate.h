// TidStore::Validate's walk over one subtree, for the store and for its unit tests in
// tests/tidstore/ (which build broken nodes by hand to show that each invariant is checked).
// Internal to storage/tidstore (its `internals` target).
#ifndef PGSTORE_STORAGE_TIDSTORE_TID_STORE_VALIDATE_H_
#define PGSTORE_STORAGE_TIDSTORE_TID_STORE_VALIDATE_H_

#include <cstddef>
#include <cstdint>

#include "storage/common/status.h"
#include "storage/tidstore/leaf.h"

namespace pgstore::tidstore::internal {

// Checks the subtree at `n`, which sits at `depth` (0 for the root), against every invariant of
// inner_node.h, leaf.h, packed_leaf.h and bitmap_leaf.h, and adds its blocks and TIDs to *blocks
// and *tids. Corruption naming the first broken invariant.
Status ValidateSubtree(const Node* n, uint8_t depth, size_t* blocks, size_t* tids);

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_STORAGE_TIDSTORE_TID_STORE_VALIDATE_H_
