// A fuzz target with deliberate bugs, for testing the campaign tools (tools/fuzzing/tests): an
// input starting "BUG" reads one byte past its heap copy (AddressSanitizer), one starting "ASSERT"
// fails an assertion. Its seed corpus does not crash, so its replay test passes; its
// "planted-crash" tag keeps it out of every campaign, coverage run and OSS-Fuzz build that does not
// name it.
#include <cstdint>
#include <cstring>

#include "fuzzers/fuzz_helpers.h"

namespace {

uint8_t ReadPastEnd(const uint8_t* data, size_t size) {
  auto copy = pgstore::fuzz::ExactCopy(pgstore::ByteView(data, size));
  return copy[size];  // the planted overflow
}

void CheckNoAssertPrefix(const uint8_t* data, size_t size) {
  FUZZ_ASSERT(!(size >= 6 && std::memcmp(data, "ASSERT", 6) == 0));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 3 && std::memcmp(data, "BUG", 3) == 0) {
    volatile uint8_t sink = ReadPastEnd(data, size);
    (void)sink;
  }
  CheckNoAssertPrefix(data, size);
  return 0;
}
