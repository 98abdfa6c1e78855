#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/waldelta/chunk_delta.h"
#include "storage/waldelta/pglz_history.h"
#include "storage/waldelta/update_delta.h"
#include "storage/waldelta/update_record.h"

namespace pgstore::waldelta {
namespace {

std::vector<uint8_t> Bytes(const std::string& s) {
  return std::vector<uint8_t>(s.begin(), s.end());
}

std::string RandomText(std::mt19937* rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + (*rng)() % 26));
  return s;
}

// A heap tuple of (int4, text, text) values, NULL where the string is "NULL".
std::vector<uint8_t> Tuple(int32_t id, const std::string& a, const std::string& b) {
  const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema("int4,text,text");
  std::vector<std::optional<std::vector<uint8_t>>> values;
  values.push_back(*tuple::TupleDesc::ParseValue(desc.attr(0), std::to_string(id)));
  for (const std::string* s : {&a, &b}) {
    if (*s == "NULL") {
      values.push_back(std::nullopt);
    } else {
      values.push_back(*tuple::TupleDesc::ParseValue(desc.attr(1), *s));
    }
  }
  return *tuple::FormHeapTuple(desc, tuple::DatumsOf(values));
}

RedoHeader Header() { return RedoHeader{700, 0, 3, 9}; }

// The new tuple redo rebuilds equals the original except the fields redo sets itself.
void ExpectRoundTrip(const std::vector<uint8_t>& old_tuple, const std::vector<uint8_t>& new_tuple,
                     DeltaMethod method) {
  StatusOr<UpdateRecord> r = EncodeUpdate(old_tuple, new_tuple, method);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  StatusOr<std::vector<uint8_t>> back =
      ReconstructNewTuple(old_tuple, r->flags, r->block_data, Header());
  ASSERT_TRUE(back.ok()) << DeltaMethodName(method) << ": " << back.status().ToString();
  ASSERT_EQ(back->size(), new_tuple.size());
  EXPECT_EQ(std::vector<uint8_t>(back->begin() + 18, back->end()),
            std::vector<uint8_t>(new_tuple.begin() + 18, new_tuple.end()))
      << DeltaMethodName(method);
  EXPECT_EQ(LoadLE32(back->data()), 700u);
  EXPECT_EQ(LoadLE16(back->data() + 16), 9u);
  // No method logs more than the new tuple whole.
  EXPECT_LE(r->block_data.size(), kSizeOfHeapHeader + new_tuple.size() - kTupleHeaderSize);
}

TEST(PrefixSuffixTest, FollowsLogHeapUpdate) {
  auto ps = [](const std::string& o, const std::string& n) {
    const std::vector<uint8_t> a = Bytes(o), b = Bytes(n);
    const PrefixSuffix r = FindPrefixSuffix(a, b);
    return std::make_pair(r.prefix, r.suffix);
  };
  EXPECT_EQ(ps("abcdefgh", "abcXefgh"), std::make_pair(size_t{3}, size_t{4}));
  EXPECT_EQ(ps("abXdefgh", "abYdefgh"), std::make_pair(size_t{0}, size_t{5}));  // prefix 2 < 3
  EXPECT_EQ(ps("abcdefgX", "abcdefgY"), std::make_pair(size_t{7}, size_t{0}));
  EXPECT_EQ(ps("abcdefgh", "abcdefgh"), std::make_pair(size_t{8}, size_t{0}));  // no overlap
  // The suffix is limited by min(oldlen, newlen) - prefixlen.
  EXPECT_EQ(ps("aaaa", "aaaaaa"), std::make_pair(size_t{4}, size_t{0}));
  EXPECT_EQ(ps("xyaaaa", "zaaaa"), std::make_pair(size_t{0}, size_t{4}));
  EXPECT_EQ(ps("", "abc"), std::make_pair(size_t{0}, size_t{0}));
}

TEST(UpdateRecordTest, PrefixSuffixRecordIsPostgresLayout) {
  const std::vector<uint8_t> old_tuple = Tuple(1, "hello world", "the same long tail text");
  const std::vector<uint8_t> new_tuple = Tuple(1, "hello there", "the same long tail text");
  StatusOr<UpdateRecord> r = EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPrefixSuffix);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->flags, kFlagPrefixFromOld | kFlagSuffixFromOld);
  const std::vector<uint8_t>& d = r->block_data;
  const PrefixSuffix ps = FindPrefixSuffix(*UserData(old_tuple), *UserData(new_tuple));
  EXPECT_EQ(LoadLE16(&d[0]), ps.prefix);
  EXPECT_EQ(LoadLE16(&d[2]), ps.suffix);
  // xl_heap_header, no bitmap (t_hoff 24: one padding byte), then the changed middle.
  EXPECT_EQ(std::vector<uint8_t>(d.begin() + 4, d.begin() + 9),
            std::vector<uint8_t>(new_tuple.begin() + 18, new_tuple.begin() + 23));
  const size_t hoff = new_tuple[22];
  EXPECT_EQ(d.size(), 4 + 5 + (hoff - 23) + (new_tuple.size() - hoff - ps.prefix - ps.suffix));
  EXPECT_EQ(std::vector<uint8_t>(d.end() - 4, d.end()), Bytes("here"));
}

