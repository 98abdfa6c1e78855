#include "properties/models/waldelta_model.h"

#include <tuple>

namespace pgstore::models {
namespace {

constexpr size_t kHeader = 23;
constexpr size_t kMaxTuple = 8160;

uint16_t U16(const Bytes& b, size_t at) { return static_cast<uint16_t>(b[at] | b[at + 1] << 8); }
void PutU16(Bytes* b, size_t v) {
  b->push_back(static_cast<uint8_t>(v));
  b->push_back(static_cast<uint8_t>(v >> 8));
}
void PutU32(Bytes* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// The user data, or nullopt if t_hoff is out of range.
std::optional<Bytes> Data(const Bytes& tuple) {
  if (tuple.size() < kHeader || tuple[22] < kHeader || tuple[22] > tuple.size()) {
    return std::nullopt;
  }
  return Bytes(tuple.begin() + tuple[22], tuple.end());
}

}  // namespace

std::pair<size_t, size_t> ModelPrefixSuffix(const Bytes& old_data, const Bytes& new_data) {
  const size_t common = old_data.size() < new_data.size() ? old_data.size() : new_data.size();
  size_t prefix = 0;
  while (prefix < common && old_data[prefix] == new_data[prefix]) ++prefix;
  if (prefix < 3) prefix = 0;
  size_t suffix = 0;
  while (suffix < common - prefix &&
         old_data[old_data.size() - 1 - suffix] == new_data[new_data.size() - 1 - suffix]) {
    ++suffix;
  }
  if (suffix < 3) suffix = 0;
  return {prefix, suffix};
}

std::pair<uint8_t, Bytes> ModelBlockData(const Bytes& old_tuple, const Bytes& new_tuple,
                                         bool same_page) {
  const Bytes old_data = *Data(old_tuple), new_data = *Data(new_tuple);
  size_t prefix = 0, suffix = 0;
  if (same_page) std::tie(prefix, suffix) = ModelPrefixSuffix(old_data, new_data);
  uint8_t flags = 0;
  Bytes out;
  if (prefix > 0) {
    flags |= 0x20;
    PutU16(&out, prefix);
  }
  if (suffix > 0) {
    flags |= 0x40;
    PutU16(&out, suffix);
  }
  for (size_t i = 18; i < new_tuple[22]; ++i) out.push_back(new_tuple[i]);  // header, bits
  for (size_t i = prefix; i < new_data.size() - suffix; ++i) out.push_back(new_data[i]);
  return {flags, out};
}

std::optional<Bytes> ModelRedo(const Bytes& old_tuple, uint8_t flags, const Bytes& block_data,
                               const ModelRedoHeader& h) {
  const std::optional<Bytes> old_data = Data(old_tuple);
  if (!old_data) return std::nullopt;
  size_t pos = 0, prefix = 0, suffix = 0;
  if (flags & 0x20) {
    if (block_data.size() < pos + 2) return std::nullopt;
    prefix = U16(block_data, pos);
    pos += 2;
  }
  if (flags & 0x40) {
    if (block_data.size() < pos + 2) return std::nullopt;
    suffix = U16(block_data, pos);
    pos += 2;
  }
  if (prefix + suffix > old_data->size()) return std::nullopt;
  if (block_data.size() < pos + 5) return std::nullopt;
  const size_t header_at = pos;
  const uint8_t hoff = block_data[pos + 4];
  pos += 5;
  if (hoff < kHeader || block_data.size() - pos < hoff - kHeader) return std::nullopt;
  const Bytes bits(block_data.begin() + pos, block_data.begin() + pos + (hoff - kHeader));
  pos += hoff - kHeader;
  Bytes middle(block_data.begin() + pos, block_data.end());
  if (flags & 0x80) {
    if (middle.size() < 3) return std::nullopt;
    const uint8_t method = middle[0];
    const size_t len = U16(middle, 1);
    if (len > kMaxTuple) return std::nullopt;
    const Bytes body(middle.begin() + 3, middle.end());
    std::optional<Bytes> decoded;
    if (method == 1) {
      decoded = ModelPglzHistoryDecode(*old_data, body, len);
    } else if (method == 2) {
      decoded = ModelChunkDecode(*old_data, body, len);
    }
    if (!decoded) return std::nullopt;
    middle = *decoded;
  }
  Bytes tuple(kHeader, 0);
  PutU32(&tuple, 0, h.xid);
  PutU32(&tuple, 4, h.new_xmax);
  tuple[12] = static_cast<uint8_t>(h.block >> 16);
  tuple[13] = static_cast<uint8_t>(h.block >> 24);
  tuple[14] = static_cast<uint8_t>(h.block);
  tuple[15] = static_cast<uint8_t>(h.block >> 8);
  tuple[16] = static_cast<uint8_t>(h.offnum);
  tuple[17] = static_cast<uint8_t>(h.offnum >> 8);
  for (int i = 0; i < 5; ++i) tuple[18 + i] = block_data[header_at + i];
  tuple.insert(tuple.end(), bits.begin(), bits.end());
  tuple.insert(tuple.end(), old_data->begin(), old_data->begin() + prefix);
  tuple.insert(tuple.end(), middle.begin(), middle.end());
  tuple.insert(tuple.end(), old_data->end() - suffix, old_data->end());
  if (tuple.size() > kMaxTuple) return std::nullopt;
  return tuple;
}

std::optional<Bytes> ModelPglzHistoryDecode(const Bytes& history, const Bytes& body,
                                            size_t target_len) {
  Bytes window = history;
  const size_t end = history.size() + target_len;
  size_t i = 0;
  while (i < body.size() && window.size() < end) {
    const uint8_t ctrl = body[i++];
    for (int bit = 0; bit < 8 && i < body.size() && window.size() < end; ++bit) {
      if (!(ctrl >> bit & 1)) {
        window.push_back(body[i++]);
        continue;
      }
      if (body.size() - i < 2) return std::nullopt;
      size_t len = (body[i] & 0x0f) + 3;
      const size_t off = static_cast<size_t>(body[i] & 0xf0) << 4 | body[i + 1];
      i += 2;
      if (len == 18) {
        if (i >= body.size()) return std::nullopt;
        len += body[i++];
      }
      if (off == 0 || off > window.size()) return std::nullopt;
      for (size_t k = 0; k < len && window.size() < end; ++k) {
        window.push_back(window[window.size() - off]);
      }
    }
  }
  if (window.size() != end || i != body.size()) return std::nullopt;
  return Bytes(window.begin() + history.size(), window.end());
}

std::optional<Bytes> ModelChunkDecode(const Bytes& old_data, const Bytes& body, size_t target_len) {
  Bytes out;
  size_t i = 0;
  while (i < body.size()) {
    const uint8_t op = body[i++];
    if (op < 0x80) {
      for (size_t k = 0; k <= op; ++k) {
        if (i >= body.size()) return std::nullopt;
        out.push_back(body[i++]);
      }
    } else {
      size_t len = (op & 0x7f) + 4;
      if ((op & 0x7f) == 0x7f) {
        if (body.size() - i < 2) return std::nullopt;
        len = U16(body, i);
        i += 2;
      }
      if (body.size() - i < 2) return std::nullopt;
      const size_t off = U16(body, i);
      i += 2;
      if (off + len > old_data.size()) return std::nullopt;
      for (size_t k = 0; k < len; ++k) out.push_back(old_data[off + k]);
    }
    if (out.size() > target_len) return std::nullopt;
  }
  if (out.size() != target_len) return std::nullopt;
  return out;
}

}  // namespace pgstore::models
