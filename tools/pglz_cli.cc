// pglz command-line tool:
//   pglz compress [--strategy default|always] IN OUT
//   pglz decompress --rawsize N [--partial] IN OUT
// Relative paths are taken from the directory `bazel run` was started in. On corrupt input, or
// when compression gives up, prints one line naming the input and exits 1 without writing OUT;
// OUT is written to a temporary file and renamed, so it is never left half-written.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/pglz/toast_datum.h"
#include "tools/cli_path.h"

namespace {

using pgstore::ByteView;

int Usage() {
  std::cerr << "usage: pglz compress [--strategy default|always] IN OUT\n"
               "       pglz decompress --rawsize N [--partial] IN OUT\n";
  return 2;
}

int Fail(const std::string& msg) {
  std::cerr << "pglz: " << msg << "\n";
  return 1;
}

bool ReadFile(const std::string& path, std::vector<uint8_t>* out, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *err = path + ": " + std::strerror(errno);
    return false;
  }
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

bool WriteFileAtomically(const std::string& path, const uint8_t* data, size_t n, std::string* err) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n));
    out.flush();
    if (!out) {
      *err = tmp + ": " + std::strerror(errno);
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    *err = path + ": " + std::strerror(errno);
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

int Compress(const std::vector<std::string>& args) {
  pgstore::pglz::Strategy strategy = pgstore::pglz::kDefaultStrategy;
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--strategy" && i + 1 < args.size()) {
      const std::string& s = args[++i];
      if (s == "default") {
        strategy = pgstore::pglz::kDefaultStrategy;
      } else if (s == "always") {
        strategy = pgstore::pglz::kAlwaysStrategy;
      } else {
        return Fail("unknown strategy '" + s + "' (default or always)");
      }
    } else {
      paths.push_back(pgstore::cli::ResolvePath(args[i]));
    }
  }
  if (paths.size() != 2) return Usage();
  std::vector<uint8_t> raw;
  std::string err;
  if (!ReadFile(paths[0], &raw, &err)) return Fail(err);
  std::vector<uint8_t> out(pgstore::pglz::MaxOutput(raw.size()));
  std::optional<int32_t> n = pgstore::pglz::Compress(ByteView(raw), out.data(), strategy);
  if (!n) {
    return Fail(paths[0] + ": not compressible under this strategy (" + std::to_string(raw.size()) +
                " bytes); nothing written");
  }
  if (!WriteFileAtomically(paths[1], out.data(), *n, &err)) return Fail(err);
  std::cerr << "pglz: " << raw.size() << " -> " << *n << " bytes\n";
  return 0;
}

int Decompress(const std::vector<std::string>& args) {
  long long rawsize = -1;
  bool partial = false;
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--rawsize" && i + 1 < args.size()) {
      char* end = nullptr;
      rawsize = std::strtoll(args[++i].c_str(), &end, 10);
      if (*end != '\0' || rawsize < 0) return Fail("--rawsize needs a non-negative number");
    } else if (args[i] == "--partial") {
      partial = true;
    } else {
      paths.push_back(pgstore::cli::ResolvePath(args[i]));
    }
  }
  if (paths.size() != 2 || rawsize < 0) return Usage();
  std::vector<uint8_t> in;
  std::string err;
  if (!ReadFile(paths[0], &in, &err)) return Fail(err);
  // No pglz stream expands more than 91 times: a larger rawsize cannot be produced in exact mode,
  // and in partial mode is capped, so a wrong --rawsize cannot make us allocate without bound.
  const long long bound = static_cast<long long>(in.size()) * pgstore::pglz::kMaxExpansion;
  if (rawsize > static_cast<long long>(pgstore::pglz::kMaxVarlenaSize)) {
    return Fail("--rawsize " + std::to_string(rawsize) + " exceeds 1 GB - 1");
  }
  if (rawsize > bound) {
    if (!partial) {
      return Fail(paths[0] + ": corrupt pglz data (" + std::to_string(in.size()) +
                  " bytes cannot expand to " + std::to_string(rawsize) + "); nothing written");
    }
    rawsize = bound;
  }
  std::vector<uint8_t> out(static_cast<size_t>(rawsize));
  pgstore::StatusOr<size_t> n = pgstore::pglz::Decompress(
      ByteView(in), out.data(), out.size(),
      partial ? pgstore::pglz::Completeness::kPartial : pgstore::pglz::Completeness::kExact);
  if (!n.ok()) {
    return Fail(paths[0] + ": corrupt pglz data (" + n.status().message() + "); nothing written");
  }
  if (!WriteFileAtomically(paths[1], out.data(), *n, &err)) return Fail(err);
  std::cerr << "pglz: " << in.size() << " -> " << *n << " bytes\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  const std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "compress") return Compress(args);
  if (cmd == "decompress") return Decompress(args);
  return Usage();
}
