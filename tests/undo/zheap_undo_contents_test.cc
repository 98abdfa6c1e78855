// What zheap's operations write, field by field, and what rollback restores exactly: the rmid,
// prevxid and blkprev of each record, an update's new TID and a lock's mode in the payload, the
// slot a restored tuple keeps, the visibility bits a caller's tuple cannot bring in, a log that
// fills up mid-operation, and the commit log's states.
#include <gtest/gtest.h>

#include <cstdint>
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

constexpr uint32_t kReloid = 16384;
constexpr uint32_t kBlock = 7;

// A table (block kBlock) with its own undo log and commit log.
class ZheapUndoContentsTest : public ::testing::Test {
 protected:
  // A tuple transaction 10 inserted and committed; then transaction 11 begins.
  uint16_t CommittedTupleWith11Running() {
    EXPECT_TRUE(xacts.Begin(10).ok());
    const uint16_t off = *table.Insert(10, ZTupleOfSize(20));
    EXPECT_TRUE(table.Commit(10).ok());
    EXPECT_TRUE(xacts.Begin(11).ok());
    return off;
  }

  UndoLog log{1};
  XactTable xacts;
  ZheapTable table{ZheapPage(), kReloid, kBlock, &log, &xacts};
};

// The record a slot's transaction wrote last.
UndoRecord LastRecordOf(const ZheapTable& t, const UndoLog& log, int slot) {
  StatusOr<UndoRecord> r = log.Fetch(t.page().slot(slot).urec_ptr);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : UndoRecord{};
}

uint8_t* TupleBytes(ZheapPage* page, uint16_t off) { return *page->MutableTuple(off); }

int SlotOfTuple(const ZheapTable& t, uint16_t off) { return TupleSlot(t.page().Tuple(off)->data); }

TEST(ZheapUndoSetupTest, UnsetRecordFieldsAreZero) {
  const UndoRecord r;
  EXPECT_EQ(r.rmid, 0);
  EXPECT_EQ(r.reloid, 0u);
  EXPECT_EQ(r.xid, 0u);
  EXPECT_EQ(r.block, 0u);
  EXPECT_EQ(r.offset, 0u);
}

TEST(ZheapUndoSetupTest, DefaultPageHasZheapsFourSlots) {
  ZheapPage page;
  EXPECT_EQ(page.num_slots(), 4);  // ZHEAP_PAGE_TRANS_SLOTS
  EXPECT_EQ(page.page().special(), page::kPageSize - 4 * kTransInfoSize);
}

TEST_F(ZheapUndoContentsTest, InsertRecordIsZheapsWithNoPreviousTransaction) {
  ASSERT_TRUE(xacts.Begin(10).ok());
  const uint16_t off = *table.Insert(10, ZTupleOfSize(20));
  const UndoRecord r = LastRecordOf(table, log, 1);
  EXPECT_EQ(r.rmid, 22);
  EXPECT_EQ(r.type, UndoType::kInsert);
  EXPECT_EQ(r.reloid, kReloid);
  EXPECT_EQ(r.xid, 10u);
  EXPECT_EQ(r.prevxid, 0u);
  EXPECT_EQ(r.block, kBlock);
  EXPECT_EQ(r.offset, off);
  EXPECT_EQ(r.blkprev, kInvalidUndoRecPtr);
}

// A moved update writes UPDATE (old tuple, payload: the new version's TID) then INSERT of the new
// version, whose prevxid is 0 (a new tuple had no earlier transaction).
TEST_F(ZheapUndoContentsTest, UpdateRecordsTheNewVersionsTid) {
  const uint16_t off = CommittedTupleWith11Running();
  const uint16_t new_off = *table.Update(11, off, ZTupleOfSize(40));
  ASSERT_NE(new_off, off);
  const UndoRecord insert = LastRecordOf(table, log, 2);
  EXPECT_EQ(insert.type, UndoType::kInsert);
  EXPECT_EQ(insert.offset, new_off);
  EXPECT_EQ(insert.prevxid, 0u);
  StatusOr<UndoRecord> update = log.Fetch(insert.blkprev);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->type, UndoType::kUpdate);
  EXPECT_EQ(update->prevxid, 10u);
  const std::vector<uint8_t> tid = {kBlock, 0, 0, 0, static_cast<uint8_t>(new_off), 0};
  EXPECT_EQ(update->payload, tid);
}

