// TOAST inline-compressed varlena (PostgreSQL 15 varatt.h / postgres.h,
// varattrib_4b.va_compressed):
//
//   offset 0  u32 LE  va_header   = (total_size << 2) | 0b10     4-byte header, compressed bit
//                                   total_size includes these 8 header bytes (30 bits)
//   offset 4  u32 LE  va_tcinfo   = raw_size | (method_id << 30) raw_size excludes any header
//   offset 8  ...     payload     pglz stream (method 0) or LZ4 block (method 1)
//
// Method ids: 0 = pglz (TOAST_PGLZ_COMPRESSION_ID; data written before PG14 has 00 and reads as
// pglz), 1 = lz4, 2 = invalid, 3 unused. Only pglz payloads are decompressed here.
//
// Invariants checked on untrusted datums: at least 8 bytes; low header bits are 0b10; total_size
// equals the datum's length; method id 0 or 1; raw_size > 0; raw_size <= 91 * payload size
// (kMaxExpansion: no pglz stream can expand more), so a lying raw_size cannot make the decoder
// allocate more than 91 bytes per input byte.
//
// Compression follows toast_compress_datum + pglz_compress_datum: sizes outside the default
// strategy's [32, INT_MAX] are not compressed; the compressed datum is kept only if its total size
// is less than raw_size - 2.
#ifndef PGSTORE_STORAGE_PGLZ_TOAST_DATUM_H_
#define PGSTORE_STORAGE_PGLZ_TOAST_DATUM_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::pglz {

inline constexpr uint32_t kCompressedHeaderSize = 8;     // VARHDRSZ_COMPRESSED
inline constexpr uint32_t kMaxVarlenaSize = 0x3FFFFFFF;  // 30-bit size: 1 GB - 1
inline constexpr uint32_t kExtSizeMask = 0x3FFFFFFF;     // VARLENA_EXTSIZE_MASK
inline constexpr int kExtSizeBits = 30;                  // VARLENA_EXTSIZE_BITS
inline constexpr uint8_t kPglzMethodId = 0;              // TOAST_PGLZ_COMPRESSION_ID
inline constexpr uint8_t kLz4MethodId = 1;               // TOAST_LZ4_COMPRESSION_ID

// Whether a value of `raw_size` bytes fits va_tcinfo's 30-bit raw-size field (at most 2^30 - 1):
// the largest value CompressDatum compresses.
inline constexpr bool RawSizeFits(uint64_t raw_size) { return raw_size <= kExtSizeMask; }

struct CompressedDatumHeader {
  uint32_t total_size;  // VARSIZE: the whole datum, header included
  uint32_t raw_size;    // VARDATA_COMPRESSED_GET_EXTSIZE
  uint8_t method_id;    // VARDATA_COMPRESSED_GET_COMPRESS_METHOD
};

// Appends the 8 header bytes. REQUIRES: total_size and raw_size < 2^30, method_id < 4.
void PutCompressedDatumHeader(std::vector<uint8_t>* out, const CompressedDatumHeader& header);

// Parses and checks the header of a whole inline-compressed datum.
StatusOr<CompressedDatumHeader> GetCompressedDatumHeader(ByteView datum);

// toast_compress_datum with pglz: the compressed datum, or nullopt when PostgreSQL would store
// the value uncompressed.
std::optional<std::vector<uint8_t>> CompressDatum(ByteView raw);

// pglz_decompress_datum: the raw bytes of a whole pglz-compressed datum.
StatusOr<std::vector<uint8_t>> DecompressDatum(ByteView datum);

// toast_decompress_datum_slice / pglz_decompress_datum_slice: the first
// min(slice_length, raw_size) raw bytes, decoding no more of the stream than needed.
StatusOr<std::vector<uint8_t>> DecompressDatumSlice(ByteView datum, uint32_t slice_length);

}  // namespace pgstore::pglz

#endif  // PGSTORE_STORAGE_PGLZ_TOAST_DATUM_H_
