// Property: arbitrary bytes as the pages of an undo log (8 KB each, the last zero-padded, at most
// four) never crash recovery nor the walks over what it recovers: FromPages either reports
// Corruption or returns a log whose records all fetch, whose backward walk (trailing lengths,
// crossing page headers) visits exactly its records in reverse, whose transactions walk back to
// their first records, and whose pages recover to the same log again; cut at any byte (a crash
// mid-write), they recover to a prefix of it, never to Corruption.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/undo/undo_log.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4 * undo::kUndoPageSize) return 0;
  std::vector<undo::UndoPage> pages((size + undo::kUndoPageSize - 1) / undo::kUndoPageSize);
  for (size_t i = 0; i < size; ++i) pages[i / undo::kUndoPageSize][i % undo::kUndoPageSize] = data[i];
  StatusOr<undo::UndoLog> log = undo::UndoLog::FromPages(5, pages);
  if (!log.ok()) {
    FUZZ_ASSERT(log.status().IsCorruption());
    return 0;
  }
  // Every record, backwards through the trailing lengths.
  std::vector<undo::UndoRecPtr> back;
  if (!log->empty()) {
    undo::UndoRecPtr p = log->insert_ptr();
    StatusOr<undo::UndoRecPtr> last = log->Prev(p);
    FUZZ_ASSERT(last.ok());
    for (p = *last; p != undo::kInvalidUndoRecPtr;) {
      FUZZ_ASSERT(log->Fetch(p).ok());
      back.push_back(p);
      StatusOr<undo::UndoRecPtr> prev = log->Prev(p);
      FUZZ_ASSERT(prev.ok());
      p = *prev;
    }
  }
  FUZZ_ASSERT(back.size() == log->num_records());
  // Each transaction, from its last record back to its first.
  if (!back.empty()) {
    size_t visited = 0;
    const Status s = log->WalkTransactionBackward(back.front(),
                                                  [&](undo::UndoRecPtr, const undo::UndoRecord&) {
                                                    ++visited;
                                                    return true;
                                                  });
    FUZZ_ASSERT(s.ok() && visited >= 1);
  }
  const std::vector<undo::UndoPage> written = log->Pages();
  StatusOr<undo::UndoLog> again = undo::UndoLog::FromPages(5, written);
  FUZZ_ASSERT(again.ok());
  FUZZ_ASSERT(again->num_records() == log->num_records());
  FUZZ_ASSERT(again->insert_ptr() == log->insert_ptr());
  // A crash mid-write: the log's data cut at a byte chosen by the input (the page's pd_lower
  // there, later pages never written) recovers to a prefix of the records, never Corruption.
  const uint64_t end = undo::UndoRecPtrOffset(log->insert_ptr());
  if (end > undo::kUndoPageHeaderSize && size >= 2) {
    const uint64_t stream = end / undo::kUndoPageSize * undo::kUndoPageUsable +
                            end % undo::kUndoPageSize - undo::kUndoPageHeaderSize;
    const uint64_t cut = (data[0] | data[1] << 8) % stream;
    std::vector<undo::UndoPage> torn(written.begin(), written.begin() + cut / undo::kUndoPageUsable + 1);
    const size_t lower = undo::kUndoPageHeaderSize + cut % undo::kUndoPageUsable;
    StoreLE16(&torn.back()[12], static_cast<uint16_t>(lower));
    StoreLE16(&torn.back()[14], static_cast<uint16_t>(lower));
    std::fill(torn.back().begin() + lower, torn.back().end(), 0);
    StatusOr<undo::UndoLog> prefix = undo::UndoLog::FromPages(5, torn);
    FUZZ_ASSERT(prefix.ok());
    FUZZ_ASSERT(prefix->num_records() <= log->num_records());
  }
  return 0;
}
