#include "storage/waldelta/update_delta.h"

#include <algorithm>
#include <cstring>

#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"

namespace pgstore::waldelta {
namespace {

constexpr size_t kMinElision = 3;  // log_heap_update: a shorter prefix or suffix is not worth 2 bytes

void PutLE16(std::vector<uint8_t>* out, size_t v) {
  uint8_t b[2];
  StoreLE16(b, static_cast<uint16_t>(v));
  out->insert(out->end(), b, b + 2);
}

// The record's start: the lengths the flags announce, xl_heap_header and the bits.
std::vector<uint8_t> RecordHead(ByteView new_tuple, const PrefixSuffix& ps, size_t reserve) {
  std::vector<uint8_t> out;
  out.reserve(4 + kSizeOfHeapHeader + reserve);
  if (ps.prefix > 0) PutLE16(&out, ps.prefix);
  if (ps.suffix > 0) PutLE16(&out, ps.suffix);
  // xl_heap_header: t_infomask2, t_infomask, t_hoff, as they lie in the tuple header.
  const uint8_t hoff = new_tuple[22];
  out.insert(out.end(), new_tuple.data + 18, new_tuple.data + 23);
  out.insert(out.end(), new_tuple.data + kTupleHeaderSize, new_tuple.data + hoff);
  return out;
}

uint8_t ElisionFlags(const PrefixSuffix& ps) {
  return (ps.prefix > 0 ? kFlagPrefixFromOld : 0) | (ps.suffix > 0 ? kFlagSuffixFromOld : 0);
}

UpdateRecord PrefixSuffixRecord(ByteView new_tuple, ByteView new_data, const PrefixSuffix& ps) {
  const ByteView middle = new_data.Sub(ps.prefix, new_data.size - ps.prefix - ps.suffix);
  UpdateRecord r;
  r.flags = ElisionFlags(ps);
  r.block_data = RecordHead(new_tuple, ps, middle.size);
  r.block_data.insert(r.block_data.end(), middle.begin(), middle.end());
  return r;
}

// The general delta's record, or nothing when its body would not be smaller than the middle.
bool GeneralRecord(ByteView old_data, ByteView new_tuple, ByteView new_data,
                   const PrefixSuffix& ps, DeltaBody method, UpdateRecord* out) {
  const ByteView middle = new_data.Sub(ps.prefix, new_data.size - ps.prefix - ps.suffix);
  const std::vector<uint8_t> body = method == DeltaBody::kPglzHistory
                                        ? PglzHistoryEncode(old_data, middle)
                                        : ChunkEncode(old_data, middle);
  if (kDeltaHeaderSize + body.size() >= middle.size) return false;
  out->flags = ElisionFlags(ps) | kFlagPgstoreDelta;
  out->block_data = RecordHead(new_tuple, ps, kDeltaHeaderSize + body.size());
  out->block_data.push_back(static_cast<uint8_t>(method));
  PutLE16(&out->block_data, middle.size);
  out->block_data.insert(out->block_data.end(), body.begin(), body.end());
  return true;
}

// Whether any of kAutoProbes 4-byte words of the middle (at multiples of 4 from the data start,
// where fixed-width columns lie) occurs in the old data within 2 bytes of the same distance from
// the data start or from the data end: cheap evidence that a general delta may find matches.
bool ProbesFindSharedBytes(ByteView old_data, ByteView new_data, const PrefixSuffix& ps) {
  const size_t middle = new_data.size - ps.prefix - ps.suffix;
  if (old_data.size < 8) return false;
  for (int k = 0; k < kAutoProbes; ++k) {
    const size_t at = (ps.prefix + (middle - 4) * (2 * k + 1) / (2 * kAutoProbes)) & ~size_t{3};
    const uint32_t word = LoadLE32(new_data.data + at);
    const size_t from_end = new_data.size - at;
    const size_t aligned[2] = {at, old_data.size >= from_end ? old_data.size - from_end : 0};
    for (size_t a : aligned) {
      // The 8 old bytes at a - 2 .. a + 5 hold the words at shifts -2..+2.
      const size_t start = std::min(a >= 2 ? a - 2 : 0, old_data.size - 8);
      const uint64_t old8 = LoadLE64(old_data.data + start);
      for (int shift = 0; shift <= 32; shift += 8) {
        if (static_cast<uint32_t>(old8 >> shift) == word) return true;
      }
    }
  }
  return false;
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
    case DeltaMethod::kChunk:
      return "chunk";
    case DeltaMethod::kAuto:
      return "auto";
  }
  return "?";
}

StatusOr<DeltaMethod> ParseDeltaMethod(const std::string& name) {
  for (DeltaMethod m : {DeltaMethod::kNone, DeltaMethod::kPrefixSuffix, DeltaMethod::kPglzHistory,
                        DeltaMethod::kChunk, DeltaMethod::kAuto}) {
    if (name == DeltaMethodName(m)) return m;
  }
  return Status::InvalidArgument("unknown delta method '" + name +
                                 "' (none, prefix-suffix, pglz-history, chunk, auto)");
}

PrefixSuffix FindPrefixSuffix(ByteView old_data, ByteView new_data) {
  const size_t common = std::min(old_data.size, new_data.size);
  PrefixSuffix ps;
  while (ps.prefix < common && old_data[ps.prefix] == new_data[ps.prefix]) ++ps.prefix;
  if (ps.prefix < kMinElision) ps.prefix = 0;
  while (ps.suffix < common - ps.prefix &&
         old_data[old_data.size - ps.suffix - 1] == new_data[new_data.size - ps.suffix - 1]) {
    ++ps.suffix;
  }
  if (ps.suffix < kMinElision) ps.suffix = 0;
  return ps;
}

StatusOr<UpdateRecord> EncodeUpdate(ByteView old_tuple, ByteView new_tuple, DeltaMethod method,
                                    bool eligible) {
  StatusOr<ByteView> old_data = UserData(old_tuple);
  if (!old_data.ok()) return Status::InvalidArgument("old tuple: " + old_data.status().message());
  StatusOr<ByteView> new_data = UserData(new_tuple);
  if (!new_data.ok()) return Status::InvalidArgument("new tuple: " + new_data.status().message());
  if (new_tuple.size > kMaxHeapTupleSize) {
    return Status::InvalidArgument("new tuple: longer than MaxHeapTupleSize");
  }
  if (!eligible || method == DeltaMethod::kNone) {
    return PrefixSuffixRecord(new_tuple, *new_data, PrefixSuffix{});
  }
  const PrefixSuffix ps = FindPrefixSuffix(*old_data, *new_data);
  UpdateRecord record = PrefixSuffixRecord(new_tuple, *new_data, ps);
  UpdateRecord general;
  switch (method) {
    case DeltaMethod::kPglzHistory:
      if (GeneralRecord(*old_data, new_tuple, *new_data, ps, DeltaBody::kPglzHistory, &general)) {
        return general;
      }
      return record;
    case DeltaMethod::kChunk:
      if (GeneralRecord(*old_data, new_tuple, *new_data, ps, DeltaBody::kChunk, &general)) {
        return general;
      }
      return record;
    case DeltaMethod::kAuto: {
      const size_t middle = new_data->size - ps.prefix - ps.suffix;
      if (middle < kAutoMinMiddle || !ProbesFindSharedBytes(*old_data, *new_data, ps)) {
        return record;
      }
      for (DeltaBody body : {DeltaBody::kPglzHistory, DeltaBody::kChunk}) {
        if (GeneralRecord(*old_data, new_tuple, *new_data, ps, body, &general) &&
            general.block_data.size() < record.block_data.size()) {
          record = std::move(general);
        }
      }
      return record;
    }
    default:
      return record;
  }
}

}  // namespace pgstore::waldelta
