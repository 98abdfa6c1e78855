// The six UPDATE shapes of the 2014 WAL-delta measurements (docs/workloads.md §2), as
// (old tuple, new tuple) pairs formed with storage/tuple the way a table of those columns stores
// them. Values are random and non-repetitive (letters and integers from a seeded generator), so
// any match an encoder finds is one the update left, not one inside a value.
//   short-long, no change         (int4, text 10, text 1000): nothing changes
//   short-long, one change        the short text changes (same length)
//   100 tiny, all changed         100 int4: every one changes
//   100 tiny, half changed        every other int4 changes
//   100 tiny, half nulled         every other int4 becomes NULL
//   9 short + 1 long, 30% change  text 15 x 9 and text 500 in the middle (5th); 3 of the 10
//                                 columns change: the 2nd, 6th and 9th, around the long one
#ifndef PGSTORE_TOOLS_BENCH_UPDATE_WORKLOADS_H_
#define PGSTORE_TOOLS_BENCH_UPDATE_WORKLOADS_H_

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::bench {

struct UpdatePair {
  std::vector<uint8_t> old_tuple;
  std::vector<uint8_t> new_tuple;
  // The new row's values, parsed (nullopt = NULL): what heap_update forms new_tuple from.
  std::vector<std::optional<std::vector<uint8_t>>> new_values;
};

struct UpdateWorkload {
  std::string name;
  std::string schema;  // tuple::TupleDesc::FromSchema
  // Column i's value in the old row (as SQL text; nullopt = NULL) and in the new one.
  std::vector<std::optional<std::string>> (*old_row)(std::mt19937* rng);
  std::vector<std::optional<std::string>> (*new_row)(const std::vector<std::optional<std::string>>&,
                                                     std::mt19937* rng);
};

inline std::string RandomLetters(std::mt19937* rng, size_t n) {
  std::string s(n, 'a');
  for (char& c : s) c = static_cast<char>('a' + (*rng)() % 26);
  return s;
}
inline std::string RandomInt(std::mt19937* rng) {
  return std::to_string(static_cast<int32_t>((*rng)()));
}

using UpdateRow = std::vector<std::optional<std::string>>;

// The old rows: 100 random int4, or (int4, 10 letters, 1000 letters).
inline UpdateRow HundredInts(std::mt19937* rng) {
  UpdateRow r;
  for (int i = 0; i < 100; ++i) r.push_back(RandomInt(rng));
  return r;
}
inline UpdateRow ShortAndLong(std::mt19937* rng) {
  return UpdateRow{RandomInt(rng), RandomLetters(rng, 10), RandomLetters(rng, 1000)};
}

inline const std::vector<UpdateWorkload>& UpdateWorkloads() {
  using Row = UpdateRow;
  static const std::vector<UpdateWorkload> all = {
      {"short-long, no change", "int4,text,text", ShortAndLong,
       [](const Row& old, std::mt19937*) { return old; }},
      {"short-long, one change", "int4,text,text", ShortAndLong,
       [](const Row& old, std::mt19937* rng) {
         Row r = old;
         r[1] = RandomLetters(rng, 10);
         return r;
       }},
      {"100 tiny, all changed", std::string(), HundredInts,
       [](const Row& old, std::mt19937* rng) {
         Row r = old;
         for (auto& v : r) v = RandomInt(rng);
         return r;
       }},
      {"100 tiny, half changed", std::string(), HundredInts,
       [](const Row& old, std::mt19937* rng) {
         Row r = old;
         for (size_t i = 0; i < r.size(); i += 2) r[i] = RandomInt(rng);
         return r;
       }},
      {"100 tiny, half nulled", std::string(), HundredInts,
       [](const Row& old, std::mt19937*) {
         Row r = old;
         for (size_t i = 0; i < r.size(); i += 2) r[i] = std::nullopt;
         return r;
       }},
      {"9 short + 1 long, 30% change", "text,text,text,text,text,text,text,text,text,text",
       [](std::mt19937* rng) {
         Row r;
         for (int i = 0; i < 10; ++i) r.push_back(RandomLetters(rng, i == 4 ? 500 : 15));
         return r;
       },
       [](const Row& old, std::mt19937* rng) {
         Row r = old;
         for (int i : {1, 5, 8}) r[i] = RandomLetters(rng, 15);
         return r;
       }},
  };
  return all;
}

inline tuple::TupleDesc UpdateWorkloadDesc(const UpdateWorkload& w) {
  std::string schema = w.schema;
  if (schema.empty()) {  // 100 int4
    for (int i = 0; i < 100; ++i) schema += i == 0 ? "int4" : ",int4";
  }
  return *tuple::TupleDesc::FromSchema(schema);
}

inline std::vector<std::optional<std::vector<uint8_t>>> ParseRow(
    const tuple::TupleDesc& desc, const std::vector<std::optional<std::string>>& row) {
  std::vector<std::optional<std::vector<uint8_t>>> values;
  for (int i = 0; i < desc.natts(); ++i) {
    if (row[i]) {
      values.push_back(*tuple::TupleDesc::ParseValue(desc.attr(i), *row[i]));
    } else {
      values.push_back(std::nullopt);
    }
  }
  return values;
}

// `count` updates of the workload's shape, each of a different random row.
inline std::vector<UpdatePair> MakeUpdatePairs(const UpdateWorkload& w, size_t count,
                                               uint32_t seed) {
  std::mt19937 rng(seed);
  const tuple::TupleDesc desc = UpdateWorkloadDesc(w);
  std::vector<UpdatePair> pairs;
  pairs.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const auto old_row = w.old_row(&rng);
    const auto new_row = w.new_row(old_row, &rng);
    std::vector<std::optional<std::vector<uint8_t>>> new_values = ParseRow(desc, new_row);
    pairs.push_back({*tuple::FormHeapTuple(desc, tuple::DatumsOf(ParseRow(desc, old_row))),
                     *tuple::FormHeapTuple(desc, tuple::DatumsOf(new_values)),
                     std::move(new_values)});
  }
  return pairs;
}

}  // namespace pgstore::bench

#endif  // PGSTORE_TOOLS_BENCH_UPDATE_WORKLOADS_H_
