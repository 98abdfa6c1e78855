#include "storage/tidstore/sorted_array_tid_store.h"

#include <algorithm>
#include <string>

namespace pgstore::tidstore {

std::pair<std::vector<SortedArrayTidStore::Item>::iterator,
          std::vector<SortedArrayTidStore::Item>::iterator>
SortedArrayTidStore::BlockRange(uint32_t block) {
  const auto first =
      std::lower_bound(items_.begin(), items_.end(), MakeItem(block, 0),
                       [](const Item& a, const Item& b) { return a.Key() < b.Key(); });
  auto last = first;
  while (last != items_.end() && last->Block() == block) ++last;
  return {first, last};
}

Status SortedArrayTidStore::SetBlockOffsets(uint32_t block, const uint16_t* offsets, size_t n) {
  PGSTORE_RETURN_IF_ERROR(CheckOffsets(offsets, n));
  const auto [first, last] = BlockRange(block);
  std::vector<Item> fresh;
  fresh.reserve(n);
  for (size_t i = 0; i < n; ++i) fresh.push_back(MakeItem(block, offsets[i]));
  const auto at = items_.erase(first, last);
  items_.insert(at, fresh.begin(), fresh.end());
  return Status::Ok();
}

bool SortedArrayTidStore::RemoveBlock(uint32_t block) {
  const auto [first, last] = BlockRange(block);
  if (first == last) return false;
  items_.erase(first, last);
  return true;
}

bool SortedArrayTidStore::IsMember(Tid tid) const {
  if (items_.empty()) return false;
  const uint64_t key = MakeItem(tid.block, tid.offset).Key();
  // vac_tid_reaped: a range check first, then bsearch.
  if (key < items_.front().Key() || key > items_.back().Key()) return false;
  size_t lo = 0, hi = items_.size();
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    const uint64_t k = items_[mid].Key();
    if (k == key) return true;
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return false;
}

void SortedArrayTidStore::ForEachBlock(
    const std::function<bool(uint32_t, const std::vector<uint16_t>&)>& fn) const {
  std::vector<uint16_t> offsets;
  size_t i = 0;
  while (i < items_.size()) {
    const uint32_t block = items_[i].Block();
    offsets.clear();
    for (; i < items_.size() && items_[i].Block() == block; ++i) offsets.push_back(items_[i].posid);
    if (!fn(block, offsets)) return;
  }
}

size_t SortedArrayTidStore::num_blocks() const {
  size_t blocks = 0;
  ForEachBlock([&blocks](uint32_t, const std::vector<uint16_t>&) {
    ++blocks;
    return true;
  });
  return blocks;
}

StatusOr<SortedArrayTidStore> SortedArrayTidStore::BuildFromSorted(const std::vector<Tid>& tids) {
  SortedArrayTidStore store;
  store.items_.reserve(tids.size());
  for (size_t i = 0; i < tids.size(); ++i) {
    const Tid& t = tids[i];
    if (t.offset == 0 || t.offset > kMaxOffsetNumber) {
      return Status::InvalidArgument("tuple offset out of range: " + std::to_string(t.offset));
    }
    const Item item = MakeItem(t.block, t.offset);
    if (!store.items_.empty() && item.Key() <= store.items_.back().Key()) {
      return Status::InvalidArgument("TIDs not strictly ascending");
    }
    store.items_.push_back(item);
  }
  return store;
}

}  // namespace pgstore::tidstore
