#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"
#include "tests/undo/test_tuples.h"

namespace pgstore::undo {
namespace {

using fixtures::DataOf;
using fixtures::ZTuple;

UndoRecord DeleteRecord() {
  UndoRecord r;
  r.rmid = 22;
  r.type = UndoType::kDelete;
  r.reloid = 16384;
  r.prevxid = 700;
  r.xid = 735;
  r.cid = 3;
  r.has_block = true;
  r.blkprev = 0x0000020000001234ull;  // log 2: the tests' logs are 1 and 3
  r.block = 7;
  r.offset = 12;
  r.tuple = {0x03, 0x08, 0x02, 0x00, 0x05, 'a', 'b', 'c'};
  return r;
}

TEST(UndoRecordTest, PacksZheapLayout) {
  UndoRecord r = DeleteRecord();
  std::vector<uint8_t> packed;
  ASSERT_TRUE(PackUndoRecord(r, &packed).ok());
  ASSERT_EQ(packed.size(), PackedSize(r));
  ASSERT_EQ(packed.size(), 24u + 14 + 4 + 8 + 2);
  EXPECT_EQ(packed[0], 22);
  EXPECT_EQ(packed[1], 2);                          // UNDO_DELETE
  EXPECT_EQ(packed[2], kInfoBlock | kInfoPayload);  // derived info
  EXPECT_EQ(LoadLE16(&packed[4]), 0);               // prevlen never filled
  EXPECT_EQ(LoadLE32(&packed[8]), 16384u);
  EXPECT_EQ(LoadLE32(&packed[16]), 735u);
  EXPECT_EQ(LoadLE64(&packed[24]), r.blkprev);  // block part right after the header
  EXPECT_EQ(LoadLE32(&packed[32]), 7u);
  EXPECT_EQ(LoadLE16(&packed[36]), 12);
  EXPECT_EQ(LoadLE16(&packed[38]), 0);  // payload_len
  EXPECT_EQ(LoadLE16(&packed[40]), 8);  // tuple_len
  EXPECT_EQ(LoadLE16(&packed[packed.size() - 2]), packed.size());
  StatusOr<UndoRecord> back = UnpackUndoRecord(packed);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, r);
}

TEST(UndoRecordTest, PartsInCodeOrderWithTransactionBeforePayload) {
  UndoRecord r = DeleteRecord();
  r.fork = 1;
  r.has_transaction = true;
  r.transaction = {0, 1, 5, 0x0100000000000040ull, 0};
  r.payload_flags = kInfoPayloadContainsSlot;
  r.payload = {5, 0, 0, 0};  // TPD slot 5
  std::vector<uint8_t> packed;
  ASSERT_TRUE(PackUndoRecord(r, &packed).ok());
  EXPECT_EQ(packed[2], 0x01 | 0x02 | 0x04 | 0x08 | 0x10);
  EXPECT_EQ(packed[24], 1);                       // fork
  EXPECT_EQ(LoadLE32(&packed[25 + 14 + 8]), 5u);  // dbid
  EXPECT_EQ(LoadLE64(&packed[25 + 14 + 16]), r.transaction.prevurp);
  EXPECT_EQ(LoadLE16(&packed[25 + 14 + 32]), 4);  // payload_len
  EXPECT_EQ(*UnpackUndoRecord(packed), r);
}

TEST(UndoRecordTest, RejectsShapesThatDoNotFitTheType) {
  std::vector<uint8_t> out;
  UndoRecord r;
  r.type = UndoType::kInsert;
  r.tuple = {1, 2, 3, 4, 5};
  EXPECT_TRUE(PackUndoRecord(r, &out).IsInvalidArgument());
  r = UndoRecord();
  r.type = UndoType::kMultiInsert;
  r.payload = {5, 0, 4, 0};  // start 5 > end 4
  EXPECT_TRUE(PackUndoRecord(r, &out).IsInvalidArgument());
  r = DeleteRecord();
  r.tuple = {1, 2};  // shorter than a zheap tuple header
  EXPECT_TRUE(PackUndoRecord(r, &out).IsInvalidArgument());
  r = UndoRecord();
  r.type = UndoType::kItemIdUnused;
  r.payload = {1, 0, 2};
  EXPECT_TRUE(PackUndoRecord(r, &out).IsInvalidArgument());
  EXPECT_TRUE(out.empty());
}

TEST(UndoRecordTest, UnpackRejectsDamage) {
  std::vector<uint8_t> good;
  ASSERT_TRUE(PackUndoRecord(DeleteRecord(), &good).ok());
  auto err = [](std::vector<uint8_t> v) {
    StatusOr<UndoRecord> r = UnpackUndoRecord(v);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsCorruption());
    return r.ok() ? std::string() : r.status().message();
  };
  std::vector<uint8_t> v = good;
  StoreLE16(&v[v.size() - 2], static_cast<uint16_t>(v.size() - 1));
  EXPECT_NE(err(v).find("trailing length"), std::string::npos);
  v = good;
  v[1] = 9;
  EXPECT_NE(err(v).find("unknown undo record type"), std::string::npos);
  v = good;
  v[2] |= 0x40;
  EXPECT_NE(err(v).find("unknown undo info bits"), std::string::npos);
  v = good;
  StoreLE16(&v[40], 200);  // tuple_len past the record
  EXPECT_NE(err(v).find("past the record"), std::string::npos);
  v = good;
  v[2] &= ~kInfoBlock;  // the block part is read as payload header...
  EXPECT_FALSE(err(v).empty());
  EXPECT_NE(err(std::vector<uint8_t>(good.begin(), good.begin() + 10)).find("too short"),
            std::string::npos);
}

