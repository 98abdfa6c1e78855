#include "tools/cli_flags.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace pgstore::cli {

Flags::Flags(std::string program, std::string usage)
    : program_(std::move(program)), usage_(std::move(usage)) {}

void Flags::AddNumber(const std::string& name, uint64_t min, uint64_t max,
                      std::function<void(uint64_t)> set) {
  const std::string expects =
      "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  options_.push_back({name, true,
                      [min, max, set](const std::string& text) {
                        if (text.empty() || text.size() > 20 ||
                            text.find_first_not_of("0123456789") != std::string::npos) {
                          return false;
                        }
                        errno = 0;
                        const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
                        if (errno != 0 || v < min || v > max) return false;
                        set(v);
                        return true;
                      },
                      expects});
}

void Flags::Text(const std::string& name, std::string* value) {
  options_.push_back({name, true,
                      [value](const std::string& text) {
                        *value = text;
                        return true;
                      },
                      "a value"});
}

void Flags::Switch(const std::string& name, bool* value) {
  options_.push_back({name, false,
                      [value](const std::string&) {
                        *value = true;
                        return true;
                      },
                      ""});
}

void Flags::Positional(std::vector<std::string>* values) { positional_ = values; }

void Flags::Parse(int argc, char** argv) const {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      if (positional_ == nullptr) Fail("unexpected argument '" + arg + "'");
      positional_->push_back(arg);
      continue;
    }
    const auto option = std::find_if(options_.begin(), options_.end(),
                                     [&](const Option& o) { return o.name == arg; });
    if (option == options_.end()) Fail("unknown flag '" + arg + "'");
    if (!option->takes_value) {
      option->set("");
      continue;
    }
    if (i + 1 >= argc) Fail(arg + " needs " + option->expects);
    const std::string value = argv[++i];
    if (!option->set(value)) Fail(arg + " needs " + option->expects + ", not '" + value + "'");
  }
}

void Flags::Fail(const std::string& message) const {
  std::fprintf(stderr, "%s: %s\nusage: %s %s\n", program_.c_str(), message.c_str(),
               program_.c_str(), usage_.c_str());
  std::exit(2);
}

}  // namespace pgstore::cli
