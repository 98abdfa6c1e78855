// pglz's size limits at their edges: PostgreSQL's pglz_compress takes an int32 length, so an
// input of INT32_MAX bytes is compressed and one of INT32_MAX + 1 is refused; a compressed datum's
// raw size is a 30-bit field, so a value of 2^30 - 1 bytes is compressed and one of 2^30 is not.
// A test of its own because it reads 3 GiB: the inputs are an anonymous read-only mapping (every
// page the kernel's zero page, so reading it allocates nothing) and the compressor's output a
// mapping of which only the few megabytes written are ever touched (CompressDatum's own buffer
// is 1 GiB, zero-filled).
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/pglz/compress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/pglz/toast_datum.h"

namespace pgstore::pglz {
namespace {

// `n` bytes of address space, zero-filled on first touch, released when it goes out of scope.
class Mapping {
 public:
  Mapping(size_t n, int prot) : size_(n) {
    void* p = mmap(nullptr, n, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  ~Mapping() {
    if (data_ != nullptr) munmap(data_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  uint8_t* data() const { return data_; }

 private:
  size_t size_;
  uint8_t* data_;
};

TEST(CompressSizeLimitTest, Int32MaxBytesAreCompressedOneMoreAreNot) {
  constexpr size_t kLimit = INT32_MAX;
  const Mapping src(kLimit + 1, PROT_READ);
  const Mapping dest(static_cast<size_t>(MaxOutput(kLimit)), PROT_READ | PROT_WRITE);
  ASSERT_NE(src.data(), nullptr);
  ASSERT_NE(dest.data(), nullptr);

  EXPECT_EQ(Compress(ByteView(src.data(), kLimit + 1), dest.data()), std::nullopt);
  const std::optional<int32_t> size = Compress(ByteView(src.data(), kLimit), dest.data());
  ASSERT_TRUE(size.has_value());
  // Zeros compress to 3-byte tags of 273 bytes each, a control byte per 8 tags: about 24 MB.
  EXPECT_GT(*size, 0);
  EXPECT_LT(*size, static_cast<int32_t>(kLimit / 64));
}

TEST(CompressDatumSizeLimitTest, RawSizeOf2To30Minus1IsCompressedOneMoreIsNot) {
  constexpr size_t kLimit = kExtSizeMask;
  const Mapping src(kLimit + 1, PROT_READ);
  ASSERT_NE(src.data(), nullptr);

  EXPECT_EQ(CompressDatum(ByteView(src.data(), kLimit + 1)), std::nullopt);
  const std::optional<std::vector<uint8_t>> datum = CompressDatum(ByteView(src.data(), kLimit));
  ASSERT_TRUE(datum.has_value());
  const StatusOr<CompressedDatumHeader> header = GetCompressedDatumHeader(ByteView(*datum));
  ASSERT_TRUE(header.ok()) << header.status().ToString();
  EXPECT_EQ(header->raw_size, kLimit);
  EXPECT_EQ(header->total_size, datum->size());
}

}  // namespace
}  // namespace pgstore::pglz
