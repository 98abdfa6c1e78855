// The radix TID store (storage/tidstore/tid_store.h) against PostgreSQL 16's sorted array of 6-byte
// TIDs, on the dead-TID patterns of docs/workloads.md §3:
//
//   bazel run --config=bench //tools/bench:tidstore_bench -- [--pattern P] [--count N] [--step S]
//                                                            [--reps R] [--burst B]
//
//   dense            all 291 offsets of consecutive blocks (N TIDs, default 10,000,000)
//
// Misses are TIDs within the pattern's block range that it does not hold, with offsets up to 300.
//   every-nth-block  one TID on every S-th block (N default 33,000, S default 10)
//   clustered        runs of 10 to 100 dead tuples (in table order) with gaps of up to 2,000
//   random           N TIDs drawn uniformly from a table of 20 * N tuples, 291 a page
//   vacuum           a 100-million-row table, 291 rows a page, the last 20% deleted, probed once
//                    per index entry in monotonic and in random (UUID-like) order (N rows)
//
// For each store: bytes allocated, bytes per TID, build time from the sorted TID stream, and
// is_member ns for hits and misses in index (ascending) order and in random order; the median of R
// repetitions (default 3). Without --pattern every pattern runs and a summary table follows.
// --burst sets the radix store's leaf burst threshold (default kDefaultBurstEntries), to measure
// the choice.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "storage/tidstore/sorted_array_tid_store.h"
#include "storage/tidstore/tid_store.h"
#include "tools/bench/bench_harness.h"

