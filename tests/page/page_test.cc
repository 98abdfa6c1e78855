#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "storage/page/checksum.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/page/relation_filler.h"
#include "storage/page/verify.h"
#include "storage/tuple/form.h"
#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"

namespace pgstore::page {
namespace {

// A well-formed heap tuple of exactly `len` bytes (>= 28): one int4 column, then text padding.
std::vector<uint8_t> TupleOfLength(size_t len) {
  std::vector<uint8_t> t(len, 0);
  t[tuple::kOffInfomask2] = 1;
  t[tuple::kOffHoff] = 24;
  return t;
}

std::vector<std::string> Checks(const HeapPage& p, const VerifyOptions& o = {}) {
  std::vector<std::string> out;
  for (const PageProblem& pr : VerifyHeapPage(p.bytes(), 0, o)) {
    // A finding about no attribute has attnum -1; any other attnum shows.
    const std::string attnum = pr.attnum == -1 ? "" : " attnum " + std::to_string(pr.attnum);
    out.push_back(std::to_string(pr.lp) + attnum + ": " + pr.check);
  }
  return out;
}

TEST(PageFormat, ConstantsMatchPostgres) {
  EXPECT_EQ(kMaxHeapTuplesPerPage, 291);
  EXPECT_EQ(kPageSizeVersion, 0x2004);
  EXPECT_EQ(kMaxOffsetNumber, 2048);
  const ItemId id = DecodeItemId(EncodeItemId({8160, LpFlags::kDead, 32767}));
  EXPECT_EQ(id.off, 8160);
  EXPECT_EQ(id.flags, LpFlags::kDead);
  EXPECT_EQ(id.len, 32767);
}

TEST(HeapPageTest, NewPageHeader) {
  HeapPage p;
  EXPECT_EQ(p.lower(), 24);
  EXPECT_EQ(p.upper(), 8192);
  EXPECT_EQ(p.special(), 8192);
  EXPECT_EQ(p.MaxOffset(), 0);
  EXPECT_EQ(p.HeapFreeSpace(), 8192u - 24 - 4);
  EXPECT_TRUE(Checks(p).empty());
}

TEST(HeapPageTest, AddItemPlacesDownwardMaxaligned) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(31);
  EXPECT_EQ(*p.AddItem(ByteView(t)), 1);
  EXPECT_EQ(*p.AddItem(ByteView(t)), 2);
  EXPECT_EQ(p.GetItemId(1).off, 8192 - 32);
  EXPECT_EQ(p.GetItemId(1).len, 31);
  EXPECT_EQ(p.GetItemId(2).off, 8192 - 64);
  EXPECT_EQ(p.lower(), 32);
  EXPECT_EQ(p.GetItem(2)->size, 31u);
  EXPECT_TRUE(Checks(p).empty());
}

TEST(HeapPageTest, AtMostMaxHeapTuplesPerPage) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(24);
  for (int i = 1; i <= 291; ++i) ASSERT_EQ(*p.AddItem(ByteView(t)), i);
  EXPECT_EQ(*p.AddItem(ByteView(t)), kInvalidOffsetNumber);
  EXPECT_EQ(p.HeapFreeSpace(), 0u);
  p.MarkUnused(7);  // a freed line pointer is reused; 20 bytes are left between lower and upper
  EXPECT_EQ(p.HeapFreeSpace(), 16u);
  std::vector<uint8_t> small(8, 0);
  EXPECT_EQ(*p.AddItem(ByteView(small)), 7);
  EXPECT_EQ(p.lower(), 24 + 291 * 4);
  // PD_HAS_FREE_LINES is still set, but a redirect (or a dead line pointer without storage) is
  // in use (ItemIdIsUsed): no free line pointer is left, so no free space either.
  p.SetRedirect(9, 10);
  p.SetItemId(11, ItemId{0, LpFlags::kDead, 0});
  EXPECT_EQ(p.HeapFreeSpace(), 0u);
}

