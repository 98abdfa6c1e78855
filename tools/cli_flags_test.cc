#include "tools/cli_flags.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pgstore::cli {
namespace {

// Parses `args` (without the program name) with the flags every test below declares.
struct Parsed {
  uint32_t rows = 7;
  int reps = 3;
  uint64_t tuples = 5;
  std::string workload;
  bool child = false;
  std::vector<std::string> files;
};

Parsed ParseArgs(std::vector<std::string> args) {
  Parsed p;
  Flags flags("cli_flags_test", "[--rows N] [--reps N] [--tuples N] [--workload W] FILE...");
  flags.Number("--rows", &p.rows);
  flags.Number("--reps", &p.reps);
  flags.Number("--tuples", &p.tuples, uint64_t{0});
  flags.Text("--workload", &p.workload);
  flags.Switch("--child", &p.child);
  flags.Positional(&p.files);
  std::vector<char*> argv = {const_cast<char*>("cli_flags_test")};
  for (std::string& a : args) argv.push_back(a.data());
  flags.Parse(static_cast<int>(argv.size()), argv.data());
  return p;
}

TEST(FlagsTest, DefaultsStayWithoutArguments) {
  const Parsed p = ParseArgs({});
  EXPECT_EQ(p.rows, 7u);
  EXPECT_EQ(p.reps, 3);
  EXPECT_EQ(p.tuples, 5u);
  EXPECT_FALSE(p.child);
  EXPECT_TRUE(p.files.empty());
}

TEST(FlagsTest, SetsEachKindOfArgument) {
  const Parsed p = ParseArgs({"a.bin", "--rows", "4294967295", "--reps", "9", "--tuples", "0",
                              "--workload", "narrow", "--child", "b.bin"});
  EXPECT_EQ(p.rows, 4294967295u);
  EXPECT_EQ(p.reps, 9);
  EXPECT_EQ(p.tuples, 0u);
  EXPECT_EQ(p.workload, "narrow");
  EXPECT_TRUE(p.child);
  EXPECT_EQ(p.files, (std::vector<std::string>{"a.bin", "b.bin"}));
}

TEST(FlagsTest, BadArgumentsExitTwoNamingThem) {
  EXPECT_EXIT(ParseArgs({"--bogus"}), testing::ExitedWithCode(2), "unknown flag '--bogus'");
  EXPECT_EXIT(ParseArgs({"--rows"}), testing::ExitedWithCode(2), "--rows needs an integer");
  EXPECT_EXIT(ParseArgs({"--rows", "0"}), testing::ExitedWithCode(2),
              "--rows needs an integer from 1 to 4294967295, not '0'");
  EXPECT_EXIT(ParseArgs({"--rows", "4294967296"}), testing::ExitedWithCode(2), "not '4294967296'");
  EXPECT_EXIT(ParseArgs({"--reps", "-1"}), testing::ExitedWithCode(2), "not '-1'");
  EXPECT_EXIT(ParseArgs({"--reps", "12abc"}), testing::ExitedWithCode(2), "not '12abc'");
  EXPECT_EXIT(ParseArgs({"--reps", "2147483648"}), testing::ExitedWithCode(2), "not '2147483648'");
  EXPECT_EXIT(ParseArgs({"--tuples", "99999999999999999999"}), testing::ExitedWithCode(2),
              "not '99999999999999999999'");
  EXPECT_EXIT(ParseArgs({"--workload"}), testing::ExitedWithCode(2), "--workload needs a value");
}

TEST(FlagsTest, PositionalArgumentsAreErrorsUnlessDeclared) {
  Flags flags("nopos", "[--rows N]");
  uint32_t rows = 1;
  flags.Number("--rows", &rows);
  char* argv[] = {const_cast<char*>("nopos"), const_cast<char*>("stray")};
  EXPECT_EXIT(flags.Parse(2, argv), testing::ExitedWithCode(2),
              "nopos: unexpected argument 'stray'\nusage: nopos \\[--rows N\\]");
}

}  // namespace
}  // namespace pgstore::cli
