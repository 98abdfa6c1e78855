#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"

namespace pgstore::undo {
namespace {

UndoRecord DeleteRecord() {
  UndoRecord r;
  r.rmid = 22;
  r.type = UndoType::kDelete;
  r.reloid = 16384;
  r.prevxid = 700;
  r.xid = 735;
  r.cid = 3;
  r.has_block = true;
  r.blkprev = 0x0000010000001234ull;
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
  EXPECT_EQ(packed[1], 2);                            // UNDO_DELETE
  EXPECT_EQ(packed[2], kInfoBlock | kInfoPayload);    // derived info
  EXPECT_EQ(LoadLE16(&packed[4]), 0);                 // prevlen never filled
  EXPECT_EQ(LoadLE32(&packed[8]), 16384u);
  EXPECT_EQ(LoadLE32(&packed[16]), 735u);
  EXPECT_EQ(LoadLE64(&packed[24]), r.blkprev);       // block part right after the header
  EXPECT_EQ(LoadLE32(&packed[32]), 7u);
  EXPECT_EQ(LoadLE16(&packed[36]), 12);
  EXPECT_EQ(LoadLE16(&packed[38]), 0);                // payload_len
  EXPECT_EQ(LoadLE16(&packed[40]), 8);                // tuple_len
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
  EXPECT_EQ(packed[24], 1);                                   // fork
  EXPECT_EQ(LoadLE32(&packed[25 + 14 + 8]), 5u);              // dbid
  EXPECT_EQ(LoadLE64(&packed[25 + 14 + 16]), r.transaction.prevurp);
  EXPECT_EQ(LoadLE16(&packed[25 + 14 + 32]), 4);              // payload_len
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
    if (i % 10 == 0) EXPECT_EQ(r->transaction.next, i + 10 < ptrs.size() ? ptrs[i + 10] : 0u);
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
  ASSERT_TRUE(log.WalkTransactionBackward(ptrs[19], [&](UndoRecPtr q, const UndoRecord& r) {
                   EXPECT_EQ(r.xid, 801u);
                   seen.push_back(q);
                   return true;
                 }).ok());
  EXPECT_EQ(seen, std::vector<UndoRecPtr>(ptrs.rbegin() + 10, ptrs.rbegin() + 20));
  EXPECT_TRUE(log.Fetch(ptrs[3] + 1).status().IsInvalidArgument());
  EXPECT_TRUE(log.Fetch(MakeUndoRecPtr(4, 24)).status().IsInvalidArgument());
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

}  // namespace
}  // namespace pgstore::undo
