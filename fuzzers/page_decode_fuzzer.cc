// Property: an arbitrary 8 KB page (the input's front, zero-padded) never crashes the page
// verifier, item access, free-space accounting, PageAddItem, the pageinspect listings or the TOAST
// relation reader, and they agree: the checksum equals PostgreSQL's pg_checksum_page; the verifier
// reports exactly the findings of the verifier model (properties/models/page_verify_model.h, with
// PostgreSQL's checksum and the tuple model's verdict on each tuple), in order; one items line per
// line pointer (starting with its block, number, lp_off, lp_flags and lp_len), one split line or
// error per normal line pointer; the page read as a TOAST relation adds only TOAST findings when
// the verifier checks the tuples' pointers against it; and a page the verifier accepts still
// verifies after PageAddItem (its page and line pointer checks: the new item is no tuple) and
// returns the added item.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tuple_fuzz_params.h"
#include "properties/generators/tuple_model_adapter.h"
#include "properties/models/page_verify_model.h"
#include "properties/models/tuple_model.h"
#include "properties/oracles/postgres_checksum.h"
#include "storage/page/checksum.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/page/verify.h"
#include "tools/pageinspect/pageinspect.h"

namespace {
// One page plus a descriptor tail; more is ignored.
constexpr size_t kMaxInput = pgstore::page::kPageSize + 512;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  // The page is the first 8192 bytes; a descriptor for split and deform comes from what follows.
  const size_t page_bytes = size < page::kPageSize ? size : page::kPageSize;
  fuzz::TailSplitter t(data + page_bytes, size - page_bytes);
  const tuple::TupleDesc desc = fuzz::TakeTupleDesc(&t);
  std::vector<uint8_t> bytes(page::kPageSize, 0);
  std::memcpy(bytes.data(), data, page_bytes);
  auto exact = fuzz::ExactCopy(ByteView(bytes));
  const ByteView view(exact.get(), page::kPageSize);

  FUZZ_ASSERT(page::PageChecksum(view, 0) == PgChecksumPage(bytes.data(), 0));

  page::VerifyOptions o;
  o.expect_checksum = true;
  o.desc = &desc;
  const std::vector<page::PageProblem> problems = page::VerifyHeapPage(view, 0, o);
  const std::vector<models::ModelAttr> attrs = generators::ModelAttrsOf(desc);
  const std::vector<models::ModelFinding> expected = models::ModelVerifyPage(
      bytes, PgChecksumPage(bytes.data(), 0), [&](const std::vector<uint8_t>& t) {
        return models::ModelDeformTuple(attrs, t).has_value();
      });
  std::vector<models::ModelFinding> got;
  for (const page::PageProblem& p : problems) {  // the model names tuple and checksum findings
    std::string check = p.check;                 // by their first words
    if (check.rfind("tuple: ", 0) == 0) check = "tuple";
    if (check.rfind("checksum mismatch", 0) == 0) check = "checksum mismatch";
    got.emplace_back(p.lp, check);
  }
  if (got != expected) {
    for (const auto& [lp, check] : got)
      std::fprintf(stderr, "verifier: %d %s\n", lp, check.c_str());
    for (const auto& [lp, check] : expected)
      std::fprintf(stderr, "model:    %d %s\n", lp, check.c_str());
    FUZZ_ASSERT(got == expected);
  }
  page::HeapPage pg = *page::HeapPage::FromBytes(view);

  // The page read as a TOAST relation's (at most one chunk per line pointer), and the tuples'
  // TOAST pointers checked against those chunks: that adds only findings about an attribute's
  // TOAST value, to those the page had.
  page::ToastRelation toast;
  toast.AddPage(view);
  FUZZ_ASSERT(toast.chunks() <= static_cast<size_t>(pg.MaxOffset()));
  page::VerifyOptions with_toast = o;
  with_toast.toast = &toast;
  size_t matched = 0;
  for (const page::PageProblem& p : page::VerifyHeapPage(view, 0, with_toast)) {
    if (matched < problems.size() && p.lp == problems[matched].lp &&
        p.check == problems[matched].check) {
      ++matched;
      continue;
    }
    FUZZ_ASSERT(p.attnum >= 0 && p.check.rfind("toast value ", 0) == 0);
  }
  FUZZ_ASSERT(matched == problems.size());

  pageinspect::Report items, split;
  pageinspect::HeapPageItems(view, 0, &items);
  pageinspect::TupleDataSplit(view, 0, desc, &split);
  FUZZ_ASSERT(items.lines.size() == static_cast<size_t>(pg.MaxOffset()));
  size_t normal = 0;
  for (int lp = 1; lp <= pg.MaxOffset(); ++lp) {
    const page::ItemId id = pg.GetItemId(lp);
    // heap_page_items' first columns: blkno lp lp_off lp_flags lp_len.
    const std::string head = "0\t" + std::to_string(lp) + "\t" + std::to_string(id.off) + "\t" +
                             std::to_string(static_cast<int>(id.flags)) + "\t" +
                             std::to_string(id.len) + "\t";
    FUZZ_ASSERT(items.lines[lp - 1].rfind(head, 0) == 0);
    normal += id.flags == page::LpFlags::kNormal;
    StatusOr<ByteView> item = pg.GetItem(lp);
    if (item.ok()) FUZZ_ASSERT(item->data >= pg.bytes().data && item->end() <= pg.bytes().end());
  }
  FUZZ_ASSERT(split.lines.size() + split.errors.size() == normal);
  (void)pg.HeapFreeSpace();

  const std::vector<uint8_t> item = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                     13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  StatusOr<uint16_t> off = pg.AddItem(ByteView(item));
  if (problems.empty() && off.ok() && *off != page::kInvalidOffsetNumber) {
    StatusOr<ByteView> back = pg.GetItem(*off);
    FUZZ_ASSERT(back.ok() && back->ToVector() == item);
    page::VerifyOptions structural;  // the new item is no tuple and the checksum is now stale
    structural.items_are_tuples = false;
    FUZZ_ASSERT(page::VerifyHeapPage(pg.bytes(), 0, structural).empty());
  }
  return 0;
}