TEST(UpdateRecordTest, EveryMethodRoundTrips) {
  std::mt19937 rng(7);
  const std::string long_a = RandomText(&rng, 600), long_b = RandomText(&rng, 600);
  const std::vector<std::pair<std::vector<uint8_t>, std::vector<uint8_t>>> cases = {
      {Tuple(1, "a", long_a), Tuple(1, "a", long_a)},
      {Tuple(1, "a", long_a), Tuple(2, "b", long_a)},
      {Tuple(1, "a", long_a), Tuple(1, "a", long_b)},
      {Tuple(1, "a", long_a), Tuple(1, "NULL", long_a)},
      {Tuple(1, "NULL", "NULL"), Tuple(1, "x", long_a)},
      {Tuple(1, long_a, "NULL"), Tuple(1, "NULL", "z" + long_a)},
      {Tuple(1, long_a.substr(0, 300), long_b.substr(0, 200)),
       Tuple(1, long_a.substr(0, 100) + "ins" + long_a.substr(100, 200), long_b.substr(0, 199))},
  };
  for (const auto& [o, n] : cases) {
    for (DeltaMethod m : kAllDeltaMethods) ExpectRoundTrip(o, n, m);
  }
}

TEST(UpdateRecordTest, GeneralEncodersFindDataThatMoved) {
  std::mt19937 rng(11);
  const std::string a = RandomText(&rng, 300), b = RandomText(&rng, 300);
  // A change at each end and the old text shifted by one byte in between: prefix/suffix elides
  // nothing, the general encoders find the shifted text.
  const std::vector<uint8_t> old_tuple = Tuple(1, a, b);
  const std::vector<uint8_t> new_tuple = Tuple(2, "!" + a, b + "!");
  const size_t plain =
      EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPrefixSuffix)->block_data.size();
  for (DeltaMethod m :
       {DeltaMethod::kPglzHistory, DeltaMethod::kPglzAligned, DeltaMethod::kChunk}) {
    StatusOr<UpdateRecord> r = EncodeUpdate(old_tuple, new_tuple, m);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->flags & kFlagPgstoreDelta) << DeltaMethodName(m);
    EXPECT_LT(r->block_data.size(), plain / 10) << DeltaMethodName(m);
    ExpectRoundTrip(old_tuple, new_tuple, m);
  }
}

// Auto tries a general delta only on cheap evidence: a NULL that came or went, or a word shared
// in the middle; otherwise it is prefix-suffix.
TEST(UpdateRecordTest, AutoTriesADeltaOnlyOnEvidence) {
  std::mt19937 rng(13);
  const std::string a = RandomText(&rng, 300), b = RandomText(&rng, 300);
  auto flags = [](const std::vector<uint8_t>& o, const std::vector<uint8_t>& n) {
    return EncodeUpdate(o, n, DeltaMethod::kAuto)->flags;
  };
  // A NULL appeared before a: everything after it moved.
  EXPECT_TRUE(flags(Tuple(1, "x" + a, b), Tuple(2, "NULL", b + "!")) & kFlagPgstoreDelta);
  // Both ends changed, the middle is the same: the probe finds it.
  EXPECT_TRUE(flags(Tuple(1, a, b), Tuple(2, a, b + "!")) & kFlagPgstoreDelta);
  // Everything changed: no delta.
  const std::string c = RandomText(&rng, 301), d = RandomText(&rng, 299);
  EXPECT_EQ(flags(Tuple(1, a, b), Tuple(2, c, d)), 0);
  // The same bytes shifted by one with both ends changed: no evidence (the general methods,
  // asked directly, find it; see above).
  EXPECT_FALSE(flags(Tuple(1, a, b), Tuple(2, "!" + a, b + "!")) & kFlagPgstoreDelta);
  // Both rows have a bitmap of the same length: its bytes decide. A NULL that moved from the
  // third column to the second is evidence; the same NULL in both rows is none.
  EXPECT_TRUE(flags(Tuple(1, a, "NULL"), Tuple(2, "NULL", "!" + a + "!")) & kFlagPgstoreDelta);
  EXPECT_FALSE(flags(Tuple(1, a, "NULL"), Tuple(2, "!" + a + "!", "NULL")) & kFlagPgstoreDelta);
}

