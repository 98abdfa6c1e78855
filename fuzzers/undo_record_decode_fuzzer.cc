// Property: arbitrary bytes as one undo record never crash UnpackUndoRecord nor make it read
// outside them (an exact-size copy), and unpack the same at an odd address; a record it accepts
// packs back to the same bytes but for the ones zheap leaves undefined (header padding, prevlen,
// the transaction part's padding), with PackedSize equal to its length.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/undo/undo_record.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 70000) return 0;
  auto copy = fuzz::ExactCopy(ByteView(data, size));
  StatusOr<undo::UndoRecord> r = undo::UnpackUndoRecord(ByteView(copy.get(), size));
  // Records lie unaligned in an undo log: at an odd address, the same answer.
  const fuzz::OddCopy odd(ByteView(data, size));
  StatusOr<undo::UndoRecord> at_odd = undo::UnpackUndoRecord(odd.View());
  FUZZ_ASSERT(at_odd.ok() == r.ok());
  if (!r.ok()) return 0;
  FUZZ_ASSERT(*at_odd == *r);
  FUZZ_ASSERT(undo::PackedSize(*r) == size);
  std::vector<uint8_t> again;
  FUZZ_ASSERT(undo::PackUndoRecord(*r, &again).ok());
  FUZZ_ASSERT(again.size() == size);
  std::vector<uint8_t> expect(data, data + size);
  for (size_t i : {3, 4, 5, 6, 7}) expect[i] = 0;  // padding and prevlen
  if (r->has_transaction) {
    const size_t txn = undo::kHeaderSize + (r->fork != undo::kMainFork ? 1 : 0) +
                       (r->has_block ? undo::kBlockPartSize : 0);
    for (size_t i = txn + 12; i < txn + 16; ++i) expect[i] = 0;
  }
  FUZZ_ASSERT(again == expect);
  FUZZ_ASSERT(*undo::UnpackUndoRecord(again) == *r);
  return 0;
}
