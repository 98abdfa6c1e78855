#include "storage/page/heap_page.h"

#include <cstring>

#include "storage/page/checksum.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::page {

using tuple::kMaxHeapTupleSize;

HeapPage::HeapPage() : HeapPage(0) {}

HeapPage::HeapPage(size_t special_size) {
  const uint16_t special = static_cast<uint16_t>(kPageSize - MaxAlign(special_size));
  SetField16(kOffLower, kPageHeaderSize);
  SetField16(kOffUpper, special);
  SetField16(kOffSpecial, special);
  SetField16(kOffPageSizeVersion, kPageSizeVersion);
}

StatusOr<HeapPage> HeapPage::FromBytes(ByteView bytes) {
  if (bytes.size != kPageSize) return Status::InvalidArgument("a page is 8192 bytes");
  HeapPage p;
  std::memcpy(p.data_.data(), bytes.data, kPageSize);
  return p;
}

int HeapPage::MaxOffset() const {
  const size_t lower_clamped = lower() > kPageSize ? kPageSize : lower();
  if (lower_clamped <= kPageHeaderSize) return 0;
  return static_cast<int>((lower_clamped - kPageHeaderSize) / kItemIdSize);
}

ItemId HeapPage::GetItemId(int offnum) const {
  return DecodeItemId(LoadLE32(data_.data() + kPageHeaderSize + (offnum - 1) * kItemIdSize));
}

void HeapPage::SetItemId(int offnum, ItemId id) {
  StoreLE32(data_.data() + kPageHeaderSize + (offnum - 1) * kItemIdSize, EncodeItemId(id));
}

StatusOr<ByteView> HeapPage::GetItem(int offnum) const {
  if (offnum < 1 || offnum > MaxOffset()) return Status::Corruption("line pointer out of range");
  const ItemId id = GetItemId(offnum);
  if (id.flags != LpFlags::kNormal) return Status::Corruption("line pointer not normal");
  if (id.len == 0 || id.off + static_cast<size_t>(id.len) > kPageSize) {
    return Status::Corruption("item outside page");
  }
  return ByteView(data_.data() + id.off, id.len);
}

bool HeapPage::HasUnusedLinePointer() const {
  for (int i = 1; i <= MaxOffset(); ++i) {
    const ItemId id = GetItemId(i);
    if (id.flags == LpFlags::kUnused && id.len == 0) return true;
  }
  return false;
}

StatusOr<uint16_t> HeapPage::AddItem(ByteView item) {
  if (item.size == 0 || item.size > kMaxHeapTupleSize) {
    return Status::InvalidArgument("item size out of range");
  }
  if (!(kPageHeaderSize <= lower() && lower() <= upper() && upper() <= special() &&
        special() <= kPageSize)) {
    return Status::Corruption("corrupted page pointers");
  }
  int offnum = kInvalidOffsetNumber;
  if (flags() & kHasFreeLines) {
    for (int i = 1; i <= MaxOffset(); ++i) {
      const ItemId id = GetItemId(i);
      if (id.flags == LpFlags::kUnused && id.len == 0) {
        offnum = i;
        break;
      }
    }
    if (offnum == kInvalidOffsetNumber) SetField16(kOffFlags, flags() & ~kHasFreeLines);
  }
  const bool new_line_pointer = offnum == kInvalidOffsetNumber;
  PageSpace space{lower(), upper()};
  if (!space.Reserve(item.size, new_line_pointer)) return kInvalidOffsetNumber;
  if (new_line_pointer) offnum = MaxOffset() + 1;
  SetField16(kOffLower, static_cast<uint16_t>(space.lower));
  SetField16(kOffUpper, static_cast<uint16_t>(space.upper));
  SetItemId(offnum, ItemId{static_cast<uint16_t>(space.upper), LpFlags::kNormal,
                           static_cast<uint16_t>(item.size)});
  std::memcpy(data_.data() + space.upper, item.data, item.size);
  return static_cast<uint16_t>(offnum);
}

size_t HeapPage::HeapFreeSpace() const {
  // (PageSpace answers 0 when pd_lower is past pd_upper; pd_upper past the page is corrupt.)
  if (upper() > kPageSize) return 0;
  // PostgreSQL looks for an unused line pointer only when the PD_HAS_FREE_LINES hint is set.
  const bool reusable = (flags() & kHasFreeLines) && HasUnusedLinePointer();
  return PageSpace{lower(), upper()}.HeapFreeSpace(reusable);
}

void HeapPage::MarkDead(int offnum) {
  ItemId id = GetItemId(offnum);
  id.flags = LpFlags::kDead;
  SetItemId(offnum, id);
}

void HeapPage::MarkUnused(int offnum) {
  SetItemId(offnum, ItemId{});
  SetField16(kOffFlags, flags() | kHasFreeLines);
}

void HeapPage::SetRedirect(int offnum, int target) {
  SetItemId(offnum, ItemId{static_cast<uint16_t>(target), LpFlags::kRedirect, 0});
}

void HeapPage::SetChecksum(uint32_t blkno) {
  SetField16(kOffChecksum, PageChecksum(bytes(), blkno));
}

}  // namespace pgstore::page
