// Property: an operation sequence decoded from the input (begin, insert, update, delete, lock,
// commit, abort, crash on a zheap page with 2..31 transaction slots) keeps the table in agreement
// with the model after every step (properties/generators/undo_harness.h: Busy verdicts and
// offsets, visible tuples, byte-identical restoration after aborts and crashes, idempotent
// rollback).
#include <cstdint>
#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/generators/undo_harness.h"
#include "properties/models/undo_model.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 4096) return 0;
  static const int kSlots[] = {2, 4, 8, 16, 31};
  const int slots = kSlots[data[0] % 5];
  generators::UndoHarness harness(slots);
  models::ZheapModel model(slots);
  size_t i = 1;
  auto next = [&]() -> uint8_t { return i < size ? data[i++] : 0; };
  while (i < size) {
    const uint8_t op = next() % 8;
    const std::vector<uint32_t> running = model.Running();
    std::vector<uint16_t> visible;
    for (const auto& [off, _] : model.visible()) visible.push_back(off);
    std::string err;
    if (op == 0 || running.empty()) {
      err = harness.Begin(model);
    } else {
      const uint32_t xid = running[next() % running.size()];
      if (op == 1 || ((op == 2 || op == 3 || op == 4) && visible.empty())) {
        std::vector<uint8_t> t = {static_cast<uint8_t>(1 + next() % 8), 0, 0x02, 0, 5};
        for (int n = next() % 41; n > 0; --n) t.push_back(next());
        err = harness.Insert(model, xid, t);
      } else if (op == 2) {
        const uint16_t off = visible[next() % visible.size()];
        std::vector<uint8_t> t = {static_cast<uint8_t>(1 + next() % 8), 0, 0x02, 0, 5};
        for (int n = next() % 41; n > 0; --n) t.push_back(next());
        err = harness.Update(model, xid, off, t);
      } else if (op == 3) {
        err = harness.Delete(model, xid, visible[next() % visible.size()]);
      } else if (op == 4) {
        err = harness.Lock(model, xid, visible[next() % visible.size()]);
      } else if (op == 5) {
        err = harness.Commit(model, xid);
      } else if (op == 6) {
        err = harness.Abort(model, xid);
      } else {
        err = harness.Crash(model);
      }
    }
    if (!err.empty()) {
      std::fprintf(stderr, "undo_ops_fuzzer: %s\n", err.c_str());
      FUZZ_ASSERT(err.empty());
    }
  }
  return 0;
}
