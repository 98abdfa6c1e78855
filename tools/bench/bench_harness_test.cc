#include "tools/bench/bench_harness.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pgstore::bench {
namespace {

TEST(MedianTest, MiddleOfOddUpperMiddleOfEvenZeroOfNone) {
  EXPECT_EQ(Median({5, 1, 3}), 3);
  EXPECT_EQ(Median({4, 1, 3, 2}), 3);
  EXPECT_EQ(Median({2.5}), 2.5);
  EXPECT_EQ(Median({}), 0);
}

TEST(StopwatchTest, CountsUpFromRestart) {
  Stopwatch w;
  const double first = w.Nanoseconds();
  EXPECT_GE(first, 0);
  EXPECT_GE(w.Seconds() * 1e9, first);
  w.Restart();
  EXPECT_GE(w.Seconds(), 0);
}

}  // namespace
}  // namespace pgstore::bench
