#include "storage/undo/undo_log.h"

#include <algorithm>
#include <string>

namespace pgstore::undo {
namespace {

constexpr uint16_t kPageSizeVersion = kUndoPageSize | 4;

std::string PtrText(UndoRecPtr p) {
  return std::to_string(UndoRecPtrLogNo(p)) + "/" + std::to_string(UndoRecPtrOffset(p));
}

// The offset of the transaction part inside a packed record with this info byte.
size_t TransactionPartOffset(uint8_t info) {
  return kHeaderSize + ((info & kInfoRelationDetails) ? kRelationDetailsSize : 0) +
         ((info & kInfoBlock) ? kBlockPartSize : 0);
}

}  // namespace

UndoRecPtr UndoLog::PtrOfStream(uint64_t s) const {
  return MakeUndoRecPtr(logno_, UndoLogOffsetOfStream(s));
}

StatusOr<uint64_t> UndoLog::StreamOf(UndoRecPtr p) const {
  if (UndoRecPtrLogNo(p) != logno_) {
    return Status::InvalidArgument("undo pointer " + PtrText(p) + " is not in log " +
                                   std::to_string(logno_));
  }
  const uint64_t off = UndoRecPtrOffset(p);
  if (off % kUndoPageSize < kUndoPageHeaderSize) {
    return Status::InvalidArgument("undo pointer " + PtrText(p) + " points into a page header");
  }
  return (off / kUndoPageSize) * kUndoPageUsable + off % kUndoPageSize - kUndoPageHeaderSize;
}

Status UndoLog::CheckChainPointers(uint64_t s, const UndoRecord& r) const {
  const UndoRecPtr self = PtrOfStream(s);
  if (r.has_block && r.blkprev != kInvalidUndoRecPtr && UndoRecPtrLogNo(r.blkprev) == logno_) {
    StatusOr<uint64_t> prev = StreamOf(r.blkprev);
    if (r.blkprev >= self || !prev.ok() ||
        !std::binary_search(starts_.begin(), starts_.end(), *prev)) {
      return Status::Corruption("undo record at " + PtrText(self) + ": blkprev " +
                                PtrText(r.blkprev) + " is not an earlier record");
    }
  }
  if (r.has_transaction && r.transaction.next != kInvalidUndoRecPtr &&
      UndoRecPtrLogNo(r.transaction.next) == logno_ && r.transaction.next <= self) {
    return Status::Corruption("undo record at " + PtrText(self) +
                              ": next transaction pointer does not point forward");
  }
  return Status::Ok();
}

StatusOr<UndoRecPtr> UndoLog::Append(UndoRecord r) {
  const bool first_of_xact = !has_last_xid_ || r.xid != last_xid_;
  r.has_transaction = first_of_xact;
  if (first_of_xact) {
    r.transaction.progress = 0;
    r.transaction.prevurp = kInvalidUndoRecPtr;
    r.transaction.next = kInvalidUndoRecPtr;
  }
  const uint64_t s = stream_.size();
  if (UndoLogOffsetOfStream(s + PackedSize(r)) > capacity_) {
    return Status::InvalidArgument("undo log " + std::to_string(logno_) + " is full");
  }
  PGSTORE_RETURN_IF_ERROR(PackUndoRecord(r, &stream_));
  const UndoRecPtr p = PtrOfStream(s);
  if (first_of_xact) {
    if (has_last_xid_) {  // UndoRecordUpdateTransInfo: link the previous transaction to this one
      const size_t at = last_txn_first_ + TransactionPartOffset(stream_[last_txn_first_ + 2]) + 24;
      StoreLE64(&stream_[at], p);
    }
    last_txn_first_ = s;
  }
  starts_.push_back(s);
  last_xid_ = r.xid;
  has_last_xid_ = true;
  return p;
}

StatusOr<UndoRecord> UndoLog::FetchAt(uint64_t s) const {
  const auto it = std::lower_bound(starts_.begin(), starts_.end(), s);
  if (it == starts_.end() || *it != s) {
    return Status::InvalidArgument("undo pointer " + PtrText(PtrOfStream(s)) +
                                   " is not the start of a record");
  }
  const uint64_t end = it + 1 == starts_.end() ? stream_.size() : *(it + 1);
  return UnpackUndoRecord(ByteView(stream_.data() + s, end - s));
}

StatusOr<UndoRecord> UndoLog::Fetch(UndoRecPtr p) const {
  StatusOr<uint64_t> s = StreamOf(p);
  if (!s.ok()) return s.status();
  return FetchAt(*s);
}

StatusOr<UndoRecPtr> UndoLog::Prev(UndoRecPtr p) const {
  StatusOr<uint64_t> s = StreamOf(p);
  if (!s.ok()) return s.status();
  if (*s > stream_.size()) {
    return Status::InvalidArgument("undo pointer " + PtrText(p) + " outside the log");
  }
  if (*s < stream_.size() && !std::binary_search(starts_.begin(), starts_.end(), *s)) {
    return Status::InvalidArgument("undo pointer " + PtrText(p) + " is not the start of a record");
  }
  if (*s == 0) return kInvalidUndoRecPtr;
  // UndoGetPrevRecordLen: the u16 just before the record (page headers are not in the stream).
  // Every record of the log ends with its own length (Append packs it so, FromPages checks it), so
  // it leads back to the previous record's start.
  return PtrOfStream(*s - LoadLE16(&stream_[*s - kTrailerSize]));
}

Status UndoLog::WalkTransactionBackward(
    UndoRecPtr last, const std::function<bool(UndoRecPtr, const UndoRecord&)>& fn) const {
  UndoRecPtr p = last;
  bool first = true;
  uint32_t xid = 0;
  for (;;) {
    StatusOr<UndoRecord> r = Fetch(p);
    if (!r.ok()) return r.status();
    if (first) xid = r->xid;
    if (r->xid != xid) {
      return Status::Corruption("transaction " + std::to_string(xid) + " runs into xid " +
                                std::to_string(r->xid) + " at " + PtrText(p));
    }
    first = false;
    if (!fn(p, *r) || r->has_transaction) return Status::Ok();
    StatusOr<UndoRecPtr> prev = Prev(p);
    if (!prev.ok()) return prev.status();
    if (*prev == kInvalidUndoRecPtr) {
      return Status::Corruption("transaction " + std::to_string(xid) + " has no first record");
    }
    p = *prev;
  }
}

Status UndoLog::SetProgress(UndoRecPtr first, uint32_t progress) {
  StatusOr<uint64_t> s = StreamOf(first);
  if (!s.ok()) return s.status();
  StatusOr<UndoRecord> r = FetchAt(*s);
  if (!r.ok()) return r.status();
  if (!r->has_transaction) {
    return Status::InvalidArgument(PtrText(first) + " is not a transaction's first record");
  }
  StoreLE32(&stream_[*s + TransactionPartOffset(stream_[*s + 2])], progress);
  return Status::Ok();
}

std::vector<UndoPage> UndoLog::Pages() const {
  std::vector<UndoPage> pages;
  for (uint64_t begin = 0; begin < stream_.size(); begin += kUndoPageUsable) {
    UndoPage page{};
    const size_t n = std::min<uint64_t>(kUndoPageUsable, stream_.size() - begin);
    const bool continues = begin > 0 && !std::binary_search(starts_.begin(), starts_.end(), begin);
    StoreLE16(&page[10], continues ? kUndoPageContinues : 0);
    StoreLE16(&page[12], static_cast<uint16_t>(kUndoPageHeaderSize + n));
    StoreLE16(&page[14], static_cast<uint16_t>(kUndoPageHeaderSize + n));
    StoreLE16(&page[16], static_cast<uint16_t>(kUndoPageSize));
    StoreLE16(&page[18], kPageSizeVersion);
    std::copy(stream_.begin() + begin, stream_.begin() + begin + n,
              page.begin() + kUndoPageHeaderSize);
    pages.push_back(page);
  }
  return pages;
}

StatusOr<UndoLog> UndoLog::FromPages(uint32_t logno, const std::vector<UndoPage>& pages) {
  UndoLog log(logno);
  std::vector<bool> continues;
  bool ended = false;
  for (size_t i = 0; i < pages.size(); ++i) {
    const UndoPage& page = pages[i];
    const bool zero = std::all_of(page.begin(), page.end(), [](uint8_t b) { return b == 0; });
    if (ended || zero) {
      if (!zero) {
        return Status::Corruption("undo page " + std::to_string(i) +
                                  " holds data after the end of the log");
      }
      ended = true;
      continue;
    }
    const uint16_t lower = LoadLE16(&page[12]);
    if (LoadLE16(&page[16]) != kUndoPageSize || LoadLE16(&page[18]) != kPageSizeVersion ||
        lower < kUndoPageHeaderSize || lower > kUndoPageSize) {
      return Status::Corruption("undo page " + std::to_string(i) + ": bad page header");
    }
    log.stream_.insert(log.stream_.end(), page.begin() + kUndoPageHeaderSize, page.begin() + lower);
    continues.push_back(LoadLE16(&page[10]) & kUndoPageContinues);
    if (lower < kUndoPageSize) ended = true;  // only the last page may be partly filled
  }
  // Forward scan. A record that runs past the end of the data is a torn tail only if it can be
  // what a crash while appending left: its bytes so far are a well-formed start of a record, and
  // every page it runs on to says it continues a record. Anything else is Corruption.
  std::vector<uint64_t> txn_firsts;                    // ascending
  std::vector<std::pair<uint64_t, UndoRecPtr>> nexts;  // (record, its next) within this log
  uint64_t s = 0;
  while (s < log.stream_.size()) {
    const std::string at = "undo record at " + PtrText(log.PtrOfStream(s));
    const ByteView rest(log.stream_.data() + s, log.stream_.size() - s);
    StatusOr<size_t> len = DeclaredRecordLength(rest);
    if (!len.ok()) return Status::Corruption(at + ": " + len.status().message());
    if (*len == 0 || *len > rest.size) {
      for (uint64_t page = s / kUndoPageUsable + 1; page * kUndoPageUsable < log.stream_.size();
           ++page) {
        if (!continues[page]) {
          return Status::Corruption(at + " runs past the end of the log, but undo page " +
                                    std::to_string(page) + " starts a new record");
        }
      }
      log.stream_.resize(s);  // torn tail: the log ends before this record
      break;
    }
    StatusOr<UndoRecord> r = UnpackUndoRecord(rest.Sub(0, *len));
    if (!r.ok()) return Status::Corruption(at + ": " + r.status().message());
    // As Append writes them: a record has a transaction part exactly when it starts a
    // transaction (a backward walk stops at the part, so a stray one would cut a rollback short).
    const bool starts_transaction = !log.has_last_xid_ || r->xid != log.last_xid_;
    if (starts_transaction && !r->has_transaction) {
      return Status::Corruption(at + " starts transaction " + std::to_string(r->xid) +
                                " without a transaction part");
    }
    if (!starts_transaction && r->has_transaction) {
      return Status::Corruption(at + " has a transaction part inside transaction " +
                                std::to_string(r->xid));
    }
    if (starts_transaction) {
      log.last_txn_first_ = s;
      txn_firsts.push_back(s);
      if (r->transaction.next != kInvalidUndoRecPtr &&
          UndoRecPtrLogNo(r->transaction.next) == logno) {
        nexts.emplace_back(s, r->transaction.next);
      }
    }
    PGSTORE_RETURN_IF_ERROR(log.CheckChainPointers(s, *r));
    log.starts_.push_back(s);
    log.last_xid_ = r->xid;
    log.has_last_xid_ = true;
    s += *len;
  }
  // A transaction's `next` may point past the recovered end (the next transaction's first record
  // was torn), but not into the middle of the log.
  for (const auto& [first, next] : nexts) {
    if (next >= log.insert_ptr()) continue;
    StatusOr<uint64_t> n = log.StreamOf(next);
    if (!n.ok() || !std::binary_search(txn_firsts.begin(), txn_firsts.end(), *n)) {
      return Status::Corruption("undo record at " + PtrText(log.PtrOfStream(first)) +
                                ": next transaction pointer " + PtrText(next) +
                                " is not a transaction's first record");
    }
  }
  // Continuation flags must agree with where records start (the first page continues nothing).
  for (size_t i = 0; i < continues.size(); ++i) {
    const uint64_t begin = i * kUndoPageUsable;
    if (begin >= log.stream_.size()) break;
    const bool starts_here = std::binary_search(log.starts_.begin(), log.starts_.end(), begin);
    if (continues[i] == starts_here) {
      return Status::Corruption("undo page " + std::to_string(i) +
                                ": continuation flag does not match its first record");
    }
  }
  return log;
}

}  // namespace pgstore::undo
