// A verifier for heap pages read from disk: reports every inconsistency it finds, each with the
// line pointer it concerns (0 for the page header), the attribute (amcheck's attnum, 0-based) when
// the finding is about one, and a short phrase naming the failed check.
//
// Page header: "bad page size or version", "unknown flag bits", "corrupted page pointers" (24 <=
// pd_lower <= pd_upper <= pd_special <= 8192), "pd_special not maxaligned", "heap page has special
// space", "pd_lower not at a line pointer boundary", "too many line pointers", "checksum mismatch"
// (only when checksums are expected), "page is not 8192 bytes". An all-zero page is a valid new
// page.
// Line pointers: "unused line pointer has storage", "redirect has length", "redirect target out
// of range", "redirect to a line pointer that is not normal", "normal line pointer has no length",
// "item not maxaligned", "item below pd_upper", "item past pd_special", "item shorter than a
// tuple header" (a normal item under MAXALIGN(23) = 24 bytes), "item overlaps line pointer N".
// Tuples (normal items that pass those checks): the header bit checks of hot_chain_checks.h, then
// the tuple header checks (tuple_header.h) or, given a descriptor, the deform checks (deform.h),
// prefixed "tuple: " (with the attribute when one is at fault), and given a TOAST relation the
// checks of toast_relation.h for each TOAST pointer (with its attribute); then, for the whole
// page, the update chain checks of hot_chain_checks.h.
#ifndef PGSTORE_STORAGE_PAGE_VERIFY_H_
#define PGSTORE_STORAGE_PAGE_VERIFY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/page/toast_relation.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::page {

struct PageProblem {
  int lp = 0;         // line pointer (1-based), 0 for the page header
  int attnum = -1;    // attribute (0-based), -1 when the finding is not about one
  std::string check;  // the failed check
};

struct VerifyOptions {
  bool expect_checksum = false;            // data checksums enabled: pd_checksum must match
  const tuple::TupleDesc* desc = nullptr;  // if set, every normal tuple is deformed too
  // If set (with desc), every TOAST pointer of a live tuple (toast_relation.h) is checked
  // against the chunks of this TOAST relation.
  const ToastRelation* toast = nullptr;
  // False: the items are not heap tuples (a test's raw bytes): only the page header, the line
  // pointers and the overlaps are checked.
  bool items_are_tuples = true;
};

// A page of another size than kPageSize gets the one finding "page is not 8192 bytes".
std::vector<PageProblem> VerifyHeapPage(ByteView page, uint32_t blkno,
                                        const VerifyOptions& options = {});

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_VERIFY_H_
