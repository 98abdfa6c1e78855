// Reference model of UPDATE WAL deltas, written from the format docs (docs/formats.md §4 and
// storage/waldelta's format comments), sharing no code with storage/: byte loops, no fast paths.
//
//   ModelPrefixSuffix      log_heap_update's common prefix and suffix of the user data
//   ModelBlockData         PostgreSQL's block-0 data and flags for an update (prefix/suffix or
//                          the whole tuple)
//   ModelRedo              heap_xlog_update's new tuple, with the hardened decoder's checks
//                          (nullopt where the record is malformed); flag 0x80 payloads decoded by
//   ModelPglzHistoryDecode pglz tags over history || output
//   ModelChunkDecode       literal runs and copies from the old data
// Tuples are whole heap tuples: a 23-byte header (t_hoff at byte 22), then bitmap and data.
#ifndef PGSTORE_PROPERTIES_MODELS_WALDELTA_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_WALDELTA_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pgstore::models {

using Bytes = std::vector<uint8_t>;

std::pair<size_t, size_t> ModelPrefixSuffix(const Bytes& old_data, const Bytes& new_data);

// (flags, block data). same_page = false logs the whole new tuple, as PostgreSQL does for an
// update to another page or with a full-page image.
std::pair<uint8_t, Bytes> ModelBlockData(const Bytes& old_tuple, const Bytes& new_tuple,
                                         bool same_page);

struct ModelRedoHeader {
  uint32_t xid, new_xmax, block;
  uint16_t offnum;
};
std::optional<Bytes> ModelRedo(const Bytes& old_tuple, uint8_t flags, const Bytes& block_data,
                               const ModelRedoHeader& h);

std::optional<Bytes> ModelPglzHistoryDecode(const Bytes& history, const Bytes& body,
                                            size_t target_len);
std::optional<Bytes> ModelChunkDecode(const Bytes& old_data, const Bytes& body, size_t target_len);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_WALDELTA_MODEL_H_
