// A zheap-style data page (EnterpriseDB/zheap, 2019: zheap.h, zhtup.h): an 8 KB page in
// PostgreSQL's layout (storage/page: header, line pointers, tuples from the end) whose special
// space holds the transaction slots, and whose tuples carry a 5-byte header instead of 23.
//
//   special space  num_slots x TransInfo { fxid:u64, urec_ptr:u64 }  (16 bytes each; 2, 4, 8, 16
//                  or 31 slots, default 4: 64 bytes). A slot with fxid 0 is free.
//   tuple          t_infomask2:u16 t_infomask:u16 t_hoff:u8, then bitmap and data
//                  t_infomask2: natts in bits 0..10, the transaction slot in bits 11..15
//                  (0 = frozen: all-visible; 1..num_slots = transinfo[slot - 1])
//                  t_infomask: HASNULL 0x1, HASVARWIDTH 0x2, HASEXTERNAL 0x4, DELETED 0x10,
//                  INPLACE_UPDATED 0x20, UPDATED 0x40, XID_LOCK_ONLY 0x80, EXCL_LOCK 0x400,
//                  INVALID_XACT_SLOT 0x1000
// A slot's urec_ptr is the latest undo record its transaction wrote for this page; the records
// of one page are chained by blkprev (undo_record.h).
#ifndef PGSTORE_STORAGE_UNDO_ZHEAP_PAGE_H_
#define PGSTORE_STORAGE_UNDO_ZHEAP_PAGE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/page/heap_page.h"
#include "storage/undo/undo_log.h"

namespace pgstore::undo {

inline constexpr size_t kTransInfoSize = 16;
inline constexpr int kDefaultTransSlots = 4;
inline constexpr int kFrozenSlot = 0;
inline constexpr uint16_t kZheapNattsMask = 0x07FF;
inline constexpr int kZheapSlotShift = 11;

// t_infomask bits.
inline constexpr uint16_t kZheapHasNull = 0x0001;
inline constexpr uint16_t kZheapHasVarWidth = 0x0002;
inline constexpr uint16_t kZheapHasExternal = 0x0004;
inline constexpr uint16_t kZheapDeleted = 0x0010;
inline constexpr uint16_t kZheapInplaceUpdated = 0x0020;
inline constexpr uint16_t kZheapUpdated = 0x0040;
inline constexpr uint16_t kZheapXidLockOnly = 0x0080;
inline constexpr uint16_t kZheapExclLock = 0x0400;
inline constexpr uint16_t kZheapInvalidXactSlot = 0x1000;
// The bits an operation sets on a version it supersedes (what rollback restores).
inline constexpr uint16_t kZheapVisibilityBits = kZheapDeleted | kZheapInplaceUpdated |
                                                 kZheapUpdated | kZheapXidLockOnly |
                                                 kZheapExclLock | kZheapInvalidXactSlot;

// Whether a slot count is one zheap can be configured with.
bool ValidSlotCount(int n);

struct TransSlot {
  uint64_t fxid = 0;
  UndoRecPtr urec_ptr = kInvalidUndoRecPtr;
};

// Tuple header accessors. REQUIRES: the tuple has at least 5 bytes.
inline int TupleSlot(const uint8_t* t) { return LoadLE16(t) >> kZheapSlotShift; }
inline void SetTupleSlot(uint8_t* t, int slot) {
  StoreLE16(t, static_cast<uint16_t>((LoadLE16(t) & kZheapNattsMask) | slot << kZheapSlotShift));
}
inline uint16_t TupleInfomask(const uint8_t* t) { return LoadLE16(t + 2); }
inline void SetTupleInfomask(uint8_t* t, uint16_t m) { StoreLE16(t + 2, m); }

class ZheapPage {
 public:
  // REQUIRES: ValidSlotCount(num_slots).
  explicit ZheapPage(int num_slots = kDefaultTransSlots);
  // A page from bytes (after a crash): Corruption "corrupted page pointers" unless 24 <= pd_lower
  // <= pd_upper <= pd_special <= 8192; InvalidArgument unless 8192 bytes with special space of
  // exactly num_slots slots.
  static StatusOr<ZheapPage> FromBytes(ByteView bytes, int num_slots);

  int num_slots() const { return num_slots_; }
  TransSlot slot(int slot) const;  // REQUIRES: 1 <= slot <= num_slots()
  void set_slot(int slot, TransSlot s);

  const page::HeapPage& page() const { return page_; }
  page::HeapPage& mutable_page() { return page_; }
  ByteView bytes() const { return page_.bytes(); }

  // The tuple at offnum (a normal line pointer), writable in place. Corruption as GetItem.
  StatusOr<uint8_t*> MutableTuple(int offnum);
  StatusOr<ByteView> Tuple(int offnum) const { return page_.GetItem(offnum); }

 private:
  size_t SlotOffset(int slot) const;
  page::HeapPage page_;
  int num_slots_;
};

}  // namespace pgstore::undo

#endif  // PGSTORE_STORAGE_UNDO_ZHEAP_PAGE_H_