// PageGetHeapFreeSpace on a corrupt header: pd_upper past the page, or pd_lower past pd_upper,
// leaves no free space (never the difference of the two as an unsigned number).
TEST(HeapPageTest, CorruptBoundsHaveNoFreeSpace) {
  HeapPage p;
  StoreLE16(p.mutable_data() + kOffUpper, 8193);
  EXPECT_EQ(p.HeapFreeSpace(), 0u);
  StoreLE16(p.mutable_data() + kOffUpper, 0xFFFF);
  EXPECT_EQ(p.HeapFreeSpace(), 0u);
  StoreLE16(p.mutable_data() + kOffUpper, 8192);
  EXPECT_EQ(p.HeapFreeSpace(), 8192u - 24 - 4);
  StoreLE16(p.mutable_data() + kOffLower, 100);
  StoreLE16(p.mutable_data() + kOffUpper, 96);
  EXPECT_EQ(p.HeapFreeSpace(), 0u);
}

TEST(HeapPageTest, TheLastLinePointerCanBeTheFreeOne) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(24);
  for (int i = 1; i <= 291; ++i) ASSERT_EQ(*p.AddItem(ByteView(t)), i);
  p.MarkUnused(291);
  EXPECT_EQ(p.HeapFreeSpace(), 16u);
}

TEST(HeapPageTest, ThreeRowsOf2100BytesPerPage) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(2100);
  EXPECT_EQ(*p.AddItem(ByteView(t)), 1);
  EXPECT_EQ(*p.AddItem(ByteView(t)), 2);
  EXPECT_EQ(*p.AddItem(ByteView(t)), 3);
  EXPECT_EQ(*p.AddItem(ByteView(t)), kInvalidOffsetNumber);
  EXPECT_EQ(p.HeapFreeSpace(), 8192u - 24 - 3 * 4 - 3 * 2104 - 4);
}

TEST(HeapPageTest, AddItemRejectsBadSizesAndPointers) {
  HeapPage p;
  EXPECT_TRUE(p.AddItem(ByteView()).status().IsInvalidArgument());
  std::vector<uint8_t> big(8161, 0);
  EXPECT_TRUE(p.AddItem(ByteView(big)).status().IsInvalidArgument());
  StoreLE16(p.mutable_data() + kOffLower, 9000);
  std::vector<uint8_t> t = TupleOfLength(24);
  EXPECT_EQ(p.AddItem(ByteView(t)).status().message(), "corrupted page pointers");
}

TEST(HeapPageTest, GetItemChecks) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(24);
  ASSERT_EQ(*p.AddItem(ByteView(t)), 1);
  EXPECT_EQ(p.GetItem(2).status().message(), "line pointer out of range");
  EXPECT_EQ(p.GetItem(0).status().message(), "line pointer out of range");
  p.MarkDead(1);
  EXPECT_EQ(p.GetItem(1).status().message(), "line pointer not normal");
  p.SetItemId(1, ItemId{8190, LpFlags::kNormal, 24});
  EXPECT_EQ(p.GetItem(1).status().message(), "item outside page");
}

TEST(ChecksumTest, OnlyOfA8192BytePage) {  // a precondition, asserted (no NDEBUG in tests)
  const std::vector<uint8_t> short_page(kPageSize - 8, 0);
  EXPECT_DEATH((void)PageChecksum(ByteView(short_page), 0), "kPageSize");
}

TEST(ChecksumTest, NeverZeroAndDependsOnBlockAndChecksumFieldIgnored) {
  HeapPage p;
  const uint16_t c0 = PageChecksum(p.bytes(), 0);
  EXPECT_NE(c0, 0);
  EXPECT_NE(PageChecksum(p.bytes(), 1), c0);
  p.SetChecksum(0);
  EXPECT_EQ(p.checksum(), c0);
  EXPECT_EQ(PageChecksum(p.bytes(), 0), c0);  // pd_checksum counts as zero
}

TEST(VerifyTest, AllZeroPageIsNew) {
  StatusOr<HeapPage> p = HeapPage::FromBytes(ByteView(std::vector<uint8_t>(kPageSize, 0)));
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(Checks(*p).empty());
}