// Auto's probe reads exactly the two 4-byte words at (new data size / 2) rounded down to a
// multiple of 8, and either one shared in place is evidence. The rows: the old bytes shifted by
// one (no evidence, though pglz-history finds them), with one of those two words of the new data
// set back to the old bytes at the same place. Sizes are chosen so that half the data size has
// its low four bits set: any other rounding probes other words.
TEST(UpdateRecordTest, AutoProbesTheTwoWordsInTheMiddle) {
  std::mt19937 rng(17);
  const std::string a = RandomText(&rng, 700);
  int checked = 0;
  for (size_t b_len = 10; b_len < 60; ++b_len) {
    const std::string b = RandomText(&rng, b_len);
    const std::vector<uint8_t> old_tuple = Tuple(1, a, b);
    const std::vector<uint8_t> shifted = Tuple(2, "!" + a, b + "!");
    const ByteView old_data = *UserData(old_tuple), new_data = *UserData(shifted);
    if ((new_data.size / 2) % 16 != 15) continue;
    const size_t at = (new_data.size / 2) & ~size_t{7};
    ASSERT_LT(at + 8, old_data.size);
    const size_t data_start = shifted.size() - new_data.size;
    ASSERT_EQ(data_start, old_tuple.size() - old_data.size);
    EXPECT_FALSE(EncodeUpdate(old_tuple, shifted, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta);
    for (size_t word : {at, at + 4}) {
      std::vector<uint8_t> new_tuple = shifted;
      std::copy(old_tuple.begin() + data_start + word, old_tuple.begin() + data_start + word + 4,
                new_tuple.begin() + data_start + word);
      EXPECT_TRUE(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta)
          << "the word at " << word << " of " << new_data.size;
      ExpectRoundTrip(old_tuple, new_tuple, DeltaMethod::kAuto);
    }
    // One bit apart is not shared: the high word back but for its lowest bit (no evidence), and
    // back whole next to a low word one top bit away from the old one (evidence).
    std::vector<uint8_t> new_tuple = shifted;
    std::copy(old_tuple.begin() + data_start + at, old_tuple.begin() + data_start + at + 8,
              new_tuple.begin() + data_start + at);
    new_tuple[data_start + at] ^= 0x55;
    new_tuple[data_start + at + 4] ^= 0x01;
    EXPECT_FALSE(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta);
    new_tuple[data_start + at + 4] ^= 0x01;
    new_tuple[data_start + at] ^= 0x55;
    new_tuple[data_start + at + 3] ^= 0x80;
    EXPECT_TRUE(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta);
    ++checked;
  }
  EXPECT_GE(checked, 2);
}

// A heap tuple whose user data is exactly `data` (a multiple of 4 bytes: int4 columns).
std::vector<uint8_t> RawTuple(const std::vector<uint8_t>& data) {
  std::string schema = "int4";
  for (size_t i = 4; i < data.size(); i += 4) schema += ",int4";
  const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema(schema);
  std::vector<std::optional<std::vector<uint8_t>>> values;
  for (size_t i = 0; i < data.size(); i += 4) {
    values.push_back(*tuple::TupleDesc::ParseValue(desc.attr(static_cast<int>(i / 4)), "0"));
  }
  std::vector<uint8_t> t = *tuple::FormHeapTuple(desc, tuple::DatumsOf(values));
  std::copy(data.begin(), data.end(), t.end() - static_cast<std::ptrdiff_t>(data.size()));
  return std::vector<uint8_t>(t.begin(), t.end());  // exactly its size: no capacity beyond
}

// The probe reads its 8 bytes when they end exactly at the end of either row's data. The old
// row's bytes 0..10 are the new row's 1..11 (shifted: no evidence) and bytes 12..15 of both are
// the same (the probe's second word at 8 + 4): a delta, from that evidence alone.
TEST(UpdateRecordTest, AutoProbesUpToTheDataEnd) {
  std::mt19937 rng(20);
  for (const auto& [old_size, new_size] : {std::pair<size_t, size_t>{20, 16}, {16, 20}}) {
    std::vector<uint8_t> old_data(old_size), new_data(new_size);
    for (uint8_t& b : old_data) b = static_cast<uint8_t>('a' + rng() % 26);
    for (uint8_t& b : new_data) b = static_cast<uint8_t>('A' + rng() % 26);
    std::copy(old_data.begin(), old_data.begin() + 11, new_data.begin() + 1);
    std::copy(old_data.begin() + 12, old_data.begin() + 16, new_data.begin() + 12);
    ASSERT_EQ((new_size / 2) & ~size_t{7}, 8u);
    const std::vector<uint8_t> old_tuple = RawTuple(old_data), new_tuple = RawTuple(new_data);
    EXPECT_TRUE(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta)
        << old_size << " -> " << new_size;
    ExpectRoundTrip(old_tuple, new_tuple, DeltaMethod::kAuto);
  }
}

// A shared probe word is evidence only when all 4 of its bytes lie in the middle. Here the
// probe's high word (bytes 20..23 of 40) is the old row's, and the rows' common suffix starts at
// byte 24 (a delta) or, when byte 23 also ends the suffix, at 23 (no delta: the word's last
// byte is the suffix's first). The middle is the old row's bytes shifted by one: a short delta.
TEST(UpdateRecordTest, AProbeWordReachingIntoTheSuffixIsNoEvidence) {
  std::mt19937 rng(26);
  for (bool word_in_middle : {true, false}) {
    std::vector<uint8_t> old_data(48), new_data(40);
    for (uint8_t& b : old_data) b = static_cast<uint8_t>('a' + rng() % 26);
    std::copy(old_data.begin() + 1, old_data.begin() + 21, new_data.begin());  // no prefix
    std::copy(old_data.begin() + 20, old_data.begin() + 24, new_data.begin() + 20);
    std::copy(old_data.begin() + 32, old_data.end(), new_data.begin() + 24);
    old_data[31] = word_in_middle ? old_data[23] ^ 1 : old_data[23];
    old_data[30] = old_data[22] ^ 1;  // the suffix ends at 23 at the most
    const size_t at = (new_data.size() / 2) & ~size_t{7};
    ASSERT_EQ(at, 16u);
    ASSERT_NE(LoadLE32(old_data.data() + at), LoadLE32(new_data.data() + at));
    ASSERT_EQ(LoadLE32(old_data.data() + at + 4), LoadLE32(new_data.data() + at + 4));
    const PrefixSuffix ps = FindPrefixSuffix(old_data, new_data);
    ASSERT_EQ(ps.prefix, 0u);
    ASSERT_EQ(ps.suffix, word_in_middle ? 16u : 17u);
    const std::vector<uint8_t> old_tuple = RawTuple(old_data), new_tuple = RawTuple(new_data);
    ASSERT_TRUE(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPglzHistory)->flags &
                kFlagPgstoreDelta);
    EXPECT_EQ(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->flags & kFlagPgstoreDelta,
              word_in_middle ? kFlagPgstoreDelta : 0);
    ExpectRoundTrip(old_tuple, new_tuple, DeltaMethod::kAuto);
  }
}

