// bazel run //tools/verify -- FILE... [--schema TYPES] [--toast FILE] [--checksums]
//
// Checks heap relation files offline, every 8 KB page with the page verifier (storage/page/
// verify.h), and prints each finding on one line in the terms of amcheck's verify_heapam: the
// file, the block, the offset (line pointer; none for the page header), the attribute (0-based,
// when the finding is about one) and the message, e.g.
//
//   base/5/16384: block 3, offset 7: tuple: t_hoff mismatch
//   base/5/16384: block 3, offset 9, attribute 2: toast value 16411 not found in toast relation
//   base/5/16384: block 4: corrupted page pointers
//
// then one summary line (files, pages, tuples, findings). --schema TYPES (pageinspect's syntax:
// PostgreSQL type names in attribute order, dropped:<type>, <type>=<default>) also deforms every
// tuple; --toast FILE (with --schema) reads the relation's TOAST relation, verifies its pages too
// (as oid,int4,bytea) and checks every TOAST pointer of a live tuple against its chunks
// (storage/page/toast_relation.h); --checksums expects data checksums. A file that does not end on
// a page boundary is a finding at the block where its partial page starts. A relative FILE is the
// caller's (BUILD_WORKING_DIRECTORY under bazel run). Files are read a page at a time.
//
// Exit status: 0 no findings, 1 findings, 2 bad usage or a file that cannot be read.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/page/verify.h"
#include "storage/tuple/tuple_desc.h"
#include "tools/cli_flags.h"
#include "tools/cli_path.h"

namespace {

using namespace pgstore;

constexpr const char* kUsage =
    "FILE... [--schema TYPES] [--toast FILE] [--checksums]\n"
    "TYPES: comma-separated PostgreSQL type names in attribute order; dropped:<type> for a\n"
    "dropped attribute, <type>=<value> for a missing default";

struct Totals {
  size_t files = 0, pages = 0, tuples = 0, findings = 0;
};

// Normal line pointers of a page whose line pointer array can be read.
size_t NormalTuples(ByteView page) {
  StatusOr<page::HeapPage> p = page::HeapPage::FromBytes(page);
  if (!p.ok()) return 0;
  size_t n = 0;
  for (int lp = 1; lp <= p->MaxOffset(); ++lp) {
    n += p->GetItemId(lp).flags == page::LpFlags::kNormal;
  }
  return n;
}

// Calls visit(block, page) for each whole page of the file and reports a partial last page as a
// finding; false (after saying so) if the file cannot be read.
template <typename Visit>
bool ForEachPage(const std::string& name, Totals* totals, Visit visit) {
  std::ifstream in(cli::ResolvePath(name), std::ios::binary);
  if (!in) {
    std::cerr << "verify: cannot open " << name << "\n";
    return false;
  }
  std::vector<uint8_t> buffer(page::kPageSize);
  for (uint32_t block = 0;; ++block) {
    in.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size()));
    const size_t got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    if (got < buffer.size()) {
      std::cout << name << ": block " << block << ": file ends with a partial page of " << got
                << " bytes\n";
      ++totals->findings;
      break;
    }
    visit(block, ByteView(buffer.data(), buffer.size()));
  }
  if (in.bad()) {
    std::cerr << "verify: error reading " << name << "\n";
    return false;
  }
  return true;
}

// Verifies one file (and adds its chunks to *chunks if given); false if it cannot be read.
bool VerifyFile(const std::string& name, const page::VerifyOptions& options, Totals* totals,
                page::ToastRelation* chunks = nullptr) {
  const bool read = ForEachPage(name, totals, [&](uint32_t block, ByteView page) {
    if (chunks != nullptr) chunks->AddPage(page);
    ++totals->pages;
    totals->tuples += NormalTuples(page);
    for (const page::PageProblem& p : page::VerifyHeapPage(page, block, options)) {
      std::cout << name << ": block " << block;
      if (p.lp != 0) std::cout << ", offset " << p.lp;
      if (p.attnum >= 0) std::cout << ", attribute " << p.attnum;
      std::cout << ": " << p.check << "\n";
      ++totals->findings;
    }
  });
  totals->files += read;
  return read;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string schema, toast_file;
  bool checksums = false, help = false;
  cli::Flags flags("verify", kUsage);
  flags.Positional(&files);
  flags.Text("--schema", &schema);
  flags.Text("--toast", &toast_file);
  flags.Switch("--checksums", &checksums);
  flags.Switch("--help", &help);
  flags.Parse(argc, argv);
  if (help) {
    std::cout << "usage: verify " << kUsage << "\n";
    return 0;
  }
  if (files.empty()) flags.Fail("no FILE given");
  if (!toast_file.empty() && schema.empty()) flags.Fail("--toast needs --schema");
  tuple::TupleDesc desc;
  page::VerifyOptions options;
  options.expect_checksum = checksums;
  if (!schema.empty()) {
    StatusOr<tuple::TupleDesc> d = tuple::TupleDesc::FromSchema(schema);
    if (!d.ok()) flags.Fail("--schema: " + d.status().message());
    desc = *d;
    options.desc = &desc;
  }
  Totals totals;
  bool unreadable = false;
  page::ToastRelation toast;
  if (!toast_file.empty()) {
    const tuple::TupleDesc toast_desc = *tuple::TupleDesc::FromSchema("oid,int4,bytea");
    page::VerifyOptions toast_options = options;
    toast_options.desc = &toast_desc;
    unreadable |= !VerifyFile(toast_file, toast_options, &totals, &toast);
    options.toast = &toast;
  }
  for (const std::string& f : files) unreadable |= !VerifyFile(f, options, &totals);
  std::cout << "verify: " << totals.files << " file(s), " << totals.pages << " page(s), "
            << totals.tuples << " tuple(s), " << totals.findings << " finding(s)\n";
  if (unreadable) return 2;
  return totals.findings > 0 ? 1 : 0;
}
