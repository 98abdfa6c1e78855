// pglz: PostgreSQL's LZ compression format (src/common/pg_lzcompress.c), byte-compatible with
// PostgreSQL 15.
//
// Stream grammar (no header; the caller stores the raw size elsewhere, e.g. in va_tcinfo):
//
//   stream  := group*
//   group   := ctrl item{0..8}          ctrl bits are consumed LSB first, one per item
//   item    := literal | tag            bit 0 -> literal, bit 1 -> tag
//   literal := byte                     copied to the output
//   tag     := T1 T2                    len = (T1 & 0x0F) + 3            (3..17)
//            | T1 T2 T3  (T1&0x0F==0xF) len = 18 + T3                   (18..273)
//                                       off = ((T1 & 0xF0) << 4) | T2    (1..4095)
//
// A tag copies `len` bytes starting `off` bytes back from the current output position. off < len
// is legal and replicates the last `off` bytes (run-length coding). Unused high bits of the last
// control byte are zero. The stream has no end marker: decoding stops when input or output ends.
//
// Invariants a decoder checks (untrusted input):
//   - the whole tag (2 bytes, or 3) is in the input before any of it is read;
//   - off != 0 and off <= bytes already produced;
//   - len is clamped to the space left in the output (never written past rawsize);
//   - exact mode: the output is exactly rawsize bytes and the input is fully consumed.
//
// The encoder (PostgreSQL's, reproduced bit for bit in compress.cc) only emits off <= 4094
// (pglz_find_match stops at offset 0x0fff) and lengths >= 3; decoders accept up to 4095.
#ifndef PGSTORE_STORAGE_PGLZ_PGLZ_FORMAT_H_
#define PGSTORE_STORAGE_PGLZ_PGLZ_FORMAT_H_

#include <cstdint>
#include <limits>

namespace pgstore::pglz {

// Frozen format constants.
inline constexpr int kMinMatch = 3;             // shortest match a tag encodes
inline constexpr int kMaxShortTagMatch = 17;    // longest match a 2-byte tag encodes
inline constexpr int kMaxMatch = 273;           // 18 + 255: PGLZ_MAX_MATCH
inline constexpr int kMaxOffset = 4095;         // 12-bit offset field
inline constexpr int kEncoderMaxOffset = 4094;  // pglz_find_match stops at thisoff >= 0x0fff
inline constexpr int kHistorySize = 4096;       // PGLZ_HISTORY_SIZE: positions remembered
inline constexpr int kMaxHistoryLists = 8192;   // PGLZ_MAX_HISTORY_LISTS: largest hash table
inline constexpr int kItemsPerControlByte = 8;
// The most output one input byte can produce: a 3-byte tag yields at most 273 bytes.
inline constexpr int kMaxExpansion = kMaxMatch / 3;  // 91
static_assert(kMaxMatch == 18 + 255, "a 3-byte tag adds T3 to 18");
static_assert(kMaxOffset == (1 << 12) - 1, "offset is 12 bits");

// PGLZ_Strategy: all fields int32, exactly as PostgreSQL's struct.
struct Strategy {
  int32_t min_input_size;    // inputs shorter than this are not compressed
  int32_t max_input_size;    // inputs longer than this are not compressed
  int32_t min_comp_rate;     // required saving in percent (clamped to 0..99)
  int32_t first_success_by;  // give up if no match was found before this many output bytes
  int32_t match_size_good;   // stop searching at a match this long (clamped to 17..273; <= 0 fails)
  int32_t match_size_drop;   // lower match_size_good by this percent per entry (clamped 0..100)
};

// PGLZ_strategy_default and PGLZ_strategy_always.
inline constexpr Strategy kDefaultStrategy = {
    32, std::numeric_limits<int32_t>::max(), 25, 1024, 128, 10};
inline constexpr Strategy kAlwaysStrategy = {
    0, std::numeric_limits<int32_t>::max(), 0, std::numeric_limits<int32_t>::max(), 128, 6};

// PGLZ_MAX_OUTPUT: the output buffer a compression of `slen` bytes needs (4 bytes of slop: the
// encoder checks its limit once per step and a step writes up to a control byte and a 3-byte tag).
constexpr int64_t MaxOutput(int64_t slen) { return slen + 4; }

// pglz_maximum_compressed_size: how many compressed bytes can be needed to produce the first
// `rawsize` bytes (all literals, 9 bits a byte, plus a trailing tag of up to 3 bytes), capped at
// `total_compressed_size`. Computed in 64 bits, exactly as PostgreSQL 15 does.
constexpr int32_t MaximumCompressedSize(int32_t rawsize, int32_t total_compressed_size) {
  int64_t size = (static_cast<int64_t>(rawsize) * 9 + 7) / 8 + 2;
  return static_cast<int32_t>(size < total_compressed_size ? size : total_compressed_size);
}

}  // namespace pgstore::pglz

#endif  // PGSTORE_STORAGE_PGLZ_PGLZ_FORMAT_H_
