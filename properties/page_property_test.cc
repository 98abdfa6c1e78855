// Laws of storage/page, checked against the page model (properties/models/page_model) and
// PostgreSQL 15's own pg_checksum_page (properties/oracles/postgres_checksum).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "properties/generators/page_corruptions.h"
#include "properties/generators/tuple_generators.h"
#include "properties/models/page_model.h"
#include "properties/oracles/postgres_checksum.h"
#include "storage/page/checksum.h"
#include "storage/page/heap_page.h"
#include "storage/page/relation_filler.h"
#include "storage/page/verify.h"
#include "storage/tuple/form.h"

namespace pgstore::page {
namespace {

rc::Gen<size_t> genItemLength() {
  return rc::gen::oneOf(rc::gen::element<size_t>(24, 25, 31, 32, 33, 2032, 2033, 2100, 2712, 8160),
                        rc::gen::inRange<size_t>(24, 200), rc::gen::inRange<size_t>(24, 3000));
}

// A well-formed tuple of `len` bytes (no attributes; the rest is ignored by the header checks).
std::vector<uint8_t> RawTuple(size_t len, uint8_t fill) {
  std::vector<uint8_t> t(len, fill);
  for (size_t i = 0; i < tuple::kHeaderSize; ++i) t[i] = 0;
  t[tuple::kOffHoff] = 24;
  t[23] = 0;
  return t;
}

// Rows of one generated table placed by the filler, some updated.
RelationFiller FillRelation(const tuple::TupleDesc& desc, int rows, int updates) {
  RelationFiller filler(true);
  std::vector<Tid> tids;
  for (int i = 0; i < rows; ++i) {
    tuple::FormOptions o;
    o.trailing_nulls =
        *rc::gen::element(tuple::TrailingNulls::kOff, tuple::TrailingNulls::kKeepBitmap,
                          tuple::TrailingNulls::kDropBitmap);
    const generators::OwnedRow row = generators::GenRow(desc);
    StatusOr<std::vector<uint8_t>> t = tuple::FormHeapTuple(desc, tuple::DatumsOf(row), o);
    RC_ASSERT(t.ok());
    if (t->size() > tuple::kMaxHeapTupleSize) continue;
    if (i < updates && !tids.empty()) {
      const Tid old = tids[*rc::gen::inRange<size_t>(0, tids.size())];
      RC_ASSERT(filler.Update(old, ByteView(*t)).ok());
    } else {
      tids.push_back(*filler.Insert(ByteView(*t)));
    }
  }
  return filler;
}

RC_GTEST_PROP(PageProperty, ReturnsExactlyTheTuplesAddedWithModelFreeSpace, ()) {
  HeapPage page;
  models::ModelPage model;
  std::vector<std::vector<uint8_t>> added;
  const int attempts = *rc::gen::inRange(1, 400);
  for (int i = 0; i < attempts; ++i) {
    const std::vector<uint8_t> t = RawTuple(*genItemLength(), static_cast<uint8_t>(i));
    const bool fits = model.Fits(t.size());
    StatusOr<uint16_t> off = page.AddItem(ByteView(t));
    RC_ASSERT(off.ok());
    RC_ASSERT((*off != kInvalidOffsetNumber) == fits);
    if (fits) {
      added.push_back(t);
      RC_ASSERT(*off == added.size());
      RC_ASSERT(model.Add(t.size()) == added.size());
    }
    RC_ASSERT(page.HeapFreeSpace() == model.HeapFreeSpace());
  }
  RC_ASSERT(page.MaxOffset() == static_cast<int>(added.size()));
  for (size_t i = 0; i < added.size(); ++i) {
    StatusOr<ByteView> item = page.GetItem(static_cast<int>(i + 1));
    RC_ASSERT(item.ok());
    RC_ASSERT(item->ToVector() == added[i]);
  }
}

RC_GTEST_PROP(PageProperty, ChecksumMatchesPostgres, ()) {
  std::vector<uint8_t> bytes = *rc::gen::oneOf(
      rc::gen::container<std::vector<uint8_t>>(kPageSize, rc::gen::arbitrary<uint8_t>()),
      rc::gen::just(std::vector<uint8_t>(kPageSize, 0)));
  const uint32_t blkno =
      *rc::gen::oneOf(rc::gen::arbitrary<uint32_t>(), rc::gen::element<uint32_t>(0, 1, 0xFFFFFFFE));
  const uint16_t ours = PageChecksum(ByteView(bytes), blkno);
  RC_ASSERT(ours == PgChecksumPage(bytes.data(), blkno));
}

// A single-bit flip anywhere in a page (outside pd_checksum) changes the 32-bit hash. The stored
// 16-bit checksum is that hash % 65535 + 1, so about 1 flip in 65535 keeps it: PostgreSQL's
// algorithm cannot do better (measured: 24 of 1,310,400 flips over 20 pages; the next test
// bounds that rate).
RC_GTEST_PROP(PageProperty, ChecksumHashChangesOnEverySingleBitFlip, ()) {
  const tuple::TupleDesc desc = *generators::genTupleDesc();
  RelationFiller filler = FillRelation(desc, *rc::gen::inRange(1, 40), 0);
  RC_PRE(filler.pages() > 0);  // every row was too large for a page
  std::vector<uint8_t> bytes = filler.page_images()[0].bytes().ToVector();
  const uint32_t blkno = *rc::gen::arbitrary<uint32_t>();
  const uint32_t hash = PageChecksumUnreduced(ByteView(bytes), blkno);
  for (int flip = 0; flip < 256; ++flip) {
    size_t bit = *rc::gen::inRange<size_t>(0, (kPageSize - 2) * 8);
    if (bit >= kOffChecksum * 8) bit += 16;
    bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    RC_ASSERT(PageChecksumUnreduced(ByteView(bytes), blkno) != hash);
    bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
}

// Every one of the 65,520 single-bit flips of a page: at most 8 keep the 16-bit checksum
// (expected about 1 per page).
TEST(PageChecksum, AlmostEverySingleBitFlipChangesTheChecksum) {
  for (uint32_t blkno : {0u, 1u, 12345u}) {
    std::vector<uint8_t> bytes(kPageSize);
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    const uint16_t checksum = PageChecksum(ByteView(bytes), blkno);
    int unchanged = 0;
    for (size_t bit = 0; bit < kPageSize * 8; ++bit) {
      if (bit / 8 == kOffChecksum || bit / 8 == kOffChecksum + 1) continue;
      bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      unchanged += PageChecksum(ByteView(bytes), blkno) == checksum;
      bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
    EXPECT_LE(unchanged, 8) << "block " << blkno;
  }
}

RC_GTEST_PROP(PageProperty, VerifierAcceptsEveryPageTheFillerWrites, ()) {
  const tuple::TupleDesc desc = *generators::genTupleDesc();
  const int rows = *rc::gen::inRange(1, 300);
  RelationFiller filler = FillRelation(desc, rows, *rc::gen::inRange(0, rows));
  VerifyOptions o;
  o.desc = &desc;
  o.expect_checksum = true;
  for (size_t b = 0; b < filler.pages(); ++b) {
    HeapPage page = filler.page_images()[b];
    page.SetChecksum(static_cast<uint32_t>(b));
    const std::vector<PageProblem> problems = VerifyHeapPage(page.bytes(), b, o);
    RC_ASSERT(problems.empty());
  }
}

RC_GTEST_PROP(PageProperty, VerifierReportsEachCorruption, ()) {
  HeapPage page;
  const int items = *rc::gen::inRange(2, 60);
  for (int i = 0; i < items; ++i) {
    RC_ASSERT(*page.AddItem(ByteView(RawTuple(*rc::gen::inRange<size_t>(24, 120), 0))) != 0);
  }
  page.SetChecksum(7);
  const generators::PageCorruption kind = *rc::gen::elementOf(generators::AllPageCorruptions());
  const std::string expected = generators::CorruptPage(kind, &page);
  VerifyOptions o;
  o.expect_checksum = true;
  const std::vector<PageProblem> problems = VerifyHeapPage(page.bytes(), 7, o);
  RC_TAG(expected);
  RC_ASSERT(std::any_of(problems.begin(), problems.end(),
                        [&](const PageProblem& p) { return p.check.rfind(expected, 0) == 0; }));
}

RC_GTEST_PROP(FillerProperty, PlacementMatchesModel, ()) {
  RelationFiller filler;
  models::ModelRelation model;
  std::vector<Tid> tids;
  const int ops = *rc::gen::inRange(1, 2000);
  for (int i = 0; i < ops; ++i) {
    const std::vector<uint8_t> t = RawTuple(*genItemLength(), 0);
    if (!tids.empty() && *rc::gen::arbitrary<bool>()) {
      const Tid old = tids[*rc::gen::inRange<size_t>(0, tids.size())];
      const Tid now = *filler.Update(old, ByteView(t));
      const auto want = model.Update(old.block, t.size());
      RC_ASSERT(now.block == want.first && now.offset == want.second);
    } else {
      const Tid now = *filler.Insert(ByteView(t));
      const auto want = model.Insert(t.size());
      RC_ASSERT(now.block == want.first && now.offset == want.second);
      tids.push_back(now);
    }
  }
  RC_ASSERT(filler.pages() == model.pages());
}

}  // namespace
}  // namespace pgstore::page