// Records of three transactions, with tuples of 100..3000 bytes so that some span pages.
std::vector<UndoRecord> SomeRecords() {
  std::vector<UndoRecord> out;
  for (int i = 0; i < 30; ++i) {
    UndoRecord r = DeleteRecord();
    r.xid = 800 + i / 10;
    r.offset = static_cast<uint16_t>(i + 1);
    r.tuple.assign(100 + (i * 397) % 2900, static_cast<uint8_t>(i));
    r.tuple[4] = 24;
    out.push_back(r);
  }
  return out;
}

TEST(UndoLogTest, AppendFetchAndWalkBackward) {
  UndoLog log(3);
  std::vector<UndoRecPtr> ptrs;
  for (const UndoRecord& r : SomeRecords()) {
    StatusOr<UndoRecPtr> p = log.Append(r);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(UndoRecPtrLogNo(*p), 3u);
    EXPECT_GE(UndoRecPtrOffset(*p) % kUndoPageSize, kUndoPageHeaderSize);
    ptrs.push_back(*p);
  }
  ASSERT_GT(log.Pages().size(), 2u);
  // Fetch returns each record; only each transaction's first carries the transaction part,
  // linked to the next transaction's first record.
  const std::vector<UndoRecord> want = SomeRecords();
  for (size_t i = 0; i < ptrs.size(); ++i) {
    StatusOr<UndoRecord> r = log.Fetch(ptrs[i]);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->tuple, want[i].tuple);
    EXPECT_EQ(r->has_transaction, i % 10 == 0);
    if (i % 10 == 0) {
      EXPECT_EQ(r->transaction.next, i + 10 < ptrs.size() ? ptrs[i + 10] : 0u);
    }
  }
  // Prev walks back through every record, across page boundaries.
  UndoRecPtr p = ptrs.back();
  for (size_t i = ptrs.size(); i-- > 0;) {
    ASSERT_EQ(p, ptrs[i]);
    p = *log.Prev(p);
  }
  EXPECT_EQ(p, kInvalidUndoRecPtr);
  // The middle transaction, backwards, exactly its records.
  std::vector<UndoRecPtr> seen;
  ASSERT_TRUE(log.WalkTransactionBackward(ptrs[19],
                                          [&](UndoRecPtr q, const UndoRecord& r) {
                                            EXPECT_EQ(r.xid, 801u);
                                            seen.push_back(q);
                                            return true;
                                          })
                  .ok());
  EXPECT_EQ(seen, std::vector<UndoRecPtr>(ptrs.rbegin() + 10, ptrs.rbegin() + 20));
  EXPECT_TRUE(log.Fetch(ptrs[3] + 1).status().IsInvalidArgument());
  EXPECT_TRUE(log.Fetch(MakeUndoRecPtr(4, 24)).status().IsInvalidArgument());
}

