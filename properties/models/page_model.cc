#include "properties/models/page_model.h"

namespace pgstore::models {
namespace {
constexpr size_t kLinePointer = 4;
constexpr size_t kMaxTuples = 291;
size_t MaxAlign(size_t n) { return (n + 7) / 8 * 8; }
}  // namespace

size_t ModelPage::Add(size_t len) {
  size_t off = 0;
  for (size_t i = 0; i < lps_.size() && off == 0; ++i) {
    if (lps_[i].state == State::kUnused) off = i + 1;
  }
  const bool new_lp = off == 0;
  if (new_lp && lps_.size() >= kMaxTuples) return 0;
  const long new_lower = static_cast<long>(lower() + (new_lp ? kLinePointer : 0));
  const long new_upper = static_cast<long>(upper()) - static_cast<long>(MaxAlign(len));
  if (new_lower > new_upper) return 0;
  storage_ += MaxAlign(len);
  if (new_lp) {
    lps_.emplace_back();
    off = lps_.size();
  }
  lps_[off - 1] = Lp{State::kNormal, 0};
  return off;
}

bool ModelPage::Fits(size_t len) const { return MaxAlign(len) <= HeapFreeSpace(); }

size_t ModelPage::HeapFreeSpace() const {
  if (upper() < lower() + kLinePointer) return 0;
  bool any_unused = false;
  for (const Lp& lp : lps_) any_unused |= lp.state == State::kUnused;
  if (lps_.size() >= kMaxTuples && !any_unused) return 0;
  return upper() - lower() - kLinePointer;
}

std::vector<std::pair<size_t, std::string>> ModelPage::ExpectedProblems() const {
  std::vector<std::pair<size_t, std::string>> problems;
  for (size_t off = 1; off <= lps_.size(); ++off) {
    const Lp& lp = lps_[off - 1];
    if (lp.state != State::kRedirect) continue;
    if (lp.target < 1 || lp.target > lps_.size()) {
      problems.emplace_back(off, "redirect target out of range");
    } else if (lps_[lp.target - 1].state != State::kNormal) {
      problems.emplace_back(off, "redirect to a line pointer that is not normal");
    }
  }
  return problems;
}

std::pair<size_t, size_t> ModelRelation::AddTo(size_t block, size_t len) {
  return {block, pages_[block].Add(len)};
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
