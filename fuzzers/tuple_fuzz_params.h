// Tuple descriptors for the tuple fuzz targets, decoded from the input's tail (TailSplitter: the
// last byte is taken first). Seed files are written by tools/seeds/make_tuple_seeds.py, which
// mirrors this encoding.
//
//   tail := natts:u8 code[natts]:u8      (natts taken first, then attribute 1, 2, ...)
//   code := kind (bits 0-3) | dropped (bit 4) | has missing default (bit 5)
//
// kind: 0 int2, 1 int4, 2 int8, 3 bool, 4 float4, 5 name, 6 uuid, 7 text, 8 numeric (storage m),
// 9 float8[] (varlena, align d), 10 bytea with storage plain (never packed), 11 cstring,
// 12 6-byte fixed (align s), 13 16-byte fixed (align d), 14 "char", 15 timestamp.
// A missing default is attlen bytes of 0x5A for fixed kinds, the varlena "dflt" for varlenas,
// "dflt" for cstrings.
#ifndef PGSTORE_FUZZERS_TUPLE_FUZZ_PARAMS_H_
#define PGSTORE_FUZZERS_TUPLE_FUZZ_PARAMS_H_

#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/tuple/varlena.h"

namespace pgstore::fuzz {

inline tuple::Attribute AttributeOfKind(int kind) {
  static const char* const kTypes[16] = {
      "int2",    "int4",     "int8",  "bool",    "float4", "name",  "uuid",     "text",
      "numeric", "float8[]", "bytea", "cstring", nullptr,  nullptr, "\"char\"", "timestamp"};
  tuple::Attribute a;
  if (kTypes[kind] != nullptr) {
    a = *tuple::AttributeForType(kTypes[kind]);
  } else {
    a.attlen = kind == 12 ? 6 : 16;
    a.attalign = kind == 12 ? 's' : 'd';
    a.attbyval = false;
  }
  if (kind == 10) a.attstorage = 'p';
  return a;
}

inline tuple::TupleDesc TakeTupleDesc(TailSplitter* t) {
  const int natts = t->TakeU8();
  std::vector<tuple::Attribute> attrs;
  for (int i = 0; i < natts; ++i) {
    const uint8_t code = t->TakeU8();
    tuple::Attribute a = AttributeOfKind(code & 0x0F);
    a.attisdropped = code & 0x10;
    if (code & 0x20) {
      a.atthasmissing = true;
      if (a.attlen > 0) {
        a.missing_value = std::vector<uint8_t>(a.attlen, 0x5A);
      } else if (a.is_varlena()) {
        a.missing_value = tuple::MakeVarlena(ByteView::FromString("dflt"));
      } else {
        a.missing_value = std::vector<uint8_t>{'d', 'f', 'l', 't'};
      }
    }
    attrs.push_back(std::move(a));
  }
  return tuple::TupleDesc(std::move(attrs));
}

}  // namespace pgstore::fuzz

#endif  // PGSTORE_FUZZERS_TUPLE_FUZZ_PARAMS_H_
