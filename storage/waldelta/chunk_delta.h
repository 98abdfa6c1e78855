// Chunk-wise delta (the 2013-2014 "pgrb" idea): content-defined chunks of the old byte string are
// indexed by their contents; the new string is cut the same way, each of its chunks is looked up,
// and a hit is extended byte-wise forwards and backwards. Chunk boundaries depend only on the
// last few bytes (a gear rolling hash), so an insertion or deletion shifts no boundary beyond it:
// matches survive data that moved.
//
// Chunking: h = (h << 1) + kGear[byte] over each string from its start; a chunk ends after a byte
// when it has at least kChunkMin bytes and bits 5..7 of h are zero (about one position in 8), or
// when it reaches kChunkMax bytes. Bits 5..7 of h depend on the last 8 bytes only.
//
// Body format (ours; the 2014 patch is lost):
//   body := op*
//   op   := 0b0 n:7  bytes[n + 1]                 literal run of 1..128 bytes
//         | 0b1 n:7  [len:u16 if n == 127] off:u16 copy of len = n + kCopyMin bytes (4..130),
//                                                  or of the u16 len, from old[off, off + len)
// The target's length is stored by the caller (update_record.h's middle_len). A copy costs 3 or 5
// bytes, so only matches of at least kCopyMin bytes become copies. Output for n target bytes is at
// most n + ceil(n / 128) bytes (all literals).
// Decoder checks: every op whole within the body; copies within the old string; the output
// exactly target_len bytes (no op may run past it, and the body must end there).
#ifndef PGSTORE_STORAGE_WALDELTA_CHUNK_DELTA_H_
#define PGSTORE_STORAGE_WALDELTA_CHUNK_DELTA_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::waldelta {

inline constexpr size_t kChunkMin = 4;
inline constexpr size_t kChunkMax = 64;
inline constexpr size_t kCopyMin = 4;
inline constexpr size_t kMaxLiteralRun = 128;

// Chunk end positions (exclusive) of `s`, the last being s.size. Exposed for tests.
std::vector<uint32_t> ChunkBoundaries(ByteView s);
// As ChunkBoundaries, into *ends (its capacity reused).
void ChunkBoundariesInto(ByteView s, std::vector<uint32_t>* ends);
// The 64-bit hash by which chunks are indexed. For a chunk of n bytes: h = 0x9E3779B97F4A7C15 ^ n;
// for each whole 8-byte little-endian word w, h = (h ^ w) * 0xBF58476D1CE4E5B9, then
// h ^= h >> 29; for each byte b left over, h = (h ^ b) * 0x100000001B3; the result is
// h ^ (h >> 32). The index keeps the first old chunk of each fingerprint, and the encoder compares
// the bytes of a hit before copying, so a collision costs a match, never correctness. Exposed for
// tests.
uint64_t ChunkFingerprint(ByteView chunk);

// The chunk delta of `target` against `old_data`, into *out (its capacity reused: once the
// per-thread index and lists and *out have grown, an encode allocates nothing and clears nothing).
void ChunkEncodeInto(ByteView old_data, ByteView target, std::vector<uint8_t>* out);
// As ChunkEncodeInto, into a new vector.
std::vector<uint8_t> ChunkEncode(ByteView old_data, ByteView target);

// Exactly target_len bytes from `body` against old_data, or Corruption naming the broken rule.
StatusOr<std::vector<uint8_t>> ChunkDecode(ByteView old_data, ByteView body, size_t target_len);

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_CHUNK_DELTA_H_
