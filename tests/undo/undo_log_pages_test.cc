// The undo log's pages byte by byte, and recovery at their edges: where records sit on a page, a
// log that exactly fills its pages, a record torn right at a page boundary, continuation flags
// on every page (the first included), data after the end, a transaction part where no
// transaction starts, a recovered log that goes on linking transactions, and the 40-bit offsets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "storage/undo/zheap_table.h"
#include "tests/undo/test_tuples.h"

namespace pgstore::undo {
namespace {

using fixtures::ZTupleOfSize;

UndoRecord Delete(uint32_t xid, size_t packed_size, bool first_of_transaction) {
  UndoRecord r;
  r.rmid = kRmZheap;
  r.type = UndoType::kDelete;
  r.xid = xid;
  r.has_block = true;
  const size_t fixed = kHeaderSize + kBlockPartSize + kPayloadHeaderSize + kTrailerSize +
                       (first_of_transaction ? kTransactionPartSize : 0);
  r.tuple = ZTupleOfSize(packed_size - fixed - fixtures::kZTupleHeader);
  return r;
}

StatusOr<UndoLog> Recover(const std::vector<UndoPage>& pages) {
  return UndoLog::FromPages(3, pages);
}

TEST(UndoLogPagesTest, RecordsStartRightAfterTheHeaderAndPdUpperIsPdLower) {
  UndoLog log(3);
  EXPECT_TRUE(log.Pages().empty());
  const UndoRecPtr p = *log.Append(Delete(900, 200, true));
  EXPECT_EQ(p, MakeUndoRecPtr(3, 24));
  const std::vector<UndoPage> pages = log.Pages();
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(LoadLE16(&pages[0][10]), 0);    // pd_flags: continues nothing
  EXPECT_EQ(LoadLE16(&pages[0][12]), 224);  // pd_lower
  EXPECT_EQ(LoadLE16(&pages[0][14]), 224);  // pd_upper
  EXPECT_EQ(pages[0][24], kRmZheap);
  EXPECT_EQ(pages[0][25], static_cast<uint8_t>(UndoType::kDelete));
  EXPECT_EQ(LoadLE16(&pages[0][222]), 200);  // the record's trailer: its length
  EXPECT_EQ(pages[0][224], 0);
}

// Two records: the first fills page 0 exactly, the second starts page 1.
struct ExactlyFullPage {
  UndoLog log{3};
  UndoRecPtr first, second;
  ExactlyFullPage() {
    first = *log.Append(Delete(900, kUndoPageUsable, true));
    second = *log.Append(Delete(900, 300, false));
  }
};

TEST(UndoLogPagesTest, ALogThatFillsItsPagesExactlyHasNoEmptyPage) {
  UndoLog log(3);
  ASSERT_TRUE(log.Append(Delete(900, kUndoPageUsable, true)).ok());
  const std::vector<UndoPage> pages = log.Pages();
  ASSERT_EQ(pages.size(), 1u);
  EXPECT_EQ(LoadLE16(&pages[0][12]), kUndoPageSize);
  StatusOr<UndoLog> back = Recover(pages);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->insert_ptr(), log.insert_ptr());
  EXPECT_EQ(back->insert_ptr(), MakeUndoRecPtr(3, kUndoPageSize + kUndoPageHeaderSize));

  ExactlyFullPage full;
  EXPECT_EQ(full.second, MakeUndoRecPtr(3, kUndoPageSize + kUndoPageHeaderSize));
  const std::vector<UndoPage> two = full.log.Pages();
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(LoadLE16(&two[1][10]), 0);  // page 1 starts a record
  back = Recover(two);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_records(), 2u);
}

TEST(UndoLogPagesTest, ARecordTornRightAfterAPageBoundaryEndsTheLogThere) {
  ExactlyFullPage full;
  std::vector<UndoPage> pages = full.log.Pages();
  const uint16_t lower = kUndoPageHeaderSize + 50;  // 50 bytes of the second record reached disk
  StoreLE16(&pages[1][12], lower);
  StoreLE16(&pages[1][14], lower);
  std::fill(pages[1].begin() + lower, pages[1].end(), 0);
  StatusOr<UndoLog> back = Recover(pages);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->num_records(), 1u);
  EXPECT_EQ(back->insert_ptr(), full.second);
}

