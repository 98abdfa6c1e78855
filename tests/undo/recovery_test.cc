// Crash recovery from damaged bytes: each test builds a real crash image (page bytes, undo pages,
// commit log), damages one thing, and checks that recovery reports Corruption, stays inside the
// page and terminates, while a crash image without damage (or with only a torn tail) recovers.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "storage/page/page_format.h"
#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"
#include "tests/undo/test_tuples.h"

namespace pgstore::undo {
namespace {

using fixtures::ZTuple;

constexpr uint32_t kReloid = 16384;
constexpr int kSlots = 4;

std::vector<uint8_t> Bytes(ByteView v) { return std::vector<uint8_t>(v.begin(), v.end()); }

// A table whose committed tuple `off` transaction 41 (still running at the crash) has changed.
struct Image {
  UndoLog log{1};
  XactTable xacts;
  std::vector<uint8_t> page;
  uint16_t off = 0;
};

template <typename Change>
void MakeImage(Image* image, Change change) {
  ZheapTable table(ZheapPage(kSlots), kReloid, 0, &image->log, &image->xacts);
  ASSERT_TRUE(image->xacts.Begin(40).ok());
  image->off = *table.Insert(40, ZTuple("committed"));
  ASSERT_TRUE(table.Insert(40, ZTuple("neighbour")).ok());
  ASSERT_TRUE(table.Commit(40).ok());
  ASSERT_TRUE(image->xacts.Begin(41).ok());
  change(table, image->off);
  image->page = Bytes(table.page().bytes());
}

// Recovery of `page` with the image's undo log (through its pages) and commit log.
Status Recover(const Image& image, const std::vector<uint8_t>& page,
               ZheapTable::RecoveryStats* stats = nullptr) {
  StatusOr<UndoLog> log = UndoLog::FromPages(1, image.log.Pages());
  if (!log.ok()) return log.status();
  XactTable xacts = image.xacts.AfterCrash();
  StatusOr<ZheapPage> zpage = ZheapPage::FromBytes(ByteView(page), kSlots);
  if (!zpage.ok()) return zpage.status();
  ZheapTable table(*zpage, kReloid, 0, &*log, &xacts);
  return table.RecoverAfterCrash(stats);
}

void SetLinePointer(std::vector<uint8_t>* page, int offnum, page::ItemId id) {
  StoreLE32(page->data() + page::kPageHeaderSize + (offnum - 1) * page::kItemIdSize,
            page::EncodeItemId(id));
}

TEST(RecoveryTest, UndamagedCrashImageRecovers) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Lock(41, off).ok()); });
  ZheapTable::RecoveryStats stats;
  ASSERT_TRUE(Recover(image, image.page, &stats).ok());
  EXPECT_EQ(stats.transactions_rolled_back, 1);
  EXPECT_EQ(stats.records_applied, 1u);
}

// The lock's rollback restores only the 5-byte header, and used to skip the bounds check: a
// line pointer with lp_off 8190 made recovery write 3 bytes past the page.
TEST(RecoveryTest, LockedTupleWhoseLinePointerLeavesThePageIsCorruption) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Lock(41, off).ok()); });
  for (const uint16_t lp_off : {uint16_t{8190}, uint16_t{8188}, uint16_t{page::kPageSize - 2},
                                uint16_t{8}, uint16_t{page::kMaxItemField}}) {
    std::vector<uint8_t> page = image.page;
    SetLinePointer(&page, image.off, {lp_off, page::LpFlags::kNormal, 5});
    const Status s = Recover(image, page);
    EXPECT_TRUE(s.IsCorruption()) << lp_off << ": " << s.ToString();
    EXPECT_NE(s.message().find("does not fit its item"), std::string::npos) << s.ToString();
  }
  // A line pointer shorter than the header the lock restores.
  std::vector<uint8_t> page = image.page;
  const uint16_t upper = LoadLE16(page.data() + page::kOffUpper);
  SetLinePointer(&page, image.off, {upper, page::LpFlags::kNormal, 3});
  EXPECT_TRUE(Recover(image, page).IsCorruption());
}

