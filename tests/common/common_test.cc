#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore {
namespace {

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, CorruptionCarriesMessage) {
  Status s = Status::Corruption("truncated match tag");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message(), "truncated match tag");
  EXPECT_EQ(s.ToString(), "corruption: truncated match tag");
}

TEST(StatusTest, EveryCodeHasItsPredicateAndItsWord) {
  const Status invalid = Status::InvalidArgument("offsets not ascending");
  const Status unsupported = Status::NotSupported("cannot parse a value of type numeric");
  const Status busy = Status::Busy("no free transaction slot");
  EXPECT_TRUE(invalid.IsInvalidArgument());
  EXPECT_TRUE(unsupported.IsNotSupported());
  EXPECT_TRUE(busy.IsBusy());
  EXPECT_FALSE(invalid.IsCorruption() || invalid.IsBusy() || invalid.IsNotSupported());
  EXPECT_EQ(invalid.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(invalid.ToString(), "invalid argument: offsets not ascending");
  EXPECT_EQ(unsupported.ToString(), "not supported: cannot parse a value of type numeric");
  EXPECT_EQ(busy.ToString(), "busy: no free transaction slot");
  EXPECT_EQ(Status::Ok().ToString(), "ok");
}

TEST(StatusTest, ReturnIfErrorPassesTheFirstErrorOn) {
  const auto first_error = [](Status a, Status b) -> Status {
    PGSTORE_RETURN_IF_ERROR(a);
    PGSTORE_RETURN_IF_ERROR(b);
    return Status::Ok();
  };
  EXPECT_TRUE(first_error(Status::Ok(), Status::Ok()).ok());
  EXPECT_EQ(first_error(Status::Ok(), Status::Busy("b")).message(), "b");
  EXPECT_EQ(first_error(Status::Corruption("a"), Status::Busy("b")).message(), "a");
}

TEST(StatusOrTest, HoldsValueOrError) {
  StatusOr<int> v(7);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  StatusOr<int> e(Status::InvalidArgument("bad"));
  EXPECT_FALSE(e.ok());
  EXPECT_TRUE(e.status().IsInvalidArgument());
}

// The preconditions are asserted (the tests build without NDEBUG): a StatusOr made from OK, and
// the value of an error, abort instead of reading an empty value.
TEST(StatusOrDeathTest, PreconditionsAbort) {
  EXPECT_DEATH((void)StatusOr<int>(Status::Ok()), "needs a value or an error");
  StatusOr<int> error = Status::Corruption("x");
  const StatusOr<int>& const_error = error;
  EXPECT_DEATH((void)const_error.value(), "ok\\(\\)");
  EXPECT_DEATH((void)error.value(), "ok\\(\\)");
  EXPECT_DEATH((void)std::move(error).value(), "ok\\(\\)");
}

TEST(BytesTest, LittleEndianRoundTrip) {
  uint8_t b[8];
  StoreLE32(b, 0x01020304u);
  EXPECT_EQ(b[0], 0x04);
  EXPECT_EQ(b[3], 0x01);
  EXPECT_EQ(LoadLE32(b), 0x01020304u);
  StoreLE16(b, 0xBEEF);
  EXPECT_EQ(LoadLE16(b), 0xBEEF);
  StoreLE64(b, 0x1122334455667788ull);
  EXPECT_EQ(b[0], 0x88);
  EXPECT_EQ(LoadLE64(b), 0x1122334455667788ull);
}

TEST(BytesTest, PutAppends) {
  std::vector<uint8_t> out = {9};
  PutLE32(&out, 0xAABBCCDD);
  EXPECT_EQ(out, (std::vector<uint8_t>{9, 0xDD, 0xCC, 0xBB, 0xAA}));
  PutLE16(&out, 0x0102);
  EXPECT_EQ(out, (std::vector<uint8_t>{9, 0xDD, 0xCC, 0xBB, 0xAA, 0x02, 0x01}));
}

TEST(BytesTest, ByteViewIsEmptyOnlyWithoutBytes) {
  EXPECT_TRUE(ByteView().empty());
  const uint8_t one[1] = {0};
  EXPECT_FALSE(ByteView(one, 1).empty());
  const std::string abc = "abc";  // FromString views the string: it must outlive the view
  const ByteView text = ByteView::FromString(abc);
  EXPECT_EQ(text.Sub(1, 2).ToVector(), (std::vector<uint8_t>{'b', 'c'}));
  EXPECT_TRUE(text.Sub(3, 0).empty());
}

}  // namespace
}  // namespace pgstore
