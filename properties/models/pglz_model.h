// Reference model of pglz decompression: an obviously-correct, byte-at-a-time decoder written
// from the format description (docs/formats.md §3.1 and §3.3), sharing no code with storage/;
// and of the TOAST compressed datum's header checks (§3.4).
//
// PglzModelDecompress returns the decompressed bytes, or nullopt where PostgreSQL's
// pglz_decompress returns -1.
#ifndef PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pgstore::models {

std::optional<std::vector<uint8_t>> PglzModelDecompress(const std::vector<uint8_t>& compressed,
                                                        size_t rawsize, bool check_complete);

// The raw size and method of a whole inline-compressed datum whose header a reader accepts (low
// header bits 0b10, total size the datum's length, method 0 or 1, raw size from 1 to 91 times
// the payload), or nullopt.
struct ModelDatumHeader {
  uint32_t raw_size;
  int method;
};
std::optional<ModelDatumHeader> PglzModelDatumHeader(const std::vector<uint8_t>& datum);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_PGLZ_MODEL_H_
