// Property: arbitrary text as a schema (TupleDesc::FromSchema) or as a value of a built-in type
// (TupleDesc::ParseValue) never crashes the parsers, and they accept exactly what the text model
// (properties/models/tuple_value_model.h) accepts, with the same bytes: a schema gives the
// model's attributes (type, dropped, missing default), a value the type's on-disk bytes; the
// verdicts match too (bad text is InvalidArgument, a type with no parser NotSupported).
//
// Input: mode:u8, then the text. Mode even: the text is a schema. Mode odd: the text is a value
// of type number mode / 2 of the model's list of type names (past its end: that type's array).
#include <cstdint>
#include <string>

#include "fuzzers/fuzz_helpers.h"
#include "properties/models/tuple_value_model.h"
#include "storage/tuple/tuple_desc.h"

using namespace pgstore;

namespace {

// Schemas of more than a few thousand bytes only repeat items (the limit is 1664 attributes).
constexpr size_t kMaxInput = 16 << 10;

bool SameVerdict(const Status& s, models::ModelParsed::Verdict v) {
  switch (v) {
    case models::ModelParsed::Verdict::kOk:
      return s.ok();
    case models::ModelParsed::Verdict::kBadText:
      return s.IsInvalidArgument();
    case models::ModelParsed::Verdict::kNotSupported:
      return s.IsNotSupported();
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1 || size > kMaxInput) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    StatusOr<tuple::TupleDesc> desc = tuple::TupleDesc::FromSchema(text);
    const auto model = models::ModelParseSchema(text);
    FUZZ_ASSERT(desc.ok() == model.has_value());
    if (!desc.ok()) {
      FUZZ_ASSERT(desc.status().IsInvalidArgument() || desc.status().IsNotSupported());
      return 0;
    }
    FUZZ_ASSERT(desc->natts() == static_cast<int>(model->size()));
    for (int i = 0; i < desc->natts(); ++i) {
      const tuple::Attribute& a = desc->attr(i);
      FUZZ_ASSERT(a.type_name == (*model)[i].type);
      FUZZ_ASSERT(a.attisdropped == (*model)[i].dropped);
      FUZZ_ASSERT(a.atthasmissing == (*model)[i].missing.has_value());
      FUZZ_ASSERT(a.missing_value == (*model)[i].missing);
    }
    return 0;
  }
  const std::vector<std::string>& names = models::ModelTypeNames();
  const size_t k = (data[0] / 2) % (2 * names.size());
  const std::string type = k < names.size() ? names[k] : names[k - names.size()] + "[]";
  StatusOr<tuple::Attribute> attr = tuple::AttributeForType(type);
  FUZZ_ASSERT(attr.ok());
  StatusOr<std::vector<uint8_t>> value = tuple::TupleDesc::ParseValue(*attr, text);
  const models::ModelParsed model = models::ModelParseValue(type, text);
  FUZZ_ASSERT(SameVerdict(value.status(), model.verdict));
  if (value.ok()) {
    FUZZ_ASSERT(*value == model.bytes);
    if (attr->attlen > 0) FUZZ_ASSERT(value->size() == static_cast<size_t>(attr->attlen));
  }
  return 0;
}
