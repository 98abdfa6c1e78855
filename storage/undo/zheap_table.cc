#include "storage/undo/zheap_table.h"

#include <set>
#include <string>

namespace pgstore::undo {
namespace {

constexpr uint32_t kLockTupleExclusive = 3;  // LockTupleMode

std::string Off(uint16_t offnum) { return "tuple " + std::to_string(offnum); }

}  // namespace

uint32_t ZheapTable::SlotXid(int slot) const {
  return slot == kFrozenSlot || slot > page_.num_slots()
             ? 0
             : static_cast<uint32_t>(page_.slot(slot).fxid);
}

StatusOr<int> ZheapTable::AcquireSlot(uint32_t xid) {
  if (!xacts_->IsInProgress(xid)) {
    return Status::InvalidArgument("transaction " + std::to_string(xid) + " is not running");
  }
  const int n = page_.num_slots();
  for (int s = 1; s <= n; ++s) {
    if (page_.slot(s).fxid == xid) return s;
  }
  for (int s = 1; s <= n; ++s) {
    if (page_.slot(s).fxid == 0) {
      page_.set_slot(s, TransSlot{xid, kInvalidUndoRecPtr});
      return s;
    }
  }
  for (int s = 1; s <= n; ++s) {
    if (!xacts_->AllVisible(SlotXid(s))) continue;
    // Reuse: the slot's tuples are all-visible now; freeze them.
    for (int off = 1; off <= page_.page().MaxOffset(); ++off) {
      if (page_.page().GetItemId(off).flags != page::LpFlags::kNormal) continue;
      StatusOr<uint8_t*> t = page_.MutableTuple(off);
      if (t.ok() && TupleSlot(*t) == s) SetTupleSlot(*t, kFrozenSlot);
    }
    page_.set_slot(s, TransSlot{xid, kInvalidUndoRecPtr});
    return s;
  }
  return Status::Busy("no free transaction slot on the page (all " + std::to_string(n) +
                      " held by unfinished or not yet all-visible transactions)");
}

StatusOr<ByteView> ZheapTable::Changeable(uint32_t xid, uint16_t offnum) const {
  if (offnum < 1 || offnum > page_.page().MaxOffset() ||
      page_.page().GetItemId(offnum).flags != page::LpFlags::kNormal) {
    return Status::InvalidArgument(Off(offnum) + " does not exist");
  }
  StatusOr<ByteView> t = page_.Tuple(offnum);
  if (!t.ok()) return t.status();
  if (t->size < kZheapTupleHeaderSize) return Status::Corruption(Off(offnum) + " too short");
  const uint32_t owner = SlotXid(TupleSlot(t->data));
  if (owner != 0 && owner != xid && xacts_->IsInProgress(owner)) {
    return Status::Busy(Off(offnum) + " is being changed by transaction " + std::to_string(owner));
  }
  if (TupleInfomask(t->data) & (kZheapDeleted | kZheapUpdated)) {
    return Status::InvalidArgument(Off(offnum) + " was deleted or updated");
  }
  return t;
}

StatusOr<UndoRecPtr> ZheapTable::WriteUndo(UndoType type, uint32_t xid, int slot, uint16_t offnum,
                                           uint32_t prevxid, std::vector<uint8_t> payload,
                                           std::vector<uint8_t> tuple) {
  UndoRecord r;
  r.rmid = kRmZheap;
  r.type = type;
  r.reloid = reloid_;
  r.prevxid = prevxid;
  r.xid = xid;
  r.has_block = true;
  r.blkprev = page_.slot(slot).urec_ptr;
  r.block = block_;
  r.offset = offnum;
  r.payload = std::move(payload);
  r.tuple = std::move(tuple);
  StatusOr<UndoRecPtr> p = log_->Append(std::move(r));
  if (p.ok()) page_.set_slot(slot, TransSlot{xid, *p});
  return p;
}

StatusOr<uint16_t> ZheapTable::Insert(uint32_t xid, ByteView tuple) {
  if (tuple.size < kZheapTupleHeaderSize) {
    return Status::InvalidArgument("a zheap tuple has a 5-byte header");
  }
  StatusOr<int> slot = AcquireSlot(xid);
  if (!slot.ok()) return slot.status();
  std::vector<uint8_t> t = tuple.ToVector();
  SetTupleSlot(t.data(), *slot);
  SetTupleInfomask(t.data(), TupleInfomask(t.data()) & ~kZheapVisibilityBits);
  StatusOr<uint16_t> off = page_.mutable_page().AddItem(ByteView(t));
  if (!off.ok()) return off.status();
  if (*off == page::kInvalidOffsetNumber) return Status::Busy("no room on the page");
  StatusOr<UndoRecPtr> p = WriteUndo(UndoType::kInsert, xid, *slot, *off, 0, {}, {});
  if (!p.ok()) {
    page_.mutable_page().MarkUnused(*off);
    return p.status();
  }
  return *off;
}

StatusOr<uint16_t> ZheapTable::Update(uint32_t xid, uint16_t offnum, ByteView tuple) {
  if (tuple.size < kZheapTupleHeaderSize) {
    return Status::InvalidArgument("a zheap tuple has a 5-byte header");
  }
  StatusOr<OldVersion> old_version = BeginChange(xid, offnum);
  if (!old_version.ok()) return old_version.status();
  const auto& [slot, old, prevxid] = *old_version;
  std::vector<uint8_t> t = tuple.ToVector();
  SetTupleSlot(t.data(), slot);
  if (t.size() <= old.size()) {  // in place
    StatusOr<UndoRecPtr> p =
        WriteUndo(UndoType::kInplaceUpdate, xid, slot, offnum, prevxid, {}, old);
    if (!p.ok()) return p.status();
    SetTupleInfomask(t.data(),
                     (TupleInfomask(t.data()) & ~kZheapVisibilityBits) | kZheapInplaceUpdated);
    page::ItemId id = page_.page().GetItemId(offnum);
    std::copy(t.begin(), t.end(), page_.mutable_page().mutable_data() + id.off);
    id.len = static_cast<uint16_t>(t.size());
    page_.mutable_page().SetItemId(offnum, id);
    return offnum;
  }
  SetTupleInfomask(t.data(), TupleInfomask(t.data()) & ~kZheapVisibilityBits);
  StatusOr<uint16_t> new_off = page_.mutable_page().AddItem(ByteView(t));
  if (!new_off.ok()) return new_off.status();
  if (*new_off == page::kInvalidOffsetNumber) return Status::Busy("no room on the page");
  std::vector<uint8_t> tid(6);
  StoreLE32(tid.data(), block_);
  StoreLE16(tid.data() + 4, *new_off);
  StatusOr<UndoRecPtr> p = WriteUndo(UndoType::kUpdate, xid, slot, offnum, prevxid, tid, old);
  if (p.ok()) p = WriteUndo(UndoType::kInsert, xid, slot, *new_off, 0, {}, {});
  if (!p.ok()) {  // the old version stays as it was (an UPDATE record written restores it as is)
    page_.mutable_page().MarkUnused(*new_off);
    return p.status();
  }
  MarkSuperseded(offnum, slot, kZheapUpdated);
  return *new_off;
}

StatusOr<ZheapTable::OldVersion> ZheapTable::BeginChange(uint32_t xid, uint16_t offnum) {
  if (StatusOr<ByteView> t = Changeable(xid, offnum); !t.ok()) return t.status();
  StatusOr<int> slot = AcquireSlot(xid);  // may freeze the tuple: read it after
  if (!slot.ok()) return slot.status();
  std::vector<uint8_t> old = page_.Tuple(offnum)->ToVector();
  const uint32_t prevxid = SlotXid(TupleSlot(old.data()));
  return OldVersion{*slot, std::move(old), prevxid};
}

void ZheapTable::MarkSuperseded(uint16_t offnum, int slot, uint16_t bits) {
  uint8_t* o = *page_.MutableTuple(offnum);
  SetTupleSlot(o, slot);
  SetTupleInfomask(o, TupleInfomask(o) | bits);
}

Status ZheapTable::Delete(uint32_t xid, uint16_t offnum) {
  StatusOr<OldVersion> old = BeginChange(xid, offnum);
  if (!old.ok()) return old.status();
  StatusOr<UndoRecPtr> p =
      WriteUndo(UndoType::kDelete, xid, old->slot, offnum, old->prevxid, {}, old->tuple);
  if (!p.ok()) return p.status();
  MarkSuperseded(offnum, old->slot, kZheapDeleted);
  return Status::Ok();
}

Status ZheapTable::Lock(uint32_t xid, uint16_t offnum) {
  StatusOr<OldVersion> old = BeginChange(xid, offnum);
  if (!old.ok()) return old.status();
  std::vector<uint8_t> mode(4);
  StoreLE32(mode.data(), kLockTupleExclusive);
  StatusOr<UndoRecPtr> p =
      WriteUndo(UndoType::kXidLockOnly, xid, old->slot, offnum, old->prevxid, mode, old->tuple);
  if (!p.ok()) return p.status();
  MarkSuperseded(offnum, old->slot, kZheapXidLockOnly | kZheapExclLock);
  return Status::Ok();
}

Status ZheapTable::Commit(uint32_t xid) { return xacts_->Commit(xid); }

Status ZheapTable::Abort(uint32_t xid) {
  if (!xacts_->IsInProgress(xid)) {
    return Status::InvalidArgument("transaction " + std::to_string(xid) + " is not running");
  }
  PGSTORE_RETURN_IF_ERROR(Rollback(xid));
  xacts_->MarkAborted(xid);
  return Status::Ok();
}

Status ZheapTable::Apply(const UndoRecord& r) {
  page::HeapPage& p = page_.mutable_page();
  if (r.offset < 1 || r.offset > p.MaxOffset()) {
    return Status::Corruption("undo for " + Off(r.offset) + " beyond the page's line pointers");
  }
  switch (r.type) {
    case UndoType::kInsert:
      p.MarkUnused(r.offset);
      return Status::Ok();
    case UndoType::kDelete:
    case UndoType::kInplaceUpdate:
    case UndoType::kUpdate:
    case UndoType::kXidLockOnly: {
      page::ItemId id = p.GetItemId(r.offset);
      const bool header_only = r.type == UndoType::kXidLockOnly;
      // What is written: the whole saved tuple, or (a lock) its header over the item's own.
      const size_t n = header_only ? kZheapTupleHeaderSize : r.tuple.size();
      if (id.flags != page::LpFlags::kNormal || r.tuple.size() < kZheapTupleHeaderSize ||
          (header_only && id.len < kZheapTupleHeaderSize) || !InTupleSpace(id.off, n)) {
        return Status::Corruption("undo for " + Off(r.offset) + " does not fit its item");
      }
      uint8_t* t = p.mutable_data() + id.off;
      std::copy(r.tuple.begin(), r.tuple.begin() + n, t);
      if (!header_only) {
        id.len = static_cast<uint16_t>(n);
        p.SetItemId(r.offset, id);
      }
      // RestoreXactFromUndoRecord: a slot reused since belongs to someone else now.
      const int s = TupleSlot(t);
      if (s != kFrozenSlot && (s > page_.num_slots() || SlotXid(s) != r.prevxid)) {
        SetTupleSlot(t, kFrozenSlot);
      }
      return Status::Ok();
    }
    default:
      return Status::Corruption(std::string("rollback of an undo record of type ") +
                                UndoTypeName(r.type) + " on a zheap page");
  }
}

bool ZheapTable::InTupleSpace(size_t off, size_t n) const {
  const page::HeapPage& p = page_.page();
  return p.lower() <= p.upper() && off >= p.upper() && off <= p.special() && n <= p.special() - off;
}

Status ZheapTable::Rollback(uint32_t xid, RecoveryStats* stats) {
  int slot = 0;
  for (int s = 1; s <= page_.num_slots(); ++s) {
    if (page_.slot(s).fxid == xid) slot = s;
  }
  if (slot == 0) return Status::Ok();  // nothing of xid on this page (or already rolled back)
  // The walk: every step moves strictly backwards in the log to the start of a record, so it
  // applies at most log_->num_records() records whatever the bytes say.
  UndoRecPtr p = page_.slot(slot).urec_ptr;
  const std::string chain = "undo chain of transaction " + std::to_string(xid);
  for (bool first = true; p != kInvalidUndoRecPtr; first = false) {
    StatusOr<UndoRecord> r = log_->Fetch(p);
    if (!r.ok()) return Status::Corruption(chain + ": " + r.status().message());
    if (r->xid != xid || r->block != block_ || r->reloid != reloid_ || !r->has_block) {
      if (first) {
        return Status::Corruption("transaction slot " + std::to_string(slot) + " of " +
                                  std::to_string(xid) + " points at another's undo record");
      }
      break;  // an earlier transaction's record for this block: the chain of xid ends here
    }
    PGSTORE_RETURN_IF_ERROR(Apply(*r));
    if (stats != nullptr) ++stats->records_applied;
    if (r->has_transaction) PGSTORE_RETURN_IF_ERROR(log_->SetProgress(p, 1));
    if (r->blkprev != kInvalidUndoRecPtr &&
        (UndoRecPtrLogNo(r->blkprev) != UndoRecPtrLogNo(p) || r->blkprev >= p)) {
      return Status::Corruption(chain + ": blkprev does not point back");
    }
    p = r->blkprev;
  }
  page_.set_slot(slot, TransSlot{});
  if (stats != nullptr) ++stats->transactions_rolled_back;
  return Status::Ok();
}

Status ZheapTable::Rollback(uint32_t xid) { return Rollback(xid, nullptr); }

Status ZheapTable::RecoverAfterCrash(RecoveryStats* stats) {
  std::set<uint64_t> holders;
  for (int s = 1; s <= page_.num_slots(); ++s) {
    const uint64_t fxid = page_.slot(s).fxid;
    if (fxid > UINT32_MAX) {
      return Status::Corruption("transaction slot " + std::to_string(s) + " holds " +
                                std::to_string(fxid) + ", not a 32-bit transaction id");
    }
    if (fxid != 0 && !holders.insert(fxid).second) {
      return Status::Corruption("transaction " + std::to_string(fxid) +
                                " holds two transaction slots");
    }
  }
  for (int s = 1; s <= page_.num_slots(); ++s) {
    const uint32_t xid = SlotXid(s);
    if (xid == 0 || xacts_->IsCommitted(xid)) continue;
    PGSTORE_RETURN_IF_ERROR(Rollback(xid, stats));
    xacts_->MarkAborted(xid);
  }
  return Status::Ok();
}

std::map<uint16_t, std::vector<uint8_t>> ZheapTable::VisibleTuples() const {
  std::map<uint16_t, std::vector<uint8_t>> out;
  for (int off = 1; off <= page_.page().MaxOffset(); ++off) {
    if (page_.page().GetItemId(off).flags != page::LpFlags::kNormal) continue;
    StatusOr<ByteView> t = page_.Tuple(off);
    if (!t.ok() || t->size < kZheapTupleHeaderSize) continue;
    if (TupleInfomask(t->data) & (kZheapDeleted | kZheapUpdated)) continue;
    out[static_cast<uint16_t>(off)] = t->ToVector();
  }
  return out;
}

}  // namespace pgstore::undo
