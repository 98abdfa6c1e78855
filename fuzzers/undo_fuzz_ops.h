// The zheap operation sequence an undo fuzz input encodes, shared by undo_ops_fuzzer and
// undo_recovery_fuzzer. Input: slots:u8 (2, 4, 8, 16 or 31 transaction slots, by value mod 5),
// then operations, each op:u8 (mod 8) and its operands:
//   0 begin | 1 insert xid natts len bytes | 2 update xid off natts len bytes | 3 delete xid off
//   4 lock xid off | 5 commit xid | 6 abort xid | 7 crash
// (xid and off pick among the running transactions and the visible tuples; with none running
// every op is begin, with none visible update/delete/lock insert instead). Fields read as zero
// past the end.
#ifndef PGSTORE_FUZZERS_UNDO_FUZZ_OPS_H_
#define PGSTORE_FUZZERS_UNDO_FUZZ_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/generators/undo_harness.h"
#include "properties/models/undo_model.h"

namespace pgstore::fuzz {

inline int UndoSlots(uint8_t b) {
  static const int kSlots[] = {2, 4, 8, 16, 31};
  return kSlots[b % 5];
}

// Runs every operation of ops[0, size) on the harness and the model; returns the first mismatch
// the harness reports, or "".
inline std::string RunUndoOps(const uint8_t* ops, size_t size, generators::UndoHarness* harness,
                              models::ZheapModel* model) {
  FrontReader in(ops, size);
  auto tuple = [&]() {
    std::vector<uint8_t> t = {static_cast<uint8_t>(1 + in.U8() % 8), 0, 0x02, 0, 5};
    for (int n = in.U8() % 41; n > 0; --n) t.push_back(in.U8());
    return t;
  };
  while (!in.empty()) {
    const uint8_t op = in.U8() % 8;
    const std::vector<uint32_t> running = model->Running();
    std::vector<uint16_t> visible;
    for (const auto& [off, _] : model->visible()) visible.push_back(off);
    std::string err;
    if (op == 0 || running.empty()) {
      err = harness->Begin(*model);
    } else {
      const uint32_t xid = running[in.U8() % running.size()];
      if (op == 1 || ((op == 2 || op == 3 || op == 4) && visible.empty())) {
        err = harness->Insert(*model, xid, tuple());
      } else if (op == 2) {
        const uint16_t off = visible[in.U8() % visible.size()];
        err = harness->Update(*model, xid, off, tuple());
      } else if (op == 3) {
        err = harness->Delete(*model, xid, visible[in.U8() % visible.size()]);
      } else if (op == 4) {
        err = harness->Lock(*model, xid, visible[in.U8() % visible.size()]);
      } else if (op == 5) {
        err = harness->Commit(*model, xid);
      } else if (op == 6) {
        err = harness->Abort(*model, xid);
      } else {
        err = harness->Crash(*model);
      }
    }
    if (!err.empty()) return err;
  }
  return "";
}

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_UNDO_FUZZ_OPS_H_
