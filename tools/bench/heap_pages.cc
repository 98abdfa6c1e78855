// Pages used by the 2012 trailing-NULL workloads (docs/workloads.md §1), per truncation
// mode and phase, with PostgreSQL's heap placement (storage/page/relation_filler.h: fillfactor 100,
// no vacuum, non-HOT updates leave old versions in place):
//
//   bazel run --config=bench //tools/bench:heap_pages -- [--rows N] [--workload SUBSTRING]
//
// Phase A inserts N rows (default 2,000,000), B updates every row's last column to a non-null
// value, C sets it back to NULL. Prints, per workload and mode, the tuple length and the pages
// after each phase, the ratio to mode off, and the time per phase; tab-separated.
#include <cstdio>
#include <string>
#include <vector>

#include "storage/page/relation_filler.h"
#include "storage/tuple/form.h"
#include "tools/bench/bench_harness.h"
#include "tools/bench/trailing_null_workloads.h"

namespace {

using namespace pgstore;

const char* ModeName(tuple::TrailingNulls m) {
  switch (m) {
    case tuple::TrailingNulls::kKeepBitmap:
      return "keep-bitmap";
    case tuple::TrailingNulls::kDropBitmap:
      return "drop-bitmap";
    default:
      return "off";
  }
}

struct PhaseResult {
  size_t tuple_len = 0;
  size_t pages = 0;
  double seconds = 0;
};

// Runs phases A, B, C; returns one result per phase.
std::vector<PhaseResult> Run(const bench::TrailingNullWorkload& w, tuple::TrailingNulls mode,
                             uint32_t rows) {
  const tuple::TupleDesc desc = w.Desc();
  tuple::FormOptions options;
  options.trailing_nulls = mode;
  page::RelationFiller filler;
  std::vector<page::Tid> tids(rows);
  std::vector<uint8_t> buffer, tuple;
  std::vector<PhaseResult> results;
  for (bench::Phase phase :
       {bench::Phase::kInsert, bench::Phase::kSetLast, bench::Phase::kResetLast}) {
    PhaseResult r;
    const bench::Stopwatch watch;
    for (uint32_t row = 0; row < rows; ++row) {
      const std::vector<tuple::Datum> values = bench::WorkloadRow(w, row, phase, &buffer);
      Status s = tuple::FormHeapTupleInto(desc, values, options, &tuple);
      if (!s.ok()) {
        std::fprintf(stderr, "heap_pages: %s: %s\n", w.name.c_str(), s.ToString().c_str());
        std::exit(1);
      }
      StatusOr<page::Tid> tid = phase == bench::Phase::kInsert
                                    ? filler.Insert(ByteView(tuple))
                                    : filler.Update(tids[row], ByteView(tuple));
      if (!tid.ok()) {
        std::fprintf(stderr, "heap_pages: %s\n", tid.status().ToString().c_str());
        std::exit(1);
      }
      tids[row] = *tid;
      r.tuple_len = tuple.size();
    }
    r.seconds = watch.Seconds();
    r.pages = filler.pages();
    results.push_back(r);
  }
  return results;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t rows = 2000000;
  std::string filter;
  bench::Flags flags("heap_pages", "[--rows N] [--workload SUBSTRING]");
  flags.Number("--rows", &rows);
  flags.Text("--workload", &filter);
  flags.Parse(argc, argv);
  std::printf(
      "workload\tmode\ttuple_len A/B/C\tpages A\tpages B\tpages C\tvs off A/B/C\t"
      "seconds A/B/C\n");
  int matched = 0;
  for (const bench::TrailingNullWorkload& w : bench::TrailingNullWorkloads()) {
    if (!filter.empty() && w.name.find(filter) == std::string::npos) continue;
    ++matched;
    std::vector<PhaseResult> off;
    for (tuple::TrailingNulls mode : {tuple::TrailingNulls::kOff, tuple::TrailingNulls::kKeepBitmap,
                                      tuple::TrailingNulls::kDropBitmap}) {
      std::fprintf(stderr, "heap_pages: %s, %s, %u rows...\n", w.name.c_str(), ModeName(mode),
                   rows);
      const std::vector<PhaseResult> r = Run(w, mode, rows);
      if (mode == tuple::TrailingNulls::kOff) off = r;
      std::printf(
          "%s\t%s\t%zu/%zu/%zu\t%zu\t%zu\t%zu\t%.3f/%.3f/%.3f\t%.2f/%.2f/%.2f\n", w.name.c_str(),
          ModeName(mode), r[0].tuple_len, r[1].tuple_len, r[2].tuple_len, r[0].pages, r[1].pages,
          r[2].pages, static_cast<double>(r[0].pages) / off[0].pages,
          static_cast<double>(r[1].pages) / off[1].pages,
          static_cast<double>(r[2].pages) / off[2].pages, r[0].seconds, r[1].seconds, r[2].seconds);
      std::fflush(stdout);
    }
  }
  if (matched == 0) flags.Fail("no workload matches '" + filter + "'");
  return 0;
}
