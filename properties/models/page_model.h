// Reference model of heap page space and of where PostgreSQL's heap puts tuples
// (docs/formats.md §2.3, §2.4; heap_insert / heap_update / RelationGetBufferForTuple with
// fillfactor 100, no vacuum), written from the docs and sharing no code with storage/. A tuple of
// length L costs MAXALIGN(L) of the 8168 usable bytes, plus 4 for a new line pointer.
#ifndef PGSTORE_PROPERTIES_MODELS_PAGE_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_PAGE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pgstore::models {

class ModelPage {
 public:
  enum class State { kUnused, kNormal, kRedirect, kDead };

  // The offset number (1-based) the item of `len` bytes gets, 0 when it does not fit.
  size_t Add(size_t len);
  // RelationGetBufferForTuple's test: PageGetHeapFreeSpace >= MAXALIGN(len).
  bool Fits(size_t len) const;
  void MarkDead(size_t off) { lps_[off - 1].state = State::kDead; }
  void MarkUnused(size_t off) { lps_[off - 1] = Lp{}; }
  void SetRedirect(size_t off, size_t target) { lps_[off - 1] = Lp{State::kRedirect, target}; }

  size_t line_pointers() const { return lps_.size(); }
  State state(size_t off) const { return lps_[off - 1].state; }
  size_t lower() const { return 24 + 4 * lps_.size(); }
  size_t upper() const { return 8192 - storage_; }
  size_t HeapFreeSpace() const;
  // What the page verifier must report about line pointers, as (offset, check) in offset order:
  // only redirects can be wrong on a page built by these operations.
  std::vector<std::pair<size_t, std::string>> ExpectedProblems() const;

 private:
  struct Lp {
    State state = State::kUnused;
    size_t target = 0;  // kRedirect
  };
  std::vector<Lp> lps_;
  size_t storage_ = 0;  // bytes below pd_special taken by items, each MAXALIGNed
};

// Pages used by a relation under INSERT and non-HOT UPDATE.
class ModelRelation {
 public:
  // Returns (block, offset).
  std::pair<size_t, size_t> Insert(size_t len);
  std::pair<size_t, size_t> Update(size_t old_block, size_t len);
  size_t pages() const { return pages_.size(); }

 private:
  std::pair<size_t, size_t> AddTo(size_t block, size_t len);
  std::vector<ModelPage> pages_;
  size_t target_ = 0;
};

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_PAGE_MODEL_H_
