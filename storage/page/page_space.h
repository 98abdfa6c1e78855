// Free-space arithmetic of a heap page (PageAddItemExtended and PageGetHeapFreeSpace in
// storage/page/bufpage.c), shared by HeapPage and by the relation filler, which tracks only
// pd_lower and pd_upper of each page.
#ifndef PGSTORE_STORAGE_PAGE_PAGE_SPACE_H_
#define PGSTORE_STORAGE_PAGE_PAGE_SPACE_H_

#include <cstddef>
#include <cstdint>

#include "storage/page/page_format.h"

namespace pgstore::page {

struct PageSpace {
  size_t lower = kPageHeaderSize;  // pd_lower
  size_t upper = kPageSize;        // pd_upper (pd_special on a new heap page)

  int line_pointers() const { return static_cast<int>((lower - kPageHeaderSize) / kItemIdSize); }

  // PageGetHeapFreeSpace: bytes free for a new item after one more line pointer, 0 when the page
  // already has MaxHeapTuplesPerPage line pointers and none of them is unused.
  size_t HeapFreeSpace(bool has_unused_line_pointer) const {
    if (upper < lower + kItemIdSize) return 0;
    const size_t space = upper - lower - kItemIdSize;
    if (line_pointers() >= kMaxHeapTuplesPerPage && !has_unused_line_pointer) return 0;
    return space;
  }

  // PageAddItem's room check for an item of `size` bytes that needs a new line pointer (or reuses
  // one when `new_line_pointer` is false); on success reserves the room and returns true.
  bool Reserve(size_t size, bool new_line_pointer) {
    if (new_line_pointer && line_pointers() >= kMaxHeapTuplesPerPage) return false;
    const size_t new_lower = lower + (new_line_pointer ? kItemIdSize : 0);
    const size_t aligned = MaxAlign(size);
    if (aligned > upper || new_lower > upper - aligned) return false;
    lower = new_lower;
    upper -= aligned;
    return true;
  }
};

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_PAGE_SPACE_H_
