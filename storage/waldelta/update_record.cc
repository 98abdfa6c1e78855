#include "storage/waldelta/update_record.h"

#include <cstring>
#include <string>

#include "storage/tuple/tuple_header.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"

namespace pgstore::waldelta {

StatusOr<XlHeapUpdate> XlHeapUpdate::Parse(ByteView main_data) {
  if (main_data.size != kSizeOfHeapUpdate) {
    return Status::InvalidArgument("xl_heap_update: " + std::to_string(main_data.size) +
                                   " bytes, need 14");
  }
  const uint8_t* p = main_data.data;
  XlHeapUpdate x;
  x.old_xmax = LoadLE32(p);
  x.old_offnum = LoadLE16(p + 4);
  x.old_infobits_set = p[6];
  x.flags = p[7];
  x.new_xmax = LoadLE32(p + 8);
  x.new_offnum = LoadLE16(p + 12);
  return x;
}

std::vector<uint8_t> XlHeapUpdate::Serialize() const {
  std::vector<uint8_t> out(kSizeOfHeapUpdate);
  StoreLE32(&out[0], old_xmax);
  StoreLE16(&out[4], old_offnum);
  out[6] = old_infobits_set;
  out[7] = flags;
  StoreLE32(&out[8], new_xmax);
  StoreLE16(&out[12], new_offnum);
  return out;
}

StatusOr<ByteView> UserData(ByteView tuple) {
  if (tuple.size < kTupleHeaderSize) return Status::Corruption("tuple shorter than its header");
  const size_t hoff = tuple[tuple::kOffHoff];
  if (hoff < kTupleHeaderSize || hoff > tuple.size) {
    return Status::Corruption("t_hoff " + std::to_string(hoff) + " outside the tuple");
  }
  return tuple.Sub(hoff, tuple.size - hoff);
}

namespace {

// The middle of the new tuple's user data, from a pgstore delta payload.
StatusOr<std::vector<uint8_t>> DecodeDelta(ByteView old_data, ByteView payload) {
  if (payload.size < kDeltaHeaderSize) return Status::Corruption("truncated delta header");
  const uint8_t method = payload[0];
  const size_t middle_len = LoadLE16(payload.data + 1);
  if (middle_len > kMaxHeapTupleSize) return Status::Corruption("delta middle too long");
  const ByteView body = payload.Sub(kDeltaHeaderSize, payload.size - kDeltaHeaderSize);
  switch (static_cast<DeltaBody>(method)) {
    case DeltaBody::kPglzHistory:
      return PglzHistoryDecode(old_data, body, middle_len);
    case DeltaBody::kChunk:
      return ChunkDecode(old_data, body, middle_len);
  }
  return Status::Corruption("unknown delta method " + std::to_string(method));
}

}  // namespace

StatusOr<std::vector<uint8_t>> ReconstructNewTuple(ByteView old_tuple, uint8_t flags,
                                                   ByteView block_data, const RedoHeader& header) {
  StatusOr<ByteView> old_data = UserData(old_tuple);
  if (!old_data.ok()) return Status::Corruption("old tuple: " + old_data.status().message());
  const uint8_t* p = block_data.data;
  const uint8_t* const end = block_data.data + block_data.size;
  size_t prefixlen = 0, suffixlen = 0;
  if (flags & kFlagPrefixFromOld) {
    if (end - p < 2) return Status::Corruption("block data too short for prefixlen");
    prefixlen = LoadLE16(p);
    p += 2;
  }
  if (flags & kFlagSuffixFromOld) {
    if (end - p < 2) return Status::Corruption("block data too short for suffixlen");
    suffixlen = LoadLE16(p);
    p += 2;
  }
  if (prefixlen + suffixlen > old_data->size) {
    return Status::Corruption("prefixlen " + std::to_string(prefixlen) + " + suffixlen " +
                              std::to_string(suffixlen) + " beyond the old tuple's " +
                              std::to_string(old_data->size) + " data bytes");
  }
  if (static_cast<size_t>(end - p) < kSizeOfHeapHeader) {
    return Status::Corruption("block data too short for xl_heap_header");
  }
  const uint16_t infomask2 = LoadLE16(p);
  const uint16_t infomask = LoadLE16(p + 2);
  const uint8_t hoff = p[4];
  p += kSizeOfHeapHeader;
  if (hoff < kTupleHeaderSize) return Status::Corruption("t_hoff below the tuple header");
  const size_t bits_len = hoff - kTupleHeaderSize;
  if (static_cast<size_t>(end - p) < bits_len) {
    return Status::Corruption("t_hoff beyond the record's data");
  }
  const ByteView bits(p, bits_len);
  p += bits_len;
  ByteView middle(p, static_cast<size_t>(end - p));
  std::vector<uint8_t> decoded;
  if (flags & kFlagPgstoreDelta) {
    StatusOr<std::vector<uint8_t>> d = DecodeDelta(*old_data, middle);
    if (!d.ok()) return d.status();
    decoded = std::move(*d);
    middle = ByteView(decoded);
  }
  const size_t new_len = kTupleHeaderSize + bits_len + prefixlen + middle.size + suffixlen;
  if (new_len > kMaxHeapTupleSize) {
    return Status::Corruption("new tuple of " + std::to_string(new_len) +
                              " bytes exceeds MaxHeapTupleSize");
  }
  std::vector<uint8_t> rebuilt(new_len, 0);
  tuple::TupleHeader h;
  h.xmin = header.xid;
  h.xmax = header.new_xmax;
  h.cid = kFirstCommandId;
  h.ctid_block = header.block;
  h.ctid_offset = header.offnum;
  h.infomask2 = infomask2;
  h.infomask = infomask;
  h.hoff = hoff;
  tuple::EncodeTupleHeader(h, rebuilt.data());
  uint8_t* out = rebuilt.data() + kTupleHeaderSize;
  auto append = [&out](ByteView v) {
    if (v.size > 0) std::memcpy(out, v.data, v.size);
    out += v.size;
  };
  append(bits);
  append(old_data->Sub(0, prefixlen));
  append(middle);
  append(old_data->Sub(old_data->size - suffixlen, suffixlen));
  return rebuilt;
}

}  // namespace pgstore::waldelta
