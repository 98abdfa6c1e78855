// Changes to a zheap page that write undo, and rollback through that undo (zheapam.c, zundo.c).
//
// A ZheapTable is one zheap page (block `block` of relation `reloid`), the undo log its
// operations write to, and the transaction status table (the commit log: it survives a crash).
// Every operation takes the transaction's slot on the page first (its own, a free one, or one
// whose transaction is committed and all-visible, whose tuples are then frozen to slot 0; if every
// slot is held, Busy "no free transaction slot"), writes one undo record per changed tuple
// (blkprev = the slot's previous record, prevxid = the transaction the tuple's slot named), then
// changes the page and sets the slot's urec_ptr:
//   Insert          INSERT record; a new line pointer
//   Update          in place (INPLACE_UPDATE with the old tuple) when the new tuple is no longer;
//                   otherwise UPDATE (old tuple, new TID) + INSERT of the new version, the old one
//                   marked UPDATED
//   Delete          DELETE with the old tuple; marked DELETED
//   Lock            XID_LOCK_ONLY with the old tuple; marked XID_LOCK_ONLY | EXCL_LOCK
// A tuple another unfinished transaction changed is Busy; one deleted or updated away is
// InvalidArgument. When the undo log is full (InvalidArgument "undo log N is full") the page is
// left as it was, but for the slot the transaction took.
//
// Rollback (Abort, and RecoverAfterCrash for every slot whose transaction did not commit) walks the
// slot's chain backwards while the records are the transaction's and applies each: INSERT marks
// the line pointer unused; DELETE, UPDATE and INPLACE_UPDATE copy the saved tuple back and restore
// lp_len; XID_LOCK_ONLY restores the header. A restored tuple whose slot no longer belongs to the
// record's prevxid is frozen (that transaction was all-visible when its slot was reused). Then the
// slot is freed and the transaction's progress set to applied: a second rollback finds no slot and
// changes nothing.
//
// Recovery reads bytes that may be corrupt (the page, the undo log, the commit log) and returns
// Corruption rather than trusting them: a page whose pointers are out of order (ZheapPage::
// FromBytes, before any rollback), a slot holding an id beyond 32 bits (pgstore's
// transactions are 32-bit, epoch 0), two slots held by one transaction, a slot whose undo pointer
// is not a record of its own transaction for this block; a chain whose blkprev does not point
// strictly backwards in the log (so a walk takes at most UndoLog::num_records() steps: no loop,
// whatever the bytes); a record that does not fit its item (a restored tuple, or a lock's 5-byte
// header, must lie between pd_upper and pd_special, on a normal line pointer at least as long as a
// header). It never writes outside the page's tuple space and never changes pd_lower, pd_upper or
// pd_special.
#ifndef PGSTORE_STORAGE_UNDO_ZHEAP_TABLE_H_
#define PGSTORE_STORAGE_UNDO_ZHEAP_TABLE_H_

#include <cstdint>
#include <map>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/undo/undo_log.h"
#include "storage/undo/xact_table.h"
#include "storage/undo/zheap_page.h"

namespace pgstore::undo {

inline constexpr uint8_t kRmZheap = 22;  // the rmid pgstore writes for zheap undo

class ZheapTable {
 public:
  ZheapTable(ZheapPage page, uint32_t reloid, uint32_t block, UndoLog* log, XactTable* xacts)
      : page_(std::move(page)), reloid_(reloid), block_(block), log_(log), xacts_(xacts) {}

  // tuple: a zheap tuple (5-byte header, bitmap, data); its slot and visibility bits are set here.
  StatusOr<uint16_t> Insert(uint32_t xid, ByteView tuple);
  // Returns the offset of the new version (offnum itself when updated in place).
  StatusOr<uint16_t> Update(uint32_t xid, uint16_t offnum, ByteView tuple);
  Status Delete(uint32_t xid, uint16_t offnum);
  Status Lock(uint32_t xid, uint16_t offnum);
  Status Commit(uint32_t xid);
  // Rolls the transaction back and marks it aborted.
  Status Abort(uint32_t xid);
  // Rollback of one transaction's changes to this page (idempotent).
  Status Rollback(uint32_t xid);
  // After a crash (a table rebuilt from the page bytes, the recovered undo log and
  // XactTable::AfterCrash): rolls back every transaction holding a slot that did not commit.
  // Counts what it did in *stats when given. Corruption as the file comment says.
  struct RecoveryStats {
    int transactions_rolled_back = 0;
    size_t records_applied = 0;  // at most num_slots() * the log's num_records()
  };
  Status RecoverAfterCrash(RecoveryStats* stats = nullptr);

  // Live tuples (normal line pointers, neither deleted nor updated away), by offset.
  std::map<uint16_t, std::vector<uint8_t>> VisibleTuples() const;
  const ZheapPage& page() const { return page_; }

 private:
  StatusOr<int> AcquireSlot(uint32_t xid);
  // The tuple at offnum if xid may change it.
  StatusOr<ByteView> Changeable(uint32_t xid, uint16_t offnum) const;
  uint32_t SlotXid(int slot) const;
  StatusOr<UndoRecPtr> WriteUndo(UndoType type, uint32_t xid, int slot, uint16_t offnum,
                                 uint32_t prevxid, std::vector<uint8_t> payload,
                                 std::vector<uint8_t> tuple);
  // What Update, Delete and Lock do first: check the tuple may be changed, take the slot (which
  // may freeze the tuple), and keep the tuple as it then is, with the transaction its slot named.
  struct OldVersion {
    int slot;
    std::vector<uint8_t> tuple;
    uint32_t prevxid;
  };
  StatusOr<OldVersion> BeginChange(uint32_t xid, uint16_t offnum);
  // What they do last, once the undo is written: the old version gets the slot and `bits`.
  void MarkSuperseded(uint16_t offnum, int slot, uint16_t bits);
  Status Rollback(uint32_t xid, RecoveryStats* stats);
  Status Apply(const UndoRecord& r);
  // Whether [off, off + n) lies in the page's tuple space, [pd_upper, pd_special).
  bool InTupleSpace(size_t off, size_t n) const;

  ZheapPage page_;
  uint32_t reloid_;
  uint32_t block_;
  UndoLog* log_;
  XactTable* xacts_;
};

}  // namespace pgstore::undo

#endif  // PGSTORE_STORAGE_UNDO_ZHEAP_TABLE_H_
