// Reading the capture tools' TSV files: fields split on a separator, and hex fields as bytes.
#ifndef PGSTORE_TOOLS_PG_CAPTURE_TSV_H_
#define PGSTORE_TOOLS_PG_CAPTURE_TSV_H_

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace pgstore::capture {

inline std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// The bytes of an even-length hex string; false (and *out unspecified) on anything else.
inline bool FromHex(const std::string& hex, std::vector<uint8_t>* out) {
  out->clear();
  if (hex.size() % 2 != 0) return false;
  for (size_t i = 0; i < hex.size(); i += 2) {
    char* end = nullptr;
    const std::string byte = hex.substr(i, 2);
    const long v = std::strtol(byte.c_str(), &end, 16);
    if (*end != 0) return false;
    out->push_back(static_cast<uint8_t>(v));
  }
  return true;
}

}  // namespace pgstore::capture

#endif  // PGSTORE_TOOLS_PG_CAPTURE_TSV_H_
