#include "storage/tuple/tuple_header.h"

namespace pgstore::tuple {

TupleHeader ReadRawTupleHeader(ByteView tuple) {
  const uint8_t* p = tuple.data;
  TupleHeader h;
  h.xmin = LoadLE32(p + kOffXmin);
  h.xmax = LoadLE32(p + kOffXmax);
  h.cid = LoadLE32(p + kOffCid);
  h.ctid_block = static_cast<uint32_t>(LoadLE16(p + kOffCtid)) << 16 | LoadLE16(p + kOffCtid + 2);
  h.ctid_offset = LoadLE16(p + kOffCtid + 4);
  h.infomask2 = LoadLE16(p + kOffInfomask2);
  h.infomask = LoadLE16(p + kOffInfomask);
  h.hoff = p[kOffHoff];
  h.natts = h.infomask2 & kNattsMask;
  return h;
}

StatusOr<TupleHeader> ParseTupleHeader(ByteView tuple) {
  if (tuple.size < kHeaderSize) return Status::Corruption("tuple shorter than header");
  const uint8_t* p = tuple.data;
  TupleHeader h = ReadRawTupleHeader(tuple);
  if (h.infomask & kHasOidOld) return Status::Corruption("unexpected oid flag");
  const size_t bitmap_len = h.has_null() ? BitmapLen(h.natts) : 0;
  if (h.hoff != HeaderLength(h.natts, h.has_null())) return Status::Corruption("t_hoff mismatch");
  if (h.hoff > tuple.size) return Status::Corruption("t_hoff beyond end of tuple");
  for (size_t i = kHeaderSize + bitmap_len; i < h.hoff; ++i) {
    if (p[i] != 0) return Status::Corruption("nonzero padding");
  }
  h.bitmap = tuple.Sub(kHeaderSize, bitmap_len);
  return h;
}

void EncodeTupleHeader(const TupleHeader& h, uint8_t* out) {
  StoreLE32(out + kOffXmin, h.xmin);
  StoreLE32(out + kOffXmax, h.xmax);
  StoreLE32(out + kOffCid, h.cid);
  StoreLE16(out + kOffCtid, static_cast<uint16_t>(h.ctid_block >> 16));
  StoreLE16(out + kOffCtid + 2, static_cast<uint16_t>(h.ctid_block));
  StoreLE16(out + kOffCtid + 4, h.ctid_offset);
  StoreLE16(out + kOffInfomask2, h.infomask2);
  StoreLE16(out + kOffInfomask, h.infomask);
  out[kOffHoff] = h.hoff;
}

}  // namespace pgstore::tuple
