#include "fuzzers/fuzz_helpers.h"

#include <gtest/gtest.h>

namespace pgstore::fuzz {
namespace {

TEST(TailSplitterTest, TakesParametersFromTheEnd) {
  const uint8_t in[] = {'a', 'b', 'c', 0x34, 0x12, 0x07};
  TailSplitter t(in, sizeof in);
  EXPECT_EQ(t.TakeU8(), 0x07);
  EXPECT_EQ(t.TakeU16(), 0x3412);  // low byte first, from the end
  ByteView p = t.Payload();
  ASSERT_EQ(p.size, 3u);
  EXPECT_EQ(p[0], 'a');
  EXPECT_EQ(p[2], 'c');
}

TEST(TailSplitterTest, ExhaustedInputReadsAsZero) {
  const uint8_t in[] = {0xff};
  TailSplitter t(in, sizeof in);
  EXPECT_EQ(t.TakeU32(), 0xffu);  // first byte taken is the low byte
  EXPECT_EQ(t.TakeU8(), 0);
  EXPECT_EQ(t.Payload().size, 0u);
}

TEST(TailSplitterTest, TakeInRangeStaysInRange) {
  const uint8_t in[] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00};
  TailSplitter t(in, sizeof in);
  EXPECT_EQ(t.TakeInRange(5, 5), 5u);
  uint32_t v = t.TakeInRange(10, 20);
  EXPECT_GE(v, 10u);
  EXPECT_LE(v, 20u);
}

TEST(ExactCopyTest, CopiesBytes) {
  const uint8_t in[] = {1, 2, 3};
  auto copy = ExactCopy(ByteView(in, 3));
  EXPECT_EQ(copy[0], 1);
  EXPECT_EQ(copy[2], 3);
  auto empty = ExactCopy(ByteView());
  EXPECT_NE(empty.get(), nullptr);
}

TEST(FuzzAssertDeathTest, AbortsOnFailure) {
  EXPECT_DEATH(FUZZ_ASSERT(1 + 1 == 3), "FUZZ_ASSERT failed: 1 \\+ 1 == 3");
}

TEST(FuzzAssertTest, PassesOnSuccess) { FUZZ_ASSERT(1 + 1 == 2); }

}  // namespace
}  // namespace pgstore::fuzz
