// An undo log: zheap's undo records (undo_record.h) appended back to back, unaligned, in 8 KB
// pages; a record may span a page boundary and continues right after the next page's header.
//
// UndoRecPtr (u64): log number in the top 24 bits, byte offset in the log in the low 40 (page
// headers included: a record's pointer is the offset of its first byte); 0 is invalid.
// Page layout: PageHeaderData's 24 bytes (pd_lsn 0, pd_checksum 0, pd_flags, pd_lower = the end of
// the data on this page, pd_upper = pd_lower, pd_special = 8192, pd_pagesize_version = 8192 | 4,
// pd_prune_xid 0), then 8168 bytes of record stream. pd_flags 0x0001 (kUndoPageContinues): the
// page begins with the rest of a record started on the previous page. Every page but the last is
// full (pd_lower = 8192).
//
// Chains: the backward walk reads the u16 trailer just before a record (crossing a page header)
// to find the previous one; the first record of each transaction in the log carries a transaction
// part whose `next` is patched to the next transaction's first record when that is appended;
// blkprev (set by the caller) links the records of one heap block.
//
// Recovery (FromPages) rebuilds a log from its pages alone: pages must have a valid header; the
// data ends at the first page that is not full (or the first all-zero page); records are then
// read forwards. A last record that runs past the end of the data is a torn tail, what a crash
// while appending leaves, and the log ends before it (not corruption), but only if its bytes so
// far are a well-formed start of a record (DeclaredRecordLength) and every page it runs on to is
// flagged as continuing a record. Everything else is Corruption: a complete record that does not
// unpack, a transaction part on any record but a transaction's first (or a first without one), a
// continuation flag that disagrees with where records start, a blkprev (within this
// log) that is not an earlier record, a transaction's next pointer that does not point forward or
// points inside the log at anything but a transaction's first record.
#ifndef PGSTORE_STORAGE_UNDO_UNDO_LOG_H_
#define PGSTORE_STORAGE_UNDO_UNDO_LOG_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/undo/undo_record.h"

namespace pgstore::undo {

using UndoRecPtr = uint64_t;
inline constexpr UndoRecPtr kInvalidUndoRecPtr = 0;
inline constexpr size_t kUndoPageSize = kBlockSize;  // undo pages are blocks too
inline constexpr size_t kUndoPageHeaderSize = 24;
inline constexpr size_t kUndoPageUsable = kUndoPageSize - kUndoPageHeaderSize;  // 8168
inline constexpr uint16_t kUndoPageContinues = 0x0001;
inline constexpr uint64_t kMaxUndoLogOffset = (uint64_t{1} << 40) - 1;

inline UndoRecPtr MakeUndoRecPtr(uint32_t logno, uint64_t offset) {
  return static_cast<UndoRecPtr>(logno) << 40 | offset;
}
inline uint32_t UndoRecPtrLogNo(UndoRecPtr p) { return static_cast<uint32_t>(p >> 40); }
inline uint64_t UndoRecPtrOffset(UndoRecPtr p) { return p & kMaxUndoLogOffset; }

// The log offset of byte s of the record stream (page headers counted in). May exceed
// kMaxUndoLogOffset: a log is full when its stream's end would (UndoLogFits).
inline uint64_t UndoLogOffsetOfStream(uint64_t s) {
  return (s / kUndoPageUsable) * kUndoPageSize + kUndoPageHeaderSize + s % kUndoPageUsable;
}
// Whether a log whose records take `stream_bytes` bytes still ends within the 40-bit offset.
inline bool UndoLogFits(uint64_t stream_bytes) {
  return UndoLogOffsetOfStream(stream_bytes) <= kMaxUndoLogOffset;
}

using UndoPage = std::array<uint8_t, kUndoPageSize>;

class UndoLog {
 public:
  // `capacity`: the largest log offset a record may end at; at most (and by default) the 40-bit
  // kMaxUndoLogOffset. A smaller one makes a log that fills up, to test what a full log does.
  explicit UndoLog(uint32_t logno, uint64_t capacity = kMaxUndoLogOffset)
      : logno_(logno), capacity_(std::min(capacity, kMaxUndoLogOffset)) {}

  // Appends a record and returns its pointer. The first record of a transaction (an xid other
  // than the previous record's) gets a transaction part (its dbid and xidepoch from
  // r.transaction, progress 0, next 0), and the previous transaction's `next` is set to it; any
  // other record loses a transaction part it had. InvalidArgument as PackUndoRecord, or when the
  // record would end past the log's capacity (the log is full; nothing is appended).
  StatusOr<UndoRecPtr> Append(UndoRecord r);

  // The record at p. InvalidArgument if p is not a record of this log.
  StatusOr<UndoRecord> Fetch(UndoRecPtr p) const;
  // The record before p (a record of this log, or its end), or kInvalidUndoRecPtr if p is the
  // first. InvalidArgument if p is neither.
  StatusOr<UndoRecPtr> Prev(UndoRecPtr p) const;
  // Calls fn on the transaction's records from `last` back to its first (the one with the
  // transaction part); stops early if fn returns false.
  Status WalkTransactionBackward(
      UndoRecPtr last, const std::function<bool(UndoRecPtr, const UndoRecord&)>& fn) const;
  // Sets the progress field of the transaction whose first record is `first`.
  Status SetProgress(UndoRecPtr first, uint32_t progress);

  uint32_t logno() const { return logno_; }
  UndoRecPtr insert_ptr() const { return PtrOfStream(stream_.size()); }
  bool empty() const { return stream_.empty(); }
  size_t num_records() const { return starts_.size(); }

  // The log as pages (the last one partly filled).
  std::vector<UndoPage> Pages() const;
  // Recovery from pages alone (see the file comment).
  static StatusOr<UndoLog> FromPages(uint32_t logno, const std::vector<UndoPage>& pages);

 private:
  UndoRecPtr PtrOfStream(uint64_t s) const;
  // The stream index of p, or InvalidArgument.
  StatusOr<uint64_t> StreamOf(UndoRecPtr p) const;
  StatusOr<UndoRecord> FetchAt(uint64_t s) const;
  // Recovery's check of a record's pointers within this log (the records before it known):
  // blkprev is an earlier record, a transaction's next points forward. Corruption.
  Status CheckChainPointers(uint64_t s, const UndoRecord& r) const;

  uint32_t logno_;
  uint64_t capacity_;
  std::vector<uint8_t> stream_;   // the records' bytes without page headers
  std::vector<uint64_t> starts_;  // stream index of every record, ascending
  uint32_t last_xid_ = 0;
  bool has_last_xid_ = false;
  uint64_t last_txn_first_ = 0;  // stream index of the current transaction's first record
};

}  // namespace pgstore::undo

#endif  // PGSTORE_STORAGE_UNDO_UNDO_LOG_H_
