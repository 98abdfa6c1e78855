#include "storage/tidstore/offset_set.h"

#include <algorithm>
#include <cstring>

#include "storage/tidstore/partition_point.h"

namespace pgstore::tidstore {
namespace {

size_t ListBytes(size_t n) { return 2 * n; }
size_t BitmapBytes(const uint16_t* offsets, size_t n) {
  return 2 + (offsets[n - 1] >> 3) - (offsets[0] >> 3) + 1;
}
size_t RunCount(const uint16_t* offsets, size_t n) {
  size_t runs = 1;
  for (size_t i = 1; i < n; ++i) runs += offsets[i] != offsets[i - 1] + 1;
  return runs;
}

// The payload bytes of an entry, viewed as bytes (little-endian, after the 2-byte header).
const uint8_t* Payload(const uint32_t* entry) {
  return reinterpret_cast<const uint8_t*>(entry) + 2;
}
uint16_t Header(const uint32_t* entry) {
  uint16_t h;
  std::memcpy(&h, entry, 2);
  return h;
}
size_t PayloadBytes(const uint32_t* entry) { return Header(entry) & 0x3FFF; }
uint16_t U16At(const uint8_t* p, size_t i) {
  uint16_t v;
  std::memcpy(&v, p + 2 * i, 2);
  return v;
}

}  // namespace

uint16_t EmbeddedSlot(const uint16_t* offsets, size_t n) {
  if (n == 1) return offsets[0];
  // Strictly ascending from 1, so ending at n means every offset 1..n.
  if (offsets[0] == 1 && offsets[n - 1] == n) return static_cast<uint16_t>(kPrefixRunSlot + n);
  return 0;
}

bool IsValidEmbedded(uint16_t slot) {
  return (slot >= 1 && slot <= kMaxOffsetNumber) ||
         (slot >= kPrefixRunSlot + 2 && slot <= kPrefixRunSlot + kMaxOffsetNumber);
}

size_t EmbeddedCount(uint16_t slot) { return slot > kPrefixRunSlot ? slot - kPrefixRunSlot : 1; }

bool EmbeddedContains(uint16_t slot, uint16_t offset) {
  return slot > kPrefixRunSlot ? offset >= 1 && offset <= slot - kPrefixRunSlot : offset == slot;
}

void AppendEmbeddedOffsets(uint16_t slot, std::vector<uint16_t>* out) {
  if (slot <= kPrefixRunSlot) {
    out->push_back(slot);
    return;
  }
  for (uint16_t o = 1; o <= slot - kPrefixRunSlot; ++o) out->push_back(o);
}

OffsetEncoding ChooseEncoding(const uint16_t* offsets, size_t n) {
  if (n == 1) return OffsetEncoding::kEmbedded;
  if (EmbeddedSlot(offsets, n) != 0) return OffsetEncoding::kPrefixRun;
  if (n == 2) return OffsetEncoding::kPair;
  const size_t list = ListBytes(n), bitmap = BitmapBytes(offsets, n),
               runs = 4 * RunCount(offsets, n);
  if (bitmap <= list && bitmap <= runs) return OffsetEncoding::kBitmap;
  if (runs <= list) return OffsetEncoding::kRuns;
  return OffsetEncoding::kList;
}

std::vector<uint32_t> EncodePoolEntry(const uint16_t* offsets, size_t n) {
  const OffsetEncoding kind = ChooseEncoding(offsets, n);
  if (kind == OffsetEncoding::kPair) {
    return {static_cast<uint32_t>(offsets[0]) | static_cast<uint32_t>(offsets[1]) << 16};
  }
  std::vector<uint8_t> bytes(2);
  const auto put16 = [&bytes](uint16_t v) {
    bytes.push_back(static_cast<uint8_t>(v));
    bytes.push_back(static_cast<uint8_t>(v >> 8));
  };
  switch (kind) {
    case OffsetEncoding::kBitmap: {
      const uint16_t first = offsets[0] >> 3;
      put16(first);
      const size_t start = bytes.size();
      bytes.resize(start + (offsets[n - 1] >> 3) - first + 1, 0);
      for (size_t i = 0; i < n; ++i) {
        bytes[start + (offsets[i] >> 3) - first] |= static_cast<uint8_t>(1u << (offsets[i] & 7));
      }
      break;
    }
    case OffsetEncoding::kRuns: {
      uint16_t start = offsets[0];
      for (size_t i = 1; i <= n; ++i) {
        if (i == n || offsets[i] != offsets[i - 1] + 1) {
          put16(start);
          put16(offsets[i - 1]);
          if (i < n) start = offsets[i];
        }
      }
      break;
    }
    default:
      for (size_t i = 0; i < n; ++i) put16(offsets[i]);
      break;
  }
  const uint16_t header =
      static_cast<uint16_t>(static_cast<uint16_t>(kind) << 14 | (bytes.size() - 2));
  std::memcpy(bytes.data(), &header, 2);
  std::vector<uint32_t> units((bytes.size() + 3) / 4, 0);
  std::memcpy(units.data(), bytes.data(), bytes.size());
  return units;
}

size_t EntryUnits(const uint32_t* entry) {
  if (EntryEncoding(entry) == OffsetEncoding::kPair) return 1;
  return (2 + PayloadBytes(entry) + 3) / 4;
}

OffsetEncoding EntryEncoding(const uint32_t* entry) {
  return static_cast<OffsetEncoding>(Header(entry) >> 14);
}

bool EntryContains(const uint32_t* entry, uint16_t offset) {
  const uint8_t* p = Payload(entry);
  const size_t len = PayloadBytes(entry);
  switch (EntryEncoding(entry)) {
    case OffsetEncoding::kPair:
      return offset == (entry[0] & 0x3FFF) || offset == (entry[0] >> 16);
    case OffsetEncoding::kBitmap: {
      const size_t byte = offset >> 3, first = U16At(p, 0);
      if (byte < first || byte - first >= len - 2) return false;
      return (p[2 + byte - first] >> (offset & 7)) & 1;
    }
    case OffsetEncoding::kRuns: {
      // The runs starting at or before offset; the last of them must reach it.
      const size_t runs = internal::PartitionPoint(
          len / 4, [p, offset](size_t r) { return U16At(p, 2 * r) <= offset; });
      return runs > 0 && offset <= U16At(p, 2 * (runs - 1) + 1);
    }
    default: {
      const size_t n = len / 2;
      const size_t i =
          internal::PartitionPoint(n, [p, offset](size_t k) { return U16At(p, k) < offset; });
      return i < n && U16At(p, i) == offset;
    }
  }
}

size_t EntryCount(const uint32_t* entry) {
  const uint8_t* p = Payload(entry);
  const size_t len = PayloadBytes(entry);
  switch (EntryEncoding(entry)) {
    case OffsetEncoding::kPair:
      return 2;
    case OffsetEncoding::kBitmap: {
      size_t count = 0;
      for (size_t i = 2; i < len; ++i) count += __builtin_popcount(p[i]);
      return count;
    }
    case OffsetEncoding::kRuns: {
      size_t count = 0;
      for (size_t r = 0; r < len / 4; ++r) count += U16At(p, 2 * r + 1) - U16At(p, 2 * r) + 1;
      return count;
    }
    default:
      return len / 2;
  }
}

void AppendEntryOffsets(const uint32_t* entry, std::vector<uint16_t>* out) {
  const uint8_t* p = Payload(entry);
  const size_t len = PayloadBytes(entry);
  switch (EntryEncoding(entry)) {
    case OffsetEncoding::kPair:
      out->push_back(static_cast<uint16_t>(entry[0] & 0x3FFF));
      out->push_back(static_cast<uint16_t>(entry[0] >> 16));
      break;
    case OffsetEncoding::kBitmap: {
      const size_t first = U16At(p, 0);
      for (size_t i = 2; i < len; ++i) {
        for (int b = 0; b < 8; ++b) {
          if ((p[i] >> b) & 1) out->push_back(static_cast<uint16_t>(((first + i - 2) << 3) + b));
        }
      }
      break;
    }
    case OffsetEncoding::kRuns:
      for (size_t r = 0; r < len / 4; ++r) {
        for (uint32_t o = U16At(p, 2 * r); o <= U16At(p, 2 * r + 1); ++o) {
          out->push_back(static_cast<uint16_t>(o));
        }
      }
      break;
    default:
      for (size_t i = 0; i < len / 2; ++i) out->push_back(U16At(p, i));
      break;
  }
}

}  // namespace pgstore::tidstore
