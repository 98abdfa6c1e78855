#include "storage/tuple/tuple_desc.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "storage/common/bytes.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/varlena.h"

namespace pgstore::tuple {
namespace {

struct TypeInfo {
  const char* name;
  int16_t attlen;
  char attalign;
  bool attbyval;
  char attstorage;
};

// pg_type of PostgreSQL 15 (typlen, typalign, typbyval, typstorage).
constexpr TypeInfo kTypes[] = {
    {"int2", 2, 's', true, 'p'},        {"int4", 4, 'i', true, 'p'},
    {"int8", 8, 'd', true, 'p'},        {"float4", 4, 'i', true, 'p'},
    {"float8", 8, 'd', true, 'p'},      {"bool", 1, 'c', true, 'p'},
    {"\"char\"", 1, 'c', true, 'p'},    {"char", 1, 'c', true, 'p'},
    {"name", 64, 'c', false, 'p'},      {"text", -1, 'i', false, 'x'},
    {"varchar", -1, 'i', false, 'x'},   {"bpchar", -1, 'i', false, 'x'},
    {"bytea", -1, 'i', false, 'x'},     {"numeric", -1, 'i', false, 'm'},
    {"date", 4, 'i', true, 'p'},        {"timestamp", 8, 'd', true, 'p'},
    {"timestamptz", 8, 'd', true, 'p'}, {"uuid", 16, 'c', false, 'p'},
    {"oid", 4, 'i', true, 'p'},         {"jsonb", -1, 'i', false, 'x'},
    {"cstring", -2, 'c', false, 'p'},
};

const TypeInfo* FindType(const std::string& name) {
  for (const TypeInfo& t : kTypes) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

std::vector<uint8_t> LittleEndian(uint64_t v, size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
  return out;
}

// Days from 2000-01-01 (PostgreSQL's date epoch) to y-m-d in the proleptic Gregorian calendar.
int64_t DaysSince2000(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 - 10957;  // 1970-01-01 based, then shifted to 2000-01-01
}

constexpr int64_t kMinDateYear = 1;        // pgstore reads no BC dates
constexpr int64_t kMaxDateYear = 5874897;  // PostgreSQL's last year of type date

// An optional sign and decimal digits (at most 30 after leading zeros), nothing else; nullopt
// otherwise.
std::optional<__int128> ParseDecimal(const std::string& text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  while (i + 1 < text.size() && text[i] == '0') ++i;
  if (text.size() - i > 30) return std::nullopt;
  __int128 v = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return text[0] == '-' ? -v : v;
}

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int64_t DaysInMonth(int64_t y, int64_t m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return kDays[m - 1] + (m == 2 && IsLeapYear(y));
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

size_t Attribute::alignment() const {
  switch (attalign) {
    case 's':
      return 2;
    case 'i':
      return 4;
    case 'd':
      return 8;
    default:
      return 1;
  }
}

std::vector<std::string> KnownTypeNames() {
  std::vector<std::string> names;
  for (const TypeInfo& t : kTypes) names.push_back(t.name);
  return names;
}

StatusOr<Attribute> AttributeForType(const std::string& type_name) {
  Attribute a;
  a.type_name = type_name;
  if (type_name.size() > 2 && type_name.compare(type_name.size() - 2, 2, "[]") == 0) {
    const TypeInfo* elem = FindType(type_name.substr(0, type_name.size() - 2));
    if (elem == nullptr) return Status::InvalidArgument("unknown type: " + type_name);
    a.attlen = kVarlenaLen;
    a.attalign = elem->attalign == 'd' ? 'd' : 'i';
    a.attbyval = false;
    a.attstorage = 'x';
    return a;
  }
  const TypeInfo* t = FindType(type_name);
  if (t == nullptr) return Status::InvalidArgument("unknown type: " + type_name);
  a.attlen = t->attlen;
  a.attalign = t->attalign;
  a.attbyval = t->attbyval;
  a.attstorage = t->attstorage;
  return a;
}

StatusOr<std::vector<uint8_t>> TupleDesc::ParseValue(const Attribute& attr,
                                                     const std::string& text) {
  const std::string& type = attr.type_name;
  const auto bad = [&] { return Status::InvalidArgument("bad " + type + " value: " + text); };
  if (type == "int2" || type == "int4" || type == "int8" || type == "oid") {
    std::optional<__int128> v = ParseDecimal(text);
    if (!v) return bad();
    const __int128 lo = type == "oid" ? 0 : -(__int128{1} << (8 * attr.attlen - 1));
    const __int128 hi = type == "oid" ? UINT32_MAX : (__int128{1} << (8 * attr.attlen - 1)) - 1;
    if (*v < lo || *v > hi) return Status::InvalidArgument(type + " value out of range: " + text);
    return LittleEndian(static_cast<uint64_t>(*v), attr.attlen);
  }
  if (type == "float4" || type == "float8") {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return bad();
    const float f = static_cast<float>(v);
    if (errno == ERANGE ||
        (attr.attlen == 4 && std::isfinite(v) && (std::isinf(f) || (v != 0 && f == 0)))) {
      return Status::InvalidArgument(type + " value out of range: " + text);
    }
    std::vector<uint8_t> out(attr.attlen);
    if (attr.attlen == 4) {
      std::memcpy(out.data(), &f, 4);
    } else {
      std::memcpy(out.data(), &v, 8);
    }
    return out;
  }
  if (type == "bool") {
    if (text == "t" || text == "true") return std::vector<uint8_t>{1};
    if (text == "f" || text == "false") return std::vector<uint8_t>{0};
    return bad();
  }
  if (type == "\"char\"" || type == "char") {
    if (text.size() > 1) return bad();
    return std::vector<uint8_t>{static_cast<uint8_t>(text.empty() ? 0 : text[0])};
  }
  if (type == "date") {
    // Three runs of digits joined by '-'.
    const size_t dash1 = text.find('-');
    const size_t dash2 = dash1 == std::string::npos ? dash1 : text.find('-', dash1 + 1);
    if (dash2 == std::string::npos) return bad();
    const std::string parts[] = {text.substr(0, dash1), text.substr(dash1 + 1, dash2 - dash1 - 1),
                                 text.substr(dash2 + 1)};
    for (const std::string& part : parts) {
      if (part.empty() || part[0] < '0' || part[0] > '9') return bad();
    }
    const std::optional<__int128> y = ParseDecimal(parts[0]), m = ParseDecimal(parts[1]),
                                  d = ParseDecimal(parts[2]);
    if (!y || !m || !d || *y < kMinDateYear || *y > kMaxDateYear || *m < 1 || *m > 12 || *d < 1 ||
        *d > DaysInMonth(static_cast<int64_t>(*y), static_cast<int64_t>(*m))) {
      return bad();
    }
    return LittleEndian(
        static_cast<uint64_t>(DaysSince2000(static_cast<int64_t>(*y), static_cast<int64_t>(*m),
                                            static_cast<int64_t>(*d))),
        4);
  }
  if (type == "bytea" && text.rfind("\\x", 0) == 0) {  // PostgreSQL's hex format
    std::vector<uint8_t> bytes;
    for (size_t i = 2; i < text.size(); i += 2) {
      const int hi = HexDigit(text[i]), lo = i + 1 < text.size() ? HexDigit(text[i + 1]) : -1;
      if (hi < 0 || lo < 0) return bad();
      bytes.push_back(static_cast<uint8_t>(hi << 4 | lo));
    }
    return MakeVarlena(ByteView(bytes));
  }
  if (type == "text" || type == "varchar" || type == "bpchar" || type == "bytea") {
    return MakeVarlena(ByteView::FromString(text));
  }
  return Status::NotSupported("cannot parse a value of type " + type);
}

StatusOr<TupleDesc> TupleDesc::FromSchema(const std::string& schema) {
  std::vector<Attribute> attrs;
  size_t pos = 0;
  while (pos <= schema.size()) {
    size_t comma = schema.find(',', pos);
    if (comma == std::string::npos) comma = schema.size();
    std::string item = schema.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) return Status::InvalidArgument("empty attribute in schema: " + schema);
    bool dropped = false;
    if (item.rfind("dropped:", 0) == 0) {
      dropped = true;
      item = item.substr(8);
    }
    std::optional<std::string> missing;
    const size_t eq = item.find('=');
    if (eq != std::string::npos) {
      missing = item.substr(eq + 1);
      item = item.substr(0, eq);
    }
    StatusOr<Attribute> found = AttributeForType(item);
    if (!found.ok()) return found.status();
    Attribute a = std::move(found).value();
    a.attisdropped = dropped;
    if (missing) {
      StatusOr<std::vector<uint8_t>> v = ParseValue(a, *missing);
      if (!v.ok()) return v.status();
      a.atthasmissing = true;
      a.missing_value = std::move(v).value();
    }
    attrs.push_back(std::move(a));
  }
  if (static_cast<int>(attrs.size()) > kMaxTupleAttributeNumber) {
    return Status::InvalidArgument("too many attributes in schema");
  }
  return TupleDesc(std::move(attrs));
}

TupleDesc::TupleDesc(std::vector<Attribute> attrs) : attrs_(std::move(attrs)) {
  for (int i = natts() - 1; i >= 0; --i) {
    if (attrs_[i].atthasmissing) {
      last_missing_ = i;
      break;
    }
  }
}

}  // namespace pgstore::tuple
