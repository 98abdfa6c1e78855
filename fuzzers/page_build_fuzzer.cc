// Property: any sequence of page-building operations decoded from the input leaves pgstore's heap
// page and relation filler equal to the page model (properties/models/page_model.h), checked after
// every step: PageAddItem's offset number, pd_lower, pd_upper and PageGetHeapFreeSpace; the
// verifier's line pointer findings (only redirects can be wrong on such a page, and each must be
// reported with the right check) and every normal item's bytes after each line pointer change and
// at the end; and where INSERT and UPDATE put each tuple and how many pages the relation has.
//
// Operations (first byte's low 3 bits): 0-2 add an item (bit 3: 1..64 bytes, else 0..8200, so
// empty and oversized items are tried), 3 mark dead, 4 mark unused, 5 redirect to any of
// 0..MaxOffset+2, 6 filler INSERT, 7 filler UPDATE of an earlier TID.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/models/page_model.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/page/relation_filler.h"
#include "storage/page/verify.h"
#include "storage/tuple/heap_tuple_format.h"

namespace {

using namespace pgstore;
using LpState = models::ModelPage::State;

// Up to a few hundred operations: enough to fill a page with 291 line pointers.
constexpr size_t kMaxInput = 1024;

// Item bytes that differ per item and per position, so a misplaced copy shows.
std::vector<uint8_t> ItemBytes(size_t len, uint8_t seed) {
  std::vector<uint8_t> v(len);
  for (size_t i = 0; i < len; ++i) v[i] = static_cast<uint8_t>(seed + 7 * i);
  return v;
}

size_t TakeLength(fuzz::FrontReader* in, bool small) {
  return small ? 1 + in->U8() % 64 : in->U16() % 8201;
}

class PageCheck {
 public:
  void Add(size_t len, uint8_t seed) {
    const std::vector<uint8_t> item = ItemBytes(len, seed);
    StatusOr<uint16_t> off = page_.AddItem(ByteView(item));
    if (len == 0 || len > tuple::kMaxHeapTupleSize) {
      FUZZ_ASSERT(!off.ok() && off.status().IsInvalidArgument());
      return;
    }
    FUZZ_ASSERT(off.ok());
    FUZZ_ASSERT(*off == model_.Add(len));
    if (*off == page::kInvalidOffsetNumber) return;
    if (items_.size() < *off) items_.resize(*off);
    items_[*off - 1] = item;
  }
  void MarkDead(size_t off) {
    page_.MarkDead(static_cast<int>(off));
    model_.MarkDead(off);
  }
  void MarkUnused(size_t off) {
    page_.MarkUnused(static_cast<int>(off));
    model_.MarkUnused(off);
  }
  void SetRedirect(size_t off, size_t target) {
    page_.SetRedirect(static_cast<int>(off), static_cast<int>(target));
    model_.SetRedirect(off, target);
  }
  size_t line_pointers() const { return model_.line_pointers(); }

  // After every operation: the space accounting.
  void CheckSpace() const {
    FUZZ_ASSERT(static_cast<size_t>(page_.MaxOffset()) == model_.line_pointers());
    FUZZ_ASSERT(page_.lower() == model_.lower());
    FUZZ_ASSERT(page_.upper() == model_.upper());
    FUZZ_ASSERT(page_.HeapFreeSpace() == model_.HeapFreeSpace());
  }

  // After every line pointer change and at the end: items and the verifier's findings.
  void CheckContents() const {
    for (size_t off = 1; off <= model_.line_pointers(); ++off) {
      if (model_.state(off) != LpState::kNormal) continue;
      StatusOr<ByteView> item = page_.GetItem(static_cast<int>(off));
      FUZZ_ASSERT(item.ok() && item->ToVector() == items_[off - 1]);
    }
    // The items are no tuples: their tuple checks are not this target's business.
    page::VerifyOptions structural;
    structural.items_are_tuples = false;
    std::vector<std::pair<size_t, std::string>> found;
    for (const page::PageProblem& p : page::VerifyHeapPage(page_.bytes(), 0, structural)) {
      found.emplace_back(p.lp, p.check);
    }
    FUZZ_ASSERT(found == model_.ExpectedProblems());
  }

 private:
  page::HeapPage page_;
  models::ModelPage model_;
  std::vector<std::vector<uint8_t>> items_;  // by offset number - 1
};

class FillerCheck {
 public:
  void Insert(size_t len) {
    if (len == 0 || len > tuple::kMaxHeapTupleSize) return;
    StatusOr<page::Tid> tid = filler_.Insert(ByteView(ItemBytes(len, 0)));
    FUZZ_ASSERT(tid.ok());
    Expect(*tid, model_.Insert(len));
  }
  void Update(size_t which, size_t len) {
    if (tids_.empty() || len == 0 || len > tuple::kMaxHeapTupleSize) return;
    const page::Tid old = tids_[which % tids_.size()];
    StatusOr<page::Tid> tid = filler_.Update(old, ByteView(ItemBytes(len, 1)));
    FUZZ_ASSERT(tid.ok());
    Expect(*tid, model_.Update(old.block, len));
  }

 private:
  void Expect(page::Tid got, std::pair<size_t, size_t> want) {
    FUZZ_ASSERT(got.block == want.first && got.offset == want.second);
    FUZZ_ASSERT(filler_.pages() == model_.pages());
    tids_.push_back(got);
  }

  page::RelationFiller filler_;
  models::ModelRelation model_;
  std::vector<page::Tid> tids_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  fuzz::FrontReader in(data, size);
  PageCheck page;
  FillerCheck filler;
  while (!in.empty()) {
    const uint8_t op = in.U8();
    const bool small = (op & 8) != 0;
    const size_t lps = page.line_pointers();
    bool line_pointer_changed = true;
    switch (op & 7) {
      case 0:
      case 1:
      case 2:
        page.Add(TakeLength(&in, small), static_cast<uint8_t>(op >> 4));
        line_pointer_changed = false;
        break;
      case 3:
        if (lps > 0) page.MarkDead(1 + in.U16() % lps);
        break;
      case 4:
        if (lps > 0) page.MarkUnused(1 + in.U16() % lps);
        break;
      case 5:
        if (lps > 0) {
          const size_t off = 1 + in.U16() % lps;
          page.SetRedirect(off, in.U16() % (lps + 3));
        }
        break;
      case 6:
        filler.Insert(TakeLength(&in, small));
        line_pointer_changed = false;
        break;
      default: {
        const size_t which = in.U16();
        filler.Update(which, TakeLength(&in, small));
        line_pointer_changed = false;
        break;
      }
    }
    page.CheckSpace();
    if (line_pointer_changed) page.CheckContents();
  }
  page.CheckContents();
  return 0;
}
