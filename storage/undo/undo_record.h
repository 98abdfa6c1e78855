// zheap's undo record (EnterpriseDB/zheap, 2019: access/undorecord.h, undorecord.c), packed and
// unpacked byte-compatibly with InsertUndoRecord / UnpackUndoRecord on a little-endian 64-bit
// build.
//
// Packed layout: parts in this order, no padding between parts (all integers little-endian):
//   header       24 bytes  0 rmid:u8 1 type:u8 2 info:u8 3 pad 4 prevlen:u16 6 pad:2 8 reloid:u32
//                          12 prevxid:u32 16 xid:u32 20 cid:u32
//   relation      1 byte   fork:u8                                   if info & RELATION_DETAILS
//   block        14 bytes  blkprev:u64 block:u32 offset:u16          if info & BLOCK
//   transaction  32 bytes  progress:u32 xidepoch:u32 dbid:u32 pad:4 prevurp:u64 next:u64
//                                                                    if info & TRANSACTION
//   payload hdr   4 bytes  payload_len:u16 tuple_len:u16             if info & PAYLOAD
//   payload, tuple          payload_len and tuple_len bytes
//   trailer       2 bytes  the record's total length (what the backward walk reads)
// info bits: RELATION_DETAILS 0x01 (fork not main), BLOCK 0x02, PAYLOAD 0x04 (payload or tuple
// non-empty), TRANSACTION 0x08 (first record of a transaction in a log), PAYLOAD_CONTAINS_SLOT
// 0x10 (a TPD slot int32 ends the type's payload), PAYLOAD_CONTAINS_SUBXACT 0x20 (then a
// SubTransactionId u32). Pack derives the first four from the record's fields, as
// UndoRecordSetInfo does; prevlen stays 0 (zheap never fills it).
//
// Payloads and tuples by type (zheapam.c), checked by Unpack ("type payload" below; +4 for a slot,
// +4 for a subxact id):
//   INSERT 0          payload 0 or 4 (speculative token), no tuple
//   MULTI_INSERT 1    payload start_off:u16 end_off:u16 (start <= end), no tuple
//   DELETE 2, INPLACE_UPDATE 3   payload 0, the whole old tuple (>= 5-byte zheap header)
//   UPDATE 4          payload the new tuple's TID (block:u32 offset:u16), the old tuple
//   XID_LOCK_ONLY 5, XID_LOCK_FOR_UPDATE 6, XID_MULTI_LOCK_ONLY 7   payload LockTupleMode:u32,
//                     the old tuple
//   ITEMID_UNUSED 8   payload offsets:u16[k], k >= 1, no tuple
// Unpack is hardened: Corruption for a record shorter than its parts, an unknown type or info bit,
// a payload or tuple running past the record, a payload that does not fit its type, or a trailing
// length that is not the parsed length.
#ifndef PGSTORE_STORAGE_UNDO_UNDO_RECORD_H_
#define PGSTORE_STORAGE_UNDO_UNDO_RECORD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::undo {

enum class UndoType : uint8_t {
  kInsert = 0,
  kMultiInsert = 1,
  kDelete = 2,
  kInplaceUpdate = 3,
  kUpdate = 4,
  kXidLockOnly = 5,
  kXidLockForUpdate = 6,
  kXidMultiLockOnly = 7,
  kItemIdUnused = 8,
};
inline constexpr uint8_t kMaxUndoType = 8;
const char* UndoTypeName(UndoType t);

inline constexpr uint8_t kInfoRelationDetails = 0x01;
inline constexpr uint8_t kInfoBlock = 0x02;
inline constexpr uint8_t kInfoPayload = 0x04;
inline constexpr uint8_t kInfoTransaction = 0x08;
inline constexpr uint8_t kInfoPayloadContainsSlot = 0x10;
inline constexpr uint8_t kInfoPayloadContainsSubxact = 0x20;
inline constexpr uint8_t kInfoKnownBits = 0x3F;

inline constexpr size_t kHeaderSize = 24;
inline constexpr size_t kRelationDetailsSize = 1;
inline constexpr size_t kBlockPartSize = 14;
inline constexpr size_t kTransactionPartSize = 32;
inline constexpr size_t kPayloadHeaderSize = 4;
inline constexpr size_t kTrailerSize = 2;
inline constexpr size_t kMaxRecordSize = 0xFFFF;  // the trailer is a u16
inline constexpr size_t kZheapTupleHeaderSize = 5;
inline constexpr uint8_t kMainFork = 0;

struct UndoTransactionPart {
  uint32_t progress = 0;  // 0 = not applied, 1 = applied
  uint32_t xidepoch = 0;
  uint32_t dbid = 0;
  uint64_t prevurp = 0;  // the transaction's last record in the previous log
  uint64_t next = 0;     // the next transaction's first record (patched in later)
  bool operator==(const UndoTransactionPart& o) const {
    return progress == o.progress && xidepoch == o.xidepoch && dbid == o.dbid &&
           prevurp == o.prevurp && next == o.next;
  }
};

// UnpackedUndoRecord. The optional parts are present when has_block / has_transaction say so.
struct UndoRecord {
  uint8_t rmid = 0;
  UndoType type = UndoType::kInsert;
  // Only the payload-content bits (0x10, 0x20) are the caller's; Pack derives the others.
  uint8_t payload_flags = 0;
  uint32_t reloid = 0;
  uint32_t prevxid = 0;
  uint32_t xid = 0;
  uint32_t cid = 0;
  uint8_t fork = kMainFork;
  bool has_block = false;
  uint64_t blkprev = 0;
  uint32_t block = 0;
  uint16_t offset = 0;
  bool has_transaction = false;
  UndoTransactionPart transaction;
  std::vector<uint8_t> payload;
  std::vector<uint8_t> tuple;

  // The info byte Pack writes (UndoRecordSetInfo).
  uint8_t Info() const;
  bool operator==(const UndoRecord& o) const;
};

// The packed size (UndoRecordExpectedSize).
size_t PackedSize(const UndoRecord& r);

// Checks a record's payload and tuple against its type (the table above). InvalidArgument.
Status CheckShape(const UndoRecord& r);
// The same from the sizes alone (all but MULTI_INSERT's start <= end).
Status CheckShapeSizes(UndoType type, uint8_t payload_flags, size_t payload_size,
                       size_t tuple_size);

// What the first bytes of a packed record declare (they may be cut short: a torn tail): its
// whole length once the header, the optional parts and the payload header are all present, or 0
// when `head` ends before them. Corruption for what the bytes present already break: an unknown
// type or info bit, relation details for the main fork, an empty payload part, payload or tuple
// sizes that do not fit the type, a length over 64 KB.
StatusOr<size_t> DeclaredRecordLength(ByteView head);

// Appends the packed record. InvalidArgument when it does not fit its type or exceeds 64 KB.
Status PackUndoRecord(const UndoRecord& r, std::vector<uint8_t>* out);

// Unpacks exactly `packed` (one whole record). Corruption naming the broken rule.
StatusOr<UndoRecord> UnpackUndoRecord(ByteView packed);

}  // namespace pgstore::undo

#endif  // PGSTORE_STORAGE_UNDO_UNDO_RECORD_H_
