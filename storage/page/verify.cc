#include "storage/page/verify.h"

#include <algorithm>

#include "storage/page/checksum.h"
#include "storage/page/heap_page.h"
#include "storage/page/hot_chain_checks.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"

namespace pgstore::page {
namespace {

bool AllZero(ByteView page) {
  return std::all_of(page.begin(), page.end(), [](uint8_t b) { return b == 0; });
}

class Verifier {
 public:
  Verifier(const HeapPage& page, uint32_t blkno, const VerifyOptions& options)
      : page_(page), blkno_(blkno), options_(options) {}

  std::vector<PageProblem> Run() {
    if (AllZero(page_.bytes())) return {};
    const bool pointers_ok = CheckHeader();
    if (pointers_ok) CheckLinePointers();
    return std::move(problems_);
  }

 private:
  void Report(int lp, std::string check, int attnum = -1) {
    problems_.push_back({lp, attnum, std::move(check)});
  }

  // Returns whether the line pointer array can be walked.
  bool CheckHeader() {
    if (LoadLE16(page_.bytes().data + kOffPageSizeVersion) != kPageSizeVersion) {
      Report(0, "bad page size or version");
    }
    if (page_.flags() & ~kValidFlagBits) Report(0, "unknown flag bits");
    if (options_.expect_checksum) {
      const uint16_t want = PageChecksum(page_.bytes(), blkno_);
      if (want != page_.checksum()) {
        Report(0, "checksum mismatch (calculated " + std::to_string(want) + ", stored " +
                      std::to_string(page_.checksum()) + ")");
      }
    }
    const size_t lower = page_.lower(), upper = page_.upper(), special = page_.special();
    if (!(kPageHeaderSize <= lower && lower <= upper && upper <= special && special <= kPageSize)) {
      Report(0, "corrupted page pointers");
      return false;
    }
    if (special != MaxAlign(special)) Report(0, "pd_special not maxaligned");
    if (special != kPageSize) Report(0, "heap page has special space");
    if ((lower - kPageHeaderSize) % kItemIdSize != 0) {
      Report(0, "pd_lower not at a line pointer boundary");
    }
    if (page_.MaxOffset() > kMaxHeapTuplesPerPage) Report(0, "too many line pointers");
    return true;
  }

  void CheckLinePointers() {
    struct Extent {
      size_t start, end;  // [start, end)
      int lp;
      bool operator<(const Extent& o) const { return start < o.start; }
    };
    std::vector<Extent> extents;  // every item with storage
    std::vector<ChainLink> links(page_.MaxOffset());
    for (int lp = 1; lp <= page_.MaxOffset(); ++lp) {
      const ItemId id = page_.GetItemId(lp);
      switch (id.flags) {
        case LpFlags::kUnused:
          if (id.len != 0 || id.off != 0) Report(lp, "unused line pointer has storage");
          break;
        case LpFlags::kRedirect:
          if (CheckRedirect(lp, id)) {
            links[lp - 1].kind = ChainLink::Kind::kRedirect;
            links[lp - 1].redirect_target = id.off;
          }
          break;
        case LpFlags::kDead:
          if (id.len != 0 && CheckStorage(lp, id))
            extents.push_back({id.off, static_cast<size_t>(id.off) + id.len, lp});
          break;
        case LpFlags::kNormal:
          if (id.len == 0) {
            Report(lp, "normal line pointer has no length");
          } else if (CheckStorage(lp, id)) {
            extents.push_back({id.off, static_cast<size_t>(id.off) + id.len, lp});
            if (options_.items_are_tuples) CheckTupleItem(lp, id, &links[lp - 1]);
          }
          break;
      }
    }
    std::stable_sort(extents.begin(), extents.end());
    for (size_t i = 1; i < extents.size(); ++i) {
      if (extents[i].start < extents[i - 1].end) {
        Report(extents[i].lp, "item overlaps line pointer " + std::to_string(extents[i - 1].lp));
      }
    }
    CheckUpdateChains(links, blkno_, &problems_);
  }

  // Whether the redirect leads to a normal line pointer; reports why not.
  bool CheckRedirect(int lp, ItemId id) {
    if (id.len != 0) Report(lp, "redirect has length");
    if (id.off < kFirstOffsetNumber || id.off > page_.MaxOffset()) {
      Report(lp, "redirect target out of range");
      return false;
    }
    if (page_.GetItemId(id.off).flags != LpFlags::kNormal) {
      Report(lp, "redirect to a line pointer that is not normal");
      return false;
    }
    return true;
  }

  // Whether the item lies inside the tuple space; reports why not.
  bool CheckStorage(int lp, ItemId id) {
    bool ok = true;
    if (id.off != MaxAlign(id.off)) {
      Report(lp, "item not maxaligned");
      ok = false;
    }
    if (id.off < page_.upper()) {
      Report(lp, "item below pd_upper");
      ok = false;
    }
    if (static_cast<size_t>(id.off) + id.len > page_.special()) {
      Report(lp, "item past pd_special");
      ok = false;
    }
    return ok;
  }

  // A normal item inside the tuple space: a tuple if it is at least a header long, then checked
  // and linked for the update chain checks.
  void CheckTupleItem(int lp, ItemId id, ChainLink* link) {
    if (id.len < tuple::kMinHeapTupleSize) {
      Report(lp, "item shorter than a tuple header");
      return;
    }
    link->kind = ChainLink::Kind::kTuple;
    link->header = CheckTuple(lp, id);
  }

  // Checks the tuple at a normal item of at least 24 bytes; returns its fixed header fields.
  tuple::TupleHeader CheckTuple(int lp, ItemId id) {
    const ByteView tuple = page_.bytes().Sub(id.off, id.len);
    const tuple::TupleHeader header = tuple::ReadRawTupleHeader(tuple);
    CheckTupleHeaderBits(header, lp, &problems_);
    int attnum = -1;  // set only when an attribute is at fault
    std::vector<tuple::Datum> values;
    // Deforming checks the header first, as ParseTupleHeader does alone.
    const Status s = options_.desc != nullptr
                         ? tuple::DeformHeapTupleInto(tuple, *options_.desc, &values, &attnum)
                         : tuple::ParseTupleHeader(tuple).status();
    if (!s.ok()) Report(lp, "tuple: " + s.message(), attnum);
    if (options_.toast != nullptr && TupleIsLive(header)) CheckToastPointers(lp, values);
    return header;
  }

  // The TOAST pointers among a tuple's deformed values (those before a deform failure too).
  void CheckToastPointers(int lp, const std::vector<tuple::Datum>& values) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i] || values[i]->size == 0 ||
          tuple::VarlenaFormOf((*values[i])[0]) != tuple::VarlenaForm::kExternal ||
          options_.desc->attr(static_cast<int>(i)).attlen != -1) {
        continue;
      }
      const tuple::ToastPointer ptr = tuple::ReadToastPointer(*values[i]);
      for (std::string& finding : options_.toast->CheckValue(ptr.valueid, ptr.extsize)) {
        Report(lp, std::move(finding), static_cast<int>(i));
      }
    }
  }

  const HeapPage& page_;
  const uint32_t blkno_;
  const VerifyOptions& options_;
  std::vector<PageProblem> problems_;
};

}  // namespace

std::vector<PageProblem> VerifyHeapPage(ByteView page, uint32_t blkno,
                                        const VerifyOptions& options) {
  StatusOr<HeapPage> p = HeapPage::FromBytes(page);
  if (!p.ok()) return {{0, -1, "page is not 8192 bytes"}};
  return Verifier(*p, blkno, options).Run();
}

}  // namespace pgstore::page
