#include "storage/tuple/form.h"

#include <cstring>
#include <string>

#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"

namespace pgstore::tuple {
namespace {

Status BadAttribute(int i, const std::string& what) {
  return Status::InvalidArgument("attribute " + std::to_string(i + 1) + ": " + what);
}

Status CheckValue(const Attribute& a, int i, ByteView v) {
  if (a.attlen > 0) {
    if (v.size != static_cast<size_t>(a.attlen)) {
      return BadAttribute(
          i, "expected " + std::to_string(a.attlen) + " bytes, got " + std::to_string(v.size));
    }
  } else if (a.is_varlena()) {
    StatusOr<size_t> size = CheckedVarlenaSize(v);
    if (!size.ok()) return BadAttribute(i, size.status().message());
    if (*size != v.size) return BadAttribute(i, "varlena size does not match its bytes");
  } else if (a.is_cstring()) {
    if (v.size > 0 && std::memchr(v.data, 0, v.size) != nullptr) {
      return BadAttribute(i, "NUL inside cstring");
    }
  } else {
    return BadAttribute(i, "bad attlen " + std::to_string(a.attlen));
  }
  return Status::Ok();
}

void ZeroPadTo(size_t alignment, std::vector<uint8_t>* out) {
  out->resize(AlignTo(out->size(), alignment), 0);
}

}  // namespace

int StoredAttributeCount(const TupleDesc& desc, const std::vector<Datum>& values,
                         TrailingNulls mode) {
  if (mode == TrailingNulls::kOff) return desc.natts();
  int last_non_null = -1;
  for (int i = desc.natts() - 1; i >= 0; --i) {
    if (values[i].has_value()) {
      last_non_null = i;
      break;
    }
  }
  const int keep =
      last_non_null > desc.LastMissingAttribute() ? last_non_null : desc.LastMissingAttribute();
  return keep + 1;
}

Status FormHeapTupleInto(const TupleDesc& desc, const std::vector<Datum>& values,
                         const FormOptions& options, std::vector<uint8_t>* out) {
  if (values.size() != static_cast<size_t>(desc.natts())) {
    return Status::InvalidArgument("expected " + std::to_string(desc.natts()) + " values, got " +
                                   std::to_string(values.size()));
  }
  if (desc.natts() > kMaxTupleAttributeNumber) {
    return Status::InvalidArgument("too many attributes");
  }
  const int natts = StoredAttributeCount(desc, values, options.trailing_nulls);
  bool any_null = false, stored_null = false;
  size_t bound = 0;  // at least the data length: every value plus its widest padding
  for (int i = 0; i < desc.natts(); ++i) {
    if (!values[i].has_value()) {
      any_null = true;
      stored_null |= i < natts;
    } else {
      PGSTORE_RETURN_IF_ERROR(CheckValue(desc.attr(i), i, *values[i]));
      bound += values[i]->size + kMaxAlign;
    }
  }
  const bool has_bitmap =
      options.trailing_nulls == TrailingNulls::kDropBitmap ? stored_null : any_null;

  TupleHeader h;
  h.hoff = static_cast<uint8_t>(HeaderLength(natts, has_bitmap));
  out->clear();
  out->reserve(h.hoff + bound);
  out->resize(h.hoff, 0);
  uint16_t flags = has_bitmap ? kHasNull : 0;
  for (int i = 0; i < natts; ++i) {
    if (!values[i].has_value()) continue;
    if (has_bitmap) (*out)[kHeaderSize + (i >> 3)] |= static_cast<uint8_t>(1u << (i & 7));
    const Attribute& a = desc.attr(i);
    const ByteView v = *values[i];
    if (a.is_varlena()) {
      flags |= kHasVarWidth;
      const VarlenaForm form = VarlenaFormOf(v[0]);
      if (form == VarlenaForm::kExternal) flags |= kHasExternal;
      if (a.packable() && CanMakeShort(v)) {
        AppendShortForm(v, out);
        continue;
      }
      if (form == VarlenaForm::k4B || form == VarlenaForm::k4BCompressed) {
        ZeroPadTo(a.alignment(), out);
      }
      out->insert(out->end(), v.begin(), v.end());
    } else if (a.is_cstring()) {
      flags |= kHasVarWidth;
      out->insert(out->end(), v.begin(), v.end());
      out->push_back(0);
    } else {
      const size_t at = AlignTo(out->size(), a.alignment());
      out->resize(at + v.size, 0);
      std::memcpy(out->data() + at, v.data, v.size);
    }
    if (out->size() > kMaxFormedTupleSize) return Status::InvalidArgument("tuple too large");
  }

  const TupleHeaderFields& f = options.header;
  h.xmin = f.xmin;
  h.xmax = f.xmax;
  h.cid = f.cid;
  h.ctid_block = f.ctid_block;
  h.ctid_offset = f.ctid_offset;
  h.infomask = static_cast<uint16_t>((f.infomask_extra & ~kDataFlagsMask) | flags);
  h.infomask2 = static_cast<uint16_t>((f.infomask2_extra & ~kNattsMask) | natts);
  EncodeTupleHeader(h, out->data());
  return Status::Ok();
}

StatusOr<std::vector<uint8_t>> FormHeapTuple(const TupleDesc& desc,
                                             const std::vector<Datum>& values,
                                             const FormOptions& options) {
  std::vector<uint8_t> out;
  PGSTORE_RETURN_IF_ERROR(FormHeapTupleInto(desc, values, options, &out));
  return out;
}

std::vector<Datum> DatumsOf(const std::vector<std::optional<std::vector<uint8_t>>>& values) {
  std::vector<Datum> out;
  out.reserve(values.size());
  for (const auto& v : values) {
    out.push_back(v ? Datum(ByteView(*v)) : std::nullopt);
  }
  return out;
}

}  // namespace pgstore::tuple
