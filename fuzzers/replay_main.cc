// Standalone fuzz driver: runs LLVMFuzzerTestOneInput once on every file under the paths given
// (files, or directories walked recursively), each in an exact-size heap buffer. It is the
// regression test of every fuzz target (`bazel test //fuzzers:<target>` replays corpora/<target>/)
// and the engine of `<target>_bin` outside the libfuzzer/afl configs. Fails when no input exists.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

namespace fs = std::filesystem;

// Same cap as rules_fuzzing's replay engine: larger files are a mistake, not a test.
constexpr uintmax_t kMaxInputBytes = 4 << 20;

bool CollectInputs(const std::string& path, std::vector<fs::path>* out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
      if (entry.is_regular_file()) out->push_back(entry.path());
    }
    return !ec;
  }
  if (fs::is_regular_file(path, ec)) {
    out->push_back(path);
    return true;
  }
  std::fprintf(stderr, "replay: no such file or directory: %s\n", path.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!CollectInputs(argv[i], &inputs)) return 1;
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs found in %s: a fuzz target needs a seed corpus\n",
                 argv[1]);
    return 1;
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& p : inputs) {
    std::error_code ec;
    const uintmax_t size = fs::file_size(p, ec);
    if (ec || size > kMaxInputBytes) {
      std::fprintf(stderr, "replay: cannot use %s (%s)\n", p.c_str(),
                   ec ? ec.message().c_str() : "larger than 4 MiB");
      return 1;
    }
    std::ifstream in(p, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Exact-size heap copy: ASan reports any read past the input's end.
    std::unique_ptr<uint8_t[]> buf(new uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), buf.get());
    LLVMFuzzerTestOneInput(buf.get(), bytes.size());
  }
  std::fprintf(stderr, "replay: %zu inputs ran without failure\n", inputs.size());
  return 0;
}
