// Test helper: the smallest zheap tuples the undo tests store (natts 1, HEAP_HASVARWIDTH,
// t_hoff 5, then the data), and their data back.
#ifndef PGSTORE_TESTS_UNDO_TEST_TUPLES_H_
#define PGSTORE_TESTS_UNDO_TEST_TUPLES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pgstore::undo::fixtures {

inline constexpr size_t kZTupleHeader = 5;

inline std::vector<uint8_t> ZTuple(const std::string& data) {
  std::vector<uint8_t> t = {1, 0, 0x02, 0, kZTupleHeader};
  t.insert(t.end(), data.begin(), data.end());
  return t;
}

// A tuple of `data_bytes` bytes of data.
inline std::vector<uint8_t> ZTupleOfSize(size_t data_bytes) {
  return ZTuple(std::string(data_bytes, 'x'));
}

inline std::string DataOf(const std::vector<uint8_t>& t) {
  return std::string(t.begin() + kZTupleHeader, t.end());
}

}  // namespace pgstore::undo::fixtures

#endif  // PGSTORE_TESTS_UNDO_TEST_TUPLES_H_
