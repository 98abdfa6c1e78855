// An 8 KB heap page (layout: page_format.h): PageInit, PageAddItem with PostgreSQL's placement and
// free-space rules, bounds-checked item access, line pointer state changes and the checksum.
//
// A HeapPage built by this class always satisfies the invariants of page_format.h. One loaded from
// untrusted bytes may not: FromBytes only copies; run VerifyHeapPage (verify.h) to judge it. Every
// accessor is bounds-checked, so none reads outside the 8192 bytes whatever they hold.
#ifndef PGSTORE_STORAGE_PAGE_HEAP_PAGE_H_
#define PGSTORE_STORAGE_PAGE_HEAP_PAGE_H_

#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/page/page_format.h"
#include "storage/page/page_space.h"

namespace pgstore::page {

class HeapPage {
 public:
  HeapPage();  // PageInit(page, BLCKSZ, 0): empty, no special space
  // PageInit(page, BLCKSZ, special_size): the last MAXALIGN(special_size) bytes are special space.
  // REQUIRES: special_size <= 8192 - 24.
  explicit HeapPage(size_t special_size);
  // A copy of `bytes`; InvalidArgument unless bytes.size == 8192.
  static StatusOr<HeapPage> FromBytes(ByteView bytes);

  ByteView bytes() const { return ByteView(data_.data(), data_.size()); }
  uint8_t* mutable_data() { return data_.data(); }

  uint16_t lower() const { return Field16(kOffLower); }
  uint16_t upper() const { return Field16(kOffUpper); }
  uint16_t special() const { return Field16(kOffSpecial); }
  uint16_t flags() const { return Field16(kOffFlags); }
  uint16_t checksum() const { return Field16(kOffChecksum); }

  // PageGetMaxOffsetNumber: (pd_lower - 24) / 4, or 0, capped at the page.
  int MaxOffset() const;
  // REQUIRES: 1 <= offnum <= MaxOffset().
  ItemId GetItemId(int offnum) const;
  void SetItemId(int offnum, ItemId id);

  // The bytes of the LP_NORMAL item at offnum, checked: Corruption "line pointer out of range",
  // "line pointer not normal", "item outside page".
  StatusOr<ByteView> GetItem(int offnum) const;

  // PageAddItem(page, item, size, InvalidOffsetNumber, false, true): reuses the first unused line
  // pointer when PD_HAS_FREE_LINES is set, else appends one. Returns the offset number, or
  // kInvalidOffsetNumber when the item does not fit. InvalidArgument for an empty item or one
  // larger than MaxHeapTupleSize; Corruption "corrupted page pointers" as PostgreSQL's PANIC.
  StatusOr<uint16_t> AddItem(ByteView item);

  // PageGetHeapFreeSpace.
  size_t HeapFreeSpace() const;

  // Line pointer state changes (ItemIdMarkDead, ItemIdSetUnused, ItemIdSetRedirect). Unused also
  // sets PD_HAS_FREE_LINES. REQUIRES: 1 <= offnum <= MaxOffset().
  void MarkDead(int offnum);
  void MarkUnused(int offnum);
  void SetRedirect(int offnum, int target);

  // Stores pg_checksum_page(page, blkno) in pd_checksum.
  void SetChecksum(uint32_t blkno);

 private:
  uint16_t Field16(size_t off) const { return LoadLE16(data_.data() + off); }
  void SetField16(size_t off, uint16_t v) { StoreLE16(data_.data() + off, v); }
  bool HasUnusedLinePointer() const;

  // Its own heap allocation of exactly kPageSize bytes (not an array inside the object), so that
  // ASan reports any access past the page, even by one byte.
  std::vector<uint8_t> data_ = std::vector<uint8_t>(kPageSize);
};

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_HEAP_PAGE_H_