TEST(RecoveryTest, RestoredTupleOutsideTheTupleSpaceIsCorruption) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Delete(41, off).ok()); });
  std::vector<uint8_t> page = image.page;
  // The special space (the transaction slots) starts 64 bytes before the end.
  SetLinePointer(&page, image.off, {page::kPageSize - 72, page::LpFlags::kNormal, 14});
  EXPECT_TRUE(Recover(image, page).IsCorruption());
}

// Found by undo_recovery_fuzzer: with pd_upper damaged past pd_special, an INSERT's rollback
// (which restores no tuple bytes) succeeded on a page whose tuple space is not a range. A page
// whose pointers are out of order is now refused before any rollback, as PageIsVerified would.
TEST(RecoveryTest, PageWhosePointersAreOutOfOrderIsCorruption) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t) { ASSERT_TRUE(t.Insert(41, ZTuple("new")).ok()); });
  ASSERT_TRUE(Recover(image, image.page).ok());
  const uint16_t special = LoadLE16(image.page.data() + page::kOffSpecial);
  const uint16_t lower = LoadLE16(image.page.data() + page::kOffLower);
  const std::vector<std::pair<size_t, size_t>> damage = {{page::kOffUpper, special + 8u},
                                                         {page::kOffUpper, 40000u},
                                                         {page::kOffUpper, lower - 4u},
                                                         {page::kOffLower, 20u},
                                                         {page::kOffSpecial, page::kPageSize + 8u}};
  for (const auto& [field, value] : damage) {
    std::vector<uint8_t> page = image.page;
    StoreLE16(page.data() + field, static_cast<uint16_t>(value));
    const Status s = Recover(image, page);
    EXPECT_TRUE(s.IsCorruption()) << "field " << field << " = " << value << ": " << s.ToString();
    EXPECT_EQ(s.message(), "corrupted page pointers");
  }
}

// Builds the crash image by hand: the page as transaction 41 left it after deleting `off`, with
// its slot pointing at an undo record whose blkprev is `blkprev(p)` for its own pointer p; then
// `damage` may change the record (before it is appended) and the page bytes.
template <typename Blkprev, typename Damage>
Status RecoverWithChain(Blkprev blkprev, bool through_pages, Damage damage) {
  Image image;
  MakeImage(&image, [](ZheapTable&, uint16_t) {});
  const UndoRecPtr earlier = image.log.insert_ptr() - 1;  // inside the last INSERT record
  StatusOr<ZheapPage> page = ZheapPage::FromBytes(ByteView(image.page), kSlots);
  UndoRecord r;
  r.rmid = kRmZheap;
  r.type = UndoType::kDelete;
  r.reloid = kReloid;
  r.xid = 41;
  r.has_block = true;
  r.block = 0;
  r.offset = image.off;
  r.tuple = Bytes(*page->Tuple(image.off));
  r.blkprev = blkprev(image.log.insert_ptr(), earlier);
  uint8_t* t = *page->MutableTuple(image.off);
  SetTupleSlot(t, 2);
  SetTupleInfomask(t, TupleInfomask(t) | kZheapDeleted);
  std::vector<uint8_t> bytes = Bytes(page->bytes());
  damage(&r, &bytes);
  StatusOr<UndoRecPtr> p = image.log.Append(r);
  EXPECT_TRUE(p.ok());
  page = ZheapPage::FromBytes(ByteView(bytes), kSlots);
  if (!page.ok()) return page.status();
  page->set_slot(2, TransSlot{41, *p});
  if (through_pages) return Recover(image, Bytes(page->bytes()));
  XactTable xacts = image.xacts.AfterCrash();
  ZheapTable table(*page, kReloid, 0, &image.log, &xacts);
  return table.RecoverAfterCrash();
}

template <typename Blkprev>
Status RecoverWithChain(Blkprev blkprev, bool through_pages) {
  return RecoverWithChain(blkprev, through_pages, [](UndoRecord*, std::vector<uint8_t>*) {});
}

