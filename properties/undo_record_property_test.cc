// Properties of undo records and logs (storage/undo): unpack(pack(r)) == r for every record type
// and info-bit combination; the packed size is the documented one (header 24, relation 1,
// block 14, transaction 32, payload header 4 + payload + tuple, trailer 2); a log's backward
// walk visits exactly the records written, in reverse, each transaction's walk exactly its own;
// recovery from the pages gives the same log, and from pages cut anywhere a prefix of it.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"

namespace pgstore::undo {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes GenBytes(size_t lo, size_t hi) {
  return *rc::gen::container<Bytes>(*rc::gen::inRange(lo, hi + 1), rc::gen::arbitrary<uint8_t>());
}

// A record of any type with a payload and tuple that fit it, every optional part at random.
UndoRecord GenRecord(size_t max_tuple) {
  UndoRecord r;
  r.rmid = *rc::gen::arbitrary<uint8_t>();
  r.type = static_cast<UndoType>(*rc::gen::inRange(0, kMaxUndoType + 1));
  r.reloid = *rc::gen::arbitrary<uint32_t>();
  r.prevxid = *rc::gen::arbitrary<uint32_t>();
  r.xid = *rc::gen::arbitrary<uint32_t>();
  r.cid = *rc::gen::arbitrary<uint32_t>();
  r.fork = *rc::gen::element<uint8_t>(0, 0, 1, 2, 3);
  r.has_block = *rc::gen::arbitrary<bool>();
  if (r.has_block) {
    r.blkprev = *rc::gen::arbitrary<uint64_t>();
    r.block = *rc::gen::arbitrary<uint32_t>();
    r.offset = *rc::gen::arbitrary<uint16_t>();
  }
  r.has_transaction = *rc::gen::arbitrary<bool>();
  if (r.has_transaction) {
    r.transaction = {*rc::gen::inRange<uint32_t>(0, 2), *rc::gen::arbitrary<uint32_t>(),
                     *rc::gen::arbitrary<uint32_t>(), *rc::gen::arbitrary<uint64_t>(),
                     *rc::gen::arbitrary<uint64_t>()};
  }
  switch (r.type) {
    case UndoType::kInsert:
      r.payload = *rc::gen::arbitrary<bool>() ? GenBytes(4, 4) : Bytes{};
      break;
    case UndoType::kMultiInsert: {
      const uint16_t a = *rc::gen::arbitrary<uint16_t>(), b = *rc::gen::arbitrary<uint16_t>();
      r.payload = {static_cast<uint8_t>(std::min(a, b)), static_cast<uint8_t>(std::min(a, b) >> 8),
                   static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::max(a, b) >> 8)};
      break;
    }
    case UndoType::kDelete:
    case UndoType::kInplaceUpdate:
      r.tuple = GenBytes(kZheapTupleHeaderSize, max_tuple);
      break;
    case UndoType::kUpdate:
      r.payload = GenBytes(6, 6);
      r.tuple = GenBytes(kZheapTupleHeaderSize, max_tuple);
      break;
    case UndoType::kItemIdUnused:
      r.payload = GenBytes(1, 40);
      if (r.payload.size() % 2) r.payload.push_back(0);
      break;
    default:  // the lock types
      r.payload = GenBytes(4, 4);
      r.tuple = GenBytes(kZheapTupleHeaderSize, max_tuple);
      break;
  }
  if (r.type != UndoType::kInsert || !r.payload.empty()) {
    if (*rc::gen::arbitrary<bool>()) {
      r.payload_flags |= kInfoPayloadContainsSlot;
      r.payload.insert(r.payload.end(), {9, 0, 0, 0});
    }
    if (*rc::gen::arbitrary<bool>()) {
      r.payload_flags |= kInfoPayloadContainsSubxact;
      r.payload.insert(r.payload.end(), {3, 0, 0, 0});
    }
  }
  return r;
}