// A transaction's first record gets a fresh transaction part whatever the caller left in it:
// no progress yet, no previous or next transaction linked.
TEST(UndoLogTest, AppendStartsEachTransactionPartAfresh) {
  UndoLog log(3);
  UndoRecord r = DeleteRecord();
  r.transaction.progress = 7;
  r.transaction.prevurp = MakeUndoRecPtr(3, 5000);
  r.transaction.next = MakeUndoRecPtr(3, 9000);
  StatusOr<UndoRecPtr> p = log.Append(r);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  StatusOr<UndoRecord> back = log.Fetch(*p);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_TRUE(back->has_transaction);
  EXPECT_EQ(back->transaction.progress, 0u);
  EXPECT_EQ(back->transaction.prevurp, kInvalidUndoRecPtr);
  EXPECT_EQ(back->transaction.next, kInvalidUndoRecPtr);
}

// Undo pages carry PostgreSQL's standard page header: pd_special at the page end (no special
// space) and pd_pagesize_version 8192 | 4 (PG_PAGE_LAYOUT_VERSION), little-endian.
TEST(UndoLogTest, PagesCarryAStandardPageHeader) {
  UndoLog log(3);
  ASSERT_TRUE(log.Append(DeleteRecord()).ok());
  const std::vector<UndoPage> pages = log.Pages();
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(std::vector<uint8_t>(pages[0].begin() + 16, pages[0].begin() + 20),
            std::vector<uint8_t>({0x00, 0x20, 0x04, 0x20}));
}

TEST(UndoLogTest, RecoversFromPagesAndTreatsATornTailAsTheEnd) {
  UndoLog log(1);
  std::vector<UndoRecPtr> ptrs;
  for (const UndoRecord& r : SomeRecords()) ptrs.push_back(*log.Append(r));
  const std::vector<UndoPage> pages = log.Pages();
  StatusOr<UndoLog> back = UndoLog::FromPages(1, pages);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_records(), ptrs.size());
  EXPECT_EQ(back->insert_ptr(), log.insert_ptr());
  EXPECT_EQ(*back->Fetch(ptrs[17]), *log.Fetch(ptrs[17]));

  // The last page never reached disk: the record spanning into it is a torn tail.
  std::vector<UndoPage> torn = pages;
  torn.back().fill(0);
  back = UndoLog::FromPages(1, torn);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_LT(back->num_records(), ptrs.size());
  const size_t kept = back->num_records();
  EXPECT_EQ(back->insert_ptr(), ptrs[kept]);
  EXPECT_EQ(*back->Fetch(ptrs[kept - 1]), *log.Fetch(ptrs[kept - 1]));
  // Appending after recovery continues the log where it now ends.
  StatusOr<UndoRecPtr> again = back->Append(SomeRecords()[0]);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, ptrs[kept]);

  // A record damaged in the middle of the log is corruption, not a tear.
  std::vector<UndoPage> damaged = pages;
  damaged[0][kUndoPageHeaderSize + 1] = 42;  // the first record's type
  EXPECT_TRUE(UndoLog::FromPages(1, damaged).status().IsCorruption());
  damaged = pages;
  StoreLE16(&damaged[1][16], 4096);  // pd_special
  EXPECT_TRUE(UndoLog::FromPages(1, damaged).status().IsCorruption());
  damaged = pages;
  damaged[1].fill(0);  // a hole before data
  EXPECT_TRUE(UndoLog::FromPages(1, damaged).status().IsCorruption());
}

