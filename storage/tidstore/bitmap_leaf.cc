#include "storage/tidstore/bitmap_leaf.h"

#include <cstring>
#include <new>
#include <vector>

namespace pgstore::tidstore::internal {

BitmapLeaf* BitmapLeaf::Freeze(const Leaf& leaf) {
  const size_t n = leaf.size();
  std::vector<uint16_t> slots;
  std::vector<uint32_t> pool;
  CompactValues(leaf, &slots, &pool);
  BitmapLeaf* b = new (::operator new(BytesFor(n, pool.size()))) BitmapLeaf();
  b->kind = kBitmapLeaf;
  b->depth = leaf.depth;
  b->size = static_cast<uint32_t>(n);
  b->pool_units = static_cast<uint32_t>(pool.size());
  for (size_t i = 0; i < n; ++i) {
    const uint32_t key = leaf.KeyAt(i);
    b->present[key >> 6] |= uint64_t{1} << (key & 63);
  }
  for (int w = 1; w < 4; ++w) {
    b->rank[w] = static_cast<uint8_t>(b->rank[w - 1] + PopCount64(b->present[w - 1]));
  }
  uint8_t* out = reinterpret_cast<uint8_t*>(b + 1);
  std::memcpy(out, slots.data(), n * 2);
  if (n & 1) std::memset(out + n * 2, 0, 2);
  // (An empty vector's data() may be null, which memcpy must not be given.)
  if (!pool.empty()) std::memcpy(out + PaddedSlots(n) * 2, pool.data(), pool.size() * 4);
  return b;
}

void BitmapLeaf::Free(BitmapLeaf* b) { ::operator delete(b); }

Leaf* BitmapLeaf::Unpack() const {
  Leaf* leaf = NewLeaf(depth);
  for (uint32_t key = 0; key < 256; ++key) {
    if (Has(key)) leaf->keys.push_back(static_cast<uint8_t>(key));
  }
  leaf->slots.assign(slots(), slots() + size);
  leaf->pool.assign(pool(), pool() + pool_units);
  return leaf;
}

Status BitmapLeaf::ValidateLayout() const {
  if (depth != 3) return Status::Corruption("bitmap leaf above depth 3");
  unsigned total = 0;
  for (int w = 0; w < 4; ++w) {
    if (rank[w] != total) return Status::Corruption("bitmap leaf rank");
    total += PopCount64(present[w]);
  }
  if (total != size || size == 0) return Status::Corruption("bitmap leaf size");
  return Status::Ok();
}

}  // namespace pgstore::tidstore::internal
