// Strategy parameters for the pglz fuzz targets, decoded from the input's tail. Each field takes
// one selector byte: PostgreSQL's default or always value, a small value around the clamping
// boundaries, or any 32-bit value (4 more bytes).
#ifndef PGSTORE_FUZZERS_PGLZ_FUZZ_PARAMS_H_
#define PGSTORE_FUZZERS_PGLZ_FUZZ_PARAMS_H_

#include <cstdint>

#include "fuzzers/fuzz_helpers.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::fuzz {

inline int32_t TakeStrategyField(TailSplitter* t, int32_t default_value, int32_t always_value) {
  const uint8_t selector = t->TakeU8();
  switch (selector >> 6) {
    case 0:
      return default_value;
    case 1:
      return always_value;
    case 2:
      return static_cast<int32_t>(selector & 0x3f) * 5 - 10;  // -10 .. 305
    default:
      return static_cast<int32_t>(t->TakeU32());
  }
}

inline pglz::Strategy TakeStrategy(TailSplitter* t) {
  const pglz::Strategy& d = pglz::kDefaultStrategy;
  const pglz::Strategy& a = pglz::kAlwaysStrategy;
  pglz::Strategy s;
  s.min_input_size = TakeStrategyField(t, d.min_input_size, a.min_input_size);
  s.max_input_size = TakeStrategyField(t, d.max_input_size, a.max_input_size);
  s.min_comp_rate = TakeStrategyField(t, d.min_comp_rate, a.min_comp_rate);
  s.first_success_by = TakeStrategyField(t, d.first_success_by, a.first_success_by);
  s.match_size_good = TakeStrategyField(t, d.match_size_good, a.match_size_good);
  s.match_size_drop = TakeStrategyField(t, d.match_size_drop, a.match_size_drop);
  return s;
}

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_PGLZ_FUZZ_PARAMS_H_
