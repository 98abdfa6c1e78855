// TupleDesc::FromSchema and ParseValue: every type's text form, its range and its malformed
// inputs, each an InvalidArgument naming the value (NotSupported for types without a text form).
#include "storage/tuple/tuple_desc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/tuple/heap_tuple_format.h"

namespace pgstore::tuple {
namespace {

Attribute Attr(const std::string& type) {
  StatusOr<Attribute> a = AttributeForType(type);
  EXPECT_TRUE(a.ok()) << type;
  return a.ok() ? *a : Attribute{};
}

std::vector<uint8_t> Parse(const std::string& type, const std::string& text) {
  StatusOr<std::vector<uint8_t>> v = TupleDesc::ParseValue(Attr(type), text);
  EXPECT_TRUE(v.ok()) << type << " '" << text << "': " << v.status().ToString();
  return v.ok() ? *v : std::vector<uint8_t>{};
}

Status ParseError(const std::string& type, const std::string& text) {
  StatusOr<std::vector<uint8_t>> v = TupleDesc::ParseValue(Attr(type), text);
  EXPECT_FALSE(v.ok()) << type << " '" << text << "' was accepted";
  return v.ok() ? Status::Ok() : v.status();
}

int32_t DateValue(const std::string& text) {
  const std::vector<uint8_t> v = Parse("date", text);
  return v.size() == 4 ? static_cast<int32_t>(LoadLE32(v.data())) : INT32_MIN;
}

// A default Attribute is an int4 (what AttributeForType("int4") gives, but for the name).
TEST(AttributeTest, DefaultIsInt4) {
  const Attribute d;
  const Attribute int4 = Attr("int4");
  EXPECT_EQ(d.attlen, int4.attlen);
  EXPECT_EQ(d.attalign, int4.attalign);
  EXPECT_EQ(d.attbyval, int4.attbyval);
  EXPECT_EQ(d.attstorage, int4.attstorage);
  EXPECT_FALSE(d.attisdropped);
  EXPECT_FALSE(d.atthasmissing);
  EXPECT_FALSE(d.missing_value.has_value());
}

TEST(ParseValueTest, IntegersWithinTheirTypesRange) {
  EXPECT_EQ(Parse("int2", "-32768"), (std::vector<uint8_t>{0x00, 0x80}));
  EXPECT_EQ(Parse("int2", "+32767"), (std::vector<uint8_t>{0xFF, 0x7F}));
  EXPECT_EQ(Parse("int4", "-1"), (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(Parse("oid", "4294967295"), (std::vector<uint8_t>{0xFF, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(Parse("oid", "0"), (std::vector<uint8_t>{0, 0, 0, 0}));  // InvalidOid
  EXPECT_EQ(Parse("int8", "-9223372036854775808").back(), 0x80);
  EXPECT_EQ(ParseError("int2", "32768").message(), "int2 value out of range: 32768");
  EXPECT_EQ(ParseError("oid", "-1").message(), "oid value out of range: -1");
  EXPECT_EQ(ParseError("int8", "9223372036854775808").message(),
            "int8 value out of range: 9223372036854775808");
  EXPECT_EQ(Parse("int4", "0000000000000000000000000000000000042"), Parse("int4", "42"));
  for (const char* bad : {"", "-", "+", "1x", " 1", "1.0", "1000000000000000000000000000000"}) {
    EXPECT_EQ(ParseError("int4", bad).message(), std::string("bad int4 value: ") + bad);
  }
}

TEST(ParseValueTest, FloatsWithinTheirTypesRange) {
  const std::vector<uint8_t> f4 = Parse("float4", "1.5");
  float f;
  std::memcpy(&f, f4.data(), 4);
  EXPECT_EQ(f, 1.5f);
  const std::vector<uint8_t> f8 = Parse("float8", "-2.25e300");
  double d;
  std::memcpy(&d, f8.data(), 8);
  EXPECT_EQ(d, -2.25e300);
  EXPECT_EQ(Parse("float4", "0").size(), 4u);
  EXPECT_EQ(Parse("float4", "inf").size(), 4u);
  EXPECT_EQ(ParseError("float4", "1e39").message(), "float4 value out of range: 1e39");
  EXPECT_EQ(ParseError("float4", "1e-50").message(), "float4 value out of range: 1e-50");
  EXPECT_EQ(ParseError("float8", "1e400").message(), "float8 value out of range: 1e400");
  EXPECT_EQ(ParseError("float8", "").message(), "bad float8 value: ");
  EXPECT_EQ(ParseError("float8", "1.5x").message(), "bad float8 value: 1.5x");
}

TEST(ParseValueTest, BooleansAndChars) {
  EXPECT_EQ(Parse("bool", "t"), std::vector<uint8_t>{1});
  EXPECT_EQ(Parse("bool", "true"), std::vector<uint8_t>{1});
  EXPECT_EQ(Parse("bool", "f"), std::vector<uint8_t>{0});
  EXPECT_EQ(Parse("bool", "false"), std::vector<uint8_t>{0});
  EXPECT_EQ(ParseError("bool", "yes").message(), "bad bool value: yes");
  EXPECT_EQ(Parse("\"char\"", "a"), std::vector<uint8_t>{'a'});
  EXPECT_EQ(Parse("\"char\"", ""), std::vector<uint8_t>{0});
  EXPECT_EQ(ParseError("\"char\"", "ab").message(), "bad \"char\" value: ab");
}

TEST(ParseValueTest, DatesCountDaysFrom2000InTheGregorianCalendar) {
  EXPECT_EQ(DateValue("2000-01-01"), 0);
  EXPECT_EQ(DateValue("1999-12-31"), -1);
  EXPECT_EQ(DateValue("2000-03-01"), 60);  // 2000 is a leap year (divisible by 400)
  EXPECT_EQ(DateValue("1970-01-01"), -10957);
  EXPECT_EQ(DateValue("0001-01-01"), -730119);
  EXPECT_EQ(DateValue("2024-02-29"), 8825);
  EXPECT_EQ(DateValue("9999-12-31"), 2921939);  // every part may start with any digit
  EXPECT_EQ(DateValue("2009-9-9"), 3539);
  // Century years that are not leap years, from March on (the 100-year term of the era's day
  // count; the values are Python's datetime.date differences, the same proleptic calendar).
  EXPECT_EQ(DateValue("2100-02-28"), 36583);
  EXPECT_EQ(DateValue("2100-03-01"), 36584);
  EXPECT_EQ(DateValue("2200-03-01"), 73108);
  EXPECT_EQ(DateValue("2300-03-01"), 109632);
  EXPECT_EQ(DateValue("1900-03-01"), -36465);
  EXPECT_EQ(DateValue("1700-03-01"), -109513);
  // PostgreSQL's last date: DATE_END_JULIAN (2147483494) - 1 - POSTGRES_EPOCH_JDATE (2451545).
  EXPECT_EQ(DateValue("5874897-12-31"), 2145031948);
  for (const char* bad :
       {"", "2000", "2000-01", "2000-01-", "-2000-01-01", "2000-+1-01", "2000-01-x1", "2000-1x-01",
        "0000-01-01", "5874898-01-01", "2000-00-10", "2000-13-01", "2000-01-00", "2000-01-32",
        "1900-02-29", "2023-02-29", "2000-04-31"}) {
    EXPECT_EQ(ParseError("date", bad).message(), std::string("bad date value: ") + bad);
  }
}

TEST(ParseValueTest, EveryMonthsLastDayAndTheDayAfter) {
  // Day counts of 2023 (not a leap year) and 2024 (one), from the 1st of each month: a month's
  // last day is its first day's count plus its length - 1, and the next day does not exist.
  const int kLength[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (const int year : {2023, 2024}) {
    for (int m = 1; m <= 12; ++m) {
      const int days = kLength[m - 1] + (m == 2 && year == 2024);
      char first[16], last[16], after[16];
      std::snprintf(first, sizeof first, "%d-%02d-01", year, m);
      std::snprintf(last, sizeof last, "%d-%02d-%02d", year, m, days);
      std::snprintf(after, sizeof after, "%d-%02d-%02d", year, m, days + 1);
      EXPECT_EQ(DateValue(last), DateValue(first) + days - 1) << last;
      EXPECT_EQ(ParseError("date", after).message(), std::string("bad date value: ") + after);
    }
  }
}

// A 4-byte-header varlena (SET_VARSIZE: the total length << 2, little-endian) holding `data`.
std::vector<uint8_t> Varlena(std::vector<uint8_t> data) {
  std::vector<uint8_t> out(4);
  StoreLE32(out.data(), static_cast<uint32_t>(4 + data.size()) << 2);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

TEST(ParseValueTest, ByteaHexAndEscapeForms) {
  EXPECT_EQ(Parse("bytea", "\\x00fFa0"), Varlena({0x00, 0xFF, 0xA0}));
  EXPECT_EQ(Parse("bytea", "\\x"), Varlena({}));
  EXPECT_EQ(Parse("bytea", "raw"), Varlena({'r', 'a', 'w'}));
  for (const char* bad : {"\\x0", "\\x0g", "\\xg0", "\\x00:0"}) {
    EXPECT_EQ(ParseError("bytea", bad).message(), std::string("bad bytea value: ") + bad);
  }
}

TEST(ParseValueTest, TypesWithoutATextFormAreNotSupported) {
  const Status s = ParseError("numeric", "1");
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ(s.message(), "cannot parse a value of type numeric");
}

TEST(FromSchemaTest, BadSchemasNameTheirBadPart) {
  EXPECT_EQ(TupleDesc::FromSchema("int4,,text").status().message(),
            "empty attribute in schema: int4,,text");
  EXPECT_EQ(TupleDesc::FromSchema("int4,nosuch").status().message(), "unknown type: nosuch");
  EXPECT_EQ(TupleDesc::FromSchema("nosuch[]").status().message(), "unknown type: nosuch[]");
  EXPECT_EQ(TupleDesc::FromSchema("bool=maybe").status().message(), "bad bool value: maybe");
  std::string many = "int4";
  for (int i = 1; i < kMaxTupleAttributeNumber; ++i) many += ",int4";
  EXPECT_TRUE(TupleDesc::FromSchema(many).ok());
  EXPECT_EQ(TupleDesc::FromSchema(many + ",int4").status().message(),
            "too many attributes in schema");
}

// pg_types_live_test compares each of these with a real server's pg_type; here, that the list
// is the table AttributeForType reads: each name once, each known, and its array type too.
TEST(KnownTypeNamesTest, EveryNameAndItsArrayAreKnownOnce) {
  const std::vector<std::string> names = KnownTypeNames();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const char* expected : {"int4", "\"char\"", "char", "text", "cstring", "jsonb"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  for (const std::string& name : names) {
    EXPECT_EQ(Attr(name).type_name, name);
    EXPECT_EQ(Attr(name + "[]").attlen, kVarlenaLen) << name;
  }
}

TEST(FromSchemaTest, ArraysTakeTheirElementsAlignment) {
  const StatusOr<TupleDesc> d = TupleDesc::FromSchema("int8[],int2[],text[]");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->attr(0).attalign, 'd');
  EXPECT_EQ(d->attr(1).attalign, 'i');
  EXPECT_EQ(d->attr(2).attalign, 'i');
  EXPECT_EQ(d->attr(0).attlen, kVarlenaLen);
}

}  // namespace
}  // namespace pgstore::tuple
