#include "storage/pglz/toast_datum.h"

#include <algorithm>

#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {

void PutCompressedDatumHeader(std::vector<uint8_t>* out, const CompressedDatumHeader& header) {
  PutLE32(out, (header.total_size << 2) | 0x02);
  PutLE32(out, header.raw_size | (static_cast<uint32_t>(header.method_id) << kExtSizeBits));
}

StatusOr<CompressedDatumHeader> GetCompressedDatumHeader(ByteView datum) {
  if (datum.size < kCompressedHeaderSize)
    return Status::Corruption("truncated compressed datum header");
  const uint32_t va_header = LoadLE32(datum.data);
  if ((va_header & 0x03) != 0x02) return Status::Corruption("not an inline-compressed varlena");
  CompressedDatumHeader h;
  h.total_size = (va_header >> 2) & kMaxVarlenaSize;
  if (h.total_size != datum.size)
    return Status::Corruption("varlena size differs from datum length");
  const uint32_t tcinfo = LoadLE32(datum.data + 4);
  h.raw_size = tcinfo & kExtSizeMask;
  h.method_id = static_cast<uint8_t>(tcinfo >> kExtSizeBits);
  if (h.method_id != kPglzMethodId && h.method_id != kLz4MethodId) {
    return Status::Corruption("bad compression method id");
  }
  if (h.raw_size == 0) return Status::Corruption("zero raw size");
  const uint64_t payload = datum.size - kCompressedHeaderSize;
  if (h.raw_size > payload * kMaxExpansion) {
    return Status::Corruption("raw size exceeds what the payload can expand to");
  }
  return h;
}

std::optional<std::vector<uint8_t>> CompressDatum(ByteView raw) {
  if (raw.size < static_cast<size_t>(kDefaultStrategy.min_input_size) ||
      raw.size > static_cast<size_t>(kDefaultStrategy.max_input_size) || !RawSizeFits(raw.size)) {
    return std::nullopt;
  }
  std::vector<uint8_t> out;
  out.resize(kCompressedHeaderSize + MaxOutput(raw.size));
  std::optional<int32_t> n = Compress(raw, out.data() + kCompressedHeaderSize, kDefaultStrategy);
  if (!n) return std::nullopt;
  const uint32_t total = kCompressedHeaderSize + static_cast<uint32_t>(*n);
  // toast_compress_datum: "if (VARSIZE(tmp) < valsize - 2)" keep it, else store uncompressed.
  if (static_cast<int64_t>(total) >= static_cast<int64_t>(raw.size) - 2) return std::nullopt;
  out.resize(total);
  std::vector<uint8_t> header;
  PutCompressedDatumHeader(&header, {total, static_cast<uint32_t>(raw.size), kPglzMethodId});
  std::copy(header.begin(), header.end(), out.begin());
  return out;
}

namespace {

// Decodes the first min(out_size, raw_size) bytes; a request for the whole value is exact.
StatusOr<std::vector<uint8_t>> DecodePrefix(ByteView datum, uint32_t out_size) {
  StatusOr<CompressedDatumHeader> h = GetCompressedDatumHeader(datum);
  if (!h.ok()) return h.status();
  if (h->method_id != kPglzMethodId) return Status::NotSupported("lz4-compressed datum");
  const Completeness mode = out_size >= h->raw_size ? Completeness::kExact : Completeness::kPartial;
  std::vector<uint8_t> out(std::min(out_size, h->raw_size));
  ByteView payload = datum.Sub(kCompressedHeaderSize, datum.size - kCompressedHeaderSize);
  StatusOr<size_t> n = Decompress(payload, out.data(), out.size(), mode);
  if (!n.ok()) return n.status();
  out.resize(*n);
  return out;
}

}  // namespace

StatusOr<std::vector<uint8_t>> DecompressDatum(ByteView datum) {
  return DecodePrefix(datum, kMaxVarlenaSize);
}

StatusOr<std::vector<uint8_t>> DecompressDatumSlice(ByteView datum, uint32_t slice_length) {
  return DecodePrefix(datum, slice_length);
}

}  // namespace pgstore::pglz
