// Properties of UPDATE WAL deltas (storage/waldelta) on generated updates (update_generators.h),
// against the model (properties/models/waldelta_model: the new tuple's bytes, PostgreSQL's
// prefix/suffix rules and redo written from the format docs).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "properties/generators/update_generators.h"
#include "properties/models/waldelta_model.h"
#include "storage/waldelta/update_delta.h"
#include "storage/waldelta/update_record.h"

namespace pgstore {
namespace {

using waldelta::DeltaMethod;

const waldelta::RedoHeader kRedo{4242, 7, 0x01020304, 11};
const models::ModelRedoHeader kModelRedo{4242, 7, 0x01020304, 11};

// The new tuple as redo rebuilds it: the original with the fields redo sets itself.
std::vector<uint8_t> AsRedone(std::vector<uint8_t> t) {
  const std::vector<uint8_t> header = {0x92, 0x10, 0, 0,    7,    0,    0,    0,  0,
                                       0,    0,    0, 0x02, 0x01, 0x04, 0x03, 11, 0};
  std::copy(header.begin(), header.end(), t.begin());
  return t;
}

size_t NoneSize(const std::vector<uint8_t>& new_tuple) {
  return waldelta::kSizeOfHeapHeader + new_tuple.size() - waldelta::kTupleHeaderSize;
}

RC_GTEST_PROP(WalDeltaProperty, EveryMethodRoundTripsWithinTheWholeTupleSize, ()) {
  const generators::UpdateCase u = *generators::genUpdateCase();
  for (DeltaMethod m : waldelta::kAllDeltaMethods) {
    StatusOr<waldelta::UpdateRecord> r = waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, m);
    RC_ASSERT(r.ok());
    StatusOr<std::vector<uint8_t>> back =
        waldelta::ReconstructNewTuple(u.old_tuple, r->flags, r->block_data, kRedo);
    RC_ASSERT(back.ok());
    RC_ASSERT(*back == AsRedone(u.new_tuple));
    // The model redoes the same record to the same tuple.
    const std::optional<std::vector<uint8_t>> model =
        models::ModelRedo(u.old_tuple, r->flags, r->block_data, kModelRedo);
    RC_ASSERT(model.has_value());
    RC_ASSERT(*model == *back);
    // Documented overhead: none; no method logs more than the whole new tuple.
    RC_ASSERT(r->block_data.size() <= NoneSize(u.new_tuple));
  }
}

RC_GTEST_PROP(WalDeltaProperty, PrefixSuffixFollowsPostgresRules, ()) {
  const generators::UpdateCase u = *generators::genUpdateCase();
  const bool same_page = *rc::gen::arbitrary<bool>();
  StatusOr<waldelta::UpdateRecord> r =
      waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, DeltaMethod::kPrefixSuffix, same_page);
  RC_ASSERT(r.ok());
  const auto [flags, block_data] = models::ModelBlockData(u.old_tuple, u.new_tuple, same_page);
  RC_ASSERT(r->flags == flags);
  RC_ASSERT(r->block_data == block_data);
}

RC_GTEST_PROP(WalDeltaProperty, GeneralMethodsNeverLogMoreThanPrefixSuffix, ()) {
  const generators::UpdateCase u = *generators::genUpdateCase();
  const size_t ps = waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, DeltaMethod::kPrefixSuffix)
                        ->block_data.size();
  for (DeltaMethod m : {DeltaMethod::kPglzHistory, DeltaMethod::kPglzAligned, DeltaMethod::kChunk,
                        DeltaMethod::kAuto}) {
    RC_ASSERT(waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, m)->block_data.size() <= ps);
  }
}

RC_GTEST_PROP(WalDeltaProperty, EncodersAreDeterministic, ()) {
  const generators::UpdateCase u = *generators::genUpdateCase();
  for (DeltaMethod m : waldelta::kAllDeltaMethods) {
    const waldelta::UpdateRecord a = *waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, m);
    const waldelta::UpdateRecord b = *waldelta::EncodeUpdate(u.old_tuple, u.new_tuple, m);
    RC_ASSERT(a.flags == b.flags);
    RC_ASSERT(a.block_data == b.block_data);
  }
}

// Heikki's test of 2014: one byte prepended to the new tuple must not hide the long match from a
// general encoder (shift resistance). The old tuple holds one text value of 64..4000 random bytes;
// the new one the same value with a byte in front (and so a longer varlena header).
RC_GTEST_PROP(WalDeltaProperty, PrependingOneByteStillFindsTheLongMatch, ()) {
  const size_t n = *rc::gen::inRange<size_t>(64, 4000);
  const std::vector<uint8_t> value = generators::GenBytes(n);
  std::vector<uint8_t> shifted = value;
  shifted.insert(shifted.begin(), *rc::gen::arbitrary<uint8_t>());
  auto tuple_of = [](const std::vector<uint8_t>& v) {
    std::vector<uint8_t> t(24, 0);
    t[18] = 1;     // natts
    t[20] = 0x02;  // HEAP_HASVARWIDTH
    t[22] = 24;
    const std::vector<uint8_t> datum = tuple::MakeVarlena(ByteView(v));
    t.insert(t.end(), datum.begin(), datum.end());
    return t;
  };
  const std::vector<uint8_t> old_tuple = tuple_of(value), new_tuple = tuple_of(shifted);
  for (DeltaMethod m : {DeltaMethod::kPglzHistory, DeltaMethod::kChunk}) {
    StatusOr<waldelta::UpdateRecord> r = waldelta::EncodeUpdate(old_tuple, new_tuple, m);
    RC_ASSERT(r.ok());
    RC_TAG(waldelta::DeltaMethodName(m));
    // pglz reaches 4095 bytes back: beyond that only part of the value is reachable.
    const size_t reachable = m == DeltaMethod::kPglzHistory && n > 4000 ? n / 2 : n;
    RC_ASSERT(r->block_data.size() + reachable / 2 < NoneSize(new_tuple));
    RC_ASSERT(*waldelta::ReconstructNewTuple(old_tuple, r->flags, r->block_data, kRedo) ==
              AsRedone(new_tuple));
  }
}

}  // namespace
}  // namespace pgstore