// Rows of 4 to 24 bytes of data (and of 4 to 8 with text): auto's probe and the encoders read no
// byte past either row (each row in a vector of exactly its size, so ASan sees any read past it).
TEST(UpdateRecordTest, TinyRowsAreReadWithinTheirBytes) {
  std::mt19937 rng(21);
  auto exact = [](const std::vector<uint8_t>& v) {
    return std::vector<uint8_t>(v.begin(), v.end());
  };
  for (size_t old_size = 4; old_size <= 24; old_size += 4) {
    for (size_t new_size = 4; new_size <= 24; new_size += 4) {
      std::vector<uint8_t> old_data(old_size), new_data(new_size);
      for (uint8_t& b : old_data) b = static_cast<uint8_t>(rng() % 3);
      for (uint8_t& b : new_data) b = static_cast<uint8_t>(rng() % 3);
      for (DeltaMethod m : kAllDeltaMethods) {
        ExpectRoundTrip(RawTuple(old_data), RawTuple(new_data), m);
      }
    }
  }
  for (const std::string& text : {"", "a", "ab", "abc"}) {
    for (DeltaMethod m : kAllDeltaMethods) {
      ExpectRoundTrip(exact(Tuple(1, text, "NULL")), exact(Tuple(2, "xy", "NULL")), m);
      ExpectRoundTrip(exact(Tuple(2, "xy", "NULL")), exact(Tuple(1, text, "NULL")), m);
    }
  }
}

// A general delta is tried on a middle of kMinDeltaMiddle = 16 bytes and not on one of 15 (the
// value is part of the contract): the middle is a block copied from elsewhere in the old row,
// which pglz-history logs as one tag.
TEST(UpdateRecordTest, AGeneralDeltaNeedsAMiddleOf16Bytes) {
  std::mt19937 rng(18);
  for (size_t middle : {15, 16}) {
    bool checked = false;
    for (int attempt = 0; attempt < 100 && !checked; ++attempt) {
      const std::string a = RandomText(&rng, 200);
      const std::string edited = a.substr(0, 100) + a.substr(20, middle) + a.substr(100 + middle);
      const std::vector<uint8_t> old_tuple = Tuple(1, a, "b"), new_tuple = Tuple(1, edited, "b");
      const PrefixSuffix ps = FindPrefixSuffix(*UserData(old_tuple), *UserData(new_tuple));
      if (UserData(new_tuple)->size - ps.prefix - ps.suffix != middle) continue;
      checked = true;
      const uint8_t flags = EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPglzHistory)->flags;
      EXPECT_EQ((flags & kFlagPgstoreDelta) != 0, middle == 16) << middle;
      ExpectRoundTrip(old_tuple, new_tuple, DeltaMethod::kPglzHistory);
    }
    EXPECT_TRUE(checked) << middle;
  }
}

// Auto tries the chunk delta too when the old data is longer than pglz's 4095-byte reach, and
// not otherwise. A NULL that appears is the evidence; the new row ends with the old row's first
// 200 bytes of text, beyond pglz's reach from there, so the chunk record is the smaller one
// whenever it is tried.
TEST(UpdateRecordTest, AutoTriesTheChunkDeltaPastPglzsReach) {
  std::mt19937 rng(19);
  const std::string b = RandomText(&rng, 60);
  for (size_t old_size : {4095, 4096}) {
    std::string a = RandomText(&rng, 4000);
    while (UserData(Tuple(1, a, b))->size < old_size) a.push_back('q');
    const std::vector<uint8_t> old_tuple = Tuple(1, a, b);
    ASSERT_EQ(UserData(old_tuple)->size, old_size);
    const std::vector<uint8_t> new_tuple = Tuple(1, "NULL", b + a.substr(0, 200));
    const std::vector<uint8_t> auto_record =
        EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->block_data;
    const std::vector<uint8_t> chunk_record =
        EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kChunk)->block_data;
    const std::vector<uint8_t> pglz_record =
        EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPglzHistory)->block_data;
    ASSERT_LT(chunk_record.size(), pglz_record.size());
    EXPECT_EQ(auto_record, old_size > 4095 ? chunk_record : pglz_record) << old_size;
    ExpectRoundTrip(old_tuple, new_tuple, DeltaMethod::kAuto);
  }
}

