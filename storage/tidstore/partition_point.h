// PartitionPoint: the binary search every lookup of the TID store makes (leaf keys, packed groups,
// pool entries), written so that its steps are arithmetic rather than branches. A store is probed
// in no particular order, and a branchy search mispredicts about half of its steps. Internal to
// storage/tidstore.
#ifndef PGSTORE_STORAGE_TIDSTORE_PARTITION_POINT_H_
#define PGSTORE_STORAGE_TIDSTORE_PARTITION_POINT_H_

#include <cstddef>

namespace pgstore::tidstore::internal {

// The number of leading indices i in [0, n) for which before(i) holds, given that it holds for a
// prefix of them and for none after (as "key(i) < value" over ascending keys). Calls before(i)
// only with i < n.
template <typename Before>
inline size_t PartitionPoint(size_t n, const Before& before) {
  if (n == 0) return 0;
  size_t base = 0;
  // The answer is in [base, base + n]: halve the range by testing its middle.
  while (n > 1) {
    const size_t half = n / 2;
    base += static_cast<size_t>(before(base + half - 1)) * half;
    n -= half;
  }
  return base + static_cast<size_t>(before(base));
}

}  // namespace pgstore::tidstore::internal

#endif  // PGSTORE_STORAGE_TIDSTORE_PARTITION_POINT_H_