TEST(VerifyTest, EveryFlagBitButTheThreeKnownOnesIsReported) {
  for (int bit = 0; bit < 16; ++bit) {
    HeapPage p;
    StoreLE16(p.mutable_data() + kOffFlags, static_cast<uint16_t>(1u << bit));
    const std::vector<std::string> want = (1u << bit) & kValidFlagBits
                                              ? std::vector<std::string>{}
                                              : std::vector<std::string>{"0: unknown flag bits"};
    EXPECT_EQ(Checks(p), want) << "pd_flags bit " << bit;
  }
}

TEST(VerifyTest, HeaderProblems) {
  HeapPage p;
  StoreLE16(p.mutable_data() + kOffPageSizeVersion, 0x2005);
  StoreLE16(p.mutable_data() + kOffFlags, 0x10);
  EXPECT_EQ(Checks(p),
            (std::vector<std::string>{"0: bad page size or version", "0: unknown flag bits"}));
  HeapPage q;
  StoreLE16(q.mutable_data() + kOffUpper, 20);
  EXPECT_EQ(Checks(q), (std::vector<std::string>{"0: corrupted page pointers"}));
  for (const auto& [upper, special] : {std::pair{8200, 8192}, std::pair{8184, 8176}}) {
    HeapPage u;  // pd_upper past pd_special
    StoreLE16(u.mutable_data() + kOffUpper, static_cast<uint16_t>(upper));
    StoreLE16(u.mutable_data() + kOffSpecial, static_cast<uint16_t>(special));
    EXPECT_EQ(Checks(u), (std::vector<std::string>{"0: corrupted page pointers"}))
        << "pd_upper " << upper << ", pd_special " << special;
  }
  HeapPage r;
  StoreLE16(r.mutable_data() + kOffSpecial, 8188);
  StoreLE16(r.mutable_data() + kOffUpper, 8188);
  StoreLE16(r.mutable_data() + kOffLower, 26);
  EXPECT_EQ(Checks(r), (std::vector<std::string>{"0: pd_special not maxaligned",
                                                 "0: heap page has special space",
                                                 "0: pd_lower not at a line pointer boundary"}));
}

TEST(VerifyTest, ChecksumMismatchOnlyWhenExpected) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  ASSERT_EQ(*p.AddItem(ByteView(t)), 1);
  p.SetChecksum(0);
  VerifyOptions o;
  o.expect_checksum = true;
  EXPECT_TRUE(Checks(p, o).empty());
  p.mutable_data()[8000] ^= 1;
  ASSERT_EQ(Checks(p, o).size(), 1u);
  EXPECT_EQ(Checks(p, o)[0].rfind("0: checksum mismatch", 0), 0u);
  EXPECT_TRUE(Checks(p).empty());
}

TEST(VerifyTest, LinePointerProblems) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(p.AddItem(ByteView(t)).ok());
  p.SetItemId(1, ItemId{100, LpFlags::kUnused, 0});
  p.SetItemId(2, ItemId{3, LpFlags::kRedirect, 4});
  p.SetItemId(3, ItemId{9, LpFlags::kRedirect, 0});
  p.SetItemId(4, ItemId{static_cast<uint16_t>(p.GetItemId(4).off + 4), LpFlags::kNormal, 40});
  p.SetItemId(5, ItemId{8184, LpFlags::kNormal, 40});
  p.SetItemId(6, ItemId{8192 - 48, LpFlags::kNormal, 0});
  EXPECT_EQ(Checks(p), (std::vector<std::string>{
                           "1: unused line pointer has storage",
                           "2: redirect has length",
                           "2: redirect to a line pointer that is not normal",
                           "3: redirect target out of range",
                           "4: item not maxaligned",
                           "5: item past pd_special",
                           "6: normal line pointer has no length",
                       }));
}

