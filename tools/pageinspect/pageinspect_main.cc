// bazel run //tools/pageinspect -- items FILE
// bazel run //tools/pageinspect -- split FILE --schema TYPES
//
// Lists every page of a heap relation file like PostgreSQL's pageinspect (see pageinspect.h). A
// relative FILE is the caller's (BUILD_WORKING_DIRECTORY under bazel run).
// Problems go to stderr, one line each, naming the page, the line pointer and the failed check;
// the listing goes on. Exit status: 0 clean, 1 problems found, 2 bad usage or unreadable file.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "storage/page/page_format.h"
#include "tools/cli_path.h"
#include "tools/pageinspect/pageinspect.h"

namespace {

int Usage() {
  std::cerr << "usage: pageinspect items FILE\n"
               "       pageinspect split FILE --schema TYPES\n"
               "TYPES: comma-separated PostgreSQL type names in attribute order; dropped:<type>\n"
               "for a dropped attribute, <type>=<value> for a missing default\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pgstore;
  if (argc < 3) return Usage();
  const std::string mode = argv[1], path = cli::ResolvePath(argv[2]);
  std::string schema;
  for (int i = 3; i < argc; ++i) {
    if (std::string(argv[i]) == "--schema" && i + 1 < argc) {
      schema = argv[++i];
    } else {
      return Usage();
    }
  }
  if (mode != "items" && mode != "split") return Usage();
  tuple::TupleDesc desc;
  if (mode == "split") {
    if (schema.empty()) return Usage();
    StatusOr<tuple::TupleDesc> d = tuple::TupleDesc::FromSchema(schema);
    if (!d.ok()) {
      std::cerr << "pageinspect: --schema: " << d.status().message() << "\n";
      return 2;
    }
    desc = *d;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "pageinspect: cannot open " << path << "\n";
    return 2;
  }
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  bool problems = false;
  if (file.size() % page::kPageSize != 0) {
    std::cerr << "pageinspect: " << path << ": size " << file.size()
              << " is not a multiple of 8192; the last partial page is ignored\n";
    problems = true;
  }
  for (size_t b = 0; b < file.size() / page::kPageSize; ++b) {
    pageinspect::Report r;
    const ByteView pg(file.data() + b * page::kPageSize, page::kPageSize);
    if (mode == "items") {
      pageinspect::HeapPageItems(pg, static_cast<uint32_t>(b), &r);
    } else {
      pageinspect::TupleDataSplit(pg, static_cast<uint32_t>(b), desc, &r);
    }
    for (const std::string& l : r.lines) std::cout << l << "\n";
    for (const std::string& e : r.errors) std::cerr << "pageinspect: " << path << ": " << e << "\n";
    problems |= !r.errors.empty();
  }
  return problems ? 1 : 0;
}
