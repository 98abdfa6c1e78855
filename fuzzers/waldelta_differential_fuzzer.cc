// Property: the two general delta encoders' outputs, decoded by pgstore's decoders and by the
// model's, agree with the model (the new tuple's bytes) and with each other; and after a byte of
// each body is changed (position and value from the input), pgstore's and the model's decoders
// still agree: same accept/reject decision, same bytes.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/waldelta_fuzz_params.h"
#include "properties/models/waldelta_model.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"
#include "storage/waldelta/update_record.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3 || size > 20000) return 0;
  const uint16_t flip_at = static_cast<uint16_t>(data[0] | data[1] << 8);
  const uint8_t flip = data[2];
  const fuzz::UpdatePairInput u = fuzz::DecodeUpdatePair(data + 3, size - 3);
  const std::vector<uint8_t> old_data(u.old_tuple.begin() + u.old_tuple[22], u.old_tuple.end());
  const std::vector<uint8_t> target(u.new_tuple.begin() + u.new_tuple[22], u.new_tuple.end());
  const std::vector<uint8_t> bodies[2] = {
      waldelta::PglzHistoryEncode(ByteView(old_data), ByteView(target)),
      waldelta::ChunkEncode(ByteView(old_data), ByteView(target))};
  for (int k = 0; k < 2; ++k) {
    auto decode = [&](const std::vector<uint8_t>& body) {
      return k == 0 ? waldelta::PglzHistoryDecode(ByteView(old_data), ByteView(body), target.size())
                    : waldelta::ChunkDecode(ByteView(old_data), ByteView(body), target.size());
    };
    auto model = [&](const std::vector<uint8_t>& body) {
      return k == 0 ? models::ModelPglzHistoryDecode(old_data, body, target.size())
                    : models::ModelChunkDecode(old_data, body, target.size());
    };
    StatusOr<std::vector<uint8_t>> ours = decode(bodies[k]);
    const std::optional<std::vector<uint8_t>> theirs = model(bodies[k]);
    FUZZ_ASSERT(ours.ok() && theirs.has_value());
    FUZZ_ASSERT(*ours == target);
    FUZZ_ASSERT(*theirs == target);
    if (bodies[k].empty()) continue;
    std::vector<uint8_t> damaged = bodies[k];
    damaged[flip_at % damaged.size()] ^= static_cast<uint8_t>(flip | 1);
    StatusOr<std::vector<uint8_t>> ours2 = decode(damaged);
    const std::optional<std::vector<uint8_t>> theirs2 = model(damaged);
    FUZZ_ASSERT(ours2.ok() == theirs2.has_value());
    if (ours2.ok()) FUZZ_ASSERT(*ours2 == *theirs2);
  }
  return 0;
}
