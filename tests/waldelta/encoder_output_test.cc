// The delta encoders' exact output, recorded. The other tests check what the output must be (it
// decodes to the target, copies are maximal, matches inside the search window are found, no
// record is larger than prefix-suffix's); this one checks that it did not change: each encoder
// runs over a fixed set of pairs (mt19937 streams, the same on every platform), and a 64-bit
// FNV-1a hash of every output is compared with the value recorded here. The pairs cover window
// sizes on both sides of every hash-table size step (256, 1024, 4096 bytes), small alphabets
// (long hash chains), moved and repeated blocks, and tuples whose NULLs come and go.
//
// A change of output is not wrong in itself (the body format is unchanged, and old bodies still
// decode), but it must be deliberate: on purpose, replace the recorded value with the one printed.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_aligned.h"
#include "storage/waldelta/pglz_history.h"
#include "storage/waldelta/update_delta.h"
#include "tests/waldelta/test_pairs.h"

namespace pgstore::waldelta {
namespace {

using test_pairs::Edited;
using test_pairs::RandomBytes;

struct Fnv64 {
  uint64_t h = 0xcbf29ce484222325ull;
  void Byte(uint8_t b) { h = (h ^ b) * 0x100000001b3ull; }
  void Size(size_t n) {
    for (int i = 0; i < 8; ++i) Byte(static_cast<uint8_t>(n >> (8 * i)));
  }
  void Bytes(const std::vector<uint8_t>& v) {
    Size(v.size());
    for (uint8_t b : v) Byte(b);
  }
};

// Calls f(old, new) for every raw pair.
template <typename F>
void ForEachPair(F f) {
  std::mt19937 rng(2014);
  for (size_t size : {0, 1, 3, 17, 100, 250, 260, 600, 1020, 1030, 2000, 4090, 4100, 6000}) {
    for (int alphabet : {2, 4, 26, 256}) {
      for (int round = 0; round < 3; ++round) {
        const std::vector<uint8_t> old_data = RandomBytes(&rng, size, alphabet);
        f(old_data, Edited(&rng, old_data, alphabet));
      }
    }
  }
}

// The hash printed and compared, with the way to update it.
void ExpectRecorded(const char* encoder, uint64_t recorded, uint64_t now) {
  EXPECT_EQ(recorded, now) << encoder << "'s output changed: now 0x" << std::hex << now
                           << "; if that is deliberate, record this value";
}

TEST(EncoderOutputTest, PglzHistory) {
  Fnv64 fnv;
  ForEachPair([&](const auto& old_data, const auto& new_data) {
    fnv.Bytes(PglzHistoryEncode(old_data, new_data));
  });
  ExpectRecorded("pglz-history", 0x68d106054abf412eull, fnv.h);
}

TEST(EncoderOutputTest, PglzAligned) {
  Fnv64 fnv;
  ForEachPair([&](const auto& old_data, const auto& new_data) {
    const PrefixSuffix ps = FindPrefixSuffix(old_data, new_data);
    const ByteView middle(new_data.data() + ps.prefix, new_data.size() - ps.prefix - ps.suffix);
    std::vector<uint8_t> body;
    const bool matched = PglzAlignedEncodeInto(old_data, middle, ps.prefix, ps.suffix, &body);
    fnv.Byte(matched);
    if (matched) fnv.Bytes(body);
  });
  ExpectRecorded("pglz-aligned", 0x05679d39e983a7c2ull, fnv.h);
}

TEST(EncoderOutputTest, Chunk) {
  Fnv64 fnv;
  ForEachPair([&](const auto& old_data, const auto& new_data) {
    fnv.Bytes(ChunkEncode(old_data, new_data));
  });
  ExpectRecorded("chunk", 0xc043048d7580b2c1ull, fnv.h);
}

// Whole UPDATE records of every method, over rows of (int4, text, text, int8, text) whose
// columns change, grow, shrink, or become NULL and back; and auto with a budget over a stream.
TEST(EncoderOutputTest, UpdateRecords) {
  const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema("int4,text,text,int8,text");
  std::mt19937 rng(1975);
  // (One rng() call per statement: the order of two calls in one expression is unspecified.)
  auto text = [&](size_t n) {
    const uint32_t alphabet = 1 + rng() % 26;
    std::string s;
    for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + rng() % alphabet));
    return s;
  };
  auto row = [&](const std::vector<std::optional<std::string>>& columns) {
    std::vector<std::optional<std::vector<uint8_t>>> values;
    for (int i = 0; i < 5; ++i) {
      if (!columns[i]) {
        values.push_back(std::nullopt);
      } else {
        values.push_back(*tuple::TupleDesc::ParseValue(desc.attr(i), *columns[i]));
      }
    }
    return *tuple::FormHeapTuple(desc, tuple::DatumsOf(values));
  };
  std::vector<Fnv64> per_method(std::size(kAllDeltaMethods));
  Fnv64 budgeted;
  AutoBudget budget;
  UpdateRecord record;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::optional<std::string>> columns = {std::to_string(rng() % 100000),
                                                       text(rng() % 300), text(rng() % 3000),
                                                       std::to_string(rng()), text(rng() % 40)};
    const std::vector<uint8_t> old_tuple = row(columns);
    for (int c = 0; c < 5; ++c) {
      switch (rng() % 5) {
        case 0:
          columns[c] = std::nullopt;
          break;
        case 1:
          if (c == 0) columns[c] = std::to_string(rng() % 100000);
          if (c == 3) columns[c] = std::to_string(rng());
          if (c == 1 || c == 2 || c == 4) columns[c] = text(rng() % 200);
          break;
        case 2:
          if (columns[c] && (c == 1 || c == 2 || c == 4)) {
            const size_t at = rng() % (columns[c]->size() + 1);
            columns[c]->insert(at, text(1 + rng() % 20));
          }
          break;
        default:  // unchanged
          break;
      }
    }
    const std::vector<uint8_t> new_tuple = row(columns);
    for (size_t m = 0; m < std::size(kAllDeltaMethods); ++m) {
      ASSERT_TRUE(EncodeUpdateInto(old_tuple, new_tuple, kAllDeltaMethods[m], true, &record).ok());
      per_method[m].Byte(record.flags);
      per_method[m].Bytes(record.block_data);
    }
    ASSERT_TRUE(
        EncodeUpdateInto(old_tuple, new_tuple, DeltaMethod::kAuto, true, &record, &budget).ok());
    budgeted.Byte(record.flags);
    budgeted.Bytes(record.block_data);
    budgeted.Size(budget.misses);
    budgeted.Size(budget.updates);
  }
  const uint64_t recorded[] = {
      0x02f1bcdf8a15121bull,  // none
      0x54c7e20819ed8d95ull,  // prefix-suffix
      0xb5f3bfd65bab3673ull,  // pglz-history
      0x9d6dc7d56ba0a682ull,  // pglz-aligned
      0xacfc5fee98d32569ull,  // chunk
      0x2a004b1a5e88e07full,  // auto
  };
  for (size_t m = 0; m < std::size(kAllDeltaMethods); ++m) {
    ExpectRecorded(DeltaMethodName(kAllDeltaMethods[m]), recorded[m], per_method[m].h);
  }
  ExpectRecorded("auto with a budget", 0x9ad24b689702a485ull, budgeted.h);
}

}  // namespace
}  // namespace pgstore::waldelta
