// Paths given to pgstore's command-line tools: `bazel run` starts a tool inside its runfiles tree,
// so a relative path means the caller's directory, which Bazel passes as BUILD_WORKING_DIRECTORY.
// Outside `bazel run` (no such variable) and for absolute paths, the path is used as given.
#ifndef PGSTORE_TOOLS_CLI_PATH_H_
#define PGSTORE_TOOLS_CLI_PATH_H_

#include <cstdlib>
#include <string>

namespace pgstore::cli {

inline std::string ResolvePath(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || cwd == nullptr || *cwd == '\0') return path;
  return std::string(cwd) + "/" + path;
}

}  // namespace pgstore::cli

#endif  // PGSTORE_TOOLS_CLI_PATH_H_
