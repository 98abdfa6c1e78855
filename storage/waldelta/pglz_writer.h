// Writing pglz's stream (storage/pglz/pglz_format.h) into a buffer already large enough: each
// control byte is followed by the up to 8 items its bits describe, least significant bit first
// (0 = a literal byte, 1 = a 2- or 3-byte tag of length 3..273 and offset 1..4095). Shared by the
// delta encoders that emit pglz-history bodies (pglz_history.h).
#ifndef PGSTORE_STORAGE_WALDELTA_PGLZ_WRITER_H_
#define PGSTORE_STORAGE_WALDELTA_PGLZ_WRITER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "storage/pglz/pglz_format.h"

namespace pgstore::waldelta {

struct PglzWriter {
  uint8_t* p;
  uint8_t* ctrl = nullptr;
  int bit = pglz::kItemsPerControlByte;

  void Item(bool tag) {
    if (bit == pglz::kItemsPerControlByte) {
      ctrl = p++;
      *ctrl = 0;
      bit = 0;
    }
    if (tag) *ctrl |= static_cast<uint8_t>(1u << bit);
    ++bit;
  }
  void Literal(uint8_t b) {
    Item(false);
    *p++ = b;
  }
  // n literal bytes from src: copied between the control bytes they need.
  void Literals(const uint8_t* src, size_t n) {
    while (n > 0) {
      if (bit == pglz::kItemsPerControlByte) {
        ctrl = p++;
        *ctrl = 0;
        bit = 0;
      }
      const size_t k = std::min(n, static_cast<size_t>(pglz::kItemsPerControlByte - bit));
      std::memcpy(p, src, k);
      p += k, src += k, n -= k;
      bit += static_cast<int>(k);
    }
  }
  void Tag(int len, int off) {
    Item(true);
    if (len > pglz::kMaxShortTagMatch) {
      *p++ = static_cast<uint8_t>(((off & 0xf00) >> 4) | 0x0f);
      *p++ = static_cast<uint8_t>(off & 0xff);
      *p++ = static_cast<uint8_t>(len - 18);
    } else {
      *p++ = static_cast<uint8_t>(((off & 0xf00) >> 4) | (len - 3));
      *p++ = static_cast<uint8_t>(off & 0xff);
    }
  }
};

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_PGLZ_WRITER_H_
