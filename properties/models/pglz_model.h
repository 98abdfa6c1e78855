// Reference model of pglz decompression: an obviously-correct, byte-at-a-time decoder written
// from the format description (docs/formats.md §3.1 and §3.3), sharing no code with storage/.
//
// Returns the decompressed bytes, or nullopt where PostgreSQL's pglz_decompress returns -1.
#ifndef PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pgstore::models {

std::optional<std::vector<uint8_t>> PglzModelDecompress(const std::vector<uint8_t>& compressed,
                                                        size_t rawsize, bool check_complete);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_
