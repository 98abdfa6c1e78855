// Reference model of the text pgstore reads for schemas and values (storage/tuple/tuple_desc.h:
// TupleDesc::FromSchema and ParseValue), written from their documented grammar and PostgreSQL
// 15's on-disk representation of each type, sharing no code with storage/.
//
// Values: int2 int4 int8 as [+-]?digits within the type's range, oid within 0 .. 2^32 - 1 (little-
// endian two's complement); float4 float8 as what std::stod reads as a whole and in range; bool
// t true f false; "char" char at most one byte; date Y-M-D with digits only, a real day, year
// 1 .. 5874897, as days since 2000-01-01; text varchar bpchar bytea as a 4-byte-header varlena of
// the bytes (bytea's \x form: pairs of hex digits). Other known types cannot be parsed.
// Schemas: comma-separated items "[dropped:]TYPE[=VALUE]", TYPE a known type or one followed by
// "[]", at most 1664 items, none empty.
#ifndef PGSTORE_PROPERTIES_MODELS_TUPLE_VALUE_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_TUPLE_VALUE_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pgstore::models {

struct ModelParsed {
  enum class Verdict { kOk, kBadText, kNotSupported } verdict = Verdict::kBadText;
  std::vector<uint8_t> bytes;  // when kOk
};

// The built-in types the schema grammar names (without "[]").
const std::vector<std::string>& ModelTypeNames();

ModelParsed ModelParseValue(const std::string& type, const std::string& text);

struct ModelSchemaAttr {
  std::string type;
  bool dropped = false;
  std::optional<std::vector<uint8_t>> missing;
};
// nullopt when the schema (or one of its values) is rejected.
std::optional<std::vector<ModelSchemaAttr>> ModelParseSchema(const std::string& schema);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_TUPLE_VALUE_MODEL_H_
