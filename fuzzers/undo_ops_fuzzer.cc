// Property: an operation sequence decoded from the input (begin, insert, update, delete, lock,
// commit, abort, crash on a zheap page with 2..31 transaction slots; fuzzers/undo_fuzz_ops.h)
// keeps the table in agreement with the model after every step
// (properties/generators/undo_harness.h: Busy verdicts and offsets, visible tuples, byte-identical
// restoration after aborts and crashes, idempotent rollback).
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/undo_fuzz_ops.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > 4096) return 0;  // longer sequences only repeat what shorter ones reach
  const int slots = fuzz::UndoSlots(data[0]);
  generators::UndoHarness harness(slots);
  models::ZheapModel model(slots);
  const std::string err = fuzz::RunUndoOps(data + 1, size - 1, &harness, &model);
  if (!err.empty()) {
    std::fprintf(stderr, "undo_ops_fuzzer: %s\n", err.c_str());
    FUZZ_ASSERT(err.empty());
  }
  return 0;
}
