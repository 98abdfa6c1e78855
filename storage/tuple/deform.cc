#include "storage/tuple/deform.h"

#include <cstring>
#include <string>

#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"

namespace pgstore::tuple {
namespace {

// Zero-padding from `off` up to `alignment`, checked; advances *off.
Status SkipPadding(ByteView tuple, size_t alignment, size_t* off) {
  const size_t aligned = AlignTo(*off, alignment);
  if (aligned > tuple.size) return Status::Corruption("attribute extends past end of tuple");
  for (size_t i = *off; i < aligned; ++i) {
    if (tuple[i] != 0) return Status::Corruption("nonzero padding");
  }
  *off = aligned;
  return Status::Ok();
}

// Reads the value of stored, non-null attribute `a` at *off and advances *off past it.
Status ReadValue(ByteView tuple, const TupleHeader& h, const Attribute& a, size_t* off,
                 ByteView* value) {
  if (a.attlen > 0) {
    PGSTORE_RETURN_IF_ERROR(SkipPadding(tuple, a.alignment(), off));
    if (tuple.size - *off < static_cast<size_t>(a.attlen)) {
      return Status::Corruption("attribute extends past end of tuple");
    }
    *value = tuple.Sub(*off, a.attlen);
    *off += a.attlen;
    return Status::Ok();
  }
  if (!a.is_varlena() && !a.is_cstring()) {
    return Status::InvalidArgument("bad attlen " + std::to_string(a.attlen));
  }
  if (!(h.infomask & kHasVarWidth)) {
    return Status::Corruption("variable-width value without HEAP_HASVARWIDTH");
  }
  if (a.is_cstring()) {
    const uint8_t* start = tuple.data + *off;
    const void* nul = std::memchr(start, 0, tuple.size - *off);
    if (nul == nullptr) return Status::Corruption("unterminated cstring");
    const size_t len = static_cast<const uint8_t*>(nul) - start;
    *value = tuple.Sub(*off, len);
    *off += len + 1;
    return Status::Ok();
  }
  if (*off >= tuple.size) return Status::Corruption("attribute extends past end of tuple");
  if (tuple[*off] == 0) PGSTORE_RETURN_IF_ERROR(SkipPadding(tuple, a.alignment(), off));
  const ByteView rest = tuple.Sub(*off, tuple.size - *off);
  StatusOr<size_t> size = CheckedVarlenaSize(rest);
  if (!size.ok()) return size.status();
  if (VarlenaFormOf(rest[0]) == VarlenaForm::kExternal && !(h.infomask & kHasExternal)) {
    return Status::Corruption("external value without HEAP_HASEXTERNAL");
  }
  *value = rest.Sub(0, *size);
  *off += *size;
  return Status::Ok();
}

Datum MissingValue(const Attribute& a) {
  if (a.atthasmissing && a.missing_value) return ByteView(*a.missing_value);
  return std::nullopt;
}

// Deforms the first `count` descriptor attributes into *values.
Status DeformPrefix(ByteView tuple, const TupleDesc& desc, int count, std::vector<Datum>* values,
                    int* failed_attnum) {
  StatusOr<TupleHeader> h = ParseTupleHeader(tuple);
  if (!h.ok()) return h.status();
  if (h->natts > desc.natts()) return Status::Corruption("natts exceeds descriptor");
  values->clear();
  values->reserve(count);
  size_t off = h->hoff;
  const int stored = h->natts;
  for (int i = 0; i < count && i < stored; ++i) {
    if (h->IsNull(i)) {
      values->push_back(std::nullopt);
      continue;
    }
    ByteView v;
    const Status read = ReadValue(tuple, *h, desc.attr(i), &off, &v);
    if (!read.ok()) {
      if (failed_attnum != nullptr) *failed_attnum = i;
      return read;
    }
    values->push_back(v);
  }
  for (int i = stored; i < count; ++i) values->push_back(MissingValue(desc.attr(i)));
  if (count >= stored && off != tuple.size) {
    return Status::Corruption("trailing bytes after last attribute");
  }
  return Status::Ok();
}

}  // namespace

Status DeformHeapTupleInto(ByteView tuple, const TupleDesc& desc, std::vector<Datum>* values,
                           int* failed_attnum) {
  return DeformPrefix(tuple, desc, desc.natts(), values, failed_attnum);
}

StatusOr<std::vector<Datum>> DeformHeapTuple(ByteView tuple, const TupleDesc& desc) {
  std::vector<Datum> values;
  PGSTORE_RETURN_IF_ERROR(DeformHeapTupleInto(tuple, desc, &values));
  return values;
}

StatusOr<Datum> GetAttribute(ByteView tuple, const TupleDesc& desc, int attnum) {
  if (attnum < 0 || attnum >= desc.natts()) {
    return Status::InvalidArgument("attribute number out of range");
  }
  std::vector<Datum> values;
  PGSTORE_RETURN_IF_ERROR(DeformPrefix(tuple, desc, attnum + 1, &values, nullptr));
  return values[attnum];
}

StatusOr<std::vector<std::optional<std::vector<uint8_t>>>> CanonicalValues(ByteView tuple,
                                                                           const TupleDesc& desc) {
  StatusOr<std::vector<Datum>> values = DeformHeapTuple(tuple, desc);
  if (!values.ok()) return values.status();
  std::vector<std::optional<std::vector<uint8_t>>> out;
  out.reserve(values->size());
  for (int i = 0; i < desc.natts(); ++i) {
    const Datum& v = (*values)[i];
    if (!v) {
      out.emplace_back(std::nullopt);
    } else if (desc.attr(i).is_varlena()) {
      out.emplace_back(ExpandShortVarlena(*v));
    } else {
      out.emplace_back(v->ToVector());
    }
  }
  return out;
}

}  // namespace pgstore::tuple
