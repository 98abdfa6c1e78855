// Fuzz input layouts shared by the waldelta fuzz targets.
//
// An update pair: payload = old user data + new user data; from the tail (TailSplitter):
//   split:u16   where the payload divides (mod payload size + 1)
//   shape:u8    bit 0: the old tuple has a null bitmap; bit 1: the new one has; bits 2..7: the
//               bitmap's bytes (1 + shape >> 2 & 7)
//   mutate:u8   0..3: new = old with edits driven by the new part (so that most inputs share
//               data, as updates do); 4..255: new is the new part as given
// Each side becomes a heap tuple: 23-byte header (natts, HASNULL/HASVARWIDTH), the bitmap, zero
// padding to MAXALIGN, then the data.
#ifndef PGSTORE_FUZZERS_WALDELTA_FUZZ_PARAMS_H_
#define PGSTORE_FUZZERS_WALDELTA_FUZZ_PARAMS_H_

#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/common/bytes.h"

namespace pgstore::fuzz {

inline std::vector<uint8_t> MakeTuple(ByteView data, bool bitmap, size_t bitmap_bytes) {
  const size_t bits = bitmap ? bitmap_bytes : 0;
  const size_t hoff = MaxAlign(23 + bits);
  std::vector<uint8_t> t(hoff, 0);
  t[18] = static_cast<uint8_t>(bits > 0 ? bits * 8 : 1);  // natts
  t[20] = static_cast<uint8_t>(0x02 | (bitmap ? 0x01 : 0));
  t[22] = static_cast<uint8_t>(hoff);
  for (size_t i = 0; i < bits; ++i) t[23 + i] = static_cast<uint8_t>(0x55 + i);
  t.insert(t.end(), data.begin(), data.end());
  return t;
}

struct UpdatePairInput {
  std::vector<uint8_t> old_tuple;
  std::vector<uint8_t> new_tuple;
};

// Edits of the old data driven by `script`: pairs (op, arg) keep, replace, insert or delete
// bytes, so that the new data shares runs with the old at shifting offsets.
inline std::vector<uint8_t> EditData(ByteView old_data, ByteView script) {
  std::vector<uint8_t> out;
  size_t pos = 0;
  for (size_t i = 0; i + 1 < script.size; i += 2) {
    const uint8_t op = script[i] & 3, arg = script[i + 1];
    const size_t n = std::min<size_t>(arg % 64 + 1, old_data.size - pos);
    if (op == 0) {  // keep n bytes
      out.insert(out.end(), old_data.data + pos, old_data.data + pos + n);
      pos += n;
    } else if (op == 1) {  // replace a byte
      if (pos < old_data.size) {
        out.push_back(static_cast<uint8_t>(old_data[pos] ^ (arg | 1)));
        ++pos;
      }
    } else if (op == 2) {  // insert a byte
      out.push_back(arg);
    } else {  // delete n bytes
      pos += n;
    }
  }
  out.insert(out.end(), old_data.data + pos, old_data.end());
  return out;
}

inline UpdatePairInput DecodeUpdatePair(const uint8_t* data, size_t size) {
  TailSplitter in(data, size);
  const uint16_t split = in.TakeU16();
  const uint8_t shape = in.TakeU8();
  const uint8_t mutate = in.TakeU8();
  const ByteView payload = in.Payload();
  const size_t cut = split % (payload.size + 1);
  const ByteView old_data = payload.Sub(0, cut);
  const ByteView rest = payload.Sub(cut, payload.size - cut);
  const size_t bitmap_bytes = 1 + ((shape >> 2) & 7);
  std::vector<uint8_t> new_data = mutate < 4 ? EditData(old_data, rest) : rest.ToVector();
  if (new_data.size() > 8000) new_data.resize(8000);  // keep within MaxHeapTupleSize
  UpdatePairInput u;
  u.old_tuple = MakeTuple(old_data, shape & 1, bitmap_bytes);
  u.new_tuple = MakeTuple(ByteView(new_data), shape & 2, bitmap_bytes);
  return u;
}

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_WALDELTA_FUZZ_PARAMS_H_
