// Forming a heap tuple from values, as PostgreSQL 15's heap_form_tuple does, with optional
// truncation of trailing NULLs (the 2012 patch; not in PostgreSQL). Layout: heap_tuple_format.h.
//
// Placement per non-null attribute (heap_fill_tuple / fill_val):
//   by-value or fixed-length    zero padding to attalign, then attlen bytes
//   varlena, 4B, packable       (attstorage != 'p' and data <= 126 bytes) 1B header, no padding
//   varlena, 1B or external     stored as given, no padding
//   varlena, other 4B           zero padding to attalign, then the bytes as given (compressed too)
//   cstring                     no padding, the characters and a NUL
// Flags: HEAP_HASNULL iff a bitmap is stored; HEAP_HASVARWIDTH iff a stored value is a varlena or
// cstring; HEAP_HASEXTERNAL iff a stored value is an external TOAST pointer.
//
// Trailing NULLs:
//   kOff          natts = descriptor natts; bitmap iff any value is NULL (PostgreSQL)
//   kKeepBitmap   natts = last non-null attribute + 1; bitmap (of that many bits) iff the row had
//                 any NULL, stored or truncated (the 2012 patch)
//   kDropBitmap   as kKeepBitmap, but a bitmap only if a stored attribute is NULL
// natts is never below the last attribute with a missing default + 1: a truncated NULL there would
// read back as the default.
#ifndef PGSTORE_STORAGE_TUPLE_FORM_H_
#define PGSTORE_STORAGE_TUPLE_FORM_H_

#include <optional>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::tuple {

// A value's bytes (see tuple_desc.h), or nullopt for NULL.
using Datum = std::optional<ByteView>;

enum class TrailingNulls { kOff, kKeepBitmap, kDropBitmap };

struct FormOptions {
  TrailingNulls trailing_nulls = TrailingNulls::kOff;
  TupleHeaderFields header;  // transaction fields and extra flag bits
};

// The number of attributes a tuple of these values stores (t_infomask2 & HEAP_NATTS_MASK).
// REQUIRES: values.size() == desc.natts().
int StoredAttributeCount(const TupleDesc& desc, const std::vector<Datum>& values,
                         TrailingNulls mode);

// Forms the tuple into *out (replacing its contents). InvalidArgument when the values do not
// match the descriptor: "expected N values, got M", "attribute I: <what>" (wrong fixed length,
// malformed varlena, external pointer not on-disk, NUL inside a cstring), "too many attributes",
// "tuple too large". *out is unspecified after an error.
Status FormHeapTupleInto(const TupleDesc& desc, const std::vector<Datum>& values,
                         const FormOptions& options, std::vector<uint8_t>* out);
StatusOr<std::vector<uint8_t>> FormHeapTuple(const TupleDesc& desc,
                                             const std::vector<Datum>& values,
                                             const FormOptions& options = {});

// Views of owned values, for callers that hold them as vectors.
std::vector<Datum> DatumsOf(const std::vector<std::optional<std::vector<uint8_t>>>& values);

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_FORM_H_
