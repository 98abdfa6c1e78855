#include "properties/models/tuple_value_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace pgstore::models {
namespace {

using Bytes = std::vector<uint8_t>;

ModelParsed Ok(Bytes b) { return {ModelParsed::Verdict::kOk, std::move(b)}; }
ModelParsed Bad() { return {ModelParsed::Verdict::kBadText, {}}; }

Bytes LittleEndian(uint64_t v, int n) {
  Bytes out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  return out;
}

// The pieces of `text` between the separators (one piece more than separators).
std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> pieces(1);
  for (char c : text) {
    if (c == separator) {
      pieces.emplace_back();
    } else {
      pieces.back() += c;
    }
  }
  return pieces;
}

bool AllDigits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// |value| <= limit, compared as digit strings (leading zeros dropped).
bool MagnitudeAtMost(std::string digits, const std::string& limit) {
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  return digits.size() < limit.size() || (digits.size() == limit.size() && digits <= limit);
}

ModelParsed Integer(const std::string& type, const std::string& text) {
  const bool neg = !text.empty() && text[0] == '-';
  const std::string digits =
      (!text.empty() && (text[0] == '-' || text[0] == '+')) ? text.substr(1) : text;
  if (!AllDigits(digits)) return Bad();
  struct Range {
    int bytes;
    const char* max_pos;
    const char* max_neg;
  };
  const Range r = type == "int2"   ? Range{2, "32767", "32768"}
                  : type == "int4" ? Range{4, "2147483647", "2147483648"}
                  : type == "int8" ? Range{8, "9223372036854775807", "9223372036854775808"}
                                   : Range{4, "4294967295", "0"};  // oid
  if (!MagnitudeAtMost(digits, neg ? r.max_neg : r.max_pos)) return Bad();
  std::string trimmed = digits;
  trimmed.erase(0, std::min(trimmed.find_first_not_of('0'), trimmed.size() - 1));
  const uint64_t magnitude = std::stoull(trimmed);
  return Ok(LittleEndian(neg ? ~magnitude + 1 : magnitude, r.bytes));
}

ModelParsed Float(const std::string& type, const std::string& text) {
  if (text.empty() || text.find('\0') != std::string::npos) return Bad();
  double v = 0;
  size_t used = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {  // invalid_argument, or out_of_range (ERANGE)
    return Bad();
  }
  if (used != text.size()) return Bad();
  Bytes out(type == "float4" ? 4 : 8);
  if (type == "float4") {
    const float f = static_cast<float>(v);
    if (std::isfinite(v) && (!std::isfinite(f) || (v != 0 && f == 0))) return Bad();
    std::memcpy(out.data(), &f, 4);
  } else {
    std::memcpy(out.data(), &v, 8);
  }
  return Ok(out);
}

// Days from 0001-01-01 to y-m-d: whole years, their leap days, the days of this year before it.
int64_t DaysFromYearOne(int64_t y, int m, int d) {
  static const int kBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  const int64_t p = y - 1;
  return 365 * p + p / 4 - p / 100 + p / 400 + kBefore[m - 1] + (m > 2 && leap) + d - 1;
}

ModelParsed Date(const std::string& text) {
  const std::vector<std::string> parts = Split(text, '-');
  if (parts.size() != 3 || !AllDigits(parts[0]) || !AllDigits(parts[1]) || !AllDigits(parts[2])) {
    return Bad();
  }
  if (!MagnitudeAtMost(parts[0], "5874897") || !MagnitudeAtMost(parts[1], "12") ||
      !MagnitudeAtMost(parts[2], "31")) {
    return Bad();
  }
  const int64_t y = std::stoll(parts[0]);
  const int m = std::stoi(parts[1]), d = std::stoi(parts[2]);
  static const int kLength[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || m < 1 || d < 1 || d > kLength[m - 1]) return Bad();
  if (m == 2 && d == 29 && DaysFromYearOne(y, 3, 1) - DaysFromYearOne(y, 2, 1) != 29) return Bad();
  return Ok(LittleEndian(
      static_cast<uint64_t>(DaysFromYearOne(y, m, d) - DaysFromYearOne(2000, 1, 1)), 4));
}

Bytes Varlena(const Bytes& data) {
  Bytes out = LittleEndian(static_cast<uint64_t>(data.size() + 4) << 2, 4);
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

int Hex(char c) {
  const char* digits = "0123456789abcdef";
  const char* at = std::strchr(digits, c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
  return c != '\0' && at != nullptr ? static_cast<int>(at - digits) : -1;
}

bool KnownType(const std::string& name) {
  const std::vector<std::string>& names = ModelTypeNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

const std::vector<std::string>& ModelTypeNames() {
  static const std::vector<std::string> kNames = {
      "int2", "int4",      "int8",        "float4",  "float8", "bool",  "\"char\"",
      "char", "name",      "text",        "varchar", "bpchar", "bytea", "numeric",
      "date", "timestamp", "timestamptz", "uuid",    "oid",    "jsonb", "cstring"};
  return kNames;
}

ModelParsed ModelParseValue(const std::string& type, const std::string& text) {
  if (type == "int2" || type == "int4" || type == "int8" || type == "oid")
    return Integer(type, text);
  if (type == "float4" || type == "float8") return Float(type, text);
  if (type == "bool") {
    if (text == "t" || text == "true") return Ok({1});
    if (text == "f" || text == "false") return Ok({0});
    return Bad();
  }
  if (type == "\"char\"" || type == "char") {
    if (text.size() > 1) return Bad();
    return Ok({static_cast<uint8_t>(text.empty() ? 0 : text[0])});
  }
  if (type == "date") return Date(text);
  if (type == "bytea" && text.size() >= 2 && text[0] == '\\' && text[1] == 'x') {
    if (text.size() % 2 != 0) return Bad();
    Bytes data;
    for (size_t i = 2; i < text.size(); i += 2) {
      if (Hex(text[i]) < 0 || Hex(text[i + 1]) < 0) return Bad();
      data.push_back(static_cast<uint8_t>(Hex(text[i]) * 16 + Hex(text[i + 1])));
    }
    return Ok(Varlena(data));
  }
  if (type == "text" || type == "varchar" || type == "bpchar" || type == "bytea") {
    return Ok(Varlena(Bytes(text.begin(), text.end())));
  }
  return {ModelParsed::Verdict::kNotSupported, {}};
}

std::optional<std::vector<ModelSchemaAttr>> ModelParseSchema(const std::string& schema) {
  const std::vector<std::string> items = Split(schema, ',');
  if (items.size() > 1664) return std::nullopt;
  std::vector<ModelSchemaAttr> out;
  for (std::string item : items) {
    ModelSchemaAttr a;
    if (item.compare(0, 8, "dropped:") == 0) {
      a.dropped = true;
      item.erase(0, 8);
    }
    std::optional<std::string> value;
    if (const size_t eq = item.find('='); eq != std::string::npos) {
      value = item.substr(eq + 1);
      item.erase(eq);
    }
    const bool array = item.size() > 2 && item.compare(item.size() - 2, 2, "[]") == 0;
    if (!KnownType(array ? item.substr(0, item.size() - 2) : item)) return std::nullopt;
    a.type = item;
    if (value) {
      if (array) return std::nullopt;  // no array values
      const ModelParsed p = ModelParseValue(item, *value);
      if (p.verdict != ModelParsed::Verdict::kOk) return std::nullopt;
      a.missing = p.bytes;
    }
    out.push_back(a);
  }
  return out;
}

}  // namespace pgstore::models
