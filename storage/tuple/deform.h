// Deforming a heap tuple read from untrusted bytes (heap_deform_tuple, with every check of a
// careful reader). Layout: heap_tuple_format.h.
//
// Checks, each a Corruption error naming it: the header checks of ParseTupleHeader; "natts
// exceeds descriptor"; per stored attribute "attribute extends past end of tuple", "nonzero
// padding", the varlena checks of CheckedVarlenaSize, "external value without HEAP_HASEXTERNAL",
// "variable-width value without HEAP_HASVARWIDTH", "unterminated cstring"; and "trailing bytes
// after last attribute". Reads never leave `tuple`. A descriptor attribute that is neither
// fixed-width, varlena nor cstring (attlen 0 or below -2) is InvalidArgument "bad attlen N".
//
// Varlena placement uses PostgreSQL's peek rule (att_align_pointer): a nonzero byte at the current
// offset starts the value there; a zero byte is padding up to attalign.
#ifndef PGSTORE_STORAGE_TUPLE_DEFORM_H_
#define PGSTORE_STORAGE_TUPLE_DEFORM_H_

#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"
#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::tuple {

// One Datum per descriptor attribute: the stored bytes (views into `tuple`, a varlena with the
// header it has on disk, a cstring without its NUL), NULL, or for attributes past the tuple's natts
// NULL or the missing default (a view into `desc`). `tuple` and `desc` must outlive the result.
// On a Corruption in an attribute's bytes, *failed_attnum (if given) is set to its 0-based number;
// it is left alone when the header or the tuple as a whole is at fault.
Status DeformHeapTupleInto(ByteView tuple, const TupleDesc& desc, std::vector<Datum>* values,
                           int* failed_attnum = nullptr);
StatusOr<std::vector<Datum>> DeformHeapTuple(ByteView tuple, const TupleDesc& desc);

// The attribute at 0-based index `attnum` (heap_getattr), checking the tuple only up to it.
// InvalidArgument if attnum is outside the descriptor.
StatusOr<Datum> GetAttribute(ByteView tuple, const TupleDesc& desc, int attnum);

// The tuple's values with every attribute a full-width tuple would store (missing defaults
// filled in) and every short varlena widened to a 4B header: the canonical form in which two
// tuples of the same row compare equal whatever their truncation and packing.
StatusOr<std::vector<std::optional<std::vector<uint8_t>>>> CanonicalValues(ByteView tuple,
                                                                           const TupleDesc& desc);

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_DEFORM_H_