TEST(ZheapTest, AbortRestoresEveryTouchedTupleAndIsIdempotent) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(4), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(10).ok());
  std::vector<uint16_t> offs;
  for (const char* s : {"alpha", "bravo", "charlie", "delta"}) {
    offs.push_back(*table.Insert(10, ZTuple(s)));
  }
  ASSERT_TRUE(table.Commit(10).ok());
  const auto before = table.VisibleTuples();
  ASSERT_EQ(before.size(), 4u);

  ASSERT_TRUE(xacts.Begin(11).ok());
  EXPECT_EQ(*table.Update(11, offs[0], ZTuple("ALPHA")), offs[0]);             // in place
  const uint16_t moved = *table.Update(11, offs[1], ZTuple("bravo, longer"));  // not in place
  EXPECT_NE(moved, offs[1]);
  ASSERT_TRUE(table.Delete(11, offs[2]).ok());
  ASSERT_TRUE(table.Lock(11, offs[3]).ok());
  ASSERT_TRUE(table.Insert(11, ZTuple("echo")).ok());
  auto during = table.VisibleTuples();
  EXPECT_EQ(DataOf(during[offs[0]]), "ALPHA");
  EXPECT_EQ(DataOf(during[moved]), "bravo, longer");
  EXPECT_EQ(during.count(offs[1]), 0u);
  EXPECT_EQ(during.count(offs[2]), 0u);

  ASSERT_TRUE(table.Abort(11).ok());
  EXPECT_EQ(table.VisibleTuples(), before);  // byte for byte, slot and flags included
  const std::vector<uint8_t> page_after(table.page().bytes().begin(), table.page().bytes().end());
  ASSERT_TRUE(table.Rollback(11).ok());  // again: nothing changes
  EXPECT_EQ(std::vector<uint8_t>(table.page().bytes().begin(), table.page().bytes().end()),
            page_after);
}

TEST(ZheapTest, RollbackLeavesOtherTransactionsAlone) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(4), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(20).ok());
  const uint16_t a = *table.Insert(20, ZTuple("a0"));
  const uint16_t b = *table.Insert(20, ZTuple("b0"));
  ASSERT_TRUE(table.Commit(20).ok());
  ASSERT_TRUE(xacts.Begin(21).ok());
  ASSERT_TRUE(xacts.Begin(22).ok());
  ASSERT_TRUE(table.Update(21, a, ZTuple("a1")).ok());
  ASSERT_TRUE(table.Update(22, b, ZTuple("b2")).ok());
  EXPECT_TRUE(table.Update(22, a, ZTuple("a2")).status().IsBusy());  // 21 holds it
  ASSERT_TRUE(table.Abort(21).ok());
  auto v = table.VisibleTuples();
  EXPECT_EQ(DataOf(v[a]), "a0");
  EXPECT_EQ(DataOf(v[b]), "b2");
}

TEST(ZheapTest, FullSlotsAreBusyUntilATransactionIsAllVisible) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(2), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(1).ok());
  ASSERT_TRUE(xacts.Begin(2).ok());
  ASSERT_TRUE(xacts.Begin(3).ok());
  const uint16_t t1 = *table.Insert(1, ZTuple("one"));
  ASSERT_TRUE(table.Insert(2, ZTuple("two")).ok());
  EXPECT_TRUE(table.Insert(3, ZTuple("three")).status().IsBusy());
  ASSERT_TRUE(table.Commit(1).ok());
  // 1 committed and no older transaction runs: its slot is reused and its tuple frozen.
  ASSERT_TRUE(table.Insert(3, ZTuple("three")).ok());
  EXPECT_EQ(TupleSlot(table.VisibleTuples()[t1].data()), kFrozenSlot);
}

TEST(ZheapTest, CrashRollsBackUnfinishedTransactionsFromPageAndUndoAlone) {
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(ZheapPage(4), 16384, 0, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(30).ok());
  const uint16_t a = *table.Insert(30, ZTuple("kept"));
  ASSERT_TRUE(table.Commit(30).ok());
  const auto before = table.VisibleTuples();
  ASSERT_TRUE(xacts.Begin(31).ok());
  ASSERT_TRUE(table.Update(31, a, ZTuple("lost")).ok());
  ASSERT_TRUE(table.Insert(31, ZTuple("lost too")).ok());
  // Crash: only the page bytes, the undo pages and the commit log survive.
  StatusOr<UndoLog> recovered_log = UndoLog::FromPages(1, log.Pages());
  ASSERT_TRUE(recovered_log.ok());
  XactTable recovered_xacts = xacts.AfterCrash();
  ZheapTable recovered(*ZheapPage::FromBytes(table.page().bytes(), 4), 16384, 0, &*recovered_log,
                       &recovered_xacts);
  ASSERT_TRUE(recovered.RecoverAfterCrash().ok());
  EXPECT_EQ(recovered.VisibleTuples(), before);
}

}  // namespace
}  // namespace pgstore::undo
