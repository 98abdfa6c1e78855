// Stateful laws of zheap-style pages with undo (storage/undo), as a RapidCheck state machine over
// begin, insert, update (in place and not), delete, lock, commit, abort and crash. After every
// command the table agrees with the model (properties/generators/undo_harness.h states exactly
// what is compared: Busy verdicts and offsets, visible tuples, byte-identical restoration after
// an abort or a crash, idempotent rollback).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <ostream>
#include <vector>

#include "properties/generators/undo_harness.h"
#include "properties/models/undo_model.h"

namespace pgstore::undo {
namespace {

using generators::UndoHarness;
using models::ZheapModel;
using Bytes = std::vector<uint8_t>;
using Command = rc::state::Command<ZheapModel, UndoHarness>;

Bytes GenTuple() {
  const size_t n = *rc::gen::inRange<size_t>(0, 40);
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

// run() applies the command to a copy of the model through the harness and asserts agreement.
#define UNDO_RUN(call)                                           \
  void run(const ZheapModel& m, UndoHarness& h) const override { \
    ZheapModel next = m;                                         \
    const std::string err = h.call;                              \
    RC_ASSERT(err == "");                                        \
  }

struct Begin : Command {
  void apply(ZheapModel& m) const override { m.Begin(); }
  UNDO_RUN(Begin(next))
  void show(std::ostream& os) const override { os << "Begin"; }
};

struct Insert : Command {
  uint32_t xid;
  Bytes tuple;
  explicit Insert(const ZheapModel& m) : xid(PickRunning(m)), tuple(GenTuple()) {}
  void apply(ZheapModel& m) const override { m.Insert(xid, tuple); }
  UNDO_RUN(Insert(next, xid, tuple))
  void show(std::ostream& os) const override {
    os << "Insert(" << xid << ", " << tuple.size() << " B)";
  }
};

struct Update : Command {
  uint32_t xid;
  uint16_t off;
  Bytes tuple;
  explicit Update(const ZheapModel& m)
      : xid(PickRunning(m)), off(PickVisible(m)), tuple(GenTuple()) {}
  void apply(ZheapModel& m) const override {
    uint16_t unused;
    m.Update(xid, off, tuple, &unused);
  }
  UNDO_RUN(Update(next, xid, off, tuple))
  void show(std::ostream& os) const override {
    os << "Update(" << xid << ", " << off << ", " << tuple.size() << " B)";
  }
};

struct Delete : Command {
  uint32_t xid;
  uint16_t off;
  explicit Delete(const ZheapModel& m) : xid(PickRunning(m)), off(PickVisible(m)) {}
  void apply(ZheapModel& m) const override { m.Delete(xid, off); }
  UNDO_RUN(Delete(next, xid, off))
  void show(std::ostream& os) const override { os << "Delete(" << xid << ", " << off << ")"; }
};

struct Lock : Command {
  uint32_t xid;
  uint16_t off;
  explicit Lock(const ZheapModel& m) : xid(PickRunning(m)), off(PickVisible(m)) {}
  void apply(ZheapModel& m) const override { m.Lock(xid, off); }
  UNDO_RUN(Lock(next, xid, off))
  void show(std::ostream& os) const override { os << "Lock(" << xid << ", " << off << ")"; }
};

struct Commit : Command {
  uint32_t xid;
  explicit Commit(const ZheapModel& m) : xid(PickRunning(m)) {}
  void apply(ZheapModel& m) const override { m.Commit(xid); }
  UNDO_RUN(Commit(next, xid))
  void show(std::ostream& os) const override { os << "Commit(" << xid << ")"; }
};

struct Abort : Command {
  uint32_t xid;
  explicit Abort(const ZheapModel& m) : xid(PickRunning(m)) {}
  void apply(ZheapModel& m) const override { m.Abort(xid); }
  UNDO_RUN(Abort(next, xid))
  void show(std::ostream& os) const override { os << "Abort(" << xid << ")"; }
};

struct Crash : Command {
  void apply(ZheapModel& m) const override {
    for (uint32_t xid : m.Running()) m.Abort(xid);
  }
  UNDO_RUN(Crash(next))
  void show(std::ostream& os) const override { os << "Crash"; }
};

RC_GTEST_PROP(UndoProperty, OperationSequencesMatchTheModel, ()) {
  // Two slots half the time: slot reuse, Busy and restores into reused slots happen most there.
  const int slots = *rc::gen::weightedElement<int>({{4, 2}, {1, 4}, {1, 8}, {1, 16}, {1, 31}});
  RC_TAG(slots);
  UndoHarness harness(slots);
  rc::state::check(ZheapModel(slots), harness,
                   rc::state::gen::execOneOfWithArgs<Begin, Begin, Insert, Insert, Update, Update,
                                                     Delete, Lock, Commit, Abort, Crash>());
}

}  // namespace
}  // namespace pgstore::undo
