// Every finding of hot_chain_checks.h on a hand-made page, and the chains PostgreSQL really makes
// (a HOT update, a pruned chain behind a redirect) without one.
#include "storage/page/hot_chain_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/page/heap_page.h"
#include "storage/page/verify.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::page {
namespace {

using namespace tuple;  // infomask bits

// The header fields a test sets; the rest of the 32-byte tuple is one int8 of zeros.
struct Fields {
  uint32_t xmin = 100;
  uint32_t xmax = 0;
  uint16_t infomask = kXminCommitted | kXmaxInvalid;
  uint16_t infomask2 = 0;  // natts is always 1
  uint16_t ctid_offset = 0;
};

class ChainPage {
 public:
  // Adds a tuple at the next line pointer; its t_ctid names line pointer ctid_offset (itself if
  // 0) on block 0.
  int Add(const Fields& f) {
    std::vector<uint8_t> t(32, 0);
    StoreLE32(t.data() + kOffXmin, f.xmin);
    StoreLE32(t.data() + kOffXmax, f.xmax);
    const int lp = page_.MaxOffset() + 1;
    StoreLE16(t.data() + kOffCtid + 4, static_cast<uint16_t>(f.ctid_offset ? f.ctid_offset : lp));
    StoreLE16(t.data() + kOffInfomask2, static_cast<uint16_t>(f.infomask2 | 1));
    StoreLE16(t.data() + kOffInfomask, f.infomask);
    t[kOffHoff] = 24;
    EXPECT_EQ(*page_.AddItem(ByteView(t)), lp);
    return lp;
  }
  void Redirect(int lp, int target) { page_.SetRedirect(lp, target); }

  std::vector<std::string> Findings() const {
    std::vector<std::string> out;
    for (const PageProblem& p : VerifyHeapPage(page_.bytes(), 0)) {
      // A finding about a tuple as a whole names no attribute (attnum -1); anything else shows.
      const std::string attnum = p.attnum == -1 ? "" : " attnum " + std::to_string(p.attnum);
      out.push_back(std::to_string(p.lp) + attnum + ": " + p.check);
    }
    return out;
  }

