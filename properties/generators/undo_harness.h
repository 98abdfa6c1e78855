// Drives storage/undo's zheap table and the model (properties/models/undo_model.h) through the
// same operations and compares them after each: the property test and the fuzz target share it.
// Each operation applies itself to the model (passed in, so that RapidCheck's state machine can
// keep its own copy) and to the table, and returns "" or a description of the first mismatch:
//   - Busy exactly when the model predicts it, the offsets the model predicts otherwise;
//   - the table's visible tuples equal the model's (slot and visibility bits aside);
//   - after an abort or a crash every tuple the transaction touched is byte for byte as before
//     its first change (but the slot number a slot's reuse may have frozen), every tuple it
//     inserted an unused line pointer, and a second rollback changes nothing.
#ifndef PGSTORE_PROPERTIES_GENERATORS_UNDO_HARNESS_H_
#define PGSTORE_PROPERTIES_GENERATORS_UNDO_HARNESS_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "properties/models/undo_model.h"
#include "storage/undo/undo_log.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"

namespace pgstore::generators {

class UndoHarness {
 public:
  using Bytes = std::vector<uint8_t>;
  using Model = models::ZheapModel;
  static constexpr uint32_t kReloid = 16384;
  static constexpr uint32_t kBlock = 7;

  explicit UndoHarness(int slots)
      : log_(1), table_(undo::ZheapPage(slots), kReloid, kBlock, &log_, &xacts_) {}

  std::string Begin(Model& m) {
    const uint32_t xid = m.Begin();
    const Status s = xacts_.Begin(xid);
    return s.ok() ? "" : "Begin: " + s.ToString();
  }

  std::string Insert(Model& m, uint32_t xid, const Bytes& tuple) {
    const uint16_t expect = m.NextOffset();
    const bool busy = m.Insert(xid, tuple) == Model::Outcome::kBusy;
    StatusOr<uint16_t> off = table_.Insert(xid, ByteView(tuple));
    if (off.status().IsBusy() != busy) return "Insert: " + Verdict(busy, off.status());
    if (!busy) {
      if (!off.ok()) return "Insert: " + off.status().ToString();
      if (*off != expect)
        return "Insert: offset " + std::to_string(*off) + ", model " + std::to_string(expect);
      inserted_[xid].insert(*off);
    }
    return CheckVisible(m, "Insert");
  }

  std::string Update(Model& m, uint32_t xid, uint16_t off, const Bytes& tuple) {
    uint16_t expect = 0;
    const bool busy = m.Update(xid, off, tuple, &expect) == Model::Outcome::kBusy;
    if (!busy) RememberBefore(xid, off);
    StatusOr<uint16_t> got = table_.Update(xid, off, ByteView(tuple));
    if (got.status().IsBusy() != busy) return "Update: " + Verdict(busy, got.status());
    if (!busy) {
      if (!got.ok()) return "Update: " + got.status().ToString();
      if (*got != expect)
        return "Update: offset " + std::to_string(*got) + ", model " + std::to_string(expect);
      if (*got != off) inserted_[xid].insert(*got);
    }
    return CheckVisible(m, "Update");
  }

  std::string Delete(Model& m, uint32_t xid, uint16_t off) {
    const bool busy = m.Delete(xid, off) == Model::Outcome::kBusy;
    if (!busy) RememberBefore(xid, off);
    const Status s = table_.Delete(xid, off);
    if (s.IsBusy() != busy || (!busy && !s.ok())) return "Delete: " + Verdict(busy, s);
    return CheckVisible(m, "Delete");
  }

  std::string Lock(Model& m, uint32_t xid, uint16_t off) {
    const bool busy = m.Lock(xid, off) == Model::Outcome::kBusy;
    if (!busy) RememberBefore(xid, off);
    const Status s = table_.Lock(xid, off);
    if (s.IsBusy() != busy || (!busy && !s.ok())) return "Lock: " + Verdict(busy, s);
    return CheckVisible(m, "Lock");
  }

  std::string Commit(Model& m, uint32_t xid) {
    m.Commit(xid);
    const Status s = table_.Commit(xid);
    if (!s.ok()) return "Commit: " + s.ToString();
    Forget(xid);
    return CheckVisible(m, "Commit");
  }

  std::string Abort(Model& m, uint32_t xid) {
    m.Abort(xid);
    const Status s = table_.Abort(xid);
    if (!s.ok()) return "Abort: " + s.ToString();
    std::string err = CheckRestored(xid);
    if (!err.empty()) return "Abort: " + err;
    const Bytes page = PageBytes();
    const Status again = table_.Rollback(xid);
    if (!again.ok() || PageBytes() != page) return "Abort: a second rollback changed the page";
    Forget(xid);
    return CheckVisible(m, "Abort");
  }

  // What survives a crash: the page's bytes, the undo log's pages and the commit log.
  struct CrashImage {
    Bytes page;
    int slots = 0;
    std::vector<undo::UndoPage> undo;
    undo::XactTable xacts;
  };
  CrashImage TakeCrashImage() const {
    return {PageBytes(), table_.page().num_slots(), log_.Pages(), xacts_.AfterCrash()};
  }

