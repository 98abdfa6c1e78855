// Byte spans and little-endian coding helpers shared by every format in storage/.
//
// ByteView is a non-owning (pointer, length) pair: C++17 has no std::span. Put* appends to a
// std::vector; Load*/Store* are unchecked and marked REQUIRES: the caller has checked the length.
#ifndef PGSTORE_STORAGE_COMMON_BYTES_H_
#define PGSTORE_STORAGE_COMMON_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace pgstore {

static_assert(sizeof(void*) == 8, "pgstore assumes a 64-bit build (MAXALIGN 8)");
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "pgstore's on-disk formats are the little-endian PostgreSQL formats");

// MAXALIGN on a 64-bit build: tuples on a page, t_hoff and line pointer offsets are multiples of 8.
inline constexpr size_t kMaxAlign = 8;
// BLCKSZ: the size of a heap page, an undo page, and of the block a tuple must fit in.
inline constexpr size_t kBlockSize = 8192;
// n rounded up to a multiple of a. REQUIRES: a is a power of two.
constexpr size_t AlignTo(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }
constexpr size_t MaxAlign(size_t n) { return AlignTo(n, kMaxAlign); }

struct ByteView {
  const uint8_t* data = nullptr;
  size_t size = 0;

  ByteView() = default;
  ByteView(const uint8_t* d, size_t n) : data(d), size(n) {}
  ByteView(const std::vector<uint8_t>& v) : data(v.data()), size(v.size()) {}  // NOLINT
  static ByteView FromString(const std::string& s) {
    return ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }

  bool empty() const { return size == 0; }
  const uint8_t* begin() const { return data; }
  const uint8_t* end() const { return data + size; }
  uint8_t operator[](size_t i) const { return data[i]; }
  // REQUIRES: pos + n <= size.
  ByteView Sub(size_t pos, size_t n) const { return ByteView(data + pos, n); }
  std::vector<uint8_t> ToVector() const { return std::vector<uint8_t>(begin(), end()); }
};

// REQUIRES: p points at 2/4/8 readable or writable bytes.
inline uint16_t LoadLE16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint32_t LoadLE32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline uint64_t LoadLE64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void StoreLE16(uint8_t* p, uint16_t v) { std::memcpy(p, &v, sizeof v); }
inline void StoreLE32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, sizeof v); }
inline void StoreLE64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, sizeof v); }

// Appends v's little-endian bytes to *out.
template <typename T>
inline void PutLE(std::vector<uint8_t>* out, T v) {
  const size_t at = out->size();
  out->resize(at + sizeof v);
  std::memcpy(out->data() + at, &v, sizeof v);
}
inline void PutLE16(std::vector<uint8_t>* out, uint16_t v) { PutLE(out, v); }
inline void PutLE32(std::vector<uint8_t>* out, uint32_t v) { PutLE(out, v); }
inline void PutLE64(std::vector<uint8_t>* out, uint64_t v) { PutLE(out, v); }

}  // namespace pgstore

#endif  // PGSTORE_STORAGE_COMMON_BYTES_H_
