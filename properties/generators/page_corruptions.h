// Test helper: one corruption of a heap page per kind, each named after the verifier check that
// must report it. Used by the page properties and the page fuzzer's seed generator.
#ifndef PGSTORE_PROPERTIES_GENERATORS_PAGE_CORRUPTIONS_H_
#define PGSTORE_PROPERTIES_GENERATORS_PAGE_CORRUPTIONS_H_

#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::generators {

enum class PageCorruption {
  kVersion,
  kFlags,
  kLowerAboveUpper,
  kSpecialSpace,
  kUnalignedItem,
  kItemPastSpecial,
  kNormalWithoutLength,
  kRedirectOutOfRange,
  kUnusedWithStorage,
  kOverlap,
  kTupleHoff,
  kChecksum,
};

inline const std::vector<PageCorruption>& AllPageCorruptions() {
  static const std::vector<PageCorruption> all = {PageCorruption::kVersion,
                                                  PageCorruption::kFlags,
                                                  PageCorruption::kLowerAboveUpper,
                                                  PageCorruption::kSpecialSpace,
                                                  PageCorruption::kUnalignedItem,
                                                  PageCorruption::kItemPastSpecial,
                                                  PageCorruption::kNormalWithoutLength,
                                                  PageCorruption::kRedirectOutOfRange,
                                                  PageCorruption::kUnusedWithStorage,
                                                  PageCorruption::kOverlap,
                                                  PageCorruption::kTupleHoff,
                                                  PageCorruption::kChecksum};
  return all;
}

// Applies `kind` to `page` (which must hold at least two normal items, and a valid checksum for
// kChecksum) and returns the check the verifier must report (a prefix of its message).
inline std::string CorruptPage(PageCorruption kind, page::HeapPage* page) {
  using page::ItemId;
  using page::LpFlags;
  uint8_t* p = page->mutable_data();
  const ItemId first = page->GetItemId(1);
  switch (kind) {
    case PageCorruption::kVersion:
      StoreLE16(p + page::kOffPageSizeVersion, 0x2005);
      return "bad page size or version";
    case PageCorruption::kFlags:
      StoreLE16(p + page::kOffFlags, page->flags() | 0x40);
      return "unknown flag bits";
    case PageCorruption::kLowerAboveUpper:
      StoreLE16(p + page::kOffLower, page->upper() + 4);
      return "corrupted page pointers";
    case PageCorruption::kSpecialSpace:
      StoreLE16(p + page::kOffSpecial, 8192 - 16);
      return "heap page has special space";
    case PageCorruption::kUnalignedItem:
      page->SetItemId(1, ItemId{static_cast<uint16_t>(first.off + 2), LpFlags::kNormal, first.len});
      return "item not maxaligned";
    case PageCorruption::kItemPastSpecial:
      page->SetItemId(1, ItemId{first.off, LpFlags::kNormal, 0x7FFF});
      return "item past pd_special";
    case PageCorruption::kNormalWithoutLength:
      page->SetItemId(1, ItemId{first.off, LpFlags::kNormal, 0});
      return "normal line pointer has no length";
    case PageCorruption::kRedirectOutOfRange:
      page->SetItemId(1,
                      ItemId{static_cast<uint16_t>(page->MaxOffset() + 1), LpFlags::kRedirect, 0});
      return "redirect target out of range";
    case PageCorruption::kUnusedWithStorage:
      page->SetItemId(1, ItemId{first.off, LpFlags::kUnused, first.len});
      return "unused line pointer has storage";
    case PageCorruption::kOverlap:
      page->SetItemId(2, first);
      return "item overlaps line pointer";
    case PageCorruption::kTupleHoff:
      p[first.off + tuple::kOffHoff] = static_cast<uint8_t>(p[first.off + tuple::kOffHoff] + 8);
      return "tuple: t_hoff mismatch";
    case PageCorruption::kChecksum:
      StoreLE16(p + page::kOffChecksum, static_cast<uint16_t>(page->checksum() ^ 0x0100));
      return "checksum mismatch";
  }
  return "";
}

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_PAGE_CORRUPTIONS_H_
