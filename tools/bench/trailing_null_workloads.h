// The row shapes of the 2012 trailing-NULL measurements (docs/workloads.md §1): all INT4
// unless said, each row's last `trailing` columns NULL in phase A, the last column set non-null in
// phase B, and set back to NULL in phase C.
#ifndef PGSTORE_TOOLS_BENCH_TRAILING_NULL_WORKLOADS_H_
#define PGSTORE_TOOLS_BENCH_TRAILING_NULL_WORKLOADS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::bench {

struct TrailingNullWorkload {
  std::string name;
  int int4_columns;
  int bool_columns;  // after the INT4 columns
  int trailing_nulls;

  int columns() const { return int4_columns + bool_columns; }
  tuple::TupleDesc Desc() const {
    std::vector<tuple::Attribute> attrs;
    for (int i = 0; i < int4_columns; ++i) attrs.push_back(*tuple::AttributeForType("int4"));
    for (int i = 0; i < bool_columns; ++i) attrs.push_back(*tuple::AttributeForType("bool"));
    return tuple::TupleDesc(std::move(attrs));
  }
};

inline const std::vector<TrailingNullWorkload>& TrailingNullWorkloads() {
  static const std::vector<TrailingNullWorkload> all = {
      {"800 cols, 600 trailing NULLs", 800, 0, 600},
      {"800 cols, 300 trailing NULLs", 800, 0, 300},
      {"300 cols, 150 trailing NULLs", 300, 0, 150},
      {"300 cols, 250 trailing NULLs", 300, 0, 250},
      {"300 cols, no NULLs", 300, 0, 0},
      {"12 cols (3 int4, 9 bool), 9 trailing NULLs", 3, 9, 9},
      {"12 cols (3 int4, 9 bool), 4 trailing NULLs", 3, 9, 4},
  };
  return all;
}

enum class Phase { kInsert, kSetLast, kResetLast };  // A, B, C

// The values of row `row` in `phase`; storage for them lives in *buffer (reused across calls).
inline std::vector<tuple::Datum> WorkloadRow(const TrailingNullWorkload& w, uint32_t row,
                                             Phase phase, std::vector<uint8_t>* buffer) {
  const int n = w.columns();
  buffer->assign(static_cast<size_t>(n) * 4, 0);
  std::vector<tuple::Datum> values(n);
  for (int i = 0; i < n; ++i) {
    const bool last = i == n - 1;
    const bool null = i >= n - w.trailing_nulls && !(last && phase == Phase::kSetLast);
    if (null) continue;
    uint8_t* p = buffer->data() + static_cast<size_t>(i) * 4;
    if (i < w.int4_columns) {
      StoreLE32(p, row + static_cast<uint32_t>(i));
      values[i] = ByteView(p, 4);
    } else {
      p[0] = 1;
      values[i] = ByteView(p, 1);
    }
  }
  return values;
}

}  // namespace pgstore::bench

#endif  // PGSTORE_TOOLS_BENCH_TRAILING_NULL_WORKLOADS_H_