TEST(UndoLogPagesTest, EveryPagesContinuationFlagIsChecked) {
  ExactlyFullPage full;
  for (size_t page : {size_t{0}, size_t{1}}) {
    std::vector<UndoPage> pages = full.log.Pages();
    StoreLE16(&pages[page][10], kUndoPageContinues);  // but a record starts there
    StatusOr<UndoLog> back = Recover(pages);
    EXPECT_TRUE(back.status().IsCorruption()) << page;
    EXPECT_EQ(back.status().message(), "undo page " + std::to_string(page) +
                                           ": continuation flag does not match its first record");
  }
}

TEST(UndoLogPagesTest, DataAfterAnAllZeroPageIsCorruption) {
  ExactlyFullPage full;
  ASSERT_TRUE(full.log.Append(Delete(900, kUndoPageUsable, false)).ok());
  std::vector<UndoPage> pages = full.log.Pages();
  ASSERT_EQ(pages.size(), 3u);
  pages[1].fill(0);
  StatusOr<UndoLog> back = Recover(pages);
  EXPECT_TRUE(back.status().IsCorruption());
  EXPECT_EQ(back.status().message(), "undo page 2 holds data after the end of the log");
}

TEST(UndoLogPagesTest, ATransactionPartInsideATransactionIsCorruption) {
  // Two transactions of one record each; the second's xid is then made the first's, so it has a
  // transaction part without starting a transaction (a backward walk would stop at it).
  UndoLog log(3);
  ASSERT_TRUE(log.Append(Delete(900, 200, true)).ok());
  const UndoRecPtr second = *log.Append(Delete(901, 200, true));
  std::vector<UndoPage> pages = log.Pages();
  StoreLE32(&pages[0][UndoRecPtrOffset(second) + 16], 900);
  StatusOr<UndoLog> back = Recover(pages);
  EXPECT_TRUE(back.status().IsCorruption());
  EXPECT_EQ(back.status().message(),
            "undo record at 3/224 has a transaction part inside transaction 900");
}

TEST(UndoLogPagesTest, ARecoveredLogLinksItsLastTransactionToTheNext) {
  UndoLog log(3);
  std::vector<UndoRecPtr> firsts;
  for (uint32_t xid : {900, 901, 902}) {
    firsts.push_back(*log.Append(Delete(xid, 3000, true)));
    ASSERT_TRUE(log.Append(Delete(xid, 100, false)).ok());
  }
  StatusOr<UndoLog> back = Recover(log.Pages());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const UndoRecPtr next = *back->Append(Delete(903, 100, true));
  EXPECT_EQ(back->Fetch(firsts[2])->transaction.next, next);
  EXPECT_EQ(back->Fetch(firsts[1])->transaction.next, firsts[2]);
  EXPECT_EQ(back->Fetch(firsts[0])->transaction.next, firsts[1]);
}

TEST(UndoLogPagesTest, PointersUseAll40OffsetBitsAndALogEndsAtTheLast) {
  const uint64_t high = (uint64_t{1} << 39) + 7;
  EXPECT_EQ(UndoRecPtrOffset(MakeUndoRecPtr(5, high)), high);
  EXPECT_EQ(UndoRecPtrLogNo(MakeUndoRecPtr(5, high)), 5u);
  EXPECT_EQ(UndoRecPtrOffset(MakeUndoRecPtr(5, kMaxUndoLogOffset)), kMaxUndoLogOffset);
  // 2^27 pages of 8 KB: the stream's last byte is the log's last offset.
  const uint64_t pages = (kMaxUndoLogOffset + 1) / kUndoPageSize;
  EXPECT_EQ(UndoLogOffsetOfStream(pages * kUndoPageUsable - 1), kMaxUndoLogOffset);
  EXPECT_TRUE(UndoLogFits(pages * kUndoPageUsable - 1));
  EXPECT_FALSE(UndoLogFits(pages * kUndoPageUsable));
  EXPECT_EQ(UndoLogOffsetOfStream(kUndoPageUsable), kUndoPageSize + kUndoPageHeaderSize);
}

}  // namespace
}  // namespace pgstore::undo
