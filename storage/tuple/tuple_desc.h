// Tuple descriptor: the per-attribute facts that decide where a value goes in a heap tuple
// (pg_attribute's attlen, attalign, attbyval, attstorage, attisdropped, atthasmissing).
//
// Values are passed as their in-memory bytes: a by-value or fixed-length attribute as exactly
// attlen bytes (little-endian for by-value types); a varlena as the whole varlena with its header
// (4B, 1B short, 4B inline-compressed, or an 18-byte on-disk TOAST pointer); a cstring as its
// characters without the terminating NUL.
#ifndef PGSTORE_STORAGE_TUPLE_TUPLE_DESC_H_
#define PGSTORE_STORAGE_TUPLE_TUPLE_DESC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/common/status.h"

namespace pgstore::tuple {

inline constexpr int16_t kVarlenaLen = -1;  // attlen of varlena types
inline constexpr int16_t kCstringLen = -2;  // attlen of cstring

// One attribute; a default-constructed one is an int4 (AttributeForType("int4") but its name).
struct Attribute {
  std::string type_name;  // informational ("int4", "text", ...)
  int16_t attlen = 4;     // > 0 fixed, -1 varlena, -2 cstring
  char attalign = 'i';    // 'c' 1, 's' 2, 'i' 4, 'd' 8
  bool attbyval = true;   // fixed lengths 1, 2, 4, 8 only
  char attstorage = 'p';  // 'p' plain (never packed), 'e', 'm', 'x'
  bool attisdropped = false;
  bool atthasmissing = false;
  std::optional<std::vector<uint8_t>> missing_value;  // read only when atthasmissing

  bool is_varlena() const { return attlen == kVarlenaLen; }
  bool is_cstring() const { return attlen == kCstringLen; }
  bool packable() const { return is_varlena() && attstorage != 'p'; }
  size_t alignment() const;  // 1, 2, 4 or 8
};

// An attribute of one of PostgreSQL 15's built-in types: int2 int4 int8 float4 float8 bool "char"
// (or char) name text varchar bpchar bytea numeric date timestamp timestamptz uuid oid jsonb
// cstring, and arrays written "<type>[]" (varlena, aligned like the element but at least 'i').
// InvalidArgument "unknown type: X" otherwise.
StatusOr<Attribute> AttributeForType(const std::string& type_name);
// The base type names AttributeForType knows, as written in a schema (each also has its "[]").
std::vector<std::string> KnownTypeNames();

class TupleDesc {
 public:
  TupleDesc() = default;
  explicit TupleDesc(std::vector<Attribute> attrs);

  // "int4,text,dropped:int8,int4=42": comma-separated type names; "dropped:" marks a dropped
  // attribute; "=VALUE" gives a missing default (ParseValue). InvalidArgument naming the bad part:
  // an empty item, an unknown type, a bad value, more than 1664 attributes.
  static StatusOr<TupleDesc> FromSchema(const std::string& schema);
  // The bytes a value of `attr`'s type written in SQL text has. Accepted text, by type:
  //   int2 int4 int8   [+-]?[0-9]+ within the type's range (little-endian two's complement)
  //   oid              the same, within 0 .. 4294967295
  //   float4 float8    what strtod reads as a whole (also inf, nan), not out of the type's range
  //   bool             t true f false
  //   "char" char      at most one byte (none: the 0 byte)
  //   date             Y-M-D, a real day of the proleptic Gregorian calendar, year 1 .. 5874897
  //                    (days since 2000-01-01, int32)
  //   text varchar bpchar bytea   any bytes, as a varlena with a 4-byte header; bytea also \x
  //                    followed by an even number of hex digits
  // InvalidArgument for other text, NotSupported for the other types.
  static StatusOr<std::vector<uint8_t>> ParseValue(const Attribute& attr, const std::string& text);

  int natts() const { return static_cast<int>(attrs_.size()); }
  const Attribute& attr(int i) const { return attrs_[i]; }
  const std::vector<Attribute>& attrs() const { return attrs_; }
  // Index of the last attribute with a missing default, or -1 (computed once).
  int LastMissingAttribute() const { return last_missing_; }

 private:
  std::vector<Attribute> attrs_;
  int last_missing_ = -1;
};

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_TUPLE_DESC_H_