RC_GTEST_PROP(UndoRecordProperty, UnpackInvertsPackAtTheDocumentedSize, ()) {
  const UndoRecord r = GenRecord(3000);
  Bytes packed;
  RC_ASSERT(PackUndoRecord(r, &packed).ok());
  const uint8_t info = r.Info();
  const size_t documented = 24 + ((info & 0x01) ? 1 : 0) + ((info & 0x02) ? 14 : 0) +
                            ((info & 0x08) ? 32 : 0) +
                            ((info & 0x04) ? 4 + r.payload.size() + r.tuple.size() : 0) + 2;
  RC_ASSERT(packed.size() == documented);
  RC_ASSERT(PackedSize(r) == documented);
  RC_ASSERT(packed[2] == info);
  RC_ASSERT(LoadLE16(&packed[packed.size() - 2]) == packed.size());
  StatusOr<UndoRecord> back = UnpackUndoRecord(packed);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == r);
}

RC_GTEST_PROP(UndoLogProperty, BackwardWalksVisitExactlyTheRecordsWritten, ()) {
  UndoLog log(*rc::gen::inRange<uint32_t>(0, 1 << 24));
  std::vector<UndoRecPtr> ptrs;
  std::vector<uint32_t> xids;
  const int n = *rc::gen::inRange(1, 60);
  uint32_t xid = 100;
  for (int i = 0; i < n; ++i) {
    UndoRecord r = GenRecord(*rc::gen::element<size_t>(40, 400, 5000));
    // blkprev as zheap writes it: none, an earlier record of this log, or one in another log.
    if (r.has_block && !ptrs.empty() && *rc::gen::arbitrary<bool>()) {
      r.blkprev = ptrs[*rc::gen::inRange<size_t>(0, ptrs.size())];
    } else if (r.has_block && UndoRecPtrLogNo(r.blkprev) == log.logno()) {
      r.blkprev = kInvalidUndoRecPtr;
    }
    if (*rc::gen::weightedElement<bool>({{3, false}, {1, true}})) ++xid;
    r.xid = xid;
    StatusOr<UndoRecPtr> p = log.Append(r);
    RC_ASSERT(p.ok());
    ptrs.push_back(*p);
    xids.push_back(xid);
  }
  // Every record, backwards.
  std::vector<UndoRecPtr> back;
  for (UndoRecPtr p = ptrs.back(); p != kInvalidUndoRecPtr; p = *log.Prev(p)) back.push_back(p);
  RC_ASSERT(back == std::vector<UndoRecPtr>(ptrs.rbegin(), ptrs.rend()));
  // The last transaction's walk: exactly its records.
  std::vector<UndoRecPtr> walked;
  RC_ASSERT(log.WalkTransactionBackward(ptrs.back(),
                                        [&](UndoRecPtr p, const UndoRecord& r) {
                                          walked.push_back(p);
                                          return r.xid == xids.back();
                                        })
                .ok());
  std::vector<UndoRecPtr> expect;
  for (size_t i = ptrs.size(); i-- > 0 && xids[i] == xids.back();) expect.push_back(ptrs[i]);
  RC_ASSERT(walked == expect);
  // Recovery: the same log from all pages; a prefix from pages cut anywhere.
  const std::vector<UndoPage> pages = log.Pages();
  StatusOr<UndoLog> whole = UndoLog::FromPages(log.logno(), pages);
  RC_ASSERT(whole.ok());
  RC_ASSERT(whole->num_records() == log.num_records());
  std::vector<UndoPage> cut(pages.begin(),
                            pages.begin() + *rc::gen::inRange<size_t>(0, pages.size() + 1));
  StatusOr<UndoLog> part = UndoLog::FromPages(log.logno(), cut);
  RC_ASSERT(part.ok());
  RC_ASSERT(part->num_records() <= log.num_records());
  for (size_t i = 0; i < part->num_records(); ++i) {
    RC_ASSERT(*part->Fetch(ptrs[i]) == *log.Fetch(ptrs[i]));
  }
}

}  // namespace
}  // namespace pgstore::undo
