// Reading the fixed header of a heap tuple from untrusted bytes (layout: heap_tuple_format.h).
#ifndef PGSTORE_STORAGE_TUPLE_TUPLE_HEADER_H_
#define PGSTORE_STORAGE_TUPLE_TUPLE_HEADER_H_

#include <cstdint>
#include <optional>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::tuple {

struct TupleHeader {
  uint32_t xmin = 0;
  uint32_t xmax = 0;
  uint32_t cid = 0;
  uint32_t ctid_block = 0;
  uint16_t ctid_offset = 0;
  uint16_t infomask2 = 0;
  uint16_t infomask = 0;
  uint8_t hoff = 0;
  int natts = 0;    // infomask2 & HEAP_NATTS_MASK
  ByteView bitmap;  // empty unless HEAP_HASNULL

  bool has_null() const { return infomask & kHasNull; }
  // HeapTupleHeaderXminInvalid: xmin hinted aborted (both xmin hint bits together mean frozen).
  bool xmin_hinted_aborted() const {
    return (infomask & (kXminCommitted | kXminInvalid)) == kXminInvalid;
  }
  // HEAP_XMAX_IS_LOCKED_ONLY: xmax only locked the tuple (also a pre-9.3 FOR UPDATE lock).
  bool xmax_is_locked_only() const {
    return (infomask & kXmaxLockOnly) ||
           (infomask & (kXmaxIsMulti | kXmaxExclLock | kXmaxKeyShrLock)) == kXmaxExclLock;
  }
  // HeapTupleHeaderGetUpdateXid: the xid that updated or deleted the tuple (0 if none), or
  // nullopt when xmax is a multixact whose updating member only the multixact SLRU knows.
  std::optional<uint32_t> updating_xid() const {
    if (!(infomask & kXmaxInvalid) && (infomask & kXmaxIsMulti) && !(infomask & kXmaxLockOnly)) {
      return std::nullopt;
    }
    return xmax;
  }
  // REQUIRES: i < natts. Attribute i is null iff the tuple has a bitmap and bit i is 0.
  bool IsNull(int i) const { return has_null() && !(bitmap[i >> 3] & (1u << (i & 7))); }
};

// The header of `tuple`, checked on its own (no descriptor): length at least 23, no pre-PG12 OID
// flag, t_hoff equal to MAXALIGN(23 + bitmap) and within the tuple, zero bytes between the bitmap
// and t_hoff. Corruption "tuple shorter than header", "unexpected oid flag", "t_hoff mismatch",
// "t_hoff beyond end of tuple", "nonzero padding".
StatusOr<TupleHeader> ParseTupleHeader(ByteView tuple);

// The fixed header fields as stored, unchecked (bitmap empty). REQUIRES: tuple.size >= 23.
TupleHeader ReadRawTupleHeader(ByteView tuple);

// Writes the 23 header bytes. REQUIRES: out points at 23 writable bytes.
void EncodeTupleHeader(const TupleHeader& h, uint8_t* out);

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_TUPLE_HEADER_H_
