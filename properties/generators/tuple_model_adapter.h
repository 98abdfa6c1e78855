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
    // From the catalog fields, not from storage/'s alignment() and packable(): the model's own
    // reading of them, so that a wrong alignment in storage/ differs from the model.
    models::ModelAttr m = models::ModelAttrOfCatalog(a.attlen, a.attalign, a.attstorage);
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
