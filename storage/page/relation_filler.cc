#include "storage/page/relation_filler.h"

#include <cassert>

#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_header.h"

namespace pgstore::page {
namespace {

// Rewrites the fixed header of the tuple at `offnum` on `page` as `edit` changes it.
template <typename Edit>
void EditHeader(HeapPage* page, uint16_t offnum, Edit edit) {
  const ByteView item = *page->GetItem(offnum);
  tuple::TupleHeader h = tuple::ReadRawTupleHeader(item);
  edit(&h);
  tuple::EncodeTupleHeader(h, page->mutable_data() + (item.data - page->bytes().data));
}

// Points the t_ctid of the tuple at `offnum` on `page` at `target`.
void SetCtid(HeapPage* page, uint16_t offnum, Tid target) {
  EditHeader(page, offnum, [&](tuple::TupleHeader* h) {
    h->ctid_block = target.block;
    h->ctid_offset = target.offset;
  });
}

// Marks the tuple at `offnum` as deleted by transaction 1 (an old version).
void SetXmax(HeapPage* page, uint16_t offnum) {
  EditHeader(page, offnum, [](tuple::TupleHeader* h) { h->xmax = 1; });
}

}  // namespace

bool RelationFiller::Fits(uint32_t block, size_t len) const {
  // No vacuum: no page has an unused line pointer.
  return MaxAlign(len) <= space_[block].HeapFreeSpace(false);
}

uint32_t RelationFiller::Extend() {
  space_.emplace_back();
  if (keep_pages_) pages_.emplace_back();
  target_ = static_cast<uint32_t>(space_.size() - 1);
  return target_;
}

Tid RelationFiller::Place(uint32_t block, ByteView tuple) {
  const bool reserved = space_[block].Reserve(tuple.size, true);
  assert(reserved);
  (void)reserved;
  const Tid tid{block, static_cast<uint16_t>(space_[block].line_pointers())};
  if (keep_pages_) {
    StatusOr<uint16_t> off = pages_[block].AddItem(tuple);
    assert(off.ok() && *off == tid.offset);
    (void)off;
    SetCtid(&pages_[block], tid.offset, tid);  // itself, until it is updated
  }
  return tid;
}

StatusOr<Tid> RelationFiller::Insert(ByteView tuple) {
  if (tuple.size == 0 || tuple.size > tuple::kMaxHeapTupleSize) {
    return Status::InvalidArgument("tuple too large");
  }
  const uint32_t block = !space_.empty() && Fits(target_, tuple.size) ? target_ : Extend();
  return Place(block, tuple);
}

StatusOr<Tid> RelationFiller::Update(Tid old_version, ByteView new_tuple) {
  if (new_tuple.size == 0 || new_tuple.size > tuple::kMaxHeapTupleSize) {
    return Status::InvalidArgument("tuple too large");
  }
  if (old_version.block >= space_.size() || old_version.offset < 1 ||
      old_version.offset > space_[old_version.block].line_pointers()) {
    return Status::InvalidArgument("no such tuple");
  }
  uint32_t block;
  if (Fits(old_version.block, new_tuple.size)) {
    block = old_version.block;
  } else if (Fits(target_, new_tuple.size)) {
    block = target_;
  } else {
    block = Extend();
  }
  const Tid tid = Place(block, new_tuple);
  if (keep_pages_) {
    SetCtid(&pages_[old_version.block], old_version.offset, tid);
    SetXmax(&pages_[old_version.block], old_version.offset);
  }
  return tid;
}

}  // namespace pgstore::page
