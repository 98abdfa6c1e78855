#include "storage/page/checksum.h"

#include <cassert>

#include "storage/page/page_format.h"

namespace pgstore::page {
namespace {

constexpr int kNumSums = 32;  // N_SUMS
constexpr uint32_t kFnvPrime = 16777619;
constexpr uint32_t kBaseOffsets[kNumSums] = {
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3, 0x217E7CD2, 0x83E13D2C,
    0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA, 0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB,
    0xE58F764B, 0x187636BC, 0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979, 0xCCA6C0B2, 0x304A0979, 0x85AA43D4,
    0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E, 0x9FBF8C76, 0x15CA20BE, 0xF2CA9FD3, 0x959BD756};

inline uint32_t Mix(uint32_t sum, uint32_t value) {
  const uint32_t tmp = sum ^ value;
  return tmp * kFnvPrime ^ (tmp >> 17);
}

}  // namespace

uint32_t PageChecksumUnreduced(ByteView page, uint32_t blkno) {
  assert(page.size == kPageSize);
  uint32_t sums[kNumSums];
  for (int j = 0; j < kNumSums; ++j) sums[j] = kBaseOffsets[j];
  constexpr size_t kRows = kPageSize / (sizeof(uint32_t) * kNumSums);
  for (size_t i = 0; i < kRows; ++i) {
    for (int j = 0; j < kNumSums; ++j) {
      const size_t pos = (i * kNumSums + j) * sizeof(uint32_t);
      // pd_checksum (bytes 8-9, the low half of word 2) counts as zero.
      uint32_t word = LoadLE32(page.data + pos);
      if (pos == kOffChecksum) word &= 0xFFFF0000u;
      sums[j] = Mix(sums[j], word);
    }
  }
  for (int round = 0; round < 2; ++round) {
    for (int j = 0; j < kNumSums; ++j) sums[j] = Mix(sums[j], 0);
  }
  uint32_t result = 0;
  for (int j = 0; j < kNumSums; ++j) result ^= sums[j];
  return result ^ blkno;
}

uint16_t PageChecksum(ByteView page, uint32_t blkno) {
  return static_cast<uint16_t>(PageChecksumUnreduced(page, blkno) % 65535 + 1);
}

}  // namespace pgstore::page