TEST_F(ZheapUndoContentsTest, LockRecordsTheExclusiveMode) {
  const uint16_t off = CommittedTupleWith11Running();
  ASSERT_TRUE(table.Lock(11, off).ok());
  const UndoRecord r = LastRecordOf(table, log, 2);
  EXPECT_EQ(r.type, UndoType::kXidLockOnly);
  EXPECT_EQ(r.payload, (std::vector<uint8_t>{3, 0, 0, 0}));  // LockTupleExclusive
}

// Four transactions fill the four slots and commit; a fifth reuses slot 1, freezing its tuples.
// Its change of a frozen tuple records prevxid 0 and starts a fresh chain (blkprev invalid), not
// one that runs into the earlier transaction's records.
TEST_F(ZheapUndoContentsTest, ReusedSlotStartsAFreshChainAndFrozenMeansNoPrevxid) {
  std::vector<uint16_t> offs;
  for (uint32_t xid = 1; xid <= 4; ++xid) {
    ASSERT_TRUE(xacts.Begin(xid).ok());
    offs.push_back(*table.Insert(xid, ZTupleOfSize(40)));
    ASSERT_TRUE(table.Commit(xid).ok());
  }
  ASSERT_TRUE(xacts.Begin(5).ok());
  ASSERT_TRUE(table.Update(5, offs[0], ZTupleOfSize(40)).ok());  // in place
  EXPECT_EQ(table.page().slot(1).fxid, 5u);
  const UndoRecord r = LastRecordOf(table, log, 1);
  EXPECT_EQ(r.type, UndoType::kInplaceUpdate);
  EXPECT_EQ(r.prevxid, 0u);
  EXPECT_EQ(r.blkprev, kInvalidUndoRecPtr);
  EXPECT_EQ(TupleSlot(r.tuple.data()), kFrozenSlot);
}

// A free slot (fxid 0) whose urec_ptr holds stale bytes: the transaction that takes it starts its
// chain afresh.
TEST(ZheapUndoSetupTest, FreeSlotWithAStaleUndoPointerStartsAFreshChain) {
  ZheapPage stale;
  stale.set_slot(1, TransSlot{0, MakeUndoRecPtr(1, 12345)});
  UndoLog log(1);
  XactTable xacts;
  ZheapTable table(stale, kReloid, kBlock, &log, &xacts);
  ASSERT_TRUE(xacts.Begin(10).ok());
  ASSERT_TRUE(table.Insert(10, ZTupleOfSize(20)).ok());
  EXPECT_EQ(LastRecordOf(table, log, 1).blkprev, kInvalidUndoRecPtr);
}

// The visibility bits are zheap's to set: a caller's tuple carrying DELETED or UPDATED is stored
// live, whether inserted or written as a moved update's new version.
TEST_F(ZheapUndoContentsTest, CallersVisibilityBitsAreCleared) {
  std::vector<uint8_t> marked = ZTupleOfSize(20);
  SetTupleInfomask(marked.data(), TupleInfomask(marked.data()) | kZheapDeleted | kZheapUpdated);
  ASSERT_TRUE(xacts.Begin(10).ok());
  const uint16_t off = *table.Insert(10, marked);
  EXPECT_EQ(table.VisibleTuples().count(off), 1u);
  std::vector<uint8_t> longer_marked = ZTupleOfSize(40);
  SetTupleInfomask(longer_marked.data(), TupleInfomask(longer_marked.data()) | kZheapDeleted);
  const uint16_t moved = *table.Update(10, off, longer_marked);
  EXPECT_EQ(table.VisibleTuples().count(moved), 1u);
}

