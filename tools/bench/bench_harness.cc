#include "tools/bench/bench_harness.h"

#include <algorithm>

namespace pgstore::bench {

double Median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace pgstore::bench
