// What every benchmark in tools/bench/ shares, so that each one holds only its workload:
//
//   Stopwatch   the monotonic clock (steady_clock), read in seconds or nanoseconds
//   Median      the median of repetitions (the upper middle one of an even count)
//   KeepAlive   a sink that keeps a result observable, so the compiler cannot drop the work
//   Flags       the command-line options of every pgstore tool (tools/cli_flags.h)
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tools/cli_flags.h"

namespace pgstore::bench {

using cli::Flags;

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  void Restart() { start_ = std::chrono::steady_clock::now(); }
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  double Nanoseconds() const { return Seconds() * 1e9; }

 private:
  std::chrono::steady_clock::time_point start_;
};

// The median of `samples` (the upper of the two middle ones when there is an even number);
// 0 when there are none.
double Median(std::vector<double> samples);

namespace internal {
inline volatile uint64_t g_sink;
}  // namespace internal

// A volatile store: as cheap as a plain one, and never optimized away with what computed it.
inline void KeepAlive(uint64_t value) { internal::g_sink = value; }

}  // namespace pgstore::bench
