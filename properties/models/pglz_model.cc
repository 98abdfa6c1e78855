#include "properties/models/pglz_model.h"

namespace pgstore::models {

std::optional<std::vector<uint8_t>> PglzModelDecompress(const std::vector<uint8_t>& in,
                                                        size_t rawsize, bool check_complete) {
  std::vector<uint8_t> out;
  size_t pos = 0;  // next input byte
  while (pos < in.size() && out.size() < rawsize) {
    const uint8_t control = in[pos];
    pos += 1;
    for (int bit = 0; bit < 8; ++bit) {
      if (pos >= in.size() || out.size() >= rawsize) break;
      const bool is_tag = ((control >> bit) & 1) == 1;
      if (!is_tag) {
        out.push_back(in[pos]);
        pos += 1;
        continue;
      }
      // A tag needs two bytes; a length nibble of 15 needs a third.
      if (pos + 2 > in.size()) return std::nullopt;
      const uint8_t t1 = in[pos];
      const uint8_t t2 = in[pos + 1];
      pos += 2;
      size_t length = (t1 & 0x0F) + 3;
      const size_t offset = (static_cast<size_t>(t1 >> 4) << 8) | t2;
      if (length == 18) {
        if (pos + 1 > in.size()) return std::nullopt;
        length += in[pos];
        pos += 1;
      }
      if (offset == 0) return std::nullopt;
      if (offset > out.size()) return std::nullopt;
      // Copy one byte at a time: an overlapping match repeats the last `offset` bytes.
      for (size_t i = 0; i < length && out.size() < rawsize; ++i) {
        const uint8_t byte = out[out.size() - offset];
        out.push_back(byte);
      }
    }
  }
  if (check_complete && (out.size() != rawsize || pos != in.size())) return std::nullopt;
  return out;
}

std::optional<ModelDatumHeader> PglzModelDatumHeader(const std::vector<uint8_t>& datum) {
  if (datum.size() < 8) return std::nullopt;
  auto word = [&datum](size_t at) {
    return uint32_t{datum[at]} | uint32_t{datum[at + 1]} << 8 | uint32_t{datum[at + 2]} << 16 |
           uint32_t{datum[at + 3]} << 24;
  };
  const uint32_t va_header = word(0), tcinfo = word(4);
  if (va_header % 4 != 2 || va_header / 4 != datum.size()) return std::nullopt;
  const int method = static_cast<int>(tcinfo / (1u << 30));
  const uint32_t raw_size = tcinfo % (1u << 30);
  if (method != 0 && method != 1) return std::nullopt;
  if (raw_size == 0 || raw_size > 91 * uint64_t{datum.size() - 8}) return std::nullopt;
  return ModelDatumHeader{raw_size, method};
}

}  // namespace pgstore::models
