// Property: arbitrary bytes as the pages of an undo log (8 KB each, the last zero-padded, at most
// four) never crash recovery nor the walks over what it recovers. FromPages either reports
// Corruption or returns a log whose records all fetch; whose backward walk (trailing lengths,
// crossing page headers) visits exactly its records in reverse; in which every transaction walks
// back from its last record to exactly its first; whose blkprev and next pointers within the log
// lead to earlier records and to later transactions' first records; and whose pages recover to
// the same log again. Cut at any byte (a crash mid-write), the log recovers to exactly the
// records that end before the cut, byte for byte (a true prefix), never to Corruption. What
// recovery drops is a torn tail only: every written page it drops past the one the torn record
// starts on continues that record (a page that starts a new record is never dropped).
// (The cuts come from a hash of the whole input, so that every seed replays different cuts.)
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/undo/undo_log.h"

using namespace pgstore;

namespace {

constexpr uint32_t kLogNo = 5;

// The stream offset (page headers left out) of a pointer into the log.
uint64_t StreamIndex(undo::UndoRecPtr p) {
  const uint64_t off = undo::UndoRecPtrOffset(p);
  return off / undo::kUndoPageSize * undo::kUndoPageUsable + off % undo::kUndoPageSize -
         undo::kUndoPageHeaderSize;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4 * undo::kUndoPageSize) return 0;  // four pages reach every page-crossing case
  std::vector<undo::UndoPage> pages((size + undo::kUndoPageSize - 1) / undo::kUndoPageSize);
  for (size_t i = 0; i < size; ++i)
    pages[i / undo::kUndoPageSize][i % undo::kUndoPageSize] = data[i];
  StatusOr<undo::UndoLog> log = undo::UndoLog::FromPages(kLogNo, pages);
  if (!log.ok()) {
    FUZZ_ASSERT(log.status().IsCorruption());
    return 0;
  }
  // Every record, backwards through the trailing lengths.
  std::vector<undo::UndoRecPtr> back;
  if (!log->empty()) {
    StatusOr<undo::UndoRecPtr> last = log->Prev(log->insert_ptr());
    FUZZ_ASSERT(last.ok());
    for (undo::UndoRecPtr p = *last; p != undo::kInvalidUndoRecPtr;) {
      back.push_back(p);
      StatusOr<undo::UndoRecPtr> prev = log->Prev(p);
      FUZZ_ASSERT(prev.ok());
      p = *prev;
    }
  }
  FUZZ_ASSERT(back.size() == log->num_records());
  const std::vector<undo::UndoRecPtr> ptrs(back.rbegin(), back.rend());
  std::vector<undo::UndoRecord> records;
  for (undo::UndoRecPtr p : ptrs) {
    StatusOr<undo::UndoRecord> r = log->Fetch(p);
    FUZZ_ASSERT(r.ok());
    records.push_back(*r);
  }
  // Chain pointers within the log.
  for (size_t i = 0; i < records.size(); ++i) {
    const undo::UndoRecord& r = records[i];
    if (r.has_block && r.blkprev != 0 && undo::UndoRecPtrLogNo(r.blkprev) == kLogNo) {
      FUZZ_ASSERT(r.blkprev < ptrs[i] && log->Fetch(r.blkprev).ok());
    }
    const undo::UndoRecPtr next = r.transaction.next;
    if (r.has_transaction && next != 0 && undo::UndoRecPtrLogNo(next) == kLogNo) {
      FUZZ_ASSERT(next > ptrs[i]);
      if (next < log->insert_ptr()) FUZZ_ASSERT(log->Fetch(next)->has_transaction);
    }
  }
  // Every transaction: records [first, last] (a run starting at a transaction part), walked from
  // its last record back to exactly its first.
  for (size_t first = 0; first < records.size();) {
    FUZZ_ASSERT(records[first].has_transaction);
    size_t end = first + 1;
    while (end < records.size() && !records[end].has_transaction) ++end;
    std::vector<undo::UndoRecPtr> walked;
    const Status s = log->WalkTransactionBackward(
        ptrs[end - 1], [&](undo::UndoRecPtr p, const undo::UndoRecord& r) {
          FUZZ_ASSERT(r.xid == records[first].xid);
          walked.push_back(p);
          return true;
        });
    FUZZ_ASSERT(s.ok());
    // back holds ptrs reversed: ptrs[end - 1] .. ptrs[first] is back[n - end, n - first).
    FUZZ_ASSERT(walked == std::vector<undo::UndoRecPtr>(back.begin() + (records.size() - end),
                                                        back.begin() + (records.size() - first)));
    first = end;
  }
  // Dropped pages: those starting past the recovered data's end (the torn record starts there).
  const uint64_t stream = StreamIndex(log->insert_ptr());
  for (size_t p = 0; p < pages.size(); ++p) {
    const bool zero =
        std::all_of(pages[p].begin(), pages[p].end(), [](uint8_t b) { return b == 0; });
    if (p * undo::kUndoPageUsable > stream && !zero) {
      FUZZ_ASSERT(LoadLE16(&pages[p][10]) & undo::kUndoPageContinues);
    }
  }
  const std::vector<undo::UndoPage> written = log->Pages();
  StatusOr<undo::UndoLog> again = undo::UndoLog::FromPages(kLogNo, written);
  FUZZ_ASSERT(again.ok());
  FUZZ_ASSERT(again->num_records() == log->num_records());
  FUZZ_ASSERT(again->insert_ptr() == log->insert_ptr());
  // A crash mid-write: the log's data cut at four bytes chosen by a hash of the input (the page's
  // pd_lower there, later pages never written) recovers to exactly the records that end at or
  // before the cut, each the same record byte for byte.
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 1099511628211ull;
  for (int k = 0; k < 4 && stream > 0; ++k) {
    const uint64_t cut = (hash >> (16 * k) & 0xFFFF) % stream;
    std::vector<undo::UndoPage> torn(written.begin(),
                                     written.begin() + cut / undo::kUndoPageUsable + 1);
    const size_t lower = undo::kUndoPageHeaderSize + cut % undo::kUndoPageUsable;
    StoreLE16(&torn.back()[12], static_cast<uint16_t>(lower));
    StoreLE16(&torn.back()[14], static_cast<uint16_t>(lower));
    std::fill(torn.back().begin() + lower, torn.back().end(), 0);
    StatusOr<undo::UndoLog> prefix = undo::UndoLog::FromPages(kLogNo, torn);
    FUZZ_ASSERT(prefix.ok());
    size_t complete = 0;  // records ending at or before the cut
    while (complete < ptrs.size() &&
           (complete + 1 < ptrs.size() ? StreamIndex(ptrs[complete + 1]) : stream) <= cut) {
      ++complete;
    }
    FUZZ_ASSERT(prefix->num_records() == complete);
    for (size_t i = 0; i < complete; ++i) {
      StatusOr<undo::UndoRecord> r = prefix->Fetch(ptrs[i]);
      FUZZ_ASSERT(r.ok() && *r == records[i]);
    }
    FUZZ_ASSERT(prefix->insert_ptr() ==
                (complete < ptrs.size() ? ptrs[complete] : log->insert_ptr()));
  }
  return 0;
}
