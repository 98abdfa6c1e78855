// Reference model of heap tuples: a tuple is a vector of optional values. Forming and deforming
// are written from docs/formats.md §1 (header, bitmap, t_hoff, alignment, varlena packing, the
// peek rule and the decoder checks of §1.9), sharing no code with storage/.
//
// Values are in-memory bytes, as in storage/tuple: fixed-length attributes exactly attlen bytes;
// varlenas whole, with their header; cstrings without their NUL.
#ifndef PGSTORE_PROPERTIES_MODELS_TUPLE_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_TUPLE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace pgstore::models {

struct ModelAttr {
  int len = 4;            // > 0 fixed, -1 varlena, -2 cstring
  int align = 4;          // 1, 2, 4 or 8
  bool packable = false;  // varlena whose storage is not 'p'
  bool has_missing = false;
  std::optional<std::vector<uint8_t>> missing;  // the default when has_missing
};

// An attribute as the catalog describes it (attlen, attalign, attstorage; docs/formats.md §1):
// alignment 'c' 1, 's' 2, 'i' 4, 'd' 8; a varlena is packable unless its storage is 'p'.
ModelAttr ModelAttrOfCatalog(int attlen, char attalign, char attstorage);

using ModelValue = std::optional<std::vector<uint8_t>>;
using ModelRow = std::vector<ModelValue>;

enum class ModelTruncation { kOff, kKeepBitmap, kDropBitmap };

// The bytes of the tuple (transaction fields zero, t_ctid invalid). REQUIRES: values valid for
// their attributes.
std::vector<uint8_t> ModelFormTuple(const std::vector<ModelAttr>& attrs, const ModelRow& values,
                                    ModelTruncation truncation);

// One value per attribute (stored bytes as found; past natts the missing default or NULL), or
// nullopt if any check of docs/formats.md §1.9 fails.
std::optional<ModelRow> ModelDeformTuple(const std::vector<ModelAttr>& attrs,
                                         const std::vector<uint8_t>& tuple);

// The value with a 1-byte varlena header rewritten as a 4-byte one (other values unchanged).
std::vector<uint8_t> ModelWidenShortVarlena(const std::vector<uint8_t>& value);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_TUPLE_MODEL_H_
