// Property: a TID stream from the input, in any order and with any offsets, given to
// BuildFromSorted (the radix store and the sorted-array baseline) is accepted exactly when it is
// strictly ascending by (block, offset) with every offset in 1..2048, as the model says; an
// accepted stream gives a structurally valid store holding exactly its TIDs (contents, counts,
// membership of each TID and of its neighbours); a rejected one is InvalidArgument.
//
// Input: burst:u8 (below 200: 1..16 leaf entries before a burst, else the default), then TIDs,
// each step:u8 and its operands: step % 4 = 0 the next offset of this block (+1..256 from
// offset:u8), 1 a later block (+1..65536 from delta:u16) at offset:u16 % 2100, 2 any TID
// (block:u32 offset:u16: may go backwards or repeat), 3 the same TID again.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tidstore_fuzz_contents.h"
#include "properties/models/tidstore_model.h"
#include "storage/tidstore/sorted_array_tid_store.h"
#include "storage/tidstore/tid_store.h"

using namespace pgstore;

namespace {
// A few thousand TIDs reach every node kind; more only add time.
constexpr size_t kMaxInput = 8192;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  fuzz::FrontReader in(data, size);
  const uint8_t burst_sel = in.U8();
  const size_t burst = burst_sel < 200 ? 1 + burst_sel % 16 : tidstore::kDefaultBurstEntries;
  std::vector<tidstore::Tid> tids;
  tidstore::Tid t{0, 0};
  while (!in.empty()) {
    const uint8_t step = in.U8() % 4;
    if (step == 0) {
      t.offset = static_cast<uint16_t>(t.offset + 1 + in.U8());
    } else if (step == 1) {
      t.block += 1 + in.U16();
      t.offset = in.U16() % 2100;
    } else if (step == 2) {
      t.block = in.U32();
      t.offset = in.U16();
    }
    tids.push_back(t);
  }
  // The model: strictly ascending, offsets valid.
  bool valid = true;
  models::TidStoreModel model;
  for (size_t i = 0; i < tids.size(); ++i) {
    const tidstore::Tid& x = tids[i];
    if (x.offset < 1 || x.offset > 2048) valid = false;
    if (i > 0 && (x.block < tids[i - 1].block ||
                  (x.block == tids[i - 1].block && x.offset <= tids[i - 1].offset))) {
      valid = false;
    }
    model[x.block].insert(x.offset);
  }
  StatusOr<tidstore::TidStore> radix = tidstore::TidStore::BuildFromSorted(tids, burst);
  StatusOr<tidstore::SortedArrayTidStore> array =
      tidstore::SortedArrayTidStore::BuildFromSorted(tids);
  FUZZ_ASSERT(radix.ok() == valid && array.ok() == valid);
  if (!valid) {
    FUZZ_ASSERT(radix.status().IsInvalidArgument() && array.status().IsInvalidArgument());
    return 0;
  }
  FUZZ_ASSERT(radix->Validate().ok());
  FUZZ_ASSERT(fuzz::Contents(*radix) == models::ModelContents(model));
  FUZZ_ASSERT(radix->num_tids() == tids.size() && array->num_tids() == tids.size());
  FUZZ_ASSERT(radix->num_blocks() == model.size());
  for (const tidstore::Tid& x : tids) {
    for (int d = -1; d <= 1; ++d) {
      const tidstore::Tid probe{x.block, static_cast<uint16_t>(x.offset + d)};
      const bool want = models::ModelIsMember(model, probe.block, probe.offset);
      FUZZ_ASSERT(radix->IsMember(probe) == want);
      FUZZ_ASSERT(array->IsMember(probe) == want);
    }
  }
  return 0;
}
