// Property: arbitrary bytes as an old tuple and an UPDATE record's block data (any flags), or as a
// pglz-history or chunk delta body, never crash a waldelta decoder, never make it read outside its
// inputs (the inputs are exact-size heap copies), and get the same answer as the model: the same
// accept/reject decision and, when accepted, the same new tuple (at most MaxHeapTupleSize). Redo
// runs twice, the block data at an aligned and at an odd address, with the same answer.
//
// Mode 3: the payload as an UPDATE record's main data (xl_heap_update: accepted exactly when it
// is 14 bytes, and serializes back to them), as a tuple whose user data redo reads (accepted
// exactly when the header is whole and 23 <= t_hoff <= its length; the bytes from t_hoff), as a
// delta method's name (accepted exactly when it is one, which names it back), and cut in two as
// an old and a new tuple to encode by every method (accepted exactly when both have user data and
// the new one is at most MaxHeapTupleSize; then redo gives the new tuple back).
//
// Input: the payload, from the tail: mode:u8 (0 redo, 1 pglz-history, 2 chunk, 3 main data and
// user data; by value mod 4), then
//   redo:    flags:u8, old_len:u16; payload = old tuple (old_len bytes) + block data
//   deltas:  target_len:u16 (mod 8192), history_len:u16; payload = history + body
//   mode 3:  old_len:u16 (where the payload is cut into the old and the new tuple)
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/models/waldelta_model.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"
#include "storage/waldelta/update_delta.h"
#include "storage/waldelta/update_record.h"

using namespace pgstore;

namespace {

// The payload cut in two at `at` (mod its size + 1), each part an exact-size heap copy.
struct Parts {
  std::vector<uint8_t> first, second;
  std::unique_ptr<uint8_t[]> first_copy, second_copy;
  ByteView First() const { return ByteView(first_copy.get(), first.size()); }
  ByteView Second() const { return ByteView(second_copy.get(), second.size()); }
};
Parts Cut(ByteView payload, uint16_t at) {
  const size_t cut = at % (payload.size + 1);
  Parts p;
  p.first = payload.Sub(0, cut).ToVector();
  p.second = payload.Sub(cut, payload.size - cut).ToVector();
  p.first_copy = fuzz::ExactCopy(ByteView(p.first));
  p.second_copy = fuzz::ExactCopy(ByteView(p.second));
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 20000) return 0;
  fuzz::TailSplitter in(data, size);
  const uint8_t mode = in.TakeU8() % 4;
  if (mode == 3) {
    const uint16_t old_len = in.TakeU16();
    const ByteView payload = in.Payload();
    const auto copy = fuzz::ExactCopy(payload);
    const ByteView bytes(copy.get(), payload.size);
    StatusOr<waldelta::XlHeapUpdate> x = waldelta::XlHeapUpdate::Parse(bytes);
    FUZZ_ASSERT(x.ok() == (bytes.size == waldelta::kSizeOfHeapUpdate));
    if (x.ok()) FUZZ_ASSERT(x->Serialize() == bytes.ToVector());
    StatusOr<ByteView> user = waldelta::UserData(bytes);
    const size_t hoff = bytes.size > 22 ? bytes[22] : 0;
    const bool ok = bytes.size >= waldelta::kTupleHeaderSize &&
                    hoff >= waldelta::kTupleHeaderSize && hoff <= bytes.size;
    FUZZ_ASSERT(user.ok() == ok);
    if (ok) FUZZ_ASSERT(user->data == bytes.data + hoff && user->size == bytes.size - hoff);
    const std::string name(reinterpret_cast<const char*>(bytes.data), bytes.size);
    StatusOr<waldelta::DeltaMethod> method = waldelta::ParseDeltaMethod(name);
    FUZZ_ASSERT(method.ok() == (name == "none" || name == "prefix-suffix" ||
                                name == "pglz-history" || name == "chunk" || name == "auto"));
    if (method.ok()) FUZZ_ASSERT(waldelta::DeltaMethodName(*method) == name);
    const Parts p = Cut(payload, old_len);  // old tuple, new tuple
    const bool encodable = waldelta::UserData(p.First()).ok() &&
                           waldelta::UserData(p.Second()).ok() &&
                           p.second.size() <= waldelta::kMaxHeapTupleSize;
    for (waldelta::DeltaMethod m : waldelta::kAllDeltaMethods) {
      StatusOr<waldelta::UpdateRecord> r = waldelta::EncodeUpdate(p.First(), p.Second(), m);
      FUZZ_ASSERT(r.ok() == encodable);
      if (!r.ok()) {
        FUZZ_ASSERT(r.status().IsInvalidArgument());
        continue;
      }
      StatusOr<std::vector<uint8_t>> back =
          waldelta::ReconstructNewTuple(p.First(), r->flags, r->block_data, {9, 0, 0, 1});
      FUZZ_ASSERT(back.ok() && back->size() == p.second.size());
      // Redo sets the header's transaction fields and t_ctid (bytes 0-17) itself.
      FUZZ_ASSERT(std::equal(back->begin() + 18, back->end(), p.second.begin() + 18));
    }
    return 0;
  }
  if (mode == 0) {
    const uint8_t flags = in.TakeU8();
    const uint16_t old_len = in.TakeU16();
    const Parts p = Cut(in.Payload(), old_len);  // old tuple, block data
    StatusOr<std::vector<uint8_t>> ours =
        waldelta::ReconstructNewTuple(p.First(), flags, p.Second(), {1, 2, 3, 4});
    const std::optional<std::vector<uint8_t>> model =
        models::ModelRedo(p.first, flags, p.second, {1, 2, 3, 4});
    FUZZ_ASSERT(ours.ok() == model.has_value());
    if (ours.ok()) {
      FUZZ_ASSERT(*ours == *model);
      FUZZ_ASSERT(ours->size() <= waldelta::kMaxHeapTupleSize);
    }
    // WAL hands redo block data at any address: at an odd one, the same answer.
    const fuzz::OddCopy odd(p.Second());
    StatusOr<std::vector<uint8_t>> at_odd =
        waldelta::ReconstructNewTuple(p.First(), flags, odd.View(), {1, 2, 3, 4});
    FUZZ_ASSERT(at_odd.ok() == ours.ok());
    if (ours.ok()) FUZZ_ASSERT(*at_odd == *ours);
    return 0;
  }
  const size_t target_len = in.TakeU16() % 8192;
  const uint16_t history_len = in.TakeU16();
  const Parts p = Cut(in.Payload(), history_len);  // history, delta body
  StatusOr<std::vector<uint8_t>> ours =
      mode == 1 ? waldelta::PglzHistoryDecode(p.First(), p.Second(), target_len)
                : waldelta::ChunkDecode(p.First(), p.Second(), target_len);
  const std::optional<std::vector<uint8_t>> model =
      mode == 1 ? models::ModelPglzHistoryDecode(p.first, p.second, target_len)
                : models::ModelChunkDecode(p.first, p.second, target_len);
  FUZZ_ASSERT(ours.ok() == model.has_value());
  if (ours.ok()) FUZZ_ASSERT(*ours == *model);
  return 0;
}
