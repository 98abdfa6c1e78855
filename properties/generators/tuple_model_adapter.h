// The reference model's view of a storage/tuple descriptor (the model itself never includes
// storage/), shared by the tuple properties and fuzz targets.
#ifndef PGSTORE_PROPERTIES_GENERATORS_TUPLE_MODEL_ADAPTER_H_
#define PGSTORE_PROPERTIES_GENERATORS_TUPLE_MODEL_ADAPTER_H_

#include <vector>

#include "properties/models/tuple_model.h"
#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::generators {

inline std::vector<models::ModelAttr> ModelAttrsOf(const tuple::TupleDesc& desc) {
  std::vector<models::ModelAttr> out;
  for (const tuple::Attribute& a : desc.attrs()) {
    models::ModelAttr m;
    m.len = a.attlen;
    m.align = static_cast<int>(a.alignment());
    m.packable = a.packable();
    m.has_missing = a.atthasmissing;
    m.missing = a.missing_value;
    out.push_back(m);
  }
  return out;
}

// The row as it reads back: short varlenas widened to 4-byte headers (packing is invisible to SQL).
inline models::ModelRow CanonicalRow(const tuple::TupleDesc& desc, const models::ModelRow& row) {
  models::ModelRow out;
  for (int i = 0; i < desc.natts(); ++i) {
    if (row[i] && desc.attr(i).is_varlena()) {
      out.emplace_back(models::ModelWidenShortVarlena(*row[i]));
    } else {
      out.push_back(row[i]);
    }
  }
  return out;
}

inline models::ModelTruncation ModelTruncationOf(tuple::TrailingNulls m) {
  switch (m) {
    case tuple::TrailingNulls::kKeepBitmap:
      return models::ModelTruncation::kKeepBitmap;
    case tuple::TrailingNulls::kDropBitmap:
      return models::ModelTruncation::kDropBitmap;
    default:
      return models::ModelTruncation::kOff;
  }
}

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_TUPLE_MODEL_ADAPTER_H_