// The crafted record of RecoverWithChain, first of its chain, changed by `damage`.
template <typename Damage>
Status RecoverWithRecord(Damage damage) {
  return RecoverWithChain([](UndoRecPtr, UndoRecPtr) { return kInvalidUndoRecPtr; }, true, damage);
}

// The rollback walk followed blkprev without checking that it moves backwards: a record whose
// blkprev points at itself made recovery loop forever.
TEST(RecoveryTest, UndoChainThatDoesNotPointBackIsCorruption) {
  const auto self = [](UndoRecPtr p, UndoRecPtr) { return p; };
  const auto forward = [](UndoRecPtr p, UndoRecPtr) { return p + 100; };
  const auto mid_record = [](UndoRecPtr, UndoRecPtr earlier) { return earlier; };
  for (bool through_pages : {false, true}) {
    const Status s1 = RecoverWithChain(self, through_pages);
    EXPECT_TRUE(s1.IsCorruption()) << s1.ToString();
    const Status s2 = RecoverWithChain(forward, through_pages);
    EXPECT_TRUE(s2.IsCorruption()) << s2.ToString();
    const Status s3 = RecoverWithChain(mid_record, through_pages);
    EXPECT_TRUE(s3.IsCorruption()) << s3.ToString();
  }
  // The same record with no earlier record for the block rolls back.
  EXPECT_TRUE(
      RecoverWithChain([](UndoRecPtr, UndoRecPtr) { return kInvalidUndoRecPtr; }, true).ok());
}

TEST(RecoveryTest, SlotPointingAtAnotherTransactionsRecordIsCorruption) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Delete(41, off).ok()); });
  StatusOr<ZheapPage> page = ZheapPage::FromBytes(ByteView(image.page), kSlots);
  // Slot 1 held transaction 40's records; pretend 40's slot now names a running 42.
  const TransSlot s1 = page->slot(1);
  ASSERT_EQ(s1.fxid, 40u);
  page->set_slot(1, TransSlot{42, s1.urec_ptr});
  EXPECT_TRUE(Recover(image, Bytes(page->bytes())).IsCorruption());
}

// Found by undo_recovery_fuzzer: with one transaction in two slots, recovery rolled back one
// slot's chain, left the other, and a second recovery then failed.
TEST(RecoveryTest, TransactionHoldingTwoSlotsIsCorruption) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Delete(41, off).ok()); });
  StatusOr<ZheapPage> page = ZheapPage::FromBytes(ByteView(image.page), kSlots);
  page->set_slot(3, page->slot(2));
  EXPECT_TRUE(Recover(image, Bytes(page->bytes())).IsCorruption());
  page->set_slot(3, TransSlot{uint64_t{1} << 32 | 41, page->slot(2).urec_ptr});
  EXPECT_TRUE(Recover(image, Bytes(page->bytes())).IsCorruption());
}

// A log of 30 records (three transactions) over several pages; record 15 is sized to end exactly
// at a page boundary, so that the page after it starts with a record.
struct PagedLog {
  UndoLog log{1};
  std::vector<UndoRecPtr> ptrs;
  PagedLog() {
    for (int i = 0; i < 30; ++i) {
      UndoRecord r;
      r.rmid = kRmZheap;
      r.type = UndoType::kDelete;
      r.xid = 800 + i / 10;
      r.has_block = true;
      r.offset = static_cast<uint16_t>(i + 1);
      size_t len = 100 + (i * 397) % 2900;
      if (i == 15) {  // not a transaction's first: header, block part, payload header, trailer
        const size_t used =
            UndoRecPtrOffset(log.insert_ptr()) % kUndoPageSize - kUndoPageHeaderSize;
        const size_t fixed = kHeaderSize + kBlockPartSize + kPayloadHeaderSize + kTrailerSize;
        len = kUndoPageUsable - used - fixed;
        if (kUndoPageUsable - used < fixed + kZheapTupleHeaderSize) len += kUndoPageUsable;
      }
      r.tuple.assign(len, static_cast<uint8_t>(i));
      ptrs.push_back(*log.Append(r));
    }
  }
};