TEST(VerifyTest, ItemBelowPdUpper) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  ASSERT_EQ(*p.AddItem(ByteView(t)), 1);
  ASSERT_EQ(*p.AddItem(ByteView(t)), 2);
  // Item 2 moved into the free space between pd_lower and pd_upper; item 1 dead with storage there.
  const uint16_t below = static_cast<uint16_t>(p.upper() - 48);
  p.SetItemId(2, ItemId{below, LpFlags::kNormal, 40});
  p.SetItemId(1, ItemId{static_cast<uint16_t>(below - 48), LpFlags::kDead, 40});
  EXPECT_EQ(Checks(p),
            (std::vector<std::string>{"1: item below pd_upper", "2: item below pd_upper"}));
}

TEST(VerifyTest, TooManyLinePointers) {
  HeapPage p;  // 292 unused line pointers: one more than MaxHeapTuplesPerPage
  StoreLE16(p.mutable_data() + kOffLower,
            kPageHeaderSize + (kMaxHeapTuplesPerPage + 1) * kItemIdSize);
  EXPECT_EQ(Checks(p), (std::vector<std::string>{"0: too many line pointers"}));
  StoreLE16(p.mutable_data() + kOffLower, kPageHeaderSize + kMaxHeapTuplesPerPage * kItemIdSize);
  EXPECT_TRUE(Checks(p).empty());
}

TEST(VerifyTest, PageOfAnotherSize) {
  const std::vector<uint8_t> short_page(kPageSize - 1, 0);
  const std::vector<PageProblem> problems = VerifyHeapPage(ByteView(short_page), 0);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].lp, 0);
  EXPECT_EQ(problems[0].attnum, -1);
  EXPECT_EQ(problems[0].check, "page is not 8192 bytes");
}

TEST(VerifyTest, DeadLinePointerWithStorageIsCheckedToo) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  ASSERT_EQ(*p.AddItem(ByteView(t)), 1);
  p.SetItemId(1, ItemId{8184, LpFlags::kDead, 40});
  EXPECT_EQ(Checks(p), (std::vector<std::string>{"1: item past pd_special"}));
  p.SetItemId(1, ItemId{0, LpFlags::kDead, 0});  // dead without storage: fine
  EXPECT_TRUE(Checks(p).empty());
}

TEST(VerifyTest, OverlappingItems) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(p.AddItem(ByteView(t)).ok());
  p.SetItemId(2, ItemId{static_cast<uint16_t>(p.GetItemId(1).off - 8), LpFlags::kNormal, 40});
  // Item 2 starts 8 bytes before item 1, so its header is read from the wrong bytes too.
  EXPECT_EQ(Checks(p), (std::vector<std::string>{"2: tuple: t_hoff mismatch",
                                                 "1: item overlaps line pointer 2"}));
}

TEST(VerifyTest, TupleProblemsNamedWithTheirLinePointer) {
  HeapPage p;
  std::vector<uint8_t> t = TupleOfLength(40);
  t[tuple::kOffHoff] = 32;
  ASSERT_EQ(*p.AddItem(ByteView(t)), 1);
  EXPECT_EQ(Checks(p), (std::vector<std::string>{"1: tuple: t_hoff mismatch"}));
  // amcheck's "line pointer length is less than the minimum tuple header size": under 24 bytes.
  for (size_t len : {10, 23}) {
    std::vector<uint8_t> short_item(len, 0);
    HeapPage q;
    ASSERT_EQ(*q.AddItem(ByteView(short_item)), 1);
    EXPECT_EQ(Checks(q), (std::vector<std::string>{"1: item shorter than a tuple header"}));
  }
  // Given a descriptor, the deform checks: two int8 columns do not fit in 12 bytes of data.
  HeapPage r;
  std::vector<uint8_t> two = TupleOfLength(36);
  two[tuple::kOffInfomask2] = 2;
  ASSERT_EQ(*r.AddItem(ByteView(two)), 1);
  StatusOr<tuple::TupleDesc> desc = tuple::TupleDesc::FromSchema("int8,int8");
  ASSERT_TRUE(desc.ok());
  VerifyOptions o;
  o.desc = &*desc;
  const std::vector<PageProblem> problems = VerifyHeapPage(r.bytes(), 0, o);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].lp, 1);
  EXPECT_EQ(problems[0].attnum, 1);  // the second column is the one that does not fit
  EXPECT_EQ(problems[0].check, "tuple: attribute extends past end of tuple");
  EXPECT_TRUE(Checks(r).empty());  // the header alone is fine
}

