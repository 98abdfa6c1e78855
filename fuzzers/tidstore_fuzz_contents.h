// The contents of a radix TID store as the TID store model lists them (block -> offsets), read
// through ForEachBlock, which must visit blocks in ascending order: shared by the TID store fuzz
// targets.
#ifndef PGSTORE_FUZZERS_TIDSTORE_FUZZ_CONTENTS_H_
#define PGSTORE_FUZZERS_TIDSTORE_FUZZ_CONTENTS_H_

#include <cstdint>
#include <map>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/tidstore/tid_store.h"

namespace pgstore::fuzz {

inline std::map<uint32_t, std::vector<uint16_t>> Contents(const tidstore::TidStore& s) {
  std::map<uint32_t, std::vector<uint16_t>> out;
  s.ForEachBlock([&out](uint32_t b, const std::vector<uint16_t>& o) {
    FUZZ_ASSERT(out.empty() || b > out.rbegin()->first);
    out[b] = o;
    return true;
  });
  return out;
}

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_TIDSTORE_FUZZ_CONTENTS_H_