// Where auto tries both general encoders (past pglz's reach, with evidence: here a NULL gone)
// and their records are the same size, it logs the pglz-history one: the chunk record replaces
// it only when smaller. The updates overwrite a few bytes near the end of a 4.1 KB value with
// bytes from nearby, which both encoders find.
TEST(UpdateRecordTest, OnATieAutoLogsThePglzHistoryRecord) {
  std::mt19937 rng(30);
  int ties = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string a = RandomText(&rng, 4100 + rng() % 300);
    const size_t cut = a.size() - 20 - rng() % 200, len = 4 + rng() % 40;
    const size_t from = a.size() - 400 + rng() % (400 - len);
    const std::string x = RandomText(&rng, rng() % 4) + a.substr(from, len);
    if (cut + x.size() > a.size()) continue;
    const std::string edited = a.substr(0, cut) + x + a.substr(cut + x.size());
    const std::vector<uint8_t> old_tuple = Tuple(1, a, "NULL"), new_tuple = Tuple(1, edited, "xy");
    const UpdateRecord chunk = *EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kChunk);
    const UpdateRecord pglz = *EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPglzHistory);
    if (!(chunk.flags & pglz.flags & kFlagPgstoreDelta)) continue;
    if (chunk.block_data.size() != pglz.block_data.size()) continue;
    ++ties;
    EXPECT_EQ(EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kAuto)->block_data, pglz.block_data)
        << "update " << i;
  }
  EXPECT_GE(ties, 5);
}

// A new tuple of exactly MaxHeapTupleSize (8160 bytes) is encoded; one byte more is refused.
TEST(UpdateRecordTest, NewTuplesUpToMaxHeapTupleSize) {
  const std::vector<uint8_t> old_tuple = Tuple(1, "a", "b");
  std::string a(8000, 'x');
  while (Tuple(1, a, "b").size() < kMaxHeapTupleSize) a.push_back('x');
  ASSERT_EQ(Tuple(1, a, "b").size(), kMaxHeapTupleSize);
  for (DeltaMethod m : kAllDeltaMethods) {
    EXPECT_TRUE(EncodeUpdate(old_tuple, Tuple(1, a, "b"), m).ok()) << DeltaMethodName(m);
    EXPECT_FALSE(EncodeUpdate(old_tuple, Tuple(1, a + "x", "b"), m).ok()) << DeltaMethodName(m);
  }
}

// With a budget, a stream of updates that never match backs off to probing one in 32, and the
// first probe that pays off brings probing back for every update.
TEST(UpdateRecordTest, AutoBudgetBacksOffAndRecovers) {
  std::mt19937 rng(17);
  AutoBudget budget;
  UpdateRecord r;
  for (int i = 0; i < 100; ++i) {  // nothing matches
    const std::vector<uint8_t> o = Tuple(i, RandomText(&rng, 200), RandomText(&rng, 200));
    const std::vector<uint8_t> n = Tuple(i + 1, RandomText(&rng, 200), RandomText(&rng, 200));
    ASSERT_TRUE(EncodeUpdateInto(o, n, DeltaMethod::kAuto, true, &r, &budget).ok());
  }
  // Backed off all the way: one update in 32 probes, each one more miss.
  ASSERT_GE(budget.misses, kAutoPatience + kAutoMaxSkipLog2 - 1);
  const uint32_t misses_before = budget.misses;
  for (int i = 0; i < 320; ++i) {
    const std::vector<uint8_t> o = Tuple(i, RandomText(&rng, 200), RandomText(&rng, 200));
    const std::vector<uint8_t> n = Tuple(i + 1, RandomText(&rng, 200), RandomText(&rng, 200));
    ASSERT_TRUE(EncodeUpdateInto(o, n, DeltaMethod::kAuto, true, &r, &budget).ok());
  }
  EXPECT_EQ(budget.misses - misses_before, 320u / 32);
  int first_delta = -1, deltas_after = 0;
  for (int i = 0; i < 64; ++i) {  // a NULL appears: a delta pays off whenever auto looks
    const std::string a = RandomText(&rng, 300), b = RandomText(&rng, 300);
    ASSERT_TRUE(EncodeUpdateInto(Tuple(1, "x" + a, b), Tuple(2, "NULL", b + "!"),
                                 DeltaMethod::kAuto, true, &r, &budget)
                    .ok());
    if (r.flags & kFlagPgstoreDelta) {
      if (first_delta < 0) first_delta = i;
      ++deltas_after;
    }
  }
  ASSERT_GE(first_delta, 0);
  EXPECT_LT(first_delta, 32);
  EXPECT_EQ(deltas_after, 64 - first_delta);  // every update from the first hit on
}