// amcheck's tuple and attribute checks, each on a page of one tuple (int4, text) whose text is a
// TOAST pointer, damaged one way: the finding, its line pointer and its attribute.
TEST(VerifyTest, AmcheckTupleChecksOnAPage) {
  const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema("int4,text");
  const std::vector<uint8_t> id = {1, 0, 0, 0};
  const std::vector<uint8_t> pointer = tuple::MakeToastPointer(5004, 3000, 0, 77, 99);
  const std::vector<uint8_t> good = *tuple::FormHeapTuple(desc, {ByteView(id), ByteView(pointer)});
  const size_t ptr = 24 + 4;  // the pointer follows the int4 (no alignment for a 1B_E varlena)
  struct Case {
    const char* check;
    int attnum;
    std::function<void(std::vector<uint8_t>*)> damage;
  };
  const std::vector<Case> cases = {
      {"tuple: t_hoff beyond end of tuple", -1,
       [](std::vector<uint8_t>* t) {  // 200 attributes with a bitmap: t_hoff 48 > 46 bytes
         StoreLE16(t->data() + tuple::kOffInfomask2, 200);
         StoreLE16(t->data() + tuple::kOffInfomask,
                   LoadLE16(t->data() + tuple::kOffInfomask) | tuple::kHasNull);
         (*t)[tuple::kOffHoff] = 48;
       }},
      {"tuple: natts exceeds descriptor", -1,
       [](std::vector<uint8_t>* t) { StoreLE16(t->data() + tuple::kOffInfomask2, 3); }},
      {"tuple: attribute extends past end of tuple", 0,
       [](std::vector<uint8_t>* t) { t->resize(26); }},
      {"tuple: varlena extends past end of tuple", 1,
       [](std::vector<uint8_t>* t) { t->resize(40); }},
      {"tuple: unexpected toast tag", 1, [&](std::vector<uint8_t>* t) { (*t)[ptr + 1] = 3; }},
      {"tuple: toast raw size out of range", 1,
       [&](std::vector<uint8_t>* t) { StoreLE32(t->data() + ptr + 2, 0x7FFFFFF0); }},
      {"tuple: invalid compression method", 1,
       [&](std::vector<uint8_t>* t) { StoreLE32(t->data() + ptr + 6, 3000 | 2u << 30); }},
      {"tuple: external value without HEAP_HASEXTERNAL", 1,
       [](std::vector<uint8_t>* t) {
         StoreLE16(t->data() + tuple::kOffInfomask,
                   LoadLE16(t->data() + tuple::kOffInfomask) & ~tuple::kHasExternal);
       }},
  };
  VerifyOptions o;
  o.desc = &desc;
  HeapPage clean;
  ASSERT_TRUE(clean.AddItem(ByteView(good)).ok());
  EXPECT_TRUE(VerifyHeapPage(clean.bytes(), 0, o).empty());
  for (const Case& c : cases) {
    std::vector<uint8_t> t = good;
    c.damage(&t);
    HeapPage p;
    ASSERT_TRUE(p.AddItem(ByteView(t)).ok()) << c.check;
    const std::vector<PageProblem> problems = VerifyHeapPage(p.bytes(), 0, o);
    ASSERT_EQ(problems.size(), 1u) << c.check;
    EXPECT_EQ(problems[0].lp, 1);
    EXPECT_EQ(problems[0].attnum, c.attnum) << c.check;
    EXPECT_EQ(problems[0].check, c.check);
  }
}

