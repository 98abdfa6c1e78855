// The checks of a heap page that relate its tuples to each other and to their transactions, as
// amcheck's verify_heapam makes them without a commit log (PostgreSQL 16's update chain checks
// included), each a named finding at the line pointer it concerns:
//
// Per tuple (header bits; the tuple needs only its 23 fixed bytes):
//   "multixact xmax marked committed"       HEAP_XMAX_IS_MULTI with HEAP_XMAX_COMMITTED
//   "xmax hinted both committed and invalid"   (amcheck 15: "tuple marked as datum tuple")
//   "multixact xmax is 0"                   HEAP_XMAX_IS_MULTI, xmax 0, xmin not hinted aborted
//   "moved tuple without a VACUUM FULL xid"   HEAP_MOVED_OFF or _IN, xmin hinted neither
//                                           committed nor aborted, t_cid (xvac) 0
//   "HOT-updated tuple has xmax 0"          HEAP_HOT_UPDATED (and neither xmax nor xmin hinted
//                                           invalid) while the updating xid is 0
//   "heap-only tuple not marked HEAP_UPDATED"
// Per update chain on the page. A line pointer's successor is a redirect's target, or the
// line pointer a tuple's t_ctid names on this block when the tuple's updating xid equals that
// tuple's xmin (never a redirect);
//   "redirect to a tuple that is not heap-only"
//   "line pointer N has two predecessors (also P)"   two chains meet: N is the successor of P and
//                                           of the line pointer reported
//   "non-HOT update produced a heap-only tuple at line pointer N"
//   "HOT update produced a tuple that is not heap-only at line pointer N"
//   "heap-only tuple is the root of a chain"   a heap-only tuple that is no line pointer's
//                                           successor, unless its xmin is 0 or hinted aborted
//
// Without the commit log and the multixact SLRU: the updating xid of a tuple whose xmax is a
// multixact that is not lock-only is unknown: such a tuple is spared the xmax-0 check and links
// to no successor, but the tuple its t_ctid names is not reported as a heap-only root; an xmin
// counts as aborted only by its hint bits (amcheck asks the commit log).
#ifndef PGSTORE_STORAGE_PAGE_HOT_CHAIN_CHECKS_H_
#define PGSTORE_STORAGE_PAGE_HOT_CHAIN_CHECKS_H_

#include <cstdint>
#include <vector>

#include "storage/page/verify.h"
#include "storage/tuple/tuple_header.h"

namespace pgstore::page {

// A line pointer as these checks see it: a redirect to a normal line pointer, a normal item that
// passed the line pointer checks (with its fixed header fields), or anything else.
struct ChainLink {
  enum class Kind { kOther, kRedirect, kTuple } kind = Kind::kOther;
  int redirect_target = 0;    // kRedirect
  tuple::TupleHeader header;  // kTuple: ReadRawTupleHeader
};

// The per-tuple header findings for the tuple at `lp`, appended to *out.
void CheckTupleHeaderBits(const tuple::TupleHeader& h, int lp, std::vector<PageProblem>* out);

// The update chain findings of a page, appended to *out. links[lp - 1] is line pointer lp.
void CheckUpdateChains(const std::vector<ChainLink>& links, uint32_t blkno,
                       std::vector<PageProblem>* out);

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_HOT_CHAIN_CHECKS_H_
