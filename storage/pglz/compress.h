// pglz compression, output byte-identical to PostgreSQL 15's pglz_compress for every input and
// strategy, including when (and where) it gives up. Format: pglz_format.h.
//
// Encoder heuristics (PostgreSQL's, kept exactly): a hash of the next 4 bytes selects one of
// 512..8192 history lists (by input size); each list holds input positions newest first, and only
// the last 4096 positions are remembered. At each position the list is walked until a match of
// `good_match` bytes is found (good_match shrinks by match_size_drop percent per entry visited)
// or the offset reaches 4095; the longest match of more than 2 bytes becomes a tag, otherwise a
// literal is emitted. Compression gives up when the output reaches the strategy's maximum size,
// or reaches first_success_by bytes before any match was found.
#ifndef PGSTORE_STORAGE_PGLZ_COMPRESS_H_
#define PGSTORE_STORAGE_PGLZ_COMPRESS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::pglz {

// Holds the 48 KB history work area, so repeated compressions allocate nothing. Not thread-safe;
// use one per thread (the free functions below keep a thread_local one).
class Compressor {
 public:
  Compressor();
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  // Compresses `src` into `dest` and returns the compressed size, or nullopt when the strategy
  // gives up (PostgreSQL's -1: input size out of range, not compressible enough).
  // REQUIRES: dest has room for MaxOutput(src.size) bytes.
  std::optional<int32_t> Compress(ByteView src, uint8_t* dest, const Strategy& strategy);

 private:
  friend class CompressorTestPeer;
  // Moves the virtual position of the next input's first byte `positions` further on.
  void AdvanceBase(uint64_t positions);

  struct Workspace;
  std::unique_ptr<Workspace> ws_;
};

// As Compressor::Compress, with a thread-local Compressor.
// REQUIRES: dest has room for MaxOutput(src.size) bytes.
std::optional<int32_t> Compress(ByteView src, uint8_t* dest,
                                const Strategy& strategy = kDefaultStrategy);

// Convenience: returns the compressed bytes, or nullopt when compression gives up.
std::optional<std::vector<uint8_t>> Compress(ByteView src,
                                             const Strategy& strategy = kDefaultStrategy);

}  // namespace pgstore::pglz

#endif  // PGSTORE_STORAGE_PGLZ_COMPRESS_H_
