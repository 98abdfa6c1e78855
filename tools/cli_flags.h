// Command-line options of pgstore's tools: "--name VALUE" numbers and text, switches and
// positional arguments; a bad argument is one line naming it ("<program>: <what>"), then the usage
// line, and exit status 2.
#ifndef PGSTORE_TOOLS_CLI_FLAGS_H_
#define PGSTORE_TOOLS_CLI_FLAGS_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace pgstore::cli {

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

}  // namespace pgstore::cli

#endif  // PGSTORE_TOOLS_CLI_FLAGS_H_
