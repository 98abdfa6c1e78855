#include "properties/models/page_model.h"

namespace pgstore::models {
namespace {
constexpr size_t kUsable = 8192 - 24;  // BLCKSZ - page header
constexpr size_t kLinePointer = 4;
constexpr size_t kMaxTuples = 291;
size_t MaxAlign(size_t n) { return (n + 7) / 8 * 8; }
}  // namespace

size_t ModelPage::HeapFreeSpace() const {
  if (items.size() >= kMaxTuples) return 0;
  size_t used = 0;
  for (size_t len : items) used += MaxAlign(len) + kLinePointer;
  if (used + kLinePointer > kUsable) return 0;
  return kUsable - used - kLinePointer;
}

bool ModelPage::Fits(size_t len) const {
  return items.size() < kMaxTuples && MaxAlign(len) <= HeapFreeSpace();
}

std::pair<size_t, size_t> ModelRelation::AddTo(size_t block, size_t len) {
  pages_[block].items.push_back(len);
  return {block, pages_[block].items.size()};
}

std::pair<size_t, size_t> ModelRelation::Insert(size_t len) {
  if (pages_.empty() || !pages_[target_].Fits(len)) {
    pages_.emplace_back();
    target_ = pages_.size() - 1;
  }
  return AddTo(target_, len);
}

std::pair<size_t, size_t> ModelRelation::Update(size_t old_block, size_t len) {
  if (pages_[old_block].Fits(len)) return AddTo(old_block, len);
  if (pages_[target_].Fits(len)) return AddTo(target_, len);
  pages_.emplace_back();
  target_ = pages_.size() - 1;
  return AddTo(target_, len);
}

}  // namespace pgstore::models
