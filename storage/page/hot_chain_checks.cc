#include "storage/page/hot_chain_checks.h"

#include <optional>
#include <string>

namespace pgstore::page {
namespace {

using tuple::TupleHeader;

bool HeapOnly(const TupleHeader& h) { return h.infomask2 & tuple::kHeapOnlyTuple; }
bool HotUpdated(const TupleHeader& h) { return h.infomask2 & tuple::kHotUpdated; }

PageProblem TwoPredecessors(int lp, int next, int earlier) {
  return {lp, -1,
          "line pointer " + std::to_string(next) + " has two predecessors (also " +
              std::to_string(earlier) + ")"};
}

}  // namespace

void CheckTupleHeaderBits(const TupleHeader& h, int lp, std::vector<PageProblem>* out) {
  if ((h.infomask & tuple::kXmaxIsMulti) && (h.infomask & tuple::kXmaxCommitted)) {
    out->push_back({lp, -1, "multixact xmax marked committed"});
  }
  if ((h.infomask & tuple::kXmaxCommitted) && (h.infomask & tuple::kXmaxInvalid)) {
    out->push_back({lp, -1, "xmax hinted both committed and invalid"});
  }
  if ((h.infomask & tuple::kXmaxIsMulti) && h.xmax == 0 && !h.xmin_hinted_aborted()) {
    out->push_back({lp, -1, "multixact xmax is 0"});
  }
  if ((h.infomask & (tuple::kMovedOff | tuple::kMovedIn)) &&
      !(h.infomask & (tuple::kXminCommitted | tuple::kXminInvalid)) && h.cid == 0) {
    out->push_back({lp, -1, "moved tuple without a VACUUM FULL xid"});
  }
  const bool hot_updated =
      HotUpdated(h) && !(h.infomask & tuple::kXmaxInvalid) && !h.xmin_hinted_aborted();
  if (hot_updated && h.updating_xid() == 0u)
    out->push_back({lp, -1, "HOT-updated tuple has xmax 0"});
  if (HeapOnly(h) && !(h.infomask & tuple::kUpdated)) {
    out->push_back({lp, -1, "heap-only tuple not marked HEAP_UPDATED"});
  }
}

void CheckUpdateChains(const std::vector<ChainLink>& links, uint32_t blkno,
                       std::vector<PageProblem>* out) {
  using Kind = ChainLink::Kind;
  const int n = static_cast<int>(links.size());
  auto link = [&](int lp) -> const ChainLink& { return links[lp - 1]; };
  std::vector<int> predecessor(n + 1, 0);
  std::vector<bool> maybe_successor(n + 1, false);
  for (int lp = 1; lp <= n; ++lp) {
    const ChainLink& cur = link(lp);
    if (cur.kind == Kind::kRedirect) {
      const int next = cur.redirect_target;
      if (link(next).kind != Kind::kTuple) continue;
      if (!HeapOnly(link(next).header)) {
        out->push_back({lp, -1, "redirect to a tuple that is not heap-only"});
      }
      if (predecessor[next] != 0) {
        out->push_back(TwoPredecessors(lp, next, predecessor[next]));
        continue;
      }
      predecessor[next] = lp;
      continue;
    }
    if (cur.kind != Kind::kTuple) continue;
    const TupleHeader& h = cur.header;
    const int next = h.ctid_offset;
    if (h.ctid_block != blkno || next == lp || next < 1 || next > n) continue;
    if (link(next).kind != Kind::kTuple) continue;
    const std::optional<uint32_t> xmax = h.updating_xid();
    if (!xmax) {  // a multixact updater: `next` may be its successor, nothing more is known
      maybe_successor[next] = true;
      continue;
    }
    if (*xmax == 0 || *xmax != link(next).header.xmin) continue;
    if (predecessor[next] != 0) {
      out->push_back(TwoPredecessors(lp, next, predecessor[next]));
      continue;
    }
    predecessor[next] = lp;
    const bool next_heap_only = HeapOnly(link(next).header);
    if (!HotUpdated(h) && next_heap_only) {
      out->push_back(
          {lp, -1,
           "non-HOT update produced a heap-only tuple at line pointer " + std::to_string(next)});
    }
    if (HotUpdated(h) && !next_heap_only) {
      out->push_back({lp, -1,
                      "HOT update produced a tuple that is not heap-only at line pointer " +
                          std::to_string(next)});
    }
  }
  for (int lp = 1; lp <= n; ++lp) {
    const ChainLink& cur = link(lp);
    if (cur.kind != Kind::kTuple || predecessor[lp] != 0 || maybe_successor[lp]) continue;
    const TupleHeader& h = cur.header;
    if (h.xmin == 0 || h.xmin_hinted_aborted()) continue;
    if (HeapOnly(h)) out->push_back({lp, -1, "heap-only tuple is the root of a chain"});
  }
}

}  // namespace pgstore::page
