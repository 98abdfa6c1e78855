#include "storage/undo/xact_table.h"

#include <string>

namespace pgstore::undo {

Status XactTable::Begin(uint32_t xid) {
  if (xid == 0) return Status::InvalidArgument("transaction id 0 is invalid");
  if (states_.count(xid)) {
    return Status::InvalidArgument("transaction " + std::to_string(xid) + " already exists");
  }
  states_[xid] = State::kInProgress;
  running_.insert(xid);
  return Status::Ok();
}

Status XactTable::Commit(uint32_t xid) {
  if (!IsInProgress(xid)) {
    return Status::InvalidArgument("transaction " + std::to_string(xid) + " is not running");
  }
  states_[xid] = State::kCommitted;
  running_.erase(xid);
  return Status::Ok();
}

bool XactTable::IsInProgress(uint32_t xid) const {
  const auto it = states_.find(xid);
  return it != states_.end() && it->second == State::kInProgress;
}

bool XactTable::IsCommitted(uint32_t xid) const {
  const auto it = states_.find(xid);
  return it != states_.end() && it->second == State::kCommitted;
}

bool XactTable::AllVisible(uint32_t xid) const {
  return IsCommitted(xid) && (running_.empty() || *running_.begin() > xid);
}

XactTable XactTable::AfterCrash() const {
  XactTable t;
  for (const auto& [xid, state] : states_) {
    if (state != State::kInProgress) t.states_[xid] = state;
  }
  return t;
}

}  // namespace pgstore::undo