// FromPages took any record whose length ran past the end of the data for a torn tail, and
// dropped it and everything after it, even with full pages after it that start new records.
TEST(RecoveryTest, LengthRunningPastTheEndInTheMiddleOfTheLogIsCorruption) {
  PagedLog pl;
  std::vector<UndoPage> pages = pl.log.Pages();
  ASSERT_GE(pages.size(), 4u);
  // The last record whose payload header lies on its first page and after whose page another
  // page starts a new record: its tuple length is made to run past the end (still under 64 KB).
  size_t len_at = 0, victim_page = 0;
  for (UndoRecPtr p : pl.ptrs) {
    const uint64_t off = UndoRecPtrOffset(p);
    const size_t at = off % kUndoPageSize + kHeaderSize + kBlockPartSize +
                      (pl.log.Fetch(p)->has_transaction ? kTransactionPartSize : 0) + 2;
    bool new_record_later = false;
    for (size_t i = off / kUndoPageSize + 1; i < pages.size(); ++i) {
      new_record_later |= !(LoadLE16(&pages[i][10]) & kUndoPageContinues);
    }
    if (at + 2 <= kUndoPageSize && new_record_later &&
        UndoRecPtrOffset(pl.log.insert_ptr()) - off < 60000) {
      len_at = at;
      victim_page = off / kUndoPageSize;
    }
  }
  ASSERT_NE(len_at, 0u);
  StoreLE16(&pages[victim_page][len_at], 60000);
  StatusOr<UndoLog> back = UndoLog::FromPages(1, pages);
  EXPECT_TRUE(back.status().IsCorruption()) << back.status().ToString();
  EXPECT_NE(back.status().message().find("starts a new record"), std::string::npos)
      << back.status().ToString();
  // Over 64 KB is never a record.
  StoreLE16(&pages[victim_page][len_at], 65530);
  EXPECT_TRUE(UndoLog::FromPages(1, pages).status().IsCorruption());
}

TEST(RecoveryTest, RealTornTailStillRecoversEveryCompleteRecord) {
  PagedLog pl;
  std::vector<UndoPage> pages = pl.log.Pages();
  // Cut inside the last record, on whatever page it ends: the writer crashed mid-append.
  const uint64_t last = UndoRecPtrOffset(pl.ptrs.back());
  const uint64_t end = UndoRecPtrOffset(pl.log.insert_ptr());
  for (uint64_t cut : {last + 1, last + 30, (last + end) / 2, end - 1}) {
    if (cut % kUndoPageSize < kUndoPageHeaderSize) continue;
    std::vector<UndoPage> torn(pages.begin(), pages.begin() + cut / kUndoPageSize + 1);
    const uint16_t lower = static_cast<uint16_t>(cut % kUndoPageSize);
    StoreLE16(&torn.back()[12], lower);
    StoreLE16(&torn.back()[14], lower);
    std::fill(torn.back().begin() + lower, torn.back().end(), 0);
    StatusOr<UndoLog> back = UndoLog::FromPages(1, torn);
    ASSERT_TRUE(back.ok()) << cut << ": " << back.status().ToString();
    EXPECT_EQ(back->num_records(), pl.ptrs.size() - 1);
    EXPECT_EQ(back->insert_ptr(), pl.ptrs.back());
  }
}

TEST(RecoveryTest, NextTransactionPointerIntoARecordIsCorruption) {
  PagedLog pl;
  std::vector<UndoPage> pages = pl.log.Pages();
  // The first record (transaction 800's first) has its next patched to 810's first record.
  const size_t next_at = kUndoPageHeaderSize + kHeaderSize + kBlockPartSize + 24;
  ASSERT_EQ(LoadLE64(&pages[0][next_at]), pl.ptrs[10]);
  StoreLE64(&pages[0][next_at], pl.ptrs[11]);  // a record of 810 that is not its first
  EXPECT_TRUE(UndoLog::FromPages(1, pages).status().IsCorruption());
  StoreLE64(&pages[0][next_at], pl.ptrs[0]);  // itself
  EXPECT_TRUE(UndoLog::FromPages(1, pages).status().IsCorruption());
}

