// Choosing and producing the block-0 data of a heap UPDATE record (update_record.h) with one of
// the delta methods:
//   none           the new tuple whole (what PostgreSQL logs across pages or with an image)
//   prefix-suffix  PostgreSQL 15's log_heap_update: the user data's common prefix and suffix
//                  (each used only if at least 3 bytes; the suffix never overlaps the prefix)
//   pglz-history   prefix-suffix, then the remaining middle as a pglz_history.h delta
//   pglz-aligned   the same body, found by pglz_aligned.h's encoder (the old tuple's layout
//                  followed, nothing indexed): cheaper, and it misses matches that moved far
//   chunk          prefix-suffix, then the middle as a chunk_delta.h delta
//   auto           prefix-suffix; then, if the middle is at least kMinDeltaMiddle bytes and there
//                  is cheap evidence of shared bytes (the null bitmap changed, or one of the two
//                  4-byte words in the middle of the new data is in the old data at the same
//                  place), pglz-history, and chunk too when the old data is longer than pglz's
//                  4095-byte reach; the smallest record wins. That evidence is auto's CPU budget:
//                  when nothing matches it costs prefix-suffix plus a few loads and compares, and
//                  with an AutoBudget (below) a stream of updates that never match soon probes
//                  only one update in 32. Matches that moved without a NULL coming or going
//                  escape it (the general methods themselves find them).
// A general delta is tried only on a middle of at least kMinDeltaMiddle bytes, and used only when
// smaller than the middle it replaces, so every method's record is at most the prefix-suffix
// record, which is at most the none record; none is 5 + (new t_len - 23) bytes.
//
// Like PostgreSQL, only `eligible` updates (same page, no full-page image of it, no logical
// decoding of the relation) may refer to the old tuple; others are logged with none.
#ifndef PGSTORE_STORAGE_WALDELTA_UPDATE_DELTA_H_
#define PGSTORE_STORAGE_WALDELTA_UPDATE_DELTA_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/waldelta/update_record.h"

namespace pgstore::waldelta {

enum class DeltaMethod { kNone, kPrefixSuffix, kPglzHistory, kPglzAligned, kChunk, kAuto };
inline constexpr DeltaMethod kAllDeltaMethods[] = {
    DeltaMethod::kNone,        DeltaMethod::kPrefixSuffix, DeltaMethod::kPglzHistory,
    DeltaMethod::kPglzAligned, DeltaMethod::kChunk,        DeltaMethod::kAuto};

inline constexpr size_t kMinDeltaMiddle = 16;

const char* DeltaMethodName(DeltaMethod m);
// "none", "prefix-suffix", "pglz-history", "pglz-aligned", "chunk", "auto"; InvalidArgument
// otherwise.
StatusOr<DeltaMethod> ParseDeltaMethod(const std::string& name);

struct UpdateRecord {
  uint8_t flags = 0;  // kFlagPrefixFromOld | kFlagSuffixFromOld | kFlagPgstoreDelta, as used
  std::vector<uint8_t> block_data;
};

// The common prefix and suffix of two tuples' user data by log_heap_update's rule.
struct PrefixSuffix {
  size_t prefix = 0;
  size_t suffix = 0;
};
PrefixSuffix FindPrefixSuffix(ByteView old_data, ByteView new_data);

// Block 0's data for updating `old_tuple` to `new_tuple` (whole tuples as on the page).
// InvalidArgument "old tuple: ..." / "new tuple: ..." when a tuple's t_hoff is out of range, or
// the new tuple is longer than MaxHeapTupleSize.
StatusOr<UpdateRecord> EncodeUpdate(ByteView old_tuple, ByteView new_tuple, DeltaMethod method,
                                    bool eligible = true);
// Auto's adaptive probe budget, kept by a caller that logs a stream of updates (a backend, a
// relation): after kAutoPatience updates in a row whose evidence (bitmap check and word probe)
// led to no smaller general record, auto looks for evidence only every 2nd, 4th, ... up to every
// 32nd update, and on every update again as soon as one pays off.
struct AutoBudget {
  uint32_t misses = 0;   // probes in a row without a smaller general record
  uint32_t updates = 0;  // updates seen while backing off, to pick the ones that probe
};
inline constexpr uint32_t kAutoPatience = 4;
inline constexpr uint32_t kAutoMaxSkipLog2 = 5;

// As EncodeUpdate, into *out (reusing its buffer: a caller logging many updates allocates once).
// With a budget, auto probes as AutoBudget says. *out is unspecified after an error.
Status EncodeUpdateInto(ByteView old_tuple, ByteView new_tuple, DeltaMethod method, bool eligible,
                        UpdateRecord* out, AutoBudget* budget = nullptr);

}  // namespace pgstore::waldelta

#endif  // PGSTORE_STORAGE_WALDELTA_UPDATE_DELTA_H_