TEST(UpdateRecordTest, IneligibleUpdatesLogTheWholeTuple) {
  const std::vector<uint8_t> t = Tuple(1, "same", "same same same");
  StatusOr<UpdateRecord> r = EncodeUpdate(t, t, DeltaMethod::kAuto, /*eligible=*/false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->flags, 0);
  EXPECT_EQ(r->block_data.size(), kSizeOfHeapHeader + t.size() - kTupleHeaderSize);
}

TEST(UpdateRecordTest, MainDataIsExactlyXlHeapUpdate) {
  const std::vector<uint8_t> main = {1, 0, 0, 0, 7, 0, 0x11, kFlagPrefixFromOld, 2, 0, 0, 0, 9, 0};
  StatusOr<XlHeapUpdate> x = XlHeapUpdate::Parse(ByteView(main));
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  EXPECT_EQ(x->old_xmax, 1u);
  EXPECT_EQ(x->old_offnum, 7);
  EXPECT_EQ(x->old_infobits_set, 0x11);
  EXPECT_EQ(x->flags, kFlagPrefixFromOld);
  EXPECT_EQ(x->new_xmax, 2u);
  EXPECT_EQ(x->new_offnum, 9);
  EXPECT_EQ(x->Serialize(), main);
  std::vector<uint8_t> longer = main;
  longer.push_back(0);
  EXPECT_EQ(XlHeapUpdate::Parse(ByteView(longer)).status().message(),
            "xl_heap_update: 15 bytes, need 14");
  EXPECT_TRUE(XlHeapUpdate::Parse(ByteView(main).Sub(0, 13)).status().IsInvalidArgument());
}

TEST(UpdateRecordTest, RedoRejectsMalformedRecords) {
  const std::vector<uint8_t> old_tuple = Tuple(1, "abcdef", "ghijkl");
  const std::vector<uint8_t> new_tuple = Tuple(1, "abcdef", "ghijkX");
  const UpdateRecord good = *EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPrefixSuffix);
  ASSERT_EQ(good.flags, kFlagPrefixFromOld);
  auto reject = [&](uint8_t flags, std::vector<uint8_t> data, const std::string& want) {
    StatusOr<std::vector<uint8_t>> r = ReconstructNewTuple(old_tuple, flags, data, Header());
    ASSERT_FALSE(r.ok()) << want;
    EXPECT_TRUE(r.status().IsCorruption());
    EXPECT_NE(r.status().message().find(want), std::string::npos) << r.status().ToString();
  };
  std::vector<uint8_t> d = good.block_data;
  StoreLE16(d.data(), 500);
  reject(good.flags, d, "beyond the old tuple");
  // Each length needs its 2 bytes, exactly: with them (zero lengths), the next field is missing.
  const auto zeros = [](size_t n) { return std::vector<uint8_t>(n, 0); };
  const uint8_t both = kFlagPrefixFromOld | kFlagSuffixFromOld;
  reject(kFlagPrefixFromOld, zeros(1), "too short for prefixlen");
  reject(kFlagPrefixFromOld, zeros(2), "too short for xl_heap_header");
  reject(kFlagSuffixFromOld, zeros(1), "too short for suffixlen");
  reject(kFlagSuffixFromOld, zeros(2), "too short for xl_heap_header");
  reject(both, zeros(3), "too short for suffixlen");
  reject(both, zeros(4), "too short for xl_heap_header");
  reject(good.flags, std::vector<uint8_t>(good.block_data.begin(), good.block_data.begin() + 5),
         "xl_heap_header");
  d = good.block_data;
  d[2 + 4] = 22;  // t_hoff
  reject(good.flags, d, "t_hoff below");
  d[2 + 4] = 200;
  reject(good.flags, d, "t_hoff beyond");
  d = std::vector<uint8_t>(good.block_data.begin() + 2, good.block_data.end() - 1);
  reject(kFlagPgstoreDelta, d, "truncated delta header");
  d.insert(d.end(), {9, 1, 0, 'x'});
  reject(kFlagPgstoreDelta, d, "unknown delta method 9");
  std::vector<uint8_t> huge(5 + 1 + 8200, 0);
  huge[4] = 24;
  reject(0, huge, "MaxHeapTupleSize");
  // The limit exactly: 23 + 1 bit byte + 8136 data bytes is 8160, one more is not a heap tuple.
  std::vector<uint8_t> at_limit(5 + 1 + 8136, 0);
  at_limit[4] = 24;
  EXPECT_EQ(ReconstructNewTuple(old_tuple, 0, at_limit, Header())->size(), 8160u);
  at_limit.push_back(0);
  reject(0, at_limit, "new tuple of 8161 bytes exceeds MaxHeapTupleSize");
  // A delta declaring a middle longer than any tuple is refused before anything is decoded.
  d = std::vector<uint8_t>(good.block_data.begin() + 2, good.block_data.begin() + 2 + 6);
  d.insert(d.end(), {static_cast<uint8_t>(DeltaBody::kChunk), 0x28, 0x23, 0x01, 'x'});  // 9000
  reject(kFlagPgstoreDelta, d, "delta middle too long");
  // A middle of exactly MaxHeapTupleSize bytes is decoded; only the tuple it makes is too long.
  const std::vector<uint8_t> body = PglzHistoryEncode(ByteView(), std::vector<uint8_t>(8160, 'a'));
  d.resize(6);
  d.insert(d.end(), {static_cast<uint8_t>(DeltaBody::kPglzHistory), 0xE0, 0x1F});  // 8160
  d.insert(d.end(), body.begin(), body.end());
  reject(kFlagPgstoreDelta, d, "new tuple of 8184 bytes exceeds MaxHeapTupleSize");
}

