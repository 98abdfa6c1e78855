// Shared helpers for pgstore's fuzz targets: an always-on assertion, an input splitter that takes
// parameters from the tail and leaves the payload at the front, and exact-size copies so that
// AddressSanitizer sees any read past the end of a payload.
#ifndef PGSTORE_FUZZERS_FUZZ_HELPERS_H_
#define PGSTORE_FUZZERS_FUZZ_HELPERS_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "storage/common/bytes.h"

// Checked in every build mode (unlike assert): a failed oracle must crash the fuzzer.
#define FUZZ_ASSERT(cond)                                                                      \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      std::fprintf(stderr, "FUZZ_ASSERT failed: %s\n  at %s:%d\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                            \
    }                                                                                          \
  } while (0)

namespace pgstore::fuzz {

// Splits a fuzz input: fixed-size parameters are taken from the end, the payload is what remains
// at the front. Taking from the tail keeps the payload's bytes at stable offsets while the
// engine mutates parameters, and lets seed files be plain payloads plus a few trailing bytes.
// When the input runs out, parameters read as zero.
class TailSplitter {
 public:
  TailSplitter(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t TakeU8() {
    if (size_ == 0) return 0;
    --size_;
    return data_[size_];
  }
  // Multi-byte values: the first byte taken (the one nearest the end) is the least significant.
  // (Separate statements: the order of operands of | is unspecified.)
  uint16_t TakeU16() {
    const uint16_t lo = TakeU8();
    const uint16_t hi = TakeU8();
    return static_cast<uint16_t>(lo | (hi << 8));
  }
  uint32_t TakeU32() {
    const uint32_t lo = TakeU16();
    const uint32_t hi = TakeU16();
    return lo | (hi << 16);
  }
  bool TakeBool() { return (TakeU8() & 1) != 0; }
  // A value in [lo, hi]. REQUIRES: lo <= hi.
  uint32_t TakeInRange(uint32_t lo, uint32_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - lo + 1;
    return static_cast<uint32_t>(lo + TakeU32() % span);
  }

  // The untaken front part.
  ByteView Payload() const { return ByteView(data_, size_); }

 private:
  const uint8_t* data_;
  size_t size_;
};

// Reads operation fields from the front of an input, for targets that decode a sequence of
// operations; fields read as zero once the input runs out.
class FrontReader {
 public:
  FrontReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit FrontReader(ByteView v) : FrontReader(v.data, v.size) {}
  bool empty() const { return pos_ >= size_; }
  uint8_t U8() { return pos_ < size_ ? data_[pos_++] : 0; }
  // Little-endian. (Separate statements: the order of operands of | is unspecified.)
  uint16_t U16() {
    const uint16_t lo = U8();
    const uint16_t hi = U8();
    return static_cast<uint16_t>(lo | hi << 8);
  }
  uint32_t U32() {
    const uint32_t lo = U16();
    const uint32_t hi = U16();
    return lo | hi << 16;
  }
  std::vector<uint8_t> Bytes(size_t n) {
    std::vector<uint8_t> out(n);
    for (auto& b : out) b = U8();
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A heap copy of exactly view.size bytes (no slack), so ASan flags any over-read.
inline std::unique_ptr<uint8_t[]> ExactCopy(ByteView view) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[view.size > 0 ? view.size : 1]);
  if (view.size > 0) std::memcpy(copy.get(), view.data, view.size);
  return copy;
}

// A heap copy one byte past an aligned address, ending exactly where its allocation does: a
// decoder that reads a multi-byte field through a typed pointer reads it misaligned (UBSan
// reports it), and ASan still flags any read past the end.
class OddCopy {
 public:
  explicit OddCopy(ByteView view) : buffer_(new uint8_t[view.size + 1]), size_(view.size) {
    if (view.size > 0) std::memcpy(buffer_.get() + 1, view.data, view.size);
  }
  ByteView View() const { return ByteView(buffer_.get() + 1, size_); }

 private:
  std::unique_ptr<uint8_t[]> buffer_;
  size_t size_;
};

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_FUZZ_HELPERS_H_
