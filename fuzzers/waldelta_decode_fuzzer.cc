// Property: arbitrary bytes as an old tuple and an UPDATE record's block data (any flags), or as a
// pglz-history or chunk delta body, never crash a waldelta decoder, never make it read outside its
// inputs (the inputs are exact-size heap copies), and get the same answer as the model: the same
// accept/reject decision and, when accepted, the same new tuple (at most MaxHeapTupleSize).
//
// Input: the payload, from the tail: mode:u8 (0 redo, 1 pglz-history, 2 chunk), then
//   redo:    flags:u8, old_len:u16; payload = old tuple (old_len bytes) + block data
//   deltas:  target_len:u16 (mod 8192), history_len:u16; payload = history + body
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/models/waldelta_model.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"
#include "storage/waldelta/update_record.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 20000) return 0;
  fuzz::TailSplitter in(data, size);
  const uint8_t mode = in.TakeU8() % 3;
  if (mode == 0) {
    const uint8_t flags = in.TakeU8();
    const uint16_t old_len = in.TakeU16();
    const ByteView payload = in.Payload();
    const size_t cut = old_len % (payload.size + 1);
    const std::vector<uint8_t> old_tuple = payload.Sub(0, cut).ToVector();
    const std::vector<uint8_t> block_data = payload.Sub(cut, payload.size - cut).ToVector();
    auto old_copy = fuzz::ExactCopy(ByteView(old_tuple));
    auto block_copy = fuzz::ExactCopy(ByteView(block_data));
    StatusOr<std::vector<uint8_t>> ours = waldelta::ReconstructNewTuple(
        ByteView(old_copy.get(), old_tuple.size()), flags,
        ByteView(block_copy.get(), block_data.size()), {1, 2, 3, 4});
    const std::optional<std::vector<uint8_t>> model =
        models::ModelRedo(old_tuple, flags, block_data, {1, 2, 3, 4});
    FUZZ_ASSERT(ours.ok() == model.has_value());
    if (ours.ok()) {
      FUZZ_ASSERT(*ours == *model);
      FUZZ_ASSERT(ours->size() <= waldelta::kMaxHeapTupleSize);
    }
    return 0;
  }
  const size_t target_len = in.TakeU16() % 8192;
  const uint16_t history_len = in.TakeU16();
  const ByteView payload = in.Payload();
  const size_t cut = history_len % (payload.size + 1);
  const std::vector<uint8_t> history = payload.Sub(0, cut).ToVector();
  const std::vector<uint8_t> body = payload.Sub(cut, payload.size - cut).ToVector();
  auto history_copy = fuzz::ExactCopy(ByteView(history));
  auto body_copy = fuzz::ExactCopy(ByteView(body));
  const ByteView h(history_copy.get(), history.size()), b(body_copy.get(), body.size());
  StatusOr<std::vector<uint8_t>> ours = mode == 1 ? waldelta::PglzHistoryDecode(h, b, target_len)
                                                  : waldelta::ChunkDecode(h, b, target_len);
  const std::optional<std::vector<uint8_t>> model =
      mode == 1 ? models::ModelPglzHistoryDecode(history, body, target_len)
                : models::ModelChunkDecode(history, body, target_len);
  FUZZ_ASSERT(ours.ok() == model.has_value());
  if (ours.ok()) FUZZ_ASSERT(*ours == *model);
  return 0;
}
