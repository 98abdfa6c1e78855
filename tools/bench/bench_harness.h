// What every benchmark in tools/bench/ shares, so that each one holds only its workload:
//
//   Stopwatch   the monotonic clock (steady_clock), read in seconds or nanoseconds
//   Median      the median of repetitions (the upper middle one of an even count)
//   KeepAlive   a sink that keeps a result observable, so the compiler cannot drop the work
//   Flags       "--name VALUE" options, switches and positional arguments; a bad argument is one
//               line naming it, then the usage line, and exit status 2
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace pgstore::bench {

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

class Flags {
 public:
  // `program` names the benchmark in messages; `usage` lists its arguments, e.g.
  // "[--rows N] [--workload SUBSTRING]".
  Flags(std::string program, std::string usage);

  // --name N, N a decimal integer in [min, the largest T].
  template <typename T>
  void Number(const std::string& name, T* value, T min = 1) {
    static_assert(std::numeric_limits<T>::is_integer);
    const uint64_t max = static_cast<uint64_t>(std::numeric_limits<T>::max());
    AddNumber(name, static_cast<uint64_t>(min), max,
              [value](uint64_t v) { *value = static_cast<T>(v); });
  }
  // --name TEXT.
  void Text(const std::string& name, std::string* value);
  // --name alone sets *value.
  void Switch(const std::string& name, bool* value);
  // Arguments that do not start with "--" are appended here; without this call they are errors.
  void Positional(std::vector<std::string>* values);

  // Parses argv[1..]. An unknown flag, a missing or malformed value or an unexpected positional
  // argument: Fail naming it.
  void Parse(int argc, char** argv) const;

  // "<program>: <message>" and the usage line on stderr, then exit(2): for checks after Parse.
  [[noreturn]] void Fail(const std::string& message) const;

 private:
  struct Option {
    std::string name;
    bool takes_value;
    std::function<bool(const std::string&)> set;  // false: the value is malformed
    std::string expects;                          // what a good value is, for the message
  };
  void AddNumber(const std::string& name, uint64_t min, uint64_t max,
                 std::function<void(uint64_t)> set);

  std::string program_;
  std::string usage_;
  std::vector<Option> options_;
  std::vector<std::string>* positional_ = nullptr;
};

}  // namespace pgstore::bench
