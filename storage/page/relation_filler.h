// Places heap tuples on the pages of a relation as PostgreSQL 15's heap does with fillfactor 100
// and no vacuum (heap_insert, heap_update and RelationGetBufferForTuple in access/heap/):
//
//   INSERT  the tuple goes to the relation's target page (the last page used) if it fits
//           (PageGetHeapFreeSpace >= MAXALIGN(len)); otherwise the relation is extended by one
//           page, which becomes the target.
//   UPDATE  (not HOT; the old version stays where it is) the new version goes to the old
//           version's page if it fits there; otherwise to the target page if it fits; otherwise
//           to a new page, which becomes the target.
//
// The filler always tracks pd_lower and pd_upper of every page (16 bytes a page), enough to count
// pages for millions of rows; with keep_pages it also builds the pages themselves (8 KB each),
// with each old version's t_xmax and t_ctid pointing at its new version.
#ifndef PGSTORE_STORAGE_PAGE_RELATION_FILLER_H_
#define PGSTORE_STORAGE_PAGE_RELATION_FILLER_H_

#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_space.h"

namespace pgstore::page {

struct Tid {
  uint32_t block = 0;
  uint16_t offset = 0;
  bool operator==(const Tid& o) const { return block == o.block && offset == o.offset; }
};

class RelationFiller {
 public:
  explicit RelationFiller(bool keep_pages = false) : keep_pages_(keep_pages) {}

  // InvalidArgument "tuple too large" beyond MaxHeapTupleSize (PostgreSQL: "row is too big").
  StatusOr<Tid> Insert(ByteView tuple);
  // InvalidArgument for a TID that was never returned.
  StatusOr<Tid> Update(Tid old_version, ByteView new_tuple);

  size_t pages() const { return space_.size(); }
  // REQUIRES: keep_pages.
  const std::vector<HeapPage>& page_images() const { return pages_; }

 private:
  bool Fits(uint32_t block, size_t len) const;
  Tid Place(uint32_t block, ByteView tuple);
  uint32_t Extend();

  bool keep_pages_;
  std::vector<PageSpace> space_;
  std::vector<HeapPage> pages_;
  uint32_t target_ = 0;
};

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_RELATION_FILLER_H_
