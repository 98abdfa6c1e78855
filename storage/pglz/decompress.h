// pglz decompression (format: pglz_format.h). Same accept/reject decision and output as
// PostgreSQL 15's pglz_decompress for every input, with one difference: every tag is
// bounds-checked before it is read, so input cut mid-tag is rejected without the over-read
// PostgreSQL 15 has (fixed upstream in 2b5ba2a0a1).
//
// Error contract: Status::Corruption with one of these messages, never a crash, never a read
// outside `src`, never a write outside dest[0, rawsize):
//   "truncated match tag"       a tag's 2nd or 3rd byte is past the end of the input
//   "match offset is zero"
//   "match offset beyond output" the tag reaches back before the first output byte
//   "output shorter than raw size"   (exact mode) input ended before rawsize bytes were produced
//   "unconsumed compressed input"    (exact mode) rawsize bytes were produced before input ended
// Nothing is allocated.
#ifndef PGSTORE_STORAGE_PGLZ_DECOMPRESS_H_
#define PGSTORE_STORAGE_PGLZ_DECOMPRESS_H_

#include <cstddef>
#include <cstdint>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::pglz {

enum class Completeness {
  kExact,    // check_complete = true: output exactly rawsize bytes and all input consumed
  kPartial,  // check_complete = false: stop at whichever ends first (slices)
};

// Decompresses `src` into dest[0, rawsize) and returns the number of bytes produced. Bytes of
// dest past the returned count (and all of dest on error) are unspecified.
// REQUIRES: dest has room for rawsize bytes.
StatusOr<size_t> Decompress(ByteView src, uint8_t* dest, size_t rawsize, Completeness mode);

// As Decompress, with `history_size` bytes of history before the output: the output goes to
// window[history_size, history_size + rawsize), and a tag may reach back into window[0,
// history_size) (the history is never written). With no history this is Decompress.
// REQUIRES: window holds history_size bytes of history and has room for rawsize more.
StatusOr<size_t> DecompressAfterHistory(ByteView src, uint8_t* window, size_t history_size,
                                        size_t rawsize, Completeness mode);

}  // namespace pgstore::pglz

#endif  // PGSTORE_STORAGE_PGLZ_DECOMPRESS_H_