  // Drops all in-memory state; recovery from the page bytes, the undo pages and the commit log.
  std::string Crash(Model& m) { return RecoverFrom(m, TakeCrashImage()); }

  // Recovery from `image`, which must be this harness's TakeCrashImage(): the table then has the
  // model's tuples, with every running transaction rolled back.
  std::string RecoverFrom(Model& m, const CrashImage& image) {
    const std::vector<uint32_t> running = m.Running();
    for (uint32_t xid : running) m.Abort(xid);
    undo::XactTable xacts = image.xacts;
    undo::ZheapTable::RecoveryStats stats;
    StatusOr<undo::ZheapTable> recovered = Recover(image, &log_, &xacts, &stats);
    if (!recovered.ok()) return "Crash: " + recovered.status().ToString();
    xacts_ = std::move(xacts);
    table_ = undo::ZheapTable(recovered->page(), kReloid, kBlock, &log_, &xacts_);
    if (stats.transactions_rolled_back > static_cast<int>(running.size())) {
      return "Crash: recovery rolled back " + std::to_string(stats.transactions_rolled_back) +
             " transactions, " + std::to_string(running.size()) + " were running";
    }
    for (uint32_t xid : running) {
      std::string err = CheckRestored(xid);
      if (!err.empty()) return "Crash: " + err;
    }
    before_.clear();
    inserted_.clear();
    return CheckVisible(m, "Crash");
  }

  const undo::ZheapTable& table() const { return table_; }

  // Crash recovery from an image as bytes alone (it may be damaged): the undo log recovered from
  // its pages into *log, the table rebuilt from the page bytes over it and *xacts, then
  // RecoverAfterCrash. The first error of the three steps, else the recovered table.
  static StatusOr<undo::ZheapTable> Recover(const CrashImage& image, undo::UndoLog* log,
                                            undo::XactTable* xacts,
                                            undo::ZheapTable::RecoveryStats* stats) {
    StatusOr<undo::UndoLog> recovered_log = undo::UndoLog::FromPages(1, image.undo);
    if (!recovered_log.ok()) return recovered_log.status();
    StatusOr<undo::ZheapPage> page = undo::ZheapPage::FromBytes(ByteView(image.page), image.slots);
    if (!page.ok()) return page.status();
    *log = std::move(*recovered_log);
    undo::ZheapTable table(std::move(*page), kReloid, kBlock, log, xacts);
    PGSTORE_RETURN_IF_ERROR(table.RecoverAfterCrash(stats));
    return table;
  }

 private:
  static std::string Verdict(bool busy, const Status& got) {
    return std::string("model expects ") + (busy ? "Busy" : "success") + ", got " + got.ToString();
  }
  static Bytes WithoutSlot(Bytes t) {
    undo::SetTupleSlot(t.data(), 0);
    return t;
  }
  Bytes PageBytes() const {
    return Bytes(table_.page().bytes().begin(), table_.page().bytes().end());
  }
  std::string CheckVisible(const Model& m, const char* op) const {
    std::map<uint16_t, Bytes> got;
    for (const auto& [off, t] : table_.VisibleTuples()) got[off] = Model::Normalized(t);
    if (got != m.visible()) {
      return std::string(op) + ": visible tuples differ from the model (" +
             std::to_string(got.size()) + " vs " + std::to_string(m.visible().size()) + ")";
    }
    return "";
  }
  void RememberBefore(uint32_t xid, uint16_t off) {
    if (before_[xid].count(off) || inserted_[xid].count(off)) return;
    StatusOr<ByteView> t = table_.page().Tuple(off);
    if (t.ok()) before_[xid][off] = t->ToVector();
  }
  std::string CheckRestored(uint32_t xid) const {
    if (const auto it = before_.find(xid); it != before_.end()) {
      for (const auto& [off, bytes] : it->second) {
        StatusOr<ByteView> t = table_.page().Tuple(off);
        if (!t.ok() || WithoutSlot(t->ToVector()) != WithoutSlot(bytes)) {
          return "tuple " + std::to_string(off) + " not restored after rolling back " +
                 std::to_string(xid);
        }
      }
    }
    if (const auto it = inserted_.find(xid); it != inserted_.end()) {
      for (uint16_t off : it->second) {
        if (table_.page().page().GetItemId(off).flags != page::LpFlags::kUnused) {
          return "tuple " + std::to_string(off) + " inserted by " + std::to_string(xid) +
                 " survived its rollback";
        }
      }
    }
    return "";
  }
  void Forget(uint32_t xid) {
    before_.erase(xid);
    inserted_.erase(xid);
  }

  undo::UndoLog log_;
  undo::XactTable xacts_;
  undo::ZheapTable table_;
  std::map<uint32_t, std::map<uint16_t, Bytes>> before_;
  std::map<uint32_t, std::set<uint16_t>> inserted_;
};

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_UNDO_HARNESS_H_
