// The undo API used wrongly: every call a caller can get wrong (an unknown or finished
// transaction, a tuple that does not exist or is gone, a tuple without its header, a pointer that
// is not a record of the log, a record that cannot be packed, a page without room) is an
// InvalidArgument or Busy naming what was wrong, and changes nothing (but the transaction slot a
// change took before it failed, as in zheap).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "storage/undo/xact_table.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"
#include "tests/undo/test_tuples.h"

namespace pgstore::undo {
namespace {

using fixtures::ZTupleOfSize;

UndoRecord InsertRecord(uint32_t xid) {
  UndoRecord r;
  r.rmid = kRmZheap;
  r.type = UndoType::kInsert;
  r.reloid = 16384;
  r.xid = xid;
  r.has_block = true;
  r.block = 0;
  r.offset = 1;
  return r;
}

std::vector<uint8_t> Bytes(const ZheapTable& t) {
  return std::vector<uint8_t>(t.page().bytes().begin(), t.page().bytes().end());
}

TEST(XactTableTest, TransactionsBeginOnceAndCommitWhileRunning) {
  XactTable x;
  EXPECT_EQ(x.Begin(0).message(), "transaction id 0 is invalid");
  ASSERT_TRUE(x.Begin(5).ok());
  EXPECT_EQ(x.Begin(5).message(), "transaction 5 already exists");
  EXPECT_EQ(x.Commit(6).message(), "transaction 6 is not running");
  ASSERT_TRUE(x.Commit(5).ok());
  EXPECT_EQ(x.Commit(5).message(), "transaction 5 is not running");
  EXPECT_TRUE(x.IsCommitted(5));
  EXPECT_FALSE(x.IsInProgress(5));
}

TEST(XactTableTest, AllVisibleOnlyOnceEveryOlderTransactionFinished) {
  XactTable x;
  ASSERT_TRUE(x.Begin(1).ok());
  ASSERT_TRUE(x.Begin(2).ok());
  ASSERT_TRUE(x.Commit(2).ok());
  EXPECT_FALSE(x.AllVisible(2));  // 1 is still running and may not see 2
  EXPECT_FALSE(x.AllVisible(1));  // not committed
  x.MarkAborted(1);
  EXPECT_TRUE(x.AllVisible(2));
  ASSERT_TRUE(x.Begin(3).ok());
  EXPECT_TRUE(x.AllVisible(2));                     // 3 started after 2 committed
  EXPECT_EQ(x.AfterCrash().states().count(3), 0u);  // running: forgotten by a crash
}

TEST(UndoRecordApiTest, RecordsThatCannotBePackedAreInvalidArguments) {
  std::vector<uint8_t> out;
  UndoRecord r = InsertRecord(7);
  r.type = static_cast<UndoType>(kMaxUndoType + 1);
  EXPECT_EQ(PackUndoRecord(r, &out).message(), "unknown undo record type");
  r = InsertRecord(7);
  r.payload_flags = 0x40;
  EXPECT_EQ(PackUndoRecord(r, &out).message(), "payload flags other than slot and subxact");
  r = InsertRecord(7);
  r.type = UndoType::kDelete;
  r.tuple = ZTupleOfSize(0xFFFF);
  EXPECT_EQ(PackUndoRecord(r, &out).message(), "undo record larger than 64 KB");
  EXPECT_TRUE(out.empty());
  EXPECT_STREQ(UndoTypeName(static_cast<UndoType>(kMaxUndoType + 1)), "?");
  EXPECT_STREQ(UndoTypeName(UndoType::kItemIdUnused), "ITEMID_UNUSED");
}

TEST(UndoRecordApiTest, RecordsAreEqualExactlyWhenEveryFieldThatIsPresentIs) {
  UndoRecord base = InsertRecord(7);
  base.has_transaction = true;
  base.transaction.progress = 3;
  const std::vector<std::function<void(UndoRecord*)>> changes = {
      [](UndoRecord* r) { r->rmid = 23; },
      [](UndoRecord* r) { r->type = UndoType::kDelete; },
      [](UndoRecord* r) { r->payload_flags = kInfoPayloadContainsSlot; },
      [](UndoRecord* r) { r->reloid = 1; },
      [](UndoRecord* r) { r->prevxid = 1; },
      [](UndoRecord* r) { r->xid = 1; },
      [](UndoRecord* r) { r->cid = 1; },
      [](UndoRecord* r) { r->fork = 1; },
      [](UndoRecord* r) { r->has_block = false; },
      [](UndoRecord* r) { r->blkprev = 1; },
      [](UndoRecord* r) { r->block = 1; },
      [](UndoRecord* r) { r->offset = 2; },
      [](UndoRecord* r) { r->has_transaction = false; },
      [](UndoRecord* r) { r->transaction.progress = 4; },
      [](UndoRecord* r) { r->payload = {1}; },
      [](UndoRecord* r) { r->tuple = {1}; },
  };
  EXPECT_TRUE(base == base);
  for (size_t i = 0; i < changes.size(); ++i) {
    UndoRecord other = base;
    changes[i](&other);
    EXPECT_FALSE(base == other) << "change " << i;
    EXPECT_FALSE(other == base) << "change " << i;
  }
  // Parts that are absent do not count.
  UndoRecord a = InsertRecord(7), b = InsertRecord(7);
  a.has_block = b.has_block = false;
  a.block = 1;
  EXPECT_TRUE(a == b);
  a.transaction.progress = 9;  // has_transaction is false in both
  EXPECT_TRUE(a == b);
}

TEST(UndoLogApiTest, PointersThatAreNotRecordsOfTheLogAreInvalidArguments) {
  UndoLog log(2);
  const UndoRecPtr first = *log.Append(InsertRecord(9));
  const UndoRecPtr second = *log.Append(InsertRecord(9));
  EXPECT_EQ(*log.Prev(second), first);
  EXPECT_EQ(*log.Prev(first), kInvalidUndoRecPtr);

  const UndoRecPtr other_log = MakeUndoRecPtr(3, UndoRecPtrOffset(first));
  EXPECT_TRUE(log.Fetch(other_log).status().IsInvalidArgument());
  EXPECT_TRUE(log.Prev(other_log).status().IsInvalidArgument());
  const UndoRecPtr header = MakeUndoRecPtr(2, kUndoPageSize + 3);
  EXPECT_NE(log.Prev(header).status().message().find("points into a page header"),
            std::string::npos);
  const UndoRecPtr past_end = MakeUndoRecPtr(2, UndoRecPtrOffset(log.insert_ptr()) + 100);
  EXPECT_NE(log.Prev(past_end).status().message().find("outside the log"), std::string::npos);
  EXPECT_TRUE(log.Fetch(past_end).status().IsInvalidArgument());
  const UndoRecPtr inside = second + 1;  // in the middle of a record
  EXPECT_FALSE(log.Fetch(inside).ok());
  EXPECT_NE(log.Prev(inside).status().message().find("is not the start of a record"),
            std::string::npos);
  EXPECT_EQ(*log.Prev(log.insert_ptr()), second);  // from the end: the last record
  EXPECT_NE(log.SetProgress(second, 1).message().find("is not a transaction's first record"),
            std::string::npos);
  EXPECT_TRUE(log.SetProgress(first, 1).ok());
  EXPECT_EQ(log.Fetch(first)->transaction.progress, 1u);
}

// Prev of a pointer into the middle of a record is an InvalidArgument wherever it points (the two
// bytes before it are no trailing length to follow).
TEST(UndoLogApiTest, PrevOfAPointerInsideARecordIsInvalid) {
  UndoLog log(2);
  std::vector<UndoRecPtr> starts;
  for (int i = 0; i < 4; ++i) starts.push_back(*log.Append(InsertRecord(9 + i / 2)));
  const uint64_t first = UndoRecPtrOffset(starts[0]);
  const uint64_t end = UndoRecPtrOffset(log.insert_ptr());
  ASSERT_LT(end, kUndoPageSize);  // one page
  for (uint64_t off = first; off <= end; ++off) {
    const UndoRecPtr p = MakeUndoRecPtr(2, off);
    const auto start = std::find(starts.begin(), starts.end(), p);
    StatusOr<UndoRecPtr> prev = log.Prev(p);
    if (start != starts.end() || off == end) {  // a record, or the end: the record before
      ASSERT_TRUE(prev.ok()) << "offset " << off << ": " << prev.status().ToString();
      EXPECT_EQ(*prev, start == starts.begin() ? kInvalidUndoRecPtr
                       : start == starts.end() ? starts.back()
                                               : *(start - 1));
      continue;
    }
    ASSERT_TRUE(prev.status().IsInvalidArgument()) << "offset " << off;
    EXPECT_NE(prev.status().message().find("is not the start of a record"), std::string::npos)
        << "offset " << off << ": " << prev.status().ToString();
  }
}

TEST(UndoLogApiTest, ARecordThatCannotBePackedIsNotAppended) {
  UndoLog log(2);
  UndoRecord r = InsertRecord(9);
  r.type = UndoType::kDelete;
  r.tuple = ZTupleOfSize(0xFFFF);
  EXPECT_TRUE(log.Append(r).status().IsInvalidArgument());
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.num_records(), 0u);
}

TEST(ZheapPageApiTest, SlotCountsAndSpecialSpaceMustAgree) {
  EXPECT_EQ(ZheapPage::FromBytes(ZheapPage(4).page().bytes(), 3).status().message(),
            "transaction slots: 2, 4, 8, 16 or 31");
  EXPECT_EQ(ZheapPage::FromBytes(ZheapPage(4).page().bytes(), 8).status().message(),
            "special space does not hold 8 transaction slots");
  EXPECT_TRUE(ZheapPage::FromBytes(ZheapPage(4).page().bytes(), 4).ok());
}

TEST(ZheapTableApiTest, CallsOnTuplesThatDoNotExistOrAreGoneChangeNothing) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(4), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(10).ok());
  const uint16_t a = *table.Insert(10, ZTupleOfSize(20));
  const uint16_t b = *table.Insert(10, ZTupleOfSize(20));
  ASSERT_TRUE(table.Delete(10, b).ok());
  ASSERT_TRUE(table.Commit(10).ok());
  const std::vector<uint8_t> before = Bytes(table);
  const size_t records = log.num_records();

  EXPECT_EQ(table.Insert(11, ZTupleOfSize(20)).status().message(), "transaction 11 is not running");
  ASSERT_TRUE(xacts.Begin(11).ok());
  const std::vector<uint8_t> headless = {1, 0, 0x02, 0};  // one byte short of the header
  EXPECT_EQ(table.Insert(11, headless).status().message(), "a zheap tuple has a 5-byte header");
  EXPECT_EQ(table.Update(11, a, headless).status().message(), "a zheap tuple has a 5-byte header");
  for (uint16_t off : {uint16_t{0}, uint16_t{3}, uint16_t{400}, uint16_t{65535}}) {
    EXPECT_EQ(table.Update(11, off, ZTupleOfSize(20)).status().message(),
              "tuple " + std::to_string(off) + " does not exist");
    EXPECT_EQ(table.Delete(11, off).message(), "tuple " + std::to_string(off) + " does not exist");
    EXPECT_EQ(table.Lock(11, off).message(), "tuple " + std::to_string(off) + " does not exist");
  }
  EXPECT_EQ(table.Update(11, b, ZTupleOfSize(20)).status().message(),
            "tuple 2 was deleted or updated");
  EXPECT_EQ(table.Delete(11, b).message(), "tuple 2 was deleted or updated");
  EXPECT_EQ(Bytes(table), before);
  EXPECT_EQ(log.num_records(), records);
}

