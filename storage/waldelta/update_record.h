// PostgreSQL 15's heap UPDATE / HOT_UPDATE WAL record (access/heapam_xlog.h; written by
// log_heap_update, replayed by heap_xlog_update), and pgstore's general-delta extension of it.
//
// Main data, xl_heap_update (14 bytes, LE): old_xmax:u32 old_offnum:u16 old_infobits_set:u8
// flags:u8 new_xmax:u32 new_offnum:u16.
//
// Block 0 (the new tuple's page) data:
//   block0  := [prefixlen:u16]  if flags & PREFIX_FROM_OLD (0x20)
//              [suffixlen:u16]  if flags & SUFFIX_FROM_OLD (0x40)
//              xl_heap_header   t_infomask2:u16 t_infomask:u16 t_hoff:u8 (5 bytes)
//              bits             t_hoff - 23 bytes: the new tuple's null bitmap and padding
//              payload
//   payload := the new tuple's user data (from t_hoff) without its first prefixlen and last
//              suffixlen bytes, which redo copies from the old tuple's user data
//            | delta            if flags & PGSTORE_DELTA (0x80, a bit PostgreSQL 15 never sets)
//   delta   := method:u8 middle_len:u16 body
//              method 1: pglz_history.h, method 2: chunk_delta.h; body encodes those
//              middle_len bytes against the old tuple's whole user data.
//
// Redo's new tuple: a 23-byte header (zero but for t_infomask2, t_infomask and t_hoff from
// xl_heap_header, and the xmin, cmin = FirstCommandId, xmax and t_ctid redo sets), the bits, then
// old[0, prefixlen) + middle + old[oldlen - suffixlen, oldlen), where old is the old tuple's user
// data. PostgreSQL's redo trusts the record; ReconstructNewTuple does not: it requires t_hoff >=
// 23, the bits within the payload, prefixlen + suffixlen <= the old tuple's data length, a delta
// that decodes to exactly middle_len bytes, and a new tuple of at most MaxHeapTupleSize (8160)
// bytes.
#ifndef PGSTORE_STORAGE_WALDELTA_UPDATE_RECORD_H_
#define PGSTORE_STORAGE_WALDELTA_UPDATE_RECORD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::waldelta {

// xl_heap_update.flags.
inline constexpr uint8_t kFlagOldAllVisibleCleared = 0x01;
inline constexpr uint8_t kFlagNewAllVisibleCleared = 0x02;
inline constexpr uint8_t kFlagContainsOldTuple = 0x04;
inline constexpr uint8_t kFlagContainsOldKey = 0x08;
inline constexpr uint8_t kFlagContainsNewTuple = 0x10;
inline constexpr uint8_t kFlagPrefixFromOld = 0x20;
inline constexpr uint8_t kFlagSuffixFromOld = 0x40;
inline constexpr uint8_t kFlagPgstoreDelta = 0x80;  // pgstore's; PostgreSQL 15 never sets it

inline constexpr size_t kSizeOfHeapUpdate = 14;
inline constexpr size_t kSizeOfHeapHeader = 5;
inline constexpr size_t kTupleHeaderSize = tuple::kHeaderSize;         // SizeofHeapTupleHeader
inline constexpr size_t kMaxHeapTupleSize = tuple::kMaxHeapTupleSize;  // 8160
inline constexpr size_t kDeltaHeaderSize = 3;                          // method, middle_len
inline constexpr uint32_t kFirstCommandId = 0;

// The XLOG_HEAP_* record types (xl_info & XLOG_HEAP_OPMASK) and flag.
inline constexpr uint8_t kXlogHeapUpdate = 0x20;
inline constexpr uint8_t kXlogHeapHotUpdate = 0x40;
inline constexpr uint8_t kXlogHeapInitPage = 0x80;

enum class DeltaBody : uint8_t { kPglzHistory = 1, kChunk = 2 };

struct XlHeapUpdate {
  uint32_t old_xmax = 0;
  uint16_t old_offnum = 0;
  uint8_t old_infobits_set = 0;
  uint8_t flags = 0;
  uint32_t new_xmax = 0;
  uint16_t new_offnum = 0;

  // Exactly 14 bytes (the record's whole main data); InvalidArgument "xl_heap_update: N bytes,
  // need 14" otherwise.
  static StatusOr<XlHeapUpdate> Parse(ByteView main_data);
  std::vector<uint8_t> Serialize() const;
};

// What redo sets in the new tuple's header besides xl_heap_header's fields.
struct RedoHeader {
  uint32_t xid = 0;       // the record's xl_xid, the new tuple's xmin
  uint32_t new_xmax = 0;  // xl_heap_update.new_xmax
  uint32_t block = 0;     // the new tuple's TID, its own t_ctid
  uint16_t offnum = 0;
};

// A tuple's user data: bytes [t_hoff, t_len). Corruption "tuple shorter than its header",
// "t_hoff N outside the tuple".
StatusOr<ByteView> UserData(ByteView tuple);

// heap_xlog_update's reconstruction of the new tuple from the old tuple (as on the page; only its
// t_hoff and data are used), xl_heap_update.flags and block 0's data. Corruption naming the
// broken rule (see the file comment); never reads outside its inputs.
StatusOr<std::vector<uint8_t>> ReconstructNewTuple(ByteView old_tuple, uint8_t flags,
                                                   ByteView block_data, const RedoHeader& header);

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_UPDATE_RECORD_H_
