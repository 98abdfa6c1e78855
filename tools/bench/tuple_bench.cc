// Heap tuple form and deform cost per truncation mode, on narrow and wide rows of the 2012
// trailing-NULL workloads (tools/bench/trailing_null_workloads.h):
//
//   bazel run --config=bench //tools/bench:tuple_bench -- [--reps N] [--tuples N]
//
// Each repetition times every mode back to back on the same rows (off is timed twice, as "off"
// and "off again", so the A/A difference shows the machine's noise). Reported: median ns per
// tuple over the repetitions, tuple length, and the ratio to off. Without trailing NULLs the
// truncation modes must be within noise of off.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "storage/tuple/deform.h"
#include "storage/tuple/form.h"
#include "tools/bench/bench_harness.h"
#include "tools/bench/trailing_null_workloads.h"

namespace {

using namespace pgstore;
using bench::KeepAlive;
using bench::Median;

struct Variant {
  const char* name;
  tuple::TrailingNulls mode;
};
constexpr Variant kVariants[] = {{"off", tuple::TrailingNulls::kOff},
                                 {"keep-bitmap", tuple::TrailingNulls::kKeepBitmap},
                                 {"drop-bitmap", tuple::TrailingNulls::kDropBitmap},
                                 {"off again", tuple::TrailingNulls::kOff}};
constexpr int kNumVariants = sizeof(kVariants) / sizeof(kVariants[0]);

}  // namespace

int main(int argc, char** argv) {
  int reps = 9;
  int tuples = 0;  // 0: sized per row width
  bench::Flags flags("tuple_bench", "[--reps N] [--tuples N]");
  flags.Number("--reps", &reps);
  flags.Number("--tuples", &tuples, 0);
  flags.Parse(argc, argv);
  std::vector<bench::TrailingNullWorkload> cases = {
      {"narrow: 12 cols, no NULLs", 3, 9, 0}, bench::TrailingNullWorkloads()[6],
      bench::TrailingNullWorkloads()[5],      bench::TrailingNullWorkloads()[4],
      bench::TrailingNullWorkloads()[2],      bench::TrailingNullWorkloads()[3],
      bench::TrailingNullWorkloads()[0],
  };
  std::printf("%-44s %-12s %6s %9s %7s %9s %7s\n", "row", "mode", "bytes", "form ns", "x off",
              "deform ns", "x off");
  for (const bench::TrailingNullWorkload& w : cases) {
    const tuple::TupleDesc desc = w.Desc();
    const int n = tuples > 0 ? tuples : std::max(2000, 2000000 / w.columns());
    std::vector<uint8_t> buffer;
    const std::vector<tuple::Datum> values =
        bench::WorkloadRow(w, 12345, bench::Phase::kInsert, &buffer);
    std::vector<double> form_ns[kNumVariants], deform_ns[kNumVariants];
    size_t length[kNumVariants] = {};
    std::vector<uint8_t> t;
    std::vector<tuple::Datum> out;
    for (int r = 0; r < reps; ++r) {
      for (int v = 0; v < kNumVariants; ++v) {
        tuple::FormOptions o;
        o.trailing_nulls = kVariants[v].mode;
        bench::Stopwatch watch;
        for (int i = 0; i < n; ++i) {
          if (!tuple::FormHeapTupleInto(desc, values, o, &t).ok()) std::abort();
          KeepAlive(t.size());
        }
        form_ns[v].push_back(watch.Nanoseconds() / n);
        length[v] = t.size();
        watch.Restart();
        for (int i = 0; i < n; ++i) {
          if (!tuple::DeformHeapTupleInto(ByteView(t), desc, &out).ok()) std::abort();
          KeepAlive(out.size());
        }
        deform_ns[v].push_back(watch.Nanoseconds() / n);
      }
    }
    const double form_off = Median(form_ns[0]), deform_off = Median(deform_ns[0]);
    for (int v = 0; v < kNumVariants; ++v) {
      const double f = Median(form_ns[v]), d = Median(deform_ns[v]);
      std::printf("%-44s %-12s %6zu %9.1f %7.3f %9.1f %7.3f\n", v == 0 ? w.name.c_str() : "",
                  kVariants[v].name, length[v], f, f / form_off, d, d / deform_off);
    }
    std::fflush(stdout);
  }
  return 0;
}
