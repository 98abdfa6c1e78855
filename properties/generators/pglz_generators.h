// RapidCheck generators for pglz inputs: compressible data of many shapes, not only random
// bytes, with edge sizes over-weighted (hash-table size steps at 128/256/512/1024 bytes, the
// 4096-position history, periods near 1, 3, 4095 and 4096, the 273-byte longest match).
#ifndef PGSTORE_PROPERTIES_GENERATORS_PGLZ_GENERATORS_H_
#define PGSTORE_PROPERTIES_GENERATORS_PGLZ_GENERATORS_H_

#include <rapidcheck.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "storage/pglz/pglz_format.h"

namespace pgstore::generators {

// A generated input and the shape it was built as (for RC_TAG / RC_CLASSIFY).
struct PglzInput {
  std::string shape;
  std::vector<uint8_t> bytes;
};

inline rc::Gen<int> genEdgeLength() {
  return rc::gen::oneOf(rc::gen::inRange(0, 300),
                        rc::gen::element(0, 1, 3, 31, 32, 33, 127, 128, 255, 256, 511, 512, 1023,
                                         1024, 1025, 4095, 4096, 4097, 8192),
                        rc::gen::inRange(0, 6000));
}

inline std::vector<uint8_t> RandomBytes(int n) {
  return *rc::gen::container<std::vector<uint8_t>>(n, rc::gen::arbitrary<uint8_t>());
}

// A run of one byte value, lengths around the tag limits.
inline std::vector<uint8_t> RunSegment() {
  const int n = *rc::gen::oneOf(rc::gen::element(1, 2, 3, 17, 18, 19, 273, 274, 275, 546),
                                rc::gen::inRange(1, 800));
  return std::vector<uint8_t>(n, *rc::gen::arbitrary<uint8_t>());
}

// A short chunk repeated, with occasional single-byte changes.
inline std::vector<uint8_t> RepeatedChunkSegment() {
  const std::vector<uint8_t> chunk = RandomBytes(*rc::gen::inRange(1, 64));
  const int copies = *rc::gen::inRange(1, 40);
  std::vector<uint8_t> out;
  for (int i = 0; i < copies; ++i) out.insert(out.end(), chunk.begin(), chunk.end());
  const int edits = *rc::gen::inRange(0, 4);
  for (int i = 0; i < edits && !out.empty(); ++i) {
    out[*rc::gen::inRange<size_t>(0, out.size())] = *rc::gen::arbitrary<uint8_t>();
  }
  return out;
}

// A random pattern of period p repeated; periods near 1, 3 and the 4095-byte offset limit.
inline std::vector<uint8_t> PeriodicSegment() {
  const int period = *rc::gen::element(1, 2, 3, 4, 7, 8, 9, 4094, 4095, 4096, 4097);
  const std::vector<uint8_t> pattern = RandomBytes(period);
  const int total = period * *rc::gen::inRange(1, 4) + *rc::gen::inRange(0, 600);
  std::vector<uint8_t> out(total);
  for (int i = 0; i < total; ++i) out[i] = pattern[i % period];
  return out;
}

// Words from a small vocabulary: text-like data with many short, distant matches.
inline std::vector<uint8_t> TextSegment() {
  static const char* const kWords[] = {"the ",    "pglz ",   "tuple ", "page ", "vacuum ",
                                       "header ", "null ",   "of ",    "and ",  "compress ",
                                       "data\n",  "SELECT ", "1, ",    "2024 ", "'x', "};
  const int n = *rc::gen::inRange(1, 400);
  std::vector<uint8_t> out;
  for (int i = 0; i < n; ++i) {
    const char* w = kWords[*rc::gen::inRange<size_t>(0, sizeof(kWords) / sizeof(kWords[0]))];
    out.insert(out.end(), w, w + std::char_traits<char>::length(w));
  }
  return out;
}

inline rc::Gen<PglzInput> genPglzInput() {
  return rc::gen::exec([] {
    PglzInput in;
    switch (*rc::gen::inRange(0, 6)) {
      case 0:
        in.shape = "random";
        in.bytes = RandomBytes(*genEdgeLength());
        break;
      case 1:
        in.shape = "run";
        in.bytes = RunSegment();
        break;
      case 2:
        in.shape = "repeated-chunk";
        in.bytes = RepeatedChunkSegment();
        break;
      case 3:
        in.shape = "periodic";
        in.bytes = PeriodicSegment();
        break;
      case 4:
        in.shape = "text";
        in.bytes = TextSegment();
        break;
      default: {
        in.shape = "mixed";
        const int parts = *rc::gen::inRange(2, 8);
        for (int i = 0; i < parts; ++i) {
          std::vector<uint8_t> seg;
          switch (*rc::gen::inRange(0, 5)) {
            case 0:
              seg = RandomBytes(*rc::gen::inRange(0, 200));
              break;
            case 1:
              seg = RunSegment();
              break;
            case 2:
              seg = RepeatedChunkSegment();
              break;
            case 3:
              seg = PeriodicSegment();
              break;
            default:
              seg = TextSegment();
              break;
          }
          in.bytes.insert(in.bytes.end(), seg.begin(), seg.end());
        }
      }
    }
    return in;
  });
}

// Any strategy, with PostgreSQL's two and the clamping boundaries over-weighted.
inline rc::Gen<pglz::Strategy> genStrategy() {
  auto field = [](std::initializer_list<int32_t> edges, int32_t lo, int32_t hi) {
    return rc::gen::oneOf(rc::gen::elementOf(std::vector<int32_t>(edges)),
                          rc::gen::inRange(lo, hi));
  };
  return rc::gen::oneOf(
      rc::gen::just(pglz::kDefaultStrategy), rc::gen::just(pglz::kAlwaysStrategy),
      rc::gen::exec([field] {
        pglz::Strategy s;
        s.min_input_size = *field({INT_MIN, -1, 0, 1, 32, 4096}, -10, 200);
        s.max_input_size = *field({INT_MAX, 0, 31, 32, 1024}, 0, 20000);
        s.min_comp_rate = *field({INT_MIN, -1, 0, 25, 99, 100, INT_MAX}, -5, 105);
        s.first_success_by = *field({INT_MIN, 0, 1, 1024, INT_MAX}, -5, 3000);
        s.match_size_good =
            *field({INT_MIN, -1, 0, 1, 16, 17, 18, 128, 273, 274, INT_MAX}, -5, 300);
        s.match_size_drop = *field({INT_MIN, -1, 0, 6, 10, 100, 101, INT_MAX}, -5, 105);
        return s;
      }));
}

}  // namespace pgstore::generators

namespace rc {
template <>
struct Arbitrary<pgstore::pglz::Strategy> {
  static Gen<pgstore::pglz::Strategy> arbitrary() { return pgstore::generators::genStrategy(); }
};
}  // namespace rc

namespace pgstore::pglz {
inline void showValue(const Strategy& s, std::ostream& os) {
  os << "{min_input_size=" << s.min_input_size << ", max_input_size=" << s.max_input_size
     << ", min_comp_rate=" << s.min_comp_rate << ", first_success_by=" << s.first_success_by
     << ", match_size_good=" << s.match_size_good << ", match_size_drop=" << s.match_size_drop
     << "}";
}
}  // namespace pgstore::pglz

namespace pgstore::generators {
inline void showValue(const PglzInput& in, std::ostream& os) {
  os << "{shape=" << in.shape << ", " << in.bytes.size() << " bytes}";
}
}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_PGLZ_GENERATORS_H_
