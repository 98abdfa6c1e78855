#include "storage/undo/zheap_page.h"

namespace pgstore::undo {

bool ValidSlotCount(int n) { return n == 2 || n == 4 || n == 8 || n == 16 || n == 31; }

ZheapPage::ZheapPage(int num_slots)
    : page_(static_cast<size_t>(num_slots) * kTransInfoSize), num_slots_(num_slots) {}

StatusOr<ZheapPage> ZheapPage::FromBytes(ByteView bytes, int num_slots) {
  if (!ValidSlotCount(num_slots))
    return Status::InvalidArgument("transaction slots: 2, 4, 8, 16 or 31");
  StatusOr<page::HeapPage> p = page::HeapPage::FromBytes(bytes);
  if (!p.ok()) return p.status();
  // PageIsVerified's header check: rollback restores tuples between pd_upper and pd_special,
  // which must be an ordered range inside the page.
  if (!(page::kPageHeaderSize <= p->lower() && p->lower() <= p->upper() &&
        p->upper() <= p->special() && p->special() <= page::kPageSize)) {
    return Status::Corruption("corrupted page pointers");
  }
  if (p->special() != page::kPageSize - num_slots * kTransInfoSize) {
    return Status::InvalidArgument("special space does not hold " + std::to_string(num_slots) +
                                   " transaction slots");
  }
  ZheapPage z(num_slots);
  z.page_ = *p;
  return z;
}

size_t ZheapPage::SlotOffset(int slot) const {
  return page::kPageSize - num_slots_ * kTransInfoSize + (slot - 1) * kTransInfoSize;
}

TransSlot ZheapPage::slot(int slot) const {
  const uint8_t* p = page_.bytes().data + SlotOffset(slot);
  return TransSlot{LoadLE64(p), LoadLE64(p + 8)};
}

void ZheapPage::set_slot(int slot, TransSlot s) {
  uint8_t* p = page_.mutable_data() + SlotOffset(slot);
  StoreLE64(p, s.fxid);
  StoreLE64(p + 8, s.urec_ptr);
}

StatusOr<uint8_t*> ZheapPage::MutableTuple(int offnum) {
  StatusOr<ByteView> t = page_.GetItem(offnum);
  if (!t.ok()) return t.status();
  if (t->size < 5) return Status::Corruption("zheap tuple shorter than its header");
  return page_.mutable_data() + (t->data - page_.bytes().data);
}

}  // namespace pgstore::undo
