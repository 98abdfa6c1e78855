// pglz-history delta: a new byte string encoded against an old one in pglz's stream format
// (storage/pglz/pglz_format.h: control bytes, 2- and 3-byte tags, lengths 3..273, offsets
// 1..4095), as proposed for UPDATE WAL in 2012-2014 ("initialize the history with the old tuple,
// then compress the new tuple").
//
// Offset base: the encoder and decoder share a window = history || target. A tag at target
// position i copies len bytes starting off bytes back from window position |history| + i, so it
// may point into the history, into target bytes already produced, or overlap the current
// position (run-length, as in pglz). Decoding is pglz decompression with the history as a prefix
// of the output (pglz::DecompressAfterHistory). There is no header: the caller stores the
// target's length (update_record.h's middle_len).
//
// Limits: offsets reach 4095 bytes back, so a history byte more than 4095 bytes before the
// current position cannot be referenced (the chunk encoder, with absolute 16-bit offsets, can).
// The encoder keeps every window position in hash chains over 3-byte prefixes and walks at most
// kPglzHistoryMaxChain candidates per position, newest first, taking the longest match (a match
// of kPglzHistoryGoodMatch bytes ends the walk). A window of w bytes has 2^bits lists, bits = 9
// below 256 bytes, 10 below 1024, 11 below 4096, else 12; the 3 bytes at a position, as a
// little-endian number v, go to list (v * 2654435761 mod 2^32) >> (32 - bits). Every candidate of
// the list counts as a step, whatever its bytes.
// Output for n target bytes is at most n + ceil(n / 8) bytes (all literals).
#ifndef PGSTORE_STORAGE_WALDELTA_PGLZ_HISTORY_H_
#define PGSTORE_STORAGE_WALDELTA_PGLZ_HISTORY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::waldelta {

inline constexpr int kPglzHistoryMaxChain = 16;
inline constexpr int kPglzHistoryGoodMatch = 64;

// The pglz stream of `target` against `history`, into *out (its capacity reused: once the
// per-thread work area and *out have grown, an encode allocates nothing and clears no table).
void PglzHistoryEncodeInto(ByteView history, ByteView target, std::vector<uint8_t>* out);
// As PglzHistoryEncodeInto, into a new vector.
std::vector<uint8_t> PglzHistoryEncode(ByteView history, ByteView target);

// Moves this thread's base (the virtual position of the next window's first byte) `positions`
// further, as encoding that many more bytes would: tests reach the point where the table is
// started afresh (before positions would pass 2^31) without encoding 2 GB first. Any base is
// safe: one past that point starts the table afresh too. Returns the base it set.
uint32_t PglzHistoryAdvanceBaseForTesting(uint32_t positions);

// Exactly target_len bytes from `body` against `history`. Corruption (pglz's messages) when the
// body is malformed, ends early, or has bytes left over; allocates target_len + history.size.
StatusOr<std::vector<uint8_t>> PglzHistoryDecode(ByteView history, ByteView body,
                                                 size_t target_len);

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_PGLZ_HISTORY_H_