TEST(RelationFillerTest, InsertExtendsWhenFull) {
  RelationFiller f(true);
  std::vector<uint8_t> t = TupleOfLength(2100);
  std::vector<Tid> tids;
  for (int i = 0; i < 7; ++i) tids.push_back(*f.Insert(ByteView(t)));
  EXPECT_EQ(f.pages(), 3u);
  EXPECT_EQ(tids[3], (Tid{1, 1}));
  EXPECT_EQ(tids[6], (Tid{2, 1}));
  for (size_t b = 0; b < f.pages(); ++b) {
    EXPECT_TRUE(VerifyHeapPage(f.page_images()[b].bytes(), b).empty());
  }
}

TEST(RelationFillerTest, RefusesEmptyAndOversizedTuplesAndUnknownTids) {
  RelationFiller f(true);
  const std::vector<uint8_t> empty, too_big = TupleOfLength(tuple::kMaxHeapTupleSize + 1);
  const std::vector<uint8_t> largest = TupleOfLength(tuple::kMaxHeapTupleSize);
  EXPECT_TRUE(f.Insert(ByteView(empty)).status().IsInvalidArgument());
  EXPECT_TRUE(f.Insert(ByteView(too_big)).status().IsInvalidArgument());
  const Tid a = *f.Insert(ByteView(largest));
  EXPECT_EQ(a, (Tid{0, 1}));
  EXPECT_FALSE(a == (Tid{0, 2}));
  EXPECT_FALSE(a == (Tid{1, 1}));
  EXPECT_TRUE(f.Update(a, ByteView(empty)).status().IsInvalidArgument());
  EXPECT_TRUE(f.Update(a, ByteView(too_big)).status().IsInvalidArgument());
  // Block 1 (one past the last), offset 0, and offset 2 (one past the last) were never returned.
  for (const Tid& unknown : {Tid{1, 1}, Tid{0, 0}, Tid{0, 2}}) {
    EXPECT_TRUE(f.Update(unknown, ByteView(largest)).status().IsInvalidArgument())
        << unknown.block << "," << unknown.offset;
  }
  EXPECT_EQ(f.pages(), 1u);  // nothing was placed
  EXPECT_EQ(*f.Update(a, ByteView(largest)), (Tid{1, 1}));
}

TEST(RelationFillerTest, UpdateStaysOnPageThenTargetThenExtends) {
  RelationFiller f(true);
  std::vector<uint8_t> small = TupleOfLength(1500), big = TupleOfLength(3000);
  Tid a = *f.Insert(ByteView(small));                     // page 0: 1504 bytes used
  Tid b = *f.Insert(ByteView(big));                       // page 0: 4504
  EXPECT_EQ(*f.Update(a, ByteView(big)), (Tid{0, 3}));    // fits on page 0
  EXPECT_EQ(*f.Update(b, ByteView(big)), (Tid{1, 1}));    // no room: extends
  EXPECT_EQ(*f.Update(a, ByteView(small)), (Tid{1, 2}));  // page 0 full: goes to the target
  EXPECT_EQ(f.pages(), 2u);
  // Page 0 has 648 bytes free: a small new version stays there although the target is page 1.
  std::vector<uint8_t> tiny = TupleOfLength(100);
  EXPECT_EQ(*f.Update(Tid{0, 3}, ByteView(tiny)), (Tid{0, 4}));
  EXPECT_TRUE(f.Update(Tid{5, 1}, ByteView(small)).status().IsInvalidArgument());
  // The old version points at its new one.
  ByteView old = *f.page_images()[0].GetItem(2);
  const tuple::TupleHeader old_header = tuple::ReadRawTupleHeader(old);
  EXPECT_EQ(old_header.ctid_block, 1u);
  EXPECT_EQ(old_header.ctid_offset, 1);
  EXPECT_EQ(old_header.xmax, 1u);  // deleted by transaction 1
  // A version never updated points at itself and has no xmax.
  const tuple::TupleHeader live = tuple::ReadRawTupleHeader(*f.page_images()[1].GetItem(1));
  EXPECT_EQ(live.ctid_block, 1u);
  EXPECT_EQ(live.ctid_offset, 1);
  EXPECT_EQ(live.xmax, 0u);
}

}  // namespace
}  // namespace pgstore::page
