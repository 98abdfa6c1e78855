// Reference model of heap page space and of where PostgreSQL's heap puts tuples (formats.md §2.3,
// §2.4; heap_insert / heap_update / RelationGetBufferForTuple with fillfactor 100, no vacuum),
// written from the docs and sharing no code with storage/. A page is the list of its item
// lengths; a tuple of length L costs MAXALIGN(L) + 4 of the 8168 usable bytes.
#ifndef PGSTORE_PROPERTIES_MODELS_PAGE_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_PAGE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pgstore::models {

struct ModelPage {
  std::vector<size_t> items;  // lengths, in line pointer order

  // PageGetHeapFreeSpace with no unused line pointers.
  size_t HeapFreeSpace() const;
  bool Fits(size_t len) const;
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