// The record a slot points at must be its transaction's, for this relation and block: each field
// on its own that differs is Corruption.
TEST(RecoveryTest, SlotPointingAtARecordOfAnotherXidBlockOrRelationIsCorruption) {
  EXPECT_TRUE(RecoverWithRecord([](UndoRecord*, std::vector<uint8_t>*) {}).ok());
  EXPECT_TRUE(
      RecoverWithRecord([](UndoRecord* r, std::vector<uint8_t>*) { r->xid = 40; }).IsCorruption());
  EXPECT_TRUE(
      RecoverWithRecord([](UndoRecord* r, std::vector<uint8_t>*) { r->block = 1; }).IsCorruption());
  EXPECT_TRUE(RecoverWithRecord([](UndoRecord* r, std::vector<uint8_t>*) {
                r->reloid = 1;
              }).IsCorruption());
}

// An INSERT record for line pointer 0 would mark the page header's pd_special unused.
TEST(RecoveryTest, UndoForLinePointerZeroIsCorruption) {
  const Status s = RecoverWithRecord([](UndoRecord* r, std::vector<uint8_t>*) {
    r->type = UndoType::kInsert;
    r->offset = 0;
    r->tuple.clear();
  });
  EXPECT_EQ(s.message(), "undo for tuple 0 beyond the page's line pointers");
}

// The record's tuple would be copied back to an item whose line pointer is no longer normal.
TEST(RecoveryTest, UndoForAnUnusedLinePointerIsCorruption) {
  const Status s = RecoverWithRecord([](UndoRecord* r, std::vector<uint8_t>* page) {
    const uint8_t* lp = page->data() + page::kPageHeaderSize + (r->offset - 1) * page::kItemIdSize;
    page::ItemId id = page::DecodeItemId(LoadLE32(lp));
    id.flags = page::LpFlags::kUnused;
    SetLinePointer(page, r->offset, id);
  });
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

// A page with no free space left (pd_lower == pd_upper) still rolls back.
TEST(RecoveryTest, FullPageRollsBack) {
  const Status s = RecoverWithRecord([](UndoRecord*, std::vector<uint8_t>* page) {
    StoreLE16(page->data() + page::kOffUpper, LoadLE16(page->data() + page::kOffLower));
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// Every slot is checked, the first and the last too; 4294967295 is a 32-bit transaction id.
TEST(RecoveryTest, EverySlotMustHoldA32BitTransactionId) {
  Image image;
  MakeImage(&image, [](ZheapTable&, uint16_t) {});
  StatusOr<ZheapPage> page = ZheapPage::FromBytes(ByteView(image.page), kSlots);
  page->set_slot(3, TransSlot{UINT32_MAX, kInvalidUndoRecPtr});
  EXPECT_TRUE(Recover(image, Bytes(page->bytes())).ok());
  for (int slot : {1, kSlots}) {
    StatusOr<ZheapPage> bad = ZheapPage::FromBytes(ByteView(image.page), kSlots);
    bad->set_slot(slot, TransSlot{uint64_t{1} << 32, kInvalidUndoRecPtr});
    EXPECT_TRUE(Recover(image, Bytes(bad->bytes())).IsCorruption()) << slot;
  }
}

// Recovery marks the transactions it rolled back aborted in the commit log.
TEST(RecoveryTest, RolledBackTransactionsAreMarkedAborted) {
  Image image;
  MakeImage(&image, [](ZheapTable& t, uint16_t off) { ASSERT_TRUE(t.Delete(41, off).ok()); });
  StatusOr<UndoLog> log = UndoLog::FromPages(1, image.log.Pages());
  ASSERT_TRUE(log.ok());
  XactTable xacts = image.xacts.AfterCrash();
  ASSERT_EQ(xacts.states().count(41), 0u);
  ZheapTable table(*ZheapPage::FromBytes(ByteView(image.page), kSlots), kReloid, 0, &*log, &xacts);
  ASSERT_TRUE(table.RecoverAfterCrash().ok());
  EXPECT_EQ(xacts.states().at(41), XactTable::State::kAborted);
}

}  // namespace
}  // namespace pgstore::undo