// A delta of its 3-byte header alone is a whole delta: an empty middle, from either method.
TEST(UpdateRecordTest, ADeltaOfItsHeaderAloneIsAnEmptyMiddle) {
  const std::vector<uint8_t> old_tuple = Tuple(1, "abcdef", "ghijkl");
  const std::vector<uint8_t> new_tuple = Tuple(1, "abcdef", "ghijkX");
  const UpdateRecord whole = *EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kNone);
  const size_t hoff = new_tuple[tuple::kOffHoff];
  for (DeltaBody method : {DeltaBody::kPglzHistory, DeltaBody::kChunk}) {
    std::vector<uint8_t> d(whole.block_data.begin(),
                           whole.block_data.begin() + kSizeOfHeapHeader + hoff - kTupleHeaderSize);
    d.insert(d.end(), {static_cast<uint8_t>(method), 0, 0});
    StatusOr<std::vector<uint8_t>> r =
        ReconstructNewTuple(old_tuple, kFlagPgstoreDelta, d, Header());
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->size(), hoff);
    d.pop_back();
    EXPECT_EQ(ReconstructNewTuple(old_tuple, kFlagPgstoreDelta, d, Header()).status().message(),
              "truncated delta header");
  }
}

// A value-initialized XlHeapUpdate is the all-zero record, and a value-initialized RedoHeader
// gives the new tuple xmin, xmax and t_ctid all zero.
TEST(UpdateRecordTest, DefaultsAreZero) {
  EXPECT_EQ(XlHeapUpdate{}.Serialize(), std::vector<uint8_t>(kSizeOfHeapUpdate, 0));
  const std::vector<uint8_t> t = Tuple(1, "abc", "def");
  const UpdateRecord r = *EncodeUpdate(t, t, DeltaMethod::kNone);
  StatusOr<std::vector<uint8_t>> back = ReconstructNewTuple(t, r.flags, r.block_data, {});
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(std::vector<uint8_t>(back->begin(), back->begin() + 18), std::vector<uint8_t>(18, 0));
}

// WAL hands redo a record's block data at any address (PostgreSQL's 6c42b2b10a: logical decoding
// read xl_heap_header through a struct pointer, misaligned there). Redo reads the lengths and
// xl_heap_header byte by byte, so the same bytes at every offset of a buffer rebuild the same
// tuple; a typed read of them is misaligned at the odd offsets, which UBSan reports.
TEST(UpdateRecordTest, RedoReadsBlockDataAtAnyAddress) {
  const std::vector<uint8_t> old_tuple = Tuple(1, "abcdef", "ghijkl");
  const std::vector<uint8_t> new_tuple = Tuple(1, "abcXef", "ghijkl");
  const UpdateRecord r = *EncodeUpdate(old_tuple, new_tuple, DeltaMethod::kPrefixSuffix);
  ASSERT_EQ(r.flags, kFlagPrefixFromOld | kFlagSuffixFromOld);
  StatusOr<std::vector<uint8_t>> want =
      ReconstructNewTuple(old_tuple, r.flags, r.block_data, Header());
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  for (size_t shift = 1; shift < 8; ++shift) {
    std::vector<uint8_t> buffer(shift, 0xEE);
    buffer.insert(buffer.end(), r.block_data.begin(), r.block_data.end());
    const ByteView at(buffer.data() + shift, r.block_data.size());
    StatusOr<std::vector<uint8_t>> back = ReconstructNewTuple(old_tuple, r.flags, at, Header());
    ASSERT_TRUE(back.ok()) << "shift " << shift << ": " << back.status().ToString();
    EXPECT_EQ(*back, *want) << "shift " << shift;
  }
}

TEST(PglzHistoryTest, PrependedByteStillMatchesTheHistory) {
  std::mt19937 rng(3);
  const std::vector<uint8_t> old_data = Bytes(RandomText(&rng, 1000));
  std::vector<uint8_t> target = {'!'};
  target.insert(target.end(), old_data.begin(), old_data.end());
  const std::vector<uint8_t> body = PglzHistoryEncode(old_data, target);
  EXPECT_LT(body.size(), 20u);
  StatusOr<std::vector<uint8_t>> back = PglzHistoryDecode(old_data, body, target.size());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, target);
  EXPECT_FALSE(PglzHistoryDecode(old_data, body, target.size() + 1).ok());
  EXPECT_FALSE(PglzHistoryDecode({}, body, target.size()).ok());  // offsets reach into nothing
}

