// pglz-aligned: an encoder of pglz-history bodies (pglz_history.h: the same stream, decoded by
// PglzHistoryDecode) that follows the old tuple's layout instead of indexing it. An UPDATE
// mostly leaves columns where they were, or shifts them by the width of a column that became
// NULL (or stopped being NULL); so at each target position it tries, in order:
//   1. the shift of its last match (at first: the target's bytes aligned with the old data's
//      start, as the common prefix leaves them),
//   2. the shift that aligns the old data's end with the new data's,
//   3. after a match ended, and then every kAlignedResyncEvery-th literal: a short search for
//      the next 4 target bytes in the old data, kAlignedSearchAhead bytes after the current
//      alignment and kAlignedSearchBack before it (nearest first: a dropped column moves the
//      rest of the old data ahead),
// and takes a match of at least 3 bytes (up to 273) wherever found, else a literal. Only the
// old data (the history) is referenced, never target bytes already produced, and only within
// pglz's 4095-byte reach. No byte is hashed and no table kept: the work is a compare per
// position plus the bounded searches. It gives up at the first literal past kAlignedGiveUpAfter
// target bytes if the stream so far is no shorter than the bytes it covers (nothing, or only
// short matches paying for their tags, lies where the columns do: every column changed).
#ifndef PGSTORE_STORAGE_WALDELTA_PGLZ_ALIGNED_H_
#define PGSTORE_STORAGE_WALDELTA_PGLZ_ALIGNED_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"

namespace pgstore::waldelta {

inline constexpr size_t kAlignedSearchAhead = 32;
inline constexpr size_t kAlignedSearchBack = 16;
inline constexpr size_t kAlignedResyncEvery = 4;
inline constexpr size_t kAlignedGiveUpAfter = 32;

// The pglz stream of `target` (new data bytes prefix .. new size - suffix) against `history`
// (the old data), into *out (its capacity reused). False when it gave up (*out unspecified).
bool PglzAlignedEncodeInto(ByteView history, ByteView target, size_t prefix, size_t suffix,
                           std::vector<uint8_t>* out);

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_PGLZ_ALIGNED_H_