namespace {

using namespace pgstore::tidstore;
using pgstore::bench::Median;

size_t g_burst = kDefaultBurstEntries;

// BuildFromSorted for either store, the radix one with the chosen burst threshold.
auto Build(const std::vector<Tid>& tids, TidStore*) {
  return TidStore::BuildFromSorted(tids, g_burst);
}
auto Build(const std::vector<Tid>& tids, SortedArrayTidStore*) {
  return SortedArrayTidStore::BuildFromSorted(tids);
}
constexpr uint16_t kTuplesPerPage = 291;

Tid TidOfRow(uint64_t row) {
  return Tid{static_cast<uint32_t>(row / kTuplesPerPage),
             static_cast<uint16_t>(row % kTuplesPerPage + 1)};
}

struct Pattern {
  std::string name;
  std::vector<Tid> tids;  // sorted, unique
  // Probes: for the vacuum pattern every row of the table (hits and misses mixed); otherwise
  // separate hit and miss lists.
  uint64_t table_rows = 0;
};

bool Less(const Tid& a, const Tid& b) {
  return a.block != b.block ? a.block < b.block : a.offset < b.offset;
}

Pattern MakePattern(const std::string& name, uint64_t count, uint32_t step) {
  Pattern p;
  p.name = name;
  std::mt19937_64 rng(42);
  if (name == "dense") {
    for (uint64_t i = 0; i < count; ++i) p.tids.push_back(TidOfRow(1000 * kTuplesPerPage + i));
  } else if (name == "every-nth-block") {
    for (uint64_t i = 0; i < count; ++i) {
      p.tids.push_back(Tid{static_cast<uint32_t>(i * step), static_cast<uint16_t>(1 + i % 291)});
    }
  } else if (name == "clustered") {
    uint64_t row = 0;
    while (p.tids.size() < count) {
      row += rng() % 2000;
      const uint64_t run = 10 + rng() % 91;
      for (uint64_t i = 0; i < run && p.tids.size() < count; ++i) p.tids.push_back(TidOfRow(row++));
    }
  } else if (name == "random") {
    const uint64_t table = 20 * count;
    std::vector<uint64_t> rows;
    rows.reserve(count + count / 8);
    while (rows.size() < count) {
      for (uint64_t i = rows.size(); i < count; ++i) rows.push_back(rng() % table);
      std::sort(rows.begin(), rows.end());
      rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    }
    for (uint64_t r : rows) p.tids.push_back(TidOfRow(r));
  } else if (name == "vacuum") {
    p.table_rows = count;
    for (uint64_t r = count - count / 5; r < count; ++r) p.tids.push_back(TidOfRow(r));
  }
  return p;
}

struct Result {
  size_t bytes = 0;
  double build_ms = 0;
  // ns per probe: hits in index order, misses in index order, hits random, misses random; or for
  // vacuum: monotonic and random over the whole index.
  double ns[4] = {0, 0, 0, 0};
};

// ns per IsMember over `probes`; exits if the store does not find exactly `expect` of them.
template <typename Store>
double TimeProbes(const Store& s, const std::vector<Tid>& probes, size_t expect) {
  const pgstore::bench::Stopwatch watch;
  size_t found = 0;
  for (const Tid& t : probes) found += s.IsMember(t);
  const double ns = watch.Nanoseconds() / static_cast<double>(probes.size());
  if (found != expect) {
    std::fprintf(stderr, "tidstore_bench: found %zu of %zu probes, want %zu\n", found,
                 probes.size(), expect);
    std::exit(1);
  }
  pgstore::bench::KeepAlive(found);
  return ns;
}

// The TIDs an index scan hands vacuum: every row of the table once, in index order or in a
// pseudo-random permutation (i * a mod n, a coprime with n), as a monotonic or a UUID index gives
// them. Computed once, so that the timed loop only reads them (as vacuum reads index tuples).
std::vector<Tid> IndexScanOrder(uint64_t rows, bool random_order) {
  uint64_t mult = 2654435761u;
  while (std::__gcd(mult, rows) != 1) mult += 2;
  std::vector<Tid> probes(rows);
  for (uint64_t i = 0; i < rows; ++i) probes[i] = TidOfRow(random_order ? (i * mult) % rows : i);
  return probes;
}

template <typename Store>
Result Measure(const Pattern& p, const std::vector<Tid>& hits, const std::vector<Tid>& misses,
               const std::vector<Tid>& hits_random, const std::vector<Tid>& misses_random,
               int reps) {
  Result r;
  std::vector<double> build, ns[4];
  for (int rep = 0; rep < reps; ++rep) {
    const pgstore::bench::Stopwatch watch;
    auto built = Build(p.tids, static_cast<Store*>(nullptr));
    build.push_back(watch.Seconds() * 1e3);
    if (!built.ok()) {
      std::fprintf(stderr, "tidstore_bench: %s\n", built.status().ToString().c_str());
      std::exit(1);
    }
    const Store& s = *built;
    r.bytes = s.MemoryUsage();
    if (p.table_rows > 0) {
      ns[0].push_back(TimeProbes(s, hits, p.tids.size()));
      ns[2].push_back(TimeProbes(s, hits_random, p.tids.size()));
    } else {
      ns[0].push_back(TimeProbes(s, hits, hits.size()));
      ns[1].push_back(TimeProbes(s, misses, 0));
      ns[2].push_back(TimeProbes(s, hits_random, hits_random.size()));
      ns[3].push_back(TimeProbes(s, misses_random, 0));
    }
  }
  r.build_ms = Median(build);
  for (int i = 0; i < 4; ++i) r.ns[i] = Median(ns[i]);  // 0: not measured for this pattern
  return r;
}

struct Row {
  std::string pattern;
  size_t tids;
  Result radix, array;
};

Row Run(const std::string& name, uint64_t count, uint32_t step, int reps) {
  std::fprintf(stderr, "tidstore_bench: %s: generating %llu...\n", name.c_str(),
               static_cast<unsigned long long>(count));
  const Pattern p = MakePattern(name, count, step);
  std::vector<Tid> hits, misses, hits_random, misses_random;
  if (p.table_rows > 0) {  // for vacuum: the two index scans, hits and misses mixed
    hits = IndexScanOrder(p.table_rows, false);
    hits_random = IndexScanOrder(p.table_rows, true);
  } else {
    // Up to 1,000,000 probes of each kind. Misses: TIDs in the pattern's block range that it does
    // not hold (checked against the sorted TID list itself, not against either store).
    std::mt19937_64 rng(7);
    const size_t probes = std::min<size_t>(p.tids.size(), 1000000);
    for (size_t i = 0; i < probes; ++i) hits.push_back(p.tids[i * p.tids.size() / probes]);
    // Offsets go a little past 291 so that a pattern without gaps (dense) has misses too.
    const uint64_t lo = p.tids.front().block, hi = p.tids.back().block;
    for (uint64_t tries = 0; misses.size() < probes && tries < 200 * probes; ++tries) {
      const Tid t{static_cast<uint32_t>(lo + rng() % (hi - lo + 1)),
                  static_cast<uint16_t>(1 + rng() % (kTuplesPerPage + 9))};
      if (!std::binary_search(p.tids.begin(), p.tids.end(), t, Less)) misses.push_back(t);
    }
    std::sort(misses.begin(), misses.end(), Less);
    hits_random = hits;
    misses_random = misses;
    std::shuffle(hits_random.begin(), hits_random.end(), rng);
    std::shuffle(misses_random.begin(), misses_random.end(), rng);
  }
  std::fprintf(stderr, "tidstore_bench: %s: %zu TIDs, measuring...\n", name.c_str(), p.tids.size());
  Row row{name, p.tids.size(), {}, {}};
  row.radix = Measure<TidStore>(p, hits, misses, hits_random, misses_random, reps);
  row.array = Measure<SortedArrayTidStore>(p, hits, misses, hits_random, misses_random, reps);
  const bool vacuum = p.table_rows > 0;
  std::printf("\n%s: %zu TIDs%s\n", name.c_str(), p.tids.size(),
              vacuum ? ", probed once per row of the table" : "");
  if (vacuum) {
    std::printf("  %-8s %14s %9s %10s %14s %14s\n", "store", "bytes", "B/TID", "build ms",
                "monotonic ns", "random ns");
  } else {
    std::printf("  %-8s %14s %9s %10s %9s %9s %9s %9s\n", "store", "bytes", "B/TID", "build ms",
                "hit ns", "miss ns", "hit rnd", "miss rnd");
  }
  for (const auto& [label, r] : {std::pair<const char*, const Result&>{"radix", row.radix},
                                 std::pair<const char*, const Result&>{"array", row.array}}) {
    if (vacuum) {
      std::printf("  %-8s %14zu %9.3f %10.1f %14.1f %14.1f\n", label, r.bytes,
                  static_cast<double>(r.bytes) / p.tids.size(), r.build_ms, r.ns[0], r.ns[2]);
    } else {
      std::printf("  %-8s %14zu %9.3f %10.1f %9.1f %9.1f %9.1f %9.1f\n", label, r.bytes,
                  static_cast<double>(r.bytes) / p.tids.size(), r.build_ms, r.ns[0], r.ns[1],
                  r.ns[2], r.ns[3]);
    }
  }
  std::fflush(stdout);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  std::string pattern;
  uint64_t count = 0;
  uint32_t step = 10;
  int reps = 3;
  pgstore::bench::Flags flags("tidstore_bench",
                              "[--pattern dense|every-nth-block|clustered|random|vacuum] "
                              "[--count N] [--step S] [--reps R] [--burst B]");
  flags.Text("--pattern", &pattern);
  flags.Number("--count", &count, uint64_t{0});  // 0: the pattern's default
  flags.Number("--step", &step);
  flags.Number("--burst", &g_burst);
  flags.Number("--reps", &reps);
  flags.Parse(argc, argv);
  const std::vector<std::pair<std::string, uint64_t>> all = {{"dense", 10000000},
                                                             {"every-nth-block", 33000},
                                                             {"clustered", 1000000},
                                                             {"random", 1000000},
                                                             {"vacuum", 100000000}};
  std::vector<std::pair<std::string, uint64_t>> todo;
  for (const auto& [name, default_count] : all) {
    if (pattern.empty() || pattern == name) todo.emplace_back(name, count ? count : default_count);
  }
  if (todo.empty()) flags.Fail("unknown pattern '" + pattern + "'");
  if (pattern == "every-nth-block" && count > 0xFFFFFFFFull / step) {
    flags.Fail("--count times --step must be below 2^32 for every-nth-block");
  }
  std::vector<Row> rows;
  for (const auto& [name, n] : todo) rows.push_back(Run(name, n, step, reps));
  if (rows.size() > 1) {
    std::printf(
        "\nsummary (lookup ratio = array ns / radix ns; > 1 means the radix store is "
        "faster)\n");
    std::printf("  %-16s %12s %10s %10s %12s %12s %12s %12s\n", "pattern", "TIDs", "radix B/TID",
                "array B/TID", "hit ratio", "miss ratio", "hit rnd", "miss rnd");
    for (const Row& r : rows) {
      std::printf("  %-16s %12zu %10.3f %10.3f", r.pattern.c_str(), r.tids,
                  static_cast<double>(r.radix.bytes) / r.tids,
                  static_cast<double>(r.array.bytes) / r.tids);
      for (int i = 0; i < 4; ++i) {
        if (r.radix.ns[i] > 0) {
          std::printf(" %12.2f", r.array.ns[i] / r.radix.ns[i]);
        } else {
          std::printf(" %12s", "-");  // vacuum mixes hits and misses in each scan
        }
      }
      std::printf("\n");
    }
    std::printf("  (vacuum: 'hit ratio' is the monotonic index scan, 'hit rnd' the random one)\n");
  }
  return 0;
}
