// Stateful laws of zheap-style pages with undo (storage/undo): any sequence of begin, insert,
// update (in place and not), delete, lock, commit, abort and crash leaves the page's visible
// tuples equal to the model (properties/models/undo_model.h); an abort (or a crash) leaves every
// tuple the transaction touched byte-identical to its state before the transaction's first change
// of it (but for the transaction slot number, which a slot's reuse may have frozen to 0); a
// second rollback changes nothing; operations are Busy exactly when the model says so.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <map>
#include <memory>
#include <set>
#include <ostream>
#include <vector>

#include "properties/models/undo_model.h"
#include "storage/undo/undo_log.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"

namespace pgstore::undo {
namespace {

using models::ZheapModel;
using Bytes = std::vector<uint8_t>;

constexpr uint32_t kReloid = 16384;
constexpr uint32_t kBlock = 7;

struct Sut {
  explicit Sut(int slots) : log(1), table(ZheapPage(slots), kReloid, kBlock, &log, &xacts) {}
  UndoLog log;
  XactTable xacts;
  ZheapTable table;
  // Per running transaction: each touched tuple's full bytes before its first change, and the
  // offsets it inserted.
  std::map<uint32_t, std::map<uint16_t, Bytes>> before;
  std::map<uint32_t, std::set<uint16_t>> inserted;
};

using Command = rc::state::Command<ZheapModel, Sut>;

Bytes WithoutSlot(Bytes t) {
  SetTupleSlot(t.data(), 0);
  return t;
}

void CheckVisible(const ZheapModel& m, const Sut& s) {
  std::map<uint16_t, Bytes> got;
  for (const auto& [off, t] : s.table.VisibleTuples()) got[off] = ZheapModel::Normalized(t);
  RC_ASSERT(got == m.visible());
}

// Records a tuple's bytes before xid first changes it.
void RememberBefore(Sut& s, uint32_t xid, uint16_t off) {
  if (s.before[xid].count(off) || s.inserted[xid].count(off)) return;
  StatusOr<ByteView> t = s.table.page().Tuple(off);
  if (t.ok()) s.before[xid][off] = t->ToVector();
}

// After xid's rollback: every tuple it touched is back, byte for byte but the slot, and every
// one it inserted is gone (an unused line pointer).
void CheckRestored(const Sut& s, uint32_t xid) {
  if (const auto it = s.before.find(xid); it != s.before.end()) {
    for (const auto& [off, bytes] : it->second) {
      StatusOr<ByteView> t = s.table.page().Tuple(off);
      RC_ASSERT(t.ok());
      RC_ASSERT(WithoutSlot(t->ToVector()) == WithoutSlot(bytes));
    }
  }
  if (const auto it = s.inserted.find(xid); it != s.inserted.end()) {
    for (uint16_t off : it->second) {
      RC_ASSERT(s.table.page().page().GetItemId(off).flags == page::LpFlags::kUnused);
    }
  }
}

void Forget(Sut& s, uint32_t xid) {
  s.before.erase(xid);
  s.inserted.erase(xid);
}

Bytes GenTuple(size_t min_data = 0) {
  const size_t n = *rc::gen::inRange<size_t>(min_data, 40);
  Bytes t = {static_cast<uint8_t>(*rc::gen::inRange(1, 8)), 0, 0x02, 0, 5};
  const Bytes data = *rc::gen::container<Bytes>(n, rc::gen::arbitrary<uint8_t>());
  t.insert(t.end(), data.begin(), data.end());
  return t;
}

uint32_t PickRunning(const ZheapModel& m) {
  RC_PRE(!m.Running().empty());
  return *rc::gen::elementOf(m.Running());
}

uint16_t PickVisible(const ZheapModel& m) {
  RC_PRE(!m.visible().empty());
  std::vector<uint16_t> offs;
  for (const auto& [off, _] : m.visible()) offs.push_back(off);
  return *rc::gen::elementOf(offs);
}

struct Begin : Command {
  void apply(ZheapModel& m) const override { m.Begin(); }
  void run(const ZheapModel& m, Sut& s) const override {
    ZheapModel next = m;
    const uint32_t xid = next.Begin();
    RC_ASSERT(s.xacts.Begin(xid).ok());
  }
  void show(std::ostream& os) const override { os << "Begin"; }
};

struct Insert : Command {
  uint32_t xid;
  Bytes tuple;
  explicit Insert(const ZheapModel& m) : xid(PickRunning(m)), tuple(GenTuple()) {}
  void apply(ZheapModel& m) const override { m.Insert(xid, tuple); }
  void run(const ZheapModel& m, Sut& s) const override {
    ZheapModel next = m;
    const uint16_t expect_off = next.NextOffset();
    const bool busy = next.Insert(xid, tuple) == ZheapModel::Outcome::kBusy;
    StatusOr<uint16_t> off = s.table.Insert(xid, ByteView(tuple));
    RC_ASSERT(off.status().IsBusy() == busy);
    if (!busy) {
      RC_ASSERT(off.ok());
      RC_ASSERT(*off == expect_off);
      s.inserted[xid].insert(*off);
    }
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Insert(" << xid << ", " << tuple.size() << " B)"; }
};

struct Update : Command {
  uint32_t xid;
  uint16_t off;
  Bytes tuple;
  explicit Update(const ZheapModel& m) : xid(PickRunning(m)), off(PickVisible(m)), tuple(GenTuple()) {}
  void apply(ZheapModel& m) const override {
    uint16_t n;
    m.Update(xid, off, tuple, &n);
  }
  void run(const ZheapModel& m, Sut& s) const override {
    ZheapModel next = m;
    uint16_t expect_off = 0;
    const bool busy = next.Update(xid, off, tuple, &expect_off) == ZheapModel::Outcome::kBusy;
    if (!busy) RememberBefore(s, xid, off);
    StatusOr<uint16_t> got = s.table.Update(xid, off, ByteView(tuple));
    RC_ASSERT(got.status().IsBusy() == busy);
    if (!busy) {
      RC_ASSERT(got.ok());
      RC_ASSERT(*got == expect_off);
      if (*got != off) s.inserted[xid].insert(*got);
    }
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override {
    os << "Update(" << xid << ", " << off << ", " << tuple.size() << " B)";
  }
};

struct Delete : Command {
  uint32_t xid;
  uint16_t off;
  explicit Delete(const ZheapModel& m) : xid(PickRunning(m)), off(PickVisible(m)) {}
  void apply(ZheapModel& m) const override { m.Delete(xid, off); }
  void run(const ZheapModel& m, Sut& s) const override {
    ZheapModel next = m;
    const bool busy = next.Delete(xid, off) == ZheapModel::Outcome::kBusy;
    if (!busy) RememberBefore(s, xid, off);
    const Status st = s.table.Delete(xid, off);
    RC_ASSERT(st.IsBusy() == busy);
    RC_ASSERT(busy || st.ok());
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Delete(" << xid << ", " << off << ")"; }
};

struct Lock : Command {
  uint32_t xid;
  uint16_t off;
  explicit Lock(const ZheapModel& m) : xid(PickRunning(m)), off(PickVisible(m)) {}
  void apply(ZheapModel& m) const override { m.Lock(xid, off); }
  void run(const ZheapModel& m, Sut& s) const override {
    ZheapModel next = m;
    const bool busy = next.Lock(xid, off) == ZheapModel::Outcome::kBusy;
    if (!busy) RememberBefore(s, xid, off);
    const Status st = s.table.Lock(xid, off);
    RC_ASSERT(st.IsBusy() == busy);
    RC_ASSERT(busy || st.ok());
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Lock(" << xid << ", " << off << ")"; }
};

struct Commit : Command {
  uint32_t xid;
  explicit Commit(const ZheapModel& m) : xid(PickRunning(m)) {}
  void apply(ZheapModel& m) const override { m.Commit(xid); }
  void run(const ZheapModel& m, Sut& s) const override {
    RC_ASSERT(s.table.Commit(xid).ok());
    Forget(s, xid);
    ZheapModel next = m;
    next.Commit(xid);
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Commit(" << xid << ")"; }
};

struct Abort : Command {
  uint32_t xid;
  explicit Abort(const ZheapModel& m) : xid(PickRunning(m)) {}
  void apply(ZheapModel& m) const override { m.Abort(xid); }
  void run(const ZheapModel& m, Sut& s) const override {
    RC_ASSERT(s.table.Abort(xid).ok());
    CheckRestored(s, xid);
    const Bytes page(s.table.page().bytes().begin(), s.table.page().bytes().end());
    RC_ASSERT(s.table.Rollback(xid).ok());  // idempotent
    RC_ASSERT(Bytes(s.table.page().bytes().begin(), s.table.page().bytes().end()) == page);
    Forget(s, xid);
    ZheapModel next = m;
    next.Abort(xid);
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Abort(" << xid << ")"; }
};

// Drops all in-memory state: the table is rebuilt from the page bytes, the undo log's pages and
// the commit log, and recovery rolls back every transaction that did not commit.
struct Crash : Command {
  explicit Crash(const ZheapModel&) {}
  void apply(ZheapModel& m) const override {
    for (uint32_t xid : m.Running()) m.Abort(xid);
  }
  void run(const ZheapModel& m, Sut& s) const override {
    StatusOr<UndoLog> log = UndoLog::FromPages(1, s.log.Pages());
    RC_ASSERT(log.ok());
    StatusOr<ZheapPage> page = ZheapPage::FromBytes(s.table.page().bytes(), s.table.page().num_slots());
    RC_ASSERT(page.ok());
    s.log = std::move(*log);
    s.xacts = s.xacts.AfterCrash();
    s.table = ZheapTable(std::move(*page), kReloid, kBlock, &s.log, &s.xacts);
    RC_ASSERT(s.table.RecoverAfterCrash().ok());
    for (uint32_t xid : m.Running()) CheckRestored(s, xid);
    s.before.clear();
    s.inserted.clear();
    ZheapModel next = m;
    apply(next);
    CheckVisible(next, s);
  }
  void show(std::ostream& os) const override { os << "Crash"; }
};

RC_GTEST_PROP(UndoProperty, OperationSequencesMatchTheModel, ()) {
  const int slots = *rc::gen::element(2, 4, 8, 16, 31);
  RC_TAG(slots);
  Sut sut(slots);
  rc::state::check(ZheapModel(slots), sut,
                   rc::state::gen::execOneOfWithArgs<Begin, Begin, Insert, Insert, Update, Update,
                                                     Delete, Lock, Commit, Abort, Crash>());
}

}  // namespace
}  // namespace pgstore::undo
