// The commit log of pgstore's zheap-style tables: each transaction's state, the one thing besides
// the page and the undo log that survives a crash (XactTable::AfterCrash).
//
// A transaction is begun once (id 0 is invalid), then commits or aborts. It is all-visible once it
// committed and every transaction still running started after it: a slot it held may then be
// reused (zheap_table.h).
#ifndef PGSTORE_STORAGE_UNDO_XACT_TABLE_H_
#define PGSTORE_STORAGE_UNDO_XACT_TABLE_H_

#include <cstdint>
#include <map>
#include <set>

#include "storage/common/status.h"

namespace pgstore::undo {

class XactTable {
 public:
  enum class State { kInProgress, kCommitted, kAborted };
  // InvalidArgument if xid is 0 or already known.
  Status Begin(uint32_t xid);
  Status Commit(uint32_t xid);
  void MarkAborted(uint32_t xid) {
    states_[xid] = State::kAborted;
    running_.erase(xid);
  }
  bool IsInProgress(uint32_t xid) const;
  bool IsCommitted(uint32_t xid) const;
  bool AllVisible(uint32_t xid) const;
  // What survives a crash: committed and aborted transactions (running ones are forgotten, so
  // recovery treats them as aborted).
  XactTable AfterCrash() const;
  const std::map<uint32_t, State>& states() const { return states_; }

 private:
  std::map<uint32_t, State> states_;
  std::set<uint32_t> running_;  // the in-progress ones, for AllVisible
};

}  // namespace pgstore::undo

#endif  // PGSTORE_STORAGE_UNDO_XACT_TABLE_H_
