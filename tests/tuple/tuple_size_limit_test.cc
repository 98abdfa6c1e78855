// The 1 GB limit on a formed tuple, at its edge: a test of its own because it needs two buffers
// of 1 GiB (the value and the tuple). They are backed by huge pages where the kernel allows it, so
// that touching them takes a few thousand page faults instead of half a million.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <vector>

#include "storage/tuple/form.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::tuple {
namespace {

// A vector with room for n bytes, none of them touched yet, advised to use huge pages.
std::vector<uint8_t> ReservedBuffer(size_t n) {
  std::vector<uint8_t> v;
  v.reserve(n);
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(v.data()) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(v.data()) + n) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  return v;
}

// A tuple of exactly kMaxFormedTupleSize bytes (one 1 GB varlena) forms; one byte more does not.
TEST(FormTest, TupleSizeLimitIsInclusive) {
  Attribute a = *AttributeForType("text");
  a.attstorage = 'p';
  TupleDesc d({a});
  const size_t value_size = kMaxFormedTupleSize - 24;
  std::vector<uint8_t> v = ReservedBuffer(value_size + 1);  // no regrowth on the push_back below
  v.resize(value_size, 'x');
  StoreLE32(v.data(), static_cast<uint32_t>(value_size << 2));
  // Both calls form into `out` without it growing.
  std::vector<uint8_t> out = ReservedBuffer(kMaxFormedTupleSize + 2 * kMaxAlign);
  ASSERT_TRUE(FormHeapTupleInto(d, {Datum(ByteView(v))}, FormOptions{}, &out).ok());
  EXPECT_EQ(out.size(), kMaxFormedTupleSize);
  v.push_back('x');
  StoreLE32(v.data(), static_cast<uint32_t>((value_size + 1) << 2));
  EXPECT_EQ(FormHeapTupleInto(d, {Datum(ByteView(v))}, FormOptions{}, &out).message(),
            "tuple too large");
}

}  // namespace
}  // namespace pgstore::tuple
