#include "properties/models/tuple_model.h"

#include <cstring>

namespace pgstore::models {
namespace {

size_t RoundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

uint32_t Read32(const std::vector<uint8_t>& b, size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}
uint16_t Read16(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint16_t>(b[at] | b[at + 1] << 8);
}

// How a non-null value is laid out: whether it is aligned first, and the bytes written.
struct Placement {
  bool aligned;
  std::vector<uint8_t> bytes;
};

Placement Place(const ModelAttr& a, const std::vector<uint8_t>& v) {
  if (a.len == -2) {
    std::vector<uint8_t> b = v;
    b.push_back(0);
    return {false, b};
  }
  if (a.len > 0) return {true, v};
  const uint8_t first = v[0];
  const bool one_byte_header = (first & 1) == 1;  // short or external
  if (one_byte_header) return {false, v};
  const bool compressed = (first & 3) == 2;
  const size_t data = v.size() - 4;
  if (a.packable && !compressed && data <= 126) {
    std::vector<uint8_t> b;
    b.push_back(static_cast<uint8_t>((data + 1) * 2 + 1));
    b.insert(b.end(), v.begin() + 4, v.end());
    return {false, b};
  }
  return {true, v};
}

}  // namespace

ModelAttr ModelAttrOfCatalog(int attlen, char attalign, char attstorage) {
  ModelAttr m;
  m.len = attlen;
  m.align = attalign == 'd' ? 8 : attalign == 'i' ? 4 : attalign == 's' ? 2 : 1;
  m.packable = attlen == -1 && attstorage != 'p';
  return m;
}

std::vector<uint8_t> ModelFormTuple(const std::vector<ModelAttr>& attrs, const ModelRow& values,
                                    ModelTruncation truncation) {
  const size_t n = attrs.size();
  size_t natts = n;
  if (truncation != ModelTruncation::kOff) {
    natts = 0;
    for (size_t i = 0; i < n; ++i) {
      if (values[i] || attrs[i].has_missing) natts = i + 1;
    }
  }
  bool any_null = false, stored_null = false;
  for (size_t i = 0; i < n; ++i) {
    if (!values[i]) {
      any_null = true;
      if (i < natts) stored_null = true;
    }
  }
  const bool bitmap = truncation == ModelTruncation::kDropBitmap ? stored_null : any_null;
  const size_t bitmap_bytes = bitmap ? (natts + 7) / 8 : 0;
  const size_t hoff = RoundUp(23 + bitmap_bytes, 8);

  // First pass: offsets. Second: write into a zeroed buffer.
  std::vector<size_t> offsets(natts, 0);
  std::vector<Placement> placed;
  size_t off = hoff;
  bool varwidth = false, external = false;
  for (size_t i = 0; i < natts; ++i) {
    placed.push_back({false, {}});
    if (!values[i]) continue;
    placed[i] = Place(attrs[i], *values[i]);
    if (placed[i].aligned) off = RoundUp(off, attrs[i].align);
    offsets[i] = off;
    off += placed[i].bytes.size();
    if (attrs[i].len < 0) varwidth = true;
    if (attrs[i].len == -1 && (*values[i])[0] == 1) external = true;
  }
  std::vector<uint8_t> t(off, 0);
  t[12] = t[13] = t[14] = t[15] = 0xFF;  // t_ctid block InvalidBlockNumber, offset 0
  t[18] = static_cast<uint8_t>(natts & 0xFF);
  t[19] = static_cast<uint8_t>(natts >> 8);
  const int infomask = (bitmap ? 1 : 0) | (varwidth ? 2 : 0) | (external ? 4 : 0);
  t[20] = static_cast<uint8_t>(infomask);
  t[22] = static_cast<uint8_t>(hoff);
  for (size_t i = 0; i < natts; ++i) {
    if (!values[i]) continue;
    if (bitmap) t[23 + i / 8] |= static_cast<uint8_t>(1 << (i % 8));
    std::memcpy(&t[offsets[i]], placed[i].bytes.data(), placed[i].bytes.size());
  }
  return t;
}

std::optional<ModelRow> ModelDeformTuple(const std::vector<ModelAttr>& attrs,
                                         const std::vector<uint8_t>& t) {
  if (t.size() < 23) return std::nullopt;
  const size_t natts = Read16(t, 18) & 0x7FF;
  const uint16_t infomask = Read16(t, 20);
  const size_t hoff = t[22];
  const bool has_null = infomask & 1;
  if (infomask & 8) return std::nullopt;  // pre-PG12 OID
  if (natts > attrs.size()) return std::nullopt;
  const size_t bitmap_bytes = has_null ? (natts + 7) / 8 : 0;
  if (hoff != RoundUp(23 + bitmap_bytes, 8) || hoff > t.size()) return std::nullopt;
  for (size_t i = 23 + bitmap_bytes; i < hoff; ++i) {
    if (t[i] != 0) return std::nullopt;
  }
  const auto pad_ok = [&](size_t from, size_t to) {
    if (to > t.size()) return false;
    for (size_t i = from; i < to; ++i) {
      if (t[i] != 0) return false;
    }
    return true;
  };

  ModelRow row;
  size_t off = hoff;
  for (size_t i = 0; i < natts; ++i) {
    const ModelAttr& a = attrs[i];
    if (has_null && !(t[23 + i / 8] & (1 << (i % 8)))) {
      row.push_back(std::nullopt);
      continue;
    }
    if (a.len > 0) {
      const size_t start = RoundUp(off, a.align);
      if (!pad_ok(off, start) || start + a.len > t.size()) return std::nullopt;
      row.push_back(std::vector<uint8_t>(t.begin() + start, t.begin() + start + a.len));
      off = start + a.len;
      continue;
    }
    if (!(infomask & 2)) return std::nullopt;  // variable width without HEAP_HASVARWIDTH
    if (a.len == -2) {
      size_t end = off;
      while (end < t.size() && t[end] != 0) ++end;
      if (end >= t.size()) return std::nullopt;
      row.push_back(std::vector<uint8_t>(t.begin() + off, t.begin() + end));
      off = end + 1;
      continue;
    }
    if (off >= t.size()) return std::nullopt;
    size_t start = off;
    if (t[off] == 0) {
      start = RoundUp(off, a.align);
      if (!pad_ok(off, start) || start >= t.size()) return std::nullopt;
    }
    const uint8_t first = t[start];
    size_t size;
    if (first == 1) {  // external TOAST pointer
      if (start + 2 > t.size() || t[start + 1] != 18 || start + 18 > t.size()) return std::nullopt;
      const int32_t rawsize = static_cast<int32_t>(Read32(t, start + 2));
      const uint32_t extinfo = Read32(t, start + 6);
      if ((extinfo >> 30) > 1) return std::nullopt;                  // compression method 0 or 1
      if (rawsize < 4 || rawsize > 0x3FFFFFFF) return std::nullopt;  // 1 GB - 1 at most
      if ((extinfo & 0x3FFFFFFF) > static_cast<uint32_t>(rawsize - 4)) return std::nullopt;
      if (!(infomask & 4)) return std::nullopt;
      size = 18;
    } else if (first & 1) {  // 1-byte header
      size = first >> 1;
    } else {  // 4-byte header
      if (start + 4 > t.size()) return std::nullopt;
      size = Read32(t, start) >> 2;
      const bool compressed = (first & 3) == 2;
      if (size < (compressed ? 8u : 4u)) return std::nullopt;
      if (start + size > t.size()) return std::nullopt;
      if (compressed && (t[start + 7] >> 6) > 1) return std::nullopt;
    }
    if (start + size > t.size()) return std::nullopt;
    row.push_back(std::vector<uint8_t>(t.begin() + start, t.begin() + start + size));
    off = start + size;
  }
  if (off != t.size()) return std::nullopt;
  for (size_t i = natts; i < attrs.size(); ++i) {
    row.push_back(attrs[i].has_missing ? attrs[i].missing : std::nullopt);
  }
  return row;
}

std::vector<uint8_t> ModelWidenShortVarlena(const std::vector<uint8_t>& v) {
  if (v.empty() || (v[0] & 1) == 0 || v[0] == 1) return v;
  const uint32_t size = static_cast<uint32_t>(v.size() - 1 + 4);
  std::vector<uint8_t> out = {static_cast<uint8_t>(size << 2), static_cast<uint8_t>(size >> 6),
                              static_cast<uint8_t>(size >> 14), static_cast<uint8_t>(size >> 22)};
  out.insert(out.end(), v.begin() + 1, v.end());
  return out;
}

}  // namespace pgstore::models