 private:
  HeapPage page_;
};

using Findings = std::vector<std::string>;

// The old version of a HOT update by xid 200, and the new heap-only version it points to.
Fields HotUpdated(uint16_t next) { return {100, 200, kXminCommitted, kHotUpdated, next}; }
Fields HeapOnlyVersion() { return {200, 0, kXmaxInvalid | kUpdated, kHeapOnlyTuple, 0}; }

TEST(HotChainChecksTest, ChainsPostgresMakesAreClean) {
  ChainPage hot;
  hot.Add(HotUpdated(2));
  hot.Add(HeapOnlyVersion());
  EXPECT_EQ(hot.Findings(), Findings{});

  ChainPage pruned;  // pruning left the root as a redirect to the surviving version
  pruned.Add(HotUpdated(2));
  pruned.Add(HeapOnlyVersion());
  pruned.Redirect(1, 2);
  EXPECT_EQ(pruned.Findings(), Findings{});

  ChainPage cold;  // a non-HOT update to another line pointer: neither flag
  cold.Add({100, 200, kXminCommitted, 0, 2});
  cold.Add({200, 0, kXmaxInvalid | kUpdated, 0, 0});
  EXPECT_EQ(cold.Findings(), Findings{});
}

TEST(HotChainChecksTest, MultixactXmaxMarkedCommitted) {
  ChainPage p;
  p.Add({100, 5, kXminCommitted | kXmaxIsMulti | kXmaxCommitted, 0, 0});
  EXPECT_EQ(p.Findings(), Findings{"1: multixact xmax marked committed"});
}

TEST(HotChainChecksTest, XmaxHintedBothCommittedAndInvalid) {
  ChainPage p;
  p.Add({100, 200, kXminCommitted | kXmaxCommitted | kXmaxInvalid, 0, 0});
  EXPECT_EQ(p.Findings(), Findings{"1: xmax hinted both committed and invalid"});
}

TEST(HotChainChecksTest, MultixactXmaxIsZero) {
  ChainPage p;
  p.Add({100, 0, kXminCommitted | kXmaxIsMulti, 0, 0});
  EXPECT_EQ(p.Findings(), Findings{"1: multixact xmax is 0"});
  ChainPage aborted;  // amcheck does not look at the xmax of a tuple whose inserter aborted
  aborted.Add({100, 0, kXminInvalid | kXmaxIsMulti, 0, 0});
  EXPECT_EQ(aborted.Findings(), Findings{});
}

TEST(HotChainChecksTest, MovedTupleWithoutVacuumFullXid) {
  ChainPage p;  // t_cid, which holds xvac in a moved tuple, is 0 in these tuples
  p.Add({100, 0, kXmaxInvalid | kMovedIn, 0, 0});
  p.Add({100, 0, kXmaxInvalid | kMovedOff, 0, 0});
  p.Add({100, 0, kXminCommitted | kXmaxInvalid | kMovedIn, 0, 0});  // xmin settled: not looked at
  EXPECT_EQ(p.Findings(), (Findings{"1: moved tuple without a VACUUM FULL xid",
                                    "2: moved tuple without a VACUUM FULL xid"}));
}

TEST(HotChainChecksTest, HotUpdatedTupleWithXmaxZero) {
  ChainPage p;
  p.Add({100, 0, kXminCommitted, kHotUpdated, 0});
  EXPECT_EQ(p.Findings(), Findings{"1: HOT-updated tuple has xmax 0"});
  ChainPage hinted;  // HeapTupleHeaderIsHotUpdated is false once xmax is hinted invalid
  hinted.Add({100, 0, kXminCommitted | kXmaxInvalid, kHotUpdated, 0});
  EXPECT_EQ(hinted.Findings(), Findings{});
}

TEST(HotChainChecksTest, HeapOnlyTupleNotMarkedUpdated) {
  ChainPage p;
  p.Add(HotUpdated(2));
  p.Add({200, 0, kXmaxInvalid, kHeapOnlyTuple, 0});
  EXPECT_EQ(p.Findings(), Findings{"2: heap-only tuple not marked HEAP_UPDATED"});
}

TEST(HotChainChecksTest, RedirectToATupleThatIsNotHeapOnly) {
  ChainPage p;
  p.Add({100, 0, kXminCommitted | kXmaxInvalid, 0, 0});
  p.Add({100, 0, kXminCommitted | kXmaxInvalid, 0, 0});
  p.Redirect(1, 2);
  EXPECT_EQ(p.Findings(), Findings{"1: redirect to a tuple that is not heap-only"});
}

// A redirect to another redirect is reported as such and links no chain: the chain behind the
// second redirect has that one predecessor only.
TEST(HotChainChecksTest, RedirectToARedirectLinksNothing) {
  ChainPage p;
  p.Add(HotUpdated(3));
  p.Add(HotUpdated(3));
  p.Add(HeapOnlyVersion());
  p.Redirect(1, 2);
  p.Redirect(2, 3);
  EXPECT_EQ(p.Findings(), Findings{"1: redirect to a line pointer that is not normal"});
}

TEST(HotChainChecksTest, TwoChainsMeet) {
  ChainPage redirects;
  redirects.Add(HotUpdated(3));
  redirects.Add(HotUpdated(3));
  redirects.Add(HeapOnlyVersion());
  redirects.Redirect(1, 3);
  redirects.Redirect(2, 3);
  EXPECT_EQ(redirects.Findings(), Findings{"2: line pointer 3 has two predecessors (also 1)"});

  ChainPage tuples;
  tuples.Add(HotUpdated(3));
  tuples.Add(HotUpdated(3));
  tuples.Add(HeapOnlyVersion());
  EXPECT_EQ(tuples.Findings(), Findings{"2: line pointer 3 has two predecessors (also 1)"});
}

// A successor may sit before its predecessor (a line pointer freed by pruning is reused): here
// both successors are line pointer 1.
TEST(HotChainChecksTest, ChainsMeetAtLinePointerOne) {
  ChainPage p;
  p.Add(HeapOnlyVersion());
  p.Add(HotUpdated(1));
  p.Add(HotUpdated(1));
  EXPECT_EQ(p.Findings(), Findings{"3: line pointer 1 has two predecessors (also 2)"});
}

TEST(HotChainChecksTest, UpdateKindAndSuccessorDisagree) {
  ChainPage cold_to_heap_only;
  cold_to_heap_only.Add({100, 200, kXminCommitted, 0, 2});
  cold_to_heap_only.Add(HeapOnlyVersion());
  EXPECT_EQ(cold_to_heap_only.Findings(),
            Findings{"1: non-HOT update produced a heap-only tuple at line pointer 2"});

  ChainPage hot_to_regular;
  hot_to_regular.Add(HotUpdated(2));
  hot_to_regular.Add({200, 0, kXmaxInvalid | kUpdated, 0, 0});
  EXPECT_EQ(hot_to_regular.Findings(),
            Findings{"1: HOT update produced a tuple that is not heap-only at line pointer 2"});

  ChainPage other_xid;  // t_ctid names a tuple another transaction made: no chain, no finding
  other_xid.Add({100, 300, kXminCommitted, 0, 2});
  other_xid.Add({200, 0, kXmaxInvalid | kUpdated, 0, 0});
  EXPECT_EQ(other_xid.Findings(), Findings{});
}

TEST(HotChainChecksTest, HeapOnlyTupleAtTheRootOfAChain) {
  ChainPage p;
  p.Add(HeapOnlyVersion());
  EXPECT_EQ(p.Findings(), Findings{"1: heap-only tuple is the root of a chain"});

  ChainPage aborted;  // an aborted HOT update's new version, its root already pruned away
  aborted.Add({200, 0, kXminInvalid | kXmaxInvalid | kUpdated, kHeapOnlyTuple, 0});
  EXPECT_EQ(aborted.Findings(), Findings{});

  ChainPage invalid_xmin;  // amcheck skips a tuple whose xmin is invalid
  invalid_xmin.Add({0, 0, kXmaxInvalid | kUpdated, kHeapOnlyTuple, 0});
  EXPECT_EQ(invalid_xmin.Findings(), Findings{});
}

TEST(HotChainChecksTest, MultixactUpdaterIsNotResolvedButCoversItsSuccessor) {
  ChainPage p;  // xmax 7 is a multixact whose updating member only the SLRU knows
  p.Add({100, 7, kXminCommitted | kXmaxIsMulti, kHotUpdated, 2});
  p.Add(HeapOnlyVersion());
  EXPECT_EQ(p.Findings(), Findings{});
  TupleHeader h;
  h.xmax = 7;
  h.infomask = kXmaxIsMulti;
  EXPECT_EQ(h.updating_xid(), std::nullopt);
  h.infomask = kXmaxIsMulti | kXmaxLockOnly;  // a locker only: the raw xmax is what counts
  EXPECT_EQ(h.updating_xid(), 7u);
}

}  // namespace
}  // namespace pgstore::page
