// Reference model of the TID store: a map from block to its set of offsets, written from
// docs/formats.md §5.2 and sharing no code with storage/.
#ifndef PGSTORE_PROPERTIES_MODELS_TIDSTORE_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_TIDSTORE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace pgstore::models {

using TidStoreModel = std::map<uint32_t, std::set<uint16_t>>;

// TidStoreSetBlockOffsets' contract: at least one offset, strictly ascending, each 1..2048.
inline bool ModelValidOffsets(const std::vector<uint16_t>& offsets) {
  if (offsets.empty()) return false;
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < 1 || offsets[i] > 2048) return false;
    if (i > 0 && offsets[i] <= offsets[i - 1]) return false;
  }
  return true;
}

inline bool ModelIsMember(const TidStoreModel& m, uint32_t block, uint16_t offset) {
  const auto it = m.find(block);
  return it != m.end() && it->second.count(offset) > 0;
}

inline size_t ModelTidCount(const TidStoreModel& m) {
  size_t n = 0;
  for (const auto& [block, offsets] : m) n += offsets.size();
  return n;
}

// Block -> ascending offsets, the shape the stores iterate in.
inline std::map<uint32_t, std::vector<uint16_t>> ModelContents(const TidStoreModel& m) {
  std::map<uint32_t, std::vector<uint16_t>> out;
  for (const auto& [block, offsets] : m) out[block] = {offsets.begin(), offsets.end()};
  return out;
}

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_TIDSTORE_MODEL_H_
