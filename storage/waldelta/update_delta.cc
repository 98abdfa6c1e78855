#include "storage/waldelta/update_delta.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "storage/pglz/pglz_format.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_aligned.h"
#include "storage/waldelta/pglz_history.h"

namespace pgstore::waldelta {
namespace {

constexpr size_t kMinElision =
    3;  // log_heap_update: a shorter prefix or suffix is not worth 2 bytes

// A record of block 0: the lengths the flags announce, xl_heap_header and the bits (t_infomask2,
// t_infomask, t_hoff and the bitmap lie contiguously in the tuple, bytes 18..t_hoff), then
// `payload` (the pieces given, in order). Built in one allocation with plain copies.
// Writes into *out, reusing its capacity.
void BuildRecord(ByteView new_tuple, const PrefixSuffix& ps,
                 std::initializer_list<ByteView> payload, std::vector<uint8_t>* out) {
  const size_t head_len = (ps.prefix > 0 ? 2 : 0) + (ps.suffix > 0 ? 2 : 0);
  const ByteView header_and_bits =
      new_tuple.Sub(tuple::kOffInfomask2, new_tuple[tuple::kOffHoff] - tuple::kOffInfomask2);
  size_t size = head_len + header_and_bits.size;
  for (ByteView piece : payload) size += piece.size;
  out->resize(size);
  uint8_t* p = out->data();
  if (ps.prefix > 0) StoreLE16(p, static_cast<uint16_t>(ps.prefix)), p += 2;
  if (ps.suffix > 0) StoreLE16(p, static_cast<uint16_t>(ps.suffix)), p += 2;
  std::memcpy(p, header_and_bits.data, header_and_bits.size);
  p += header_and_bits.size;
  for (ByteView piece : payload) {
    if (piece.size > 0) std::memcpy(p, piece.data, piece.size);
    p += piece.size;
  }
}

uint8_t ElisionFlags(const PrefixSuffix& ps) {
  return (ps.prefix > 0 ? kFlagPrefixFromOld : 0) | (ps.suffix > 0 ? kFlagSuffixFromOld : 0);
}

void PrefixSuffixRecord(ByteView new_tuple, ByteView new_data, const PrefixSuffix& ps,
                        UpdateRecord* out) {
  const ByteView middle = new_data.Sub(ps.prefix, new_data.size - ps.prefix - ps.suffix);
  out->flags = ElisionFlags(ps);
  BuildRecord(new_tuple, ps, {middle}, &out->block_data);
}

// The general encoders; both pglz ones write a pglz-history body.
enum class GeneralEncoder { kPglzHistory, kPglzAligned, kChunk };

// The general delta's record, or nothing when its body would not be smaller than the middle.
bool GeneralRecord(ByteView old_data, ByteView new_tuple, ByteView new_data, const PrefixSuffix& ps,
                   GeneralEncoder encoder, UpdateRecord* out) {
  const ByteView middle = new_data.Sub(ps.prefix, new_data.size - ps.prefix - ps.suffix);
  if (middle.size < kMinDeltaMiddle) return false;
  thread_local std::vector<uint8_t> body;  // reused: no allocation per update
  DeltaBody kind = DeltaBody::kPglzHistory;
  if (encoder == GeneralEncoder::kPglzHistory) {
    PglzHistoryEncodeInto(old_data, middle, &body);
  } else if (encoder == GeneralEncoder::kPglzAligned) {
    if (!PglzAlignedEncodeInto(old_data, middle, ps.prefix, ps.suffix, &body)) return false;
  } else {
    kind = DeltaBody::kChunk;
    ChunkEncodeInto(old_data, middle, &body);
  }
  if (kDeltaHeaderSize + body.size() >= middle.size) return false;
  uint8_t delta_header[kDeltaHeaderSize] = {static_cast<uint8_t>(kind)};
  StoreLE16(delta_header + 1, static_cast<uint16_t>(middle.size));
  out->flags = ElisionFlags(ps) | kFlagPgstoreDelta;
  BuildRecord(new_tuple, ps, {ByteView(delta_header, kDeltaHeaderSize), ByteView(body)},
              &out->block_data);
  return true;
}

// Whether the null bitmap changed: a NULL that came or went moved the data after it. One 32-bit
// load per tuple (bytes 19..22: t_infomask's HEAP_HASNULL is bit 8, t_hoff bits 24..31) decides
// it unless both tuples have a bitmap of the same length.
inline bool NullBitmapChanged(ByteView old_tuple, ByteView new_tuple) {
  constexpr size_t kWordAt = tuple::kOffInfomask - 1;
  constexpr uint32_t kHasNullBit = uint32_t{tuple::kHasNull} << 8 * (tuple::kOffInfomask - kWordAt);
  constexpr uint32_t kHoffBits = uint32_t{0xFF} << 8 * (tuple::kOffHoff - kWordAt);
  static_assert(kHasNullBit == 0x100 && kHoffBits == 0xFF000000, "bytes 19..22 of the header");
  const uint32_t old_word = LoadLE32(old_tuple.data + kWordAt);
  const uint32_t new_word = LoadLE32(new_tuple.data + kWordAt);
  if ((old_word ^ new_word) & (kHasNullBit | kHoffBits)) return true;
  return (new_word & kHasNullBit) &&
         std::memcmp(old_tuple.data + kTupleHeaderSize, new_tuple.data + kTupleHeaderSize,
                     new_tuple[tuple::kOffHoff] - kTupleHeaderSize) != 0;
}

// Auto's probe: whether one of the two 4-byte words in the middle of the new data (at a multiple
// of 8 from the data start, where fixed-width columns lie) is in the old data at the same place.
// One 8-byte load from each and a compare beyond what the prefix-suffix record costs: it must
// cost next to nothing when nothing matches. Returns the shared word's position, or SIZE_MAX.
inline size_t ProbeMiddle(ByteView old_data, ByteView new_data) {
  const size_t at = (new_data.size / 2) & ~size_t{7};
  if (at + 8 > old_data.size || at + 8 > new_data.size) return SIZE_MAX;
  const uint64_t x = LoadLE64(old_data.data + at) ^ LoadLE64(new_data.data + at);
  if (static_cast<uint32_t>(x) == 0) return at;
  if ((x >> 32) == 0) return at + 4;
  return SIZE_MAX;
}

}  // namespace

const char* DeltaMethodName(DeltaMethod m) {
  switch (m) {
    case DeltaMethod::kNone:
      return "none";
    case DeltaMethod::kPrefixSuffix:
      return "prefix-suffix";
    case DeltaMethod::kPglzHistory:
      return "pglz-history";
    case DeltaMethod::kPglzAligned:
      return "pglz-aligned";
    case DeltaMethod::kChunk:
      return "chunk";
    case DeltaMethod::kAuto:
      return "auto";
  }
  return "?";
}

StatusOr<DeltaMethod> ParseDeltaMethod(const std::string& name) {
  for (DeltaMethod m : kAllDeltaMethods) {
    if (name == DeltaMethodName(m)) return m;
  }
  return Status::InvalidArgument(
      "unknown delta method '" + name +
      "' (none, prefix-suffix, pglz-history, pglz-aligned, chunk, auto)");
}

// log_heap_update's byte loops, eight bytes at a time: the same lengths.
PrefixSuffix FindPrefixSuffix(ByteView old_data, ByteView new_data) {
  const size_t common = std::min(old_data.size, new_data.size);
  PrefixSuffix ps;
  size_t& p = ps.prefix;
  while (p + 8 <= common) {
    const uint64_t x = LoadLE64(old_data.data + p) ^ LoadLE64(new_data.data + p);
    if (x != 0) {
      p += __builtin_ctzll(x) / 8;  // little-endian: the lowest differing byte comes first
      break;
    }
    p += 8;
  }
  if (p + 8 > common) {
    while (p < common && old_data[p] == new_data[p]) ++p;
  }
  if (p < kMinElision) p = 0;
  const size_t limit = common - p;
  size_t& q = ps.suffix;
  while (q + 8 <= limit) {
    const uint64_t x = LoadLE64(old_data.data + old_data.size - q - 8) ^
                       LoadLE64(new_data.data + new_data.size - q - 8);
    if (x != 0) {
      q += __builtin_clzll(x) / 8;  // the highest differing byte is the last one
      break;
    }
    q += 8;
  }
  if (q + 8 > limit) {
    while (q < limit && old_data[old_data.size - q - 1] == new_data[new_data.size - q - 1]) {
      ++q;
    }
  }
  if (q < kMinElision) q = 0;
  return ps;
}

Status EncodeUpdateInto(ByteView old_tuple, ByteView new_tuple, DeltaMethod method, bool eligible,
                        UpdateRecord* out, AutoBudget* budget) {
  StatusOr<ByteView> old_data = UserData(old_tuple);
  if (!old_data.ok()) return Status::InvalidArgument("old tuple: " + old_data.status().message());
  StatusOr<ByteView> new_data = UserData(new_tuple);
  if (!new_data.ok()) return Status::InvalidArgument("new tuple: " + new_data.status().message());
  if (new_tuple.size > kMaxHeapTupleSize) {
    return Status::InvalidArgument("new tuple: longer than MaxHeapTupleSize");
  }
  if (!eligible || method == DeltaMethod::kNone) {
    PrefixSuffixRecord(new_tuple, *new_data, PrefixSuffix{}, out);
    return Status::Ok();
  }
  bool probe = method == DeltaMethod::kAuto;
  if (probe && budget != nullptr && budget->misses >= kAutoPatience) {
    const uint32_t skip_log2 = std::min(budget->misses - kAutoPatience + 1, kAutoMaxSkipLog2);
    probe = (budget->updates++ & ((1u << skip_log2) - 1)) == 0;
  }
  const size_t shared_at = probe ? ProbeMiddle(*old_data, *new_data) : SIZE_MAX;
  const PrefixSuffix ps = FindPrefixSuffix(*old_data, *new_data);
  bool try_pglz = method == DeltaMethod::kPglzHistory;
  bool try_chunk = method == DeltaMethod::kChunk;
  // A shared word inside the prefix or the suffix says nothing about the middle.
  const bool probe_in_middle = shared_at != SIZE_MAX && shared_at >= ps.prefix &&
                               shared_at + 4 <= new_data->size - ps.suffix;
  if (probe && new_data->size - ps.prefix - ps.suffix >= kMinDeltaMiddle &&
      (probe_in_middle || NullBitmapChanged(old_tuple, new_tuple))) {
    try_pglz = true;
    // pglz's offsets reach 4095 bytes back; beyond that only the chunk delta sees the history.
    try_chunk = old_data->size > pglz::kMaxOffset;
  }
  // A general record exists only when smaller than the prefix-suffix one; the smaller wins.
  bool found = try_pglz && GeneralRecord(*old_data, new_tuple, *new_data, ps,
                                         GeneralEncoder::kPglzHistory, out);
  if (method == DeltaMethod::kPglzAligned) {
    found = GeneralRecord(*old_data, new_tuple, *new_data, ps, GeneralEncoder::kPglzAligned, out);
  }
  if (try_chunk) {
    UpdateRecord chunk;
    if (GeneralRecord(*old_data, new_tuple, *new_data, ps, GeneralEncoder::kChunk, &chunk) &&
        (!found || chunk.block_data.size() < out->block_data.size())) {
      *out = std::move(chunk);
      found = true;
    }
  }
  if (!found) PrefixSuffixRecord(new_tuple, *new_data, ps, out);
  if (budget != nullptr && (probe || found)) budget->misses = found ? 0 : budget->misses + 1;
  return Status::Ok();
}

StatusOr<UpdateRecord> EncodeUpdate(ByteView old_tuple, ByteView new_tuple, DeltaMethod method,
                                    bool eligible) {
  UpdateRecord record;
  PGSTORE_RETURN_IF_ERROR(EncodeUpdateInto(old_tuple, new_tuple, method, eligible, &record));
  return record;
}

}  // namespace pgstore::waldelta