TEST(ZheapTableApiTest, AFullPageIsBusyAndKeepsWhatItHas) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(4), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(10).ok());
  StatusOr<uint16_t> off = table.Insert(10, ZTupleOfSize(1000));
  std::vector<uint16_t> offs;
  while (off.ok()) {
    offs.push_back(*off);
    off = table.Insert(10, ZTupleOfSize(1000));
  }
  EXPECT_TRUE(off.status().IsBusy());
  EXPECT_EQ(off.status().message(), "no room on the page");
  ASSERT_FALSE(offs.empty());
  ASSERT_TRUE(table.Commit(10).ok());
  const std::vector<uint8_t> before = Bytes(table);
  const size_t records = log.num_records();
  ASSERT_TRUE(xacts.Begin(11).ok());
  // A longer version cannot be updated in place and finds no room for a new one. As in zheap,
  // the transaction took its slot first and keeps it (with no undo); nothing else changes, and
  // its rollback frees the slot again.
  const StatusOr<uint16_t> moved = table.Update(11, offs[0], ZTupleOfSize(2000));
  EXPECT_TRUE(moved.status().IsBusy());
  EXPECT_EQ(moved.status().message(), "no room on the page");
  const size_t special = table.page().page().special();
  EXPECT_TRUE(std::equal(before.begin(), before.begin() + special, Bytes(table).begin()));
  EXPECT_EQ(log.num_records(), records);
  ASSERT_TRUE(table.Abort(11).ok());
  EXPECT_EQ(Bytes(table), before);
}

}  // namespace
}  // namespace pgstore::undo