// Transaction 1 inserts in slot 1, 4 in slot 4 (the last); 1 aborts, freeing slot 1, and 4
// commits. Transaction 5 updates 4's tuple from slot 1 and aborts: the restored tuple names slot 4
// again, which still belongs to 4.
TEST_F(ZheapUndoContentsTest, RollbackKeepsTheLastSlotWhileItsTransactionHoldsIt) {
  uint16_t last = 0;
  for (uint32_t xid = 1; xid <= 4; ++xid) {
    ASSERT_TRUE(xacts.Begin(xid).ok());
    last = *table.Insert(xid, ZTupleOfSize(20));
  }
  ASSERT_EQ(SlotOfTuple(table, last), 4);
  ASSERT_TRUE(table.Abort(1).ok());
  ASSERT_TRUE(table.Commit(4).ok());
  ASSERT_TRUE(xacts.Begin(5).ok());
  ASSERT_TRUE(table.Delete(5, last).ok());
  ASSERT_EQ(SlotOfTuple(table, last), 1);
  ASSERT_TRUE(table.Abort(5).ok());
  EXPECT_EQ(SlotOfTuple(table, last), 4);
}

// Rollback marks the transaction's first record applied (progress 1).
TEST_F(ZheapUndoContentsTest, RollbackSetsProgressToOne) {
  ASSERT_TRUE(xacts.Begin(10).ok());
  ASSERT_TRUE(table.Insert(10, ZTupleOfSize(20)).ok());
  const UndoRecPtr first = table.page().slot(1).urec_ptr;
  ASSERT_TRUE(table.Abort(10).ok());
  StatusOr<UndoRecord> r = log.Fetch(first);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->has_transaction);
  EXPECT_EQ(r->transaction.progress, 1u);
}

// When the undo log is full the change is not made: no new line pointer stays behind (Insert, or
// the new version of a moved Update), and the old version keeps its place.
TEST(ZheapUndoSetupTest, AFullLogLeavesNoNewTuple) {
  XactTable xacts;
  ASSERT_TRUE(xacts.Begin(10).ok());
  UndoLog probe(1);
  {
    ZheapTable t(ZheapPage(), kReloid, kBlock, &probe, &xacts);
    ASSERT_TRUE(t.Insert(10, ZTupleOfSize(20)).ok());
  }
  UndoLog log(1, UndoRecPtrOffset(probe.insert_ptr()));  // room for that one record only
  ZheapTable table(ZheapPage(), kReloid, kBlock, &log, &xacts);
  const uint16_t off = *table.Insert(10, ZTupleOfSize(20));
  const auto before = table.VisibleTuples();
  EXPECT_EQ(table.Insert(10, ZTupleOfSize(20)).status().message(), "undo log 1 is full");
  EXPECT_EQ(table.Update(10, off, ZTupleOfSize(40)).status().message(), "undo log 1 is full");
  EXPECT_EQ(table.VisibleTuples(), before);
  EXPECT_EQ(log.num_records(), 1u);
}

TEST(ZheapUndoSetupTest, ZheapTupleShorterThanItsHeaderIsCorruption) {
  ZheapPage page;
  const std::vector<uint8_t> four = {1, 0, 0, 0};
  ASSERT_EQ(*page.mutable_page().AddItem(ByteView(four)), 1);
  EXPECT_EQ(page.MutableTuple(1).status().message(), "zheap tuple shorter than its header");
}

// A full page (pd_lower == pd_upper) is a well-formed page.
TEST(ZheapUndoSetupTest, FullPageIsWellFormed) {
  ZheapPage page;
  std::vector<uint8_t> bytes(page.page().bytes().begin(), page.page().bytes().end());
  StoreLE16(&bytes[page::kOffUpper], page::kPageHeaderSize);
  EXPECT_TRUE(ZheapPage::FromBytes(ByteView(bytes), 4).ok());
}

TEST(XactTableStatesTest, OnlyACommitIsCommittedAndAbortIsRecorded) {
  XactTable xacts;
  EXPECT_FALSE(xacts.IsCommitted(77));
  ASSERT_TRUE(xacts.Begin(77).ok());
  EXPECT_FALSE(xacts.IsCommitted(77));
  xacts.MarkAborted(77);
  EXPECT_EQ(xacts.states().at(77), XactTable::State::kAborted);
  EXPECT_FALSE(xacts.IsInProgress(77));
  EXPECT_FALSE(xacts.IsCommitted(77));
}

}  // namespace
}  // namespace pgstore::undo
