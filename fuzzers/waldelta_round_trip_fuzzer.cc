// Property: for an old/new tuple pair derived from the input (waldelta_fuzz_params.h) and every
// delta method, redo of the encoded record rebuilds the new tuple exactly (but the header fields
// redo sets), the record is never longer than the whole new tuple's, and prefix-suffix's record is
// PostgreSQL's (the model's) byte for byte.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/waldelta_fuzz_params.h"
#include "properties/models/waldelta_model.h"
#include "storage/waldelta/update_delta.h"
#include "storage/waldelta/update_record.h"

using namespace pgstore;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 20000) return 0;
  const fuzz::UpdatePairInput u = fuzz::DecodeUpdatePair(data, size);
  const size_t none_size = waldelta::kSizeOfHeapHeader + u.new_tuple.size() - 23;
  for (waldelta::DeltaMethod m : waldelta::kAllDeltaMethods) {
    StatusOr<waldelta::UpdateRecord> r = waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, m);
    FUZZ_ASSERT(r.ok());
    FUZZ_ASSERT(r->block_data.size() <= none_size);
    StatusOr<std::vector<uint8_t>> back =
        waldelta::ReconstructNewTuple(u.old_tuple, r->flags, r->block_data, {9, 0, 0, 1});
    FUZZ_ASSERT(back.ok());
    FUZZ_ASSERT(back->size() == u.new_tuple.size());
    FUZZ_ASSERT(std::equal(back->begin() + 18, back->end(), u.new_tuple.begin() + 18));
    if (m == waldelta::DeltaMethod::kPrefixSuffix) {
      const auto [flags, block_data] = models::ModelBlockData(u.old_tuple, u.new_tuple, true);
      FUZZ_ASSERT(r->flags == flags);
      FUZZ_ASSERT(r->block_data == block_data);
    }
  }
  return 0;
}