TEST(ChunkDeltaTest, PrependedByteStillMatchesTheOldChunks) {
  std::mt19937 rng(5);
  const std::vector<uint8_t> old_data = Bytes(RandomText(&rng, 1000));
  std::vector<uint8_t> target = {'!'};
  target.insert(target.end(), old_data.begin(), old_data.end());
  const std::vector<uint8_t> body = ChunkEncode(old_data, target);
  EXPECT_LT(body.size(), 10u);
  StatusOr<std::vector<uint8_t>> back = ChunkDecode(old_data, body, target.size());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, target);
}

// The encoders keep their tables between calls without clearing them: what an earlier encode
// left must not change a later one's output. The same pair is encoded after unrelated inputs of
// other sizes (other table sizes) whose bytes would match it if they were still in the history.
TEST(GeneralDeltaTest, EncodingIsIndependentOfEarlierEncodes) {
  std::mt19937 rng(21);
  const std::vector<uint8_t> old_data = Bytes(RandomText(&rng, 300));
  std::vector<uint8_t> target = Bytes(RandomText(&rng, 200));
  target.insert(target.end(), old_data.begin() + 50, old_data.begin() + 150);
  const std::vector<uint8_t> pglz = PglzHistoryEncode(old_data, target);
  const std::vector<uint8_t> chunk = ChunkEncode(old_data, target);
  for (size_t earlier_size : {10, 300, 1000, 5000}) {
    std::vector<uint8_t> earlier = target;  // the target's own bytes, in a longer history
    const std::vector<uint8_t> filler = Bytes(RandomText(&rng, earlier_size));
    earlier.insert(earlier.end(), filler.begin(), filler.end());
    PglzHistoryEncode(earlier, filler);
    EXPECT_EQ(PglzHistoryEncode(old_data, target), pglz) << earlier_size;
    ChunkEncode(earlier, filler);
    EXPECT_EQ(ChunkEncode(old_data, target), chunk) << earlier_size;
  }
}

TEST(ChunkDeltaTest, BoundariesAreContentDefined) {
  std::mt19937 rng(9);
  const std::vector<uint8_t> s = Bytes(RandomText(&rng, 2000));
  const std::vector<uint32_t> ends = ChunkBoundaries(s);
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends.back(), s.size());
  uint32_t start = 0;
  for (uint32_t e : ends) {
    EXPECT_GE(e - start, e == s.size() ? 1u : kChunkMin);
    EXPECT_LE(e - start, kChunkMax);
    start = e;
  }
  // Prepending a byte moves only the boundaries near it.
  std::vector<uint8_t> shifted = {'#'};
  shifted.insert(shifted.end(), s.begin(), s.end());
  const std::vector<uint32_t> ends2 = ChunkBoundaries(shifted);
  size_t shared = 0;
  for (uint32_t e : ends2) shared += std::binary_search(ends.begin(), ends.end(), e - 1);
  EXPECT_GT(shared, ends.size() * 9 / 10);
}

TEST(ChunkDeltaTest, DecoderRejectsMalformedBodies) {
  const std::vector<uint8_t> old_data = Bytes("0123456789");
  auto err = [&](std::vector<uint8_t> body, size_t len) {
    StatusOr<std::vector<uint8_t>> r = ChunkDecode(old_data, body, len);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_EQ(err({0x80, 2, 0}, 4), "ok");  // copy old[2, 6)
  EXPECT_NE(err({0x80, 8, 0}, 4).find("beyond the old"), std::string::npos);
  EXPECT_NE(err({0x80, 2}, 4).find("truncated copy offset"), std::string::npos);
  EXPECT_NE(err({0xFF, 1}, 4).find("truncated copy length"), std::string::npos);
  EXPECT_NE(err({0xFF, 4, 0}, 4).find("truncated copy offset"), std::string::npos);
  EXPECT_EQ(err({0xFF, 4, 0, 6, 0}, 4), "ok");   // a long copy ending at the old data's end
  EXPECT_EQ(err({0xFF, 0, 0, 10, 0}, 0), "ok");  // an empty one at the very end
  EXPECT_NE(err({0xFF, 5, 0, 6, 0}, 5).find("beyond the old"), std::string::npos);
  EXPECT_NE(err({3, 'a', 'b'}, 4).find("literal run beyond the delta"), std::string::npos);
  EXPECT_NE(err({1, 'a', 'b'}, 1).find("literal run beyond the target"), std::string::npos);
  EXPECT_NE(err({0x80, 2, 0}, 3).find("copy beyond the target"), std::string::npos);
  EXPECT_NE(err({0, 'a'}, 4).find("shorter"), std::string::npos);
}

}  // namespace
}  // namespace pgstore::waldelta
