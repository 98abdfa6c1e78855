// Property: any sequence of TID store operations decoded from the input (set a block's offsets,
// valid or not; remove a block; set or remove a strided run of blocks; membership tests of one
// offset and of the 16 offsets beyond either end of the block's set; union with a second store)
// leaves the radix
// store and the sorted-array baseline equal to the model, std::map<block, std::set<offset>>,
// checked after every step; destroying the stores leaks nothing (LeakSanitizer).
#include <cstdint>
#include <map>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tidstore_fuzz_contents.h"
#include "properties/models/tidstore_model.h"
#include "storage/tidstore/sorted_array_tid_store.h"
#include "storage/tidstore/tid_store.h"

namespace {

using namespace pgstore;
using fuzz::Contents;

// 4 KiB holds a few hundred operations; longer sequences add time, not new states.
constexpr size_t kMaxInput = 4096;

using Reader = fuzz::FrontReader;

// A block: one of the last blocks used, a neighbour, an extreme, or any 32-bit value.
uint32_t TakeBlock(Reader* in, const std::vector<uint32_t>& recent) {
  const uint8_t sel = in->U8();
  switch (sel & 3) {
    case 0:
      return recent.empty() ? 0 : recent[(sel >> 2) % recent.size()];
    case 1:
      return (recent.empty() ? 0 : recent[(sel >> 2) % recent.size()]) + (sel >> 7 ? 1 : 256);
    case 2: {
      static const uint32_t kExtremes[] = {0, 1, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF, 0x10000};
      return kExtremes[(sel >> 2) % 6];
    }
    default:
      return in->U32();
  }
}

// Offsets as the input gives them (possibly invalid): count, then a start and deltas.
std::vector<uint16_t> TakeOffsets(Reader* in) {
  const uint8_t shape = in->U8();
  const size_t n = shape & 0x3F;
  std::vector<uint16_t> v;
  uint32_t o = in->U16() % 2100;
  for (size_t i = 0; i < n; ++i) {
    v.push_back(static_cast<uint16_t>(o));
    o += (shape & 0x40) ? 1 : in->U8();  // a run, or gaps (0 repeats an offset)
  }
  return v;
}

// Offsets just outside a block's smallest and largest member: where every encoding's range check
// decides (a bitmap's last byte covers up to 7 more offsets, the next entry starts after it).
constexpr int kEdgeProbes = 16;

void ExpectMembership(const tidstore::TidStore& radix, const tidstore::SortedArrayTidStore& array,
                      const models::TidStoreModel& model, uint32_t block, int offset) {
  const uint16_t o = static_cast<uint16_t>(offset);
  const bool want = models::ModelIsMember(model, block, o);
  FUZZ_ASSERT(radix.IsMember({block, o}) == want);
  FUZZ_ASSERT(array.IsMember({block, o}) == want);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  Reader in(data, size);
  const uint8_t burst_sel = in.U8();
  const size_t burst = burst_sel < 200 ? 1 + burst_sel % 16 : tidstore::kDefaultBurstEntries;
  tidstore::TidStore radix(burst);
  tidstore::SortedArrayTidStore array;
  models::TidStoreModel model;
  std::vector<uint32_t> recent;
  while (!in.empty()) {
    const uint8_t op = in.U8() % 8;
    if (op == 3) {  // set or remove a strided run of blocks: wide nodes at every depth
      const uint32_t base = TakeBlock(&in, recent);
      const uint8_t shape = in.U8();
      static const uint32_t kStrides[] = {1, 256, 65536, 1u << 24};
      const uint32_t stride = kStrides[shape & 3];
      const int count = 1 + (shape >> 2);  // 1..64
      const bool remove = in.U8() & 1;
      const std::vector<uint16_t> offsets = remove ? std::vector<uint16_t>{} : TakeOffsets(&in);
      for (int i = 0; i < count; ++i) {
        const uint32_t block = base + static_cast<uint32_t>(i) * stride;
        if (remove) {
          const bool present = model.erase(block) > 0;
          FUZZ_ASSERT(radix.RemoveBlock(block) == present);
          FUZZ_ASSERT(array.RemoveBlock(block) == present);
        } else if (models::ModelValidOffsets(offsets)) {
          FUZZ_ASSERT(radix.SetBlockOffsets(block, offsets).ok());
          FUZZ_ASSERT(array.SetBlockOffsets(block, offsets).ok());
          model[block] = {offsets.begin(), offsets.end()};
        }
      }
      recent.push_back(base);
    } else if (op <= 2) {  // set offsets
      const uint32_t block = TakeBlock(&in, recent);
      const std::vector<uint16_t> offsets = TakeOffsets(&in);
      const bool valid = models::ModelValidOffsets(offsets);
      FUZZ_ASSERT(radix.SetBlockOffsets(block, offsets).ok() == valid);
      FUZZ_ASSERT(array.SetBlockOffsets(block, offsets).ok() == valid);
      if (valid) model[block] = {offsets.begin(), offsets.end()};
      recent.push_back(block);
    } else if (op == 4) {  // remove
      const uint32_t block = TakeBlock(&in, recent);
      const bool present = model.erase(block) > 0;
      FUZZ_ASSERT(radix.RemoveBlock(block) == present);
      FUZZ_ASSERT(array.RemoveBlock(block) == present);
    } else if (op == 5 || op == 6) {  // membership: one offset, and the edges of the block's set
      const uint32_t block = TakeBlock(&in, recent);
      ExpectMembership(radix, array, model, block, in.U16() % 2100);
      const auto it = model.find(block);
      if (it != model.end() && !it->second.empty()) {
        const int lo = *it->second.begin(), hi = *it->second.rbegin();
        for (int d = 1; d <= kEdgeProbes; ++d) {
          if (lo - d >= 0) ExpectMembership(radix, array, model, block, lo - d);
          ExpectMembership(radix, array, model, block, hi + d);
        }
      }
    } else {  // union with a small second store
      tidstore::TidStore other(burst);
      models::TidStoreModel other_model;
      for (int i = in.U8() % 4; i > 0; --i) {
        const uint32_t block = TakeBlock(&in, recent);
        std::vector<uint16_t> offsets = TakeOffsets(&in);
        if (!models::ModelValidOffsets(offsets)) continue;
        FUZZ_ASSERT(other.SetBlockOffsets(block, offsets).ok());
        other_model[block] = {offsets.begin(), offsets.end()};  // a second set replaces
      }
      for (const auto& [block, offsets] : other_model) {
        model[block].insert(offsets.begin(), offsets.end());
      }
      radix = tidstore::TidStore::Union(radix, other);
      for (const auto& [block, offsets] : models::ModelContents(model)) {
        FUZZ_ASSERT(array.SetBlockOffsets(block, offsets).ok());
      }
    }
    if (recent.size() > 16) recent.erase(recent.begin());
    FUZZ_ASSERT(radix.Validate().ok());
    FUZZ_ASSERT(radix.num_blocks() == model.size());
    FUZZ_ASSERT(radix.num_tids() == models::ModelTidCount(model));
    FUZZ_ASSERT(array.num_tids() == models::ModelTidCount(model));
    FUZZ_ASSERT(Contents(radix) == models::ModelContents(model));
    FUZZ_ASSERT((radix.MemoryUsage() == 0) == model.empty());
  }
  return 0;
}
