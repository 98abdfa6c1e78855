// Unit tests for storage/pglz: one test per failure mode, constants pinned, round trips compared
// as bytes. Agreement with PostgreSQL's own pglz is checked in properties/pglz_property_test.cc.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/pglz/toast_datum.h"

namespace pgstore::pglz {
namespace {

std::vector<uint8_t> Bytes(std::initializer_list<int> b) {
  return std::vector<uint8_t>(b.begin(), b.end());
}

std::vector<uint8_t> Repeat(const std::string& s, int n) {
  std::vector<uint8_t> out;
  for (int i = 0; i < n; ++i) out.insert(out.end(), s.begin(), s.end());
  return out;
}

// `n` bytes of address space that read as zeros until written; only the pages touched take memory.
class Mapping {
 public:
  explicit Mapping(size_t n) : size_(n) {
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    data_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  ~Mapping() {
    if (data_ != nullptr) munmap(data_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  uint8_t* data() const { return data_; }

 private:
  size_t size_;
  uint8_t* data_;
};

// Bytes in which no 3 bytes repeat (n up to 4096, checked): nothing for pglz to match.
void FillIncompressible(uint8_t* out, size_t n) {
  uint32_t x = 12345;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1103515245 + 12345;
    out[i] = static_cast<uint8_t>(x >> 24);
  }
}

StatusOr<std::vector<uint8_t>> Decode(const std::vector<uint8_t>& in, size_t rawsize,
                                      Completeness mode = Completeness::kExact) {
  std::vector<uint8_t> out(rawsize);
  StatusOr<size_t> n = Decompress(ByteView(in), out.data(), rawsize, mode);
  if (!n.ok()) return n.status();
  out.resize(*n);
  return out;
}

TEST(PglzFormatTest, ConstantsMatchPostgres) {
  EXPECT_EQ(kMinMatch, 3);
  EXPECT_EQ(kMaxMatch, 273);
  EXPECT_EQ(kMaxOffset, 4095);
  EXPECT_EQ(kEncoderMaxOffset, 4094);
  EXPECT_EQ(kHistorySize, 4096);
  EXPECT_EQ(kMaxHistoryLists, 8192);
  EXPECT_EQ(kMaxExpansion, 91);
  EXPECT_EQ(MaxOutput(100), 104);
  EXPECT_EQ(kDefaultStrategy.min_input_size, 32);
  EXPECT_EQ(kDefaultStrategy.min_comp_rate, 25);
  EXPECT_EQ(kDefaultStrategy.first_success_by, 1024);
  EXPECT_EQ(kDefaultStrategy.match_size_good, 128);
  EXPECT_EQ(kDefaultStrategy.match_size_drop, 10);
  EXPECT_EQ(kAlwaysStrategy.min_input_size, 0);
  EXPECT_EQ(kAlwaysStrategy.match_size_drop, 6);
  EXPECT_EQ(kCompressedHeaderSize, 8u);
}

TEST(PglzFormatTest, MaximumCompressedSize) {
  EXPECT_EQ(MaximumCompressedSize(0, 1000), 2);
  EXPECT_EQ(MaximumCompressedSize(8, 1000), 11);  // 9 bytes of literals + 2
  EXPECT_EQ(MaximumCompressedSize(100, 1000), 115);
  EXPECT_EQ(MaximumCompressedSize(100, 50), 50);                         // capped at the total
  EXPECT_EQ(MaximumCompressedSize(0x7fffffff, 0x7fffffff), 0x7fffffff);  // no overflow
}

// PostgreSQL's regression cases (compression_pglz.sql): corrupt inputs.
TEST(PglzDecompressTest, ControlBitWithNoTagIsIncomplete) {
  EXPECT_EQ(Decode(Bytes({0x01}), 10).status().message(), "output shorter than raw size");
}

TEST(PglzDecompressTest, OneTagByteIsTruncatedTag) {
  EXPECT_EQ(Decode(Bytes({0x01, 0xff}), 10).status().message(), "truncated match tag");
}

TEST(PglzDecompressTest, ExtendedLengthWithoutThirdByteIsTruncatedTag) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x0f, 0x01}), 10).status().message(), "truncated match tag");
}

TEST(PglzDecompressTest, OffsetBeyondOutputIsCorruption) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x10, 0x01}), 10).status().message(), "match offset beyond output");
}

TEST(PglzDecompressTest, OffsetZeroIsCorruption) {
  EXPECT_EQ(Decode(Bytes({0x01, 0x03, 0x00}), 10).status().message(), "match offset is zero");
}

TEST(PglzDecompressTest, ShortOutputFailsExactButNotPartial) {
  std::vector<uint8_t> c = *Compress(ByteView(Repeat("abcd", 100)), kAlwaysStrategy);
  EXPECT_EQ(Decode(c, 500).status().message(), "output shorter than raw size");
  StatusOr<std::vector<uint8_t>> partial = Decode(c, 500, Completeness::kPartial);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, Repeat("abcd", 100));
}

TEST(PglzDecompressTest, UnconsumedInputFailsExactButNotPartial) {
  std::vector<uint8_t> c = *Compress(ByteView(Repeat("abcd", 100)), kAlwaysStrategy);
  EXPECT_EQ(Decode(c, 100).status().message(), "unconsumed compressed input");
  StatusOr<std::vector<uint8_t>> partial = Decode(c, 100, Completeness::kPartial);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, Repeat("abcd", 25));
}

TEST(PglzDecompressTest, OverlappingMatchReplicatesPattern) {
  // "ab" then a tag: len 3 + 7 = 10, off 2.
  StatusOr<std::vector<uint8_t>> out = Decode(Bytes({0x04, 'a', 'b', 0x07, 0x02}), 12);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(std::string(out->begin(), out->end()), "abababababab");
}

TEST(PglzDecompressTest, LongestMatchUsesThirdByte) {
  // 'x', then a 3-byte tag: len 18 + 255 = 273, off 1.
  StatusOr<std::vector<uint8_t>> out = Decode(Bytes({0x02, 'x', 0x0f, 0x01, 0xff}), 274);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(*out, std::vector<uint8_t>(274, 'x'));
}

TEST(PglzDecompressTest, MatchIsClampedToRawSize) {
  StatusOr<std::vector<uint8_t>> out =
      Decode(Bytes({0x02, 'x', 0x0f, 0x01, 0xff}), 10, Completeness::kPartial);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, std::vector<uint8_t>(10, 'x'));
}

// A stream of `prefix` literals, one tag (len, off), then `suffix` literals, and what it decodes
// to, computed byte by byte: the meaning of a tag, with no fast copies.
struct OneTagStream {
  std::vector<uint8_t> compressed;
  std::vector<uint8_t> raw;
};
OneTagStream MakeOneTagStream(int prefix, int len, int off, int suffix) {
  OneTagStream s;
  std::vector<bool> is_tag;
  std::vector<std::vector<uint8_t>> items;
  for (int i = 0; i < prefix; ++i) {
    s.raw.push_back(static_cast<uint8_t>('a' + i * 7 % 26));
    items.push_back({s.raw.back()});
    is_tag.push_back(false);
  }
  // (A tag reaching before the first byte has no meaning: its bytes are left as '?'.)
  for (int i = 0; i < len; ++i) {
    s.raw.push_back(static_cast<size_t>(off) <= s.raw.size() ? s.raw[s.raw.size() - off] : '?');
  }
  if (len > kMaxShortTagMatch) {
    items.push_back({static_cast<uint8_t>(((off & 0xf00) >> 4) | 0x0f),
                     static_cast<uint8_t>(off & 0xff), static_cast<uint8_t>(len - 18)});
  } else {
    items.push_back(
        {static_cast<uint8_t>(((off & 0xf00) >> 4) | (len - 3)), static_cast<uint8_t>(off & 0xff)});
  }
  is_tag.push_back(true);
  for (int i = 0; i < suffix; ++i) {
    s.raw.push_back(static_cast<uint8_t>('A' + i % 26));
    items.push_back({s.raw.back()});
    is_tag.push_back(false);
  }
  for (size_t group = 0; group < items.size(); group += 8) {
    uint8_t ctrl = 0;
    for (size_t i = group; i < std::min(items.size(), group + 8); ++i) {
      if (is_tag[i]) ctrl |= 1 << (i - group);
    }
    s.compressed.push_back(ctrl);
    for (size_t i = group; i < std::min(items.size(), group + 8); ++i) {
      s.compressed.insert(s.compressed.end(), items[i].begin(), items[i].end());
    }
  }
  return s;
}

// Far from the ends of the buffers the decoder copies eight bytes at a time; every short offset
// (the overlapping, pattern-replicating copies) and every length must still mean what a
// byte-by-byte copy means.
TEST(PglzDecompressTest, FastPathMatchesByteByByteCopyForEveryOffsetAndLength) {
  for (int off = 1; off <= 20; ++off) {
    for (int len = kMinMatch; len <= kMaxMatch; ++len) {
      OneTagStream s = MakeOneTagStream(24, len, off, 40);
      StatusOr<std::vector<uint8_t>> out = Decode(s.compressed, s.raw.size());
      ASSERT_TRUE(out.ok()) << "off " << off << " len " << len << ": " << out.status().ToString();
      ASSERT_EQ(*out, s.raw) << "off " << off << " len " << len;
    }
  }
}

// Every prefix length of the output, decoded partially, is that prefix: a match (or a literal
// run) cut by the raw size is cut exactly there, in the fast path and in the careful one.
TEST(PglzDecompressTest, EveryPartialLengthIsThePrefix) {
  std::vector<uint8_t> raw;
  for (int i = 0; i < 3000; ++i) {
    raw.push_back(static_cast<uint8_t>(i % 7 == 0 ? 'a' + i % 13 : 'k'));
    if (i % 500 == 0) raw.insert(raw.end(), 300, 'z');  // long matches
  }
  std::vector<uint8_t> c = *Compress(ByteView(raw), kAlwaysStrategy);
  for (size_t n = 0; n <= raw.size(); ++n) {
    StatusOr<std::vector<uint8_t>> out = Decode(c, n, Completeness::kPartial);
    ASSERT_TRUE(out.ok()) << n;
    ASSERT_EQ(*out, std::vector<uint8_t>(raw.begin(), raw.begin() + n)) << n;
  }
}

// Bad offsets are caught in the fast path too (the tag is far from both ends).
TEST(PglzDecompressTest, BadOffsetFarFromTheEndsIsCorruption) {
  OneTagStream zero = MakeOneTagStream(24, 5, 1, 40);
  zero.compressed[zero.compressed.size() - 40 - 5 - 2 + 1] = 0x00;  // the tag: (len 5, off 0)
  zero.compressed[zero.compressed.size() - 40 - 5 - 2] = 0x02;
  EXPECT_EQ(Decode(zero.compressed, zero.raw.size()).status().message(), "match offset is zero");
  OneTagStream far = MakeOneTagStream(24, 5, 25, 40);  // 25 back, with only 24 bytes out
  EXPECT_EQ(Decode(far.compressed, far.raw.size()).status().message(),
            "match offset beyond output");
  OneTagStream edge = MakeOneTagStream(24, 5, 24, 40);  // exactly to the first byte: fine
  EXPECT_EQ(*Decode(edge.compressed, edge.raw.size()), edge.raw);
}

// A match whose end is close to the end of the output: every room left after it, every offset
// and short length, after every literal count of a fast turn. The output buffer is exactly the
// raw size, so ASan sees any eight-byte copy that writes past it.
TEST(PglzDecompressTest, MatchesNearTheOutputEndWriteNothingPastIt) {
  for (int prefix = 8; prefix <= 16; ++prefix) {
    for (int len = kMinMatch; len <= 20; ++len) {
      for (int off = 1; off <= prefix; ++off) {
        for (int suffix = 0; suffix <= 20; ++suffix) {
          OneTagStream s = MakeOneTagStream(prefix, len, off, suffix);
          StatusOr<std::vector<uint8_t>> out = Decode(s.compressed, s.raw.size());
          ASSERT_TRUE(out.ok()) << prefix << " " << len << " " << off << " " << suffix;
          ASSERT_EQ(*out, s.raw) << prefix << " " << len << " " << off << " " << suffix;
        }
      }
    }
  }
}

// A tag cut short after seven literals, with plenty of output room: the fast path must not read
// the missing tag bytes (ASan sees the read past this exactly-sized buffer).
TEST(PglzDecompressTest, TruncatedTagAfterLiteralsIsNotReadPastTheInput) {
  for (int tag_bytes = 0; tag_bytes <= 2; ++tag_bytes) {
    std::vector<uint8_t> in = {0x80, 'a', 'b', 'c', 'd', 'e', 'f', 'g'};
    if (tag_bytes >= 1) in.push_back(0x0f);  // a long tag: three bytes
    if (tag_bytes >= 2) in.push_back(0x01);
    in.shrink_to_fit();
    EXPECT_EQ(Decode(in, 100).status().message(),
              tag_bytes == 0 ? "output shorter than raw size" : "truncated match tag")
        << tag_bytes;
  }
}

TEST(PglzDecompressTest, EmptyInputEmptyOutputIsExact) { EXPECT_TRUE(Decode({}, 0).ok()); }

TEST(PglzCompressTest, RoundTripOfRepetitiveText) {
  std::vector<uint8_t> raw = Repeat("abcd", 100);
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(raw));
  ASSERT_TRUE(c.has_value());
  EXPECT_LT(c->size(), raw.size() * 3 / 4);
  StatusOr<std::vector<uint8_t>> out = Decode(*c, raw.size());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, raw);
}

TEST(PglzCompressTest, DefaultStrategyRefusesShortInput) {
  EXPECT_FALSE(Compress(ByteView(Repeat("a", 31))).has_value());
  EXPECT_TRUE(Compress(ByteView(Repeat("a", 32))).has_value());
}

TEST(PglzCompressTest, EmptyInputAlwaysGivesUp) {
  EXPECT_FALSE(Compress(ByteView(), kAlwaysStrategy).has_value());
}

TEST(PglzCompressTest, NonPositiveGoodMatchGivesUp) {
  Strategy s = kAlwaysStrategy;
  s.match_size_good = 0;
  EXPECT_FALSE(Compress(ByteView(Repeat("ab", 100)), s).has_value());
}

TEST(PglzCompressTest, IncompressibleInputGivesUp) {
  std::vector<uint8_t> raw(2000);
  FillIncompressible(raw.data(), raw.size());
  EXPECT_FALSE(Compress(ByteView(raw)).has_value());
}

// pglz_compress takes an int32 length: an input of INT32_MAX bytes is compressed and one byte more
// is refused before anything is written. The input starts with bytes that have no match, so the
// compressor gives up at first_success_by after writing its first control byte and literals: that
// output, where the refused input left the sentinel, shows it was accepted. The input is a
// mapping of which only the first page is written (the rest reads as zeros and is never reached).
TEST(PglzCompressTest, InputOfInt32MaxBytesIsCompressedOneMoreIsRefused) {
  constexpr size_t kLimit = INT32_MAX;
  const Mapping src(kLimit + 1);
  const Mapping dest(static_cast<size_t>(MaxOutput(kLimit + 1)));
  ASSERT_NE(src.data(), nullptr);
  ASSERT_NE(dest.data(), nullptr);
  FillIncompressible(src.data(), 4096);
  constexpr uint8_t kSentinel = 0xFF;
  std::fill_n(dest.data(), 16, kSentinel);

  EXPECT_EQ(Compress(ByteView(src.data(), kLimit + 1), dest.data()), std::nullopt);
  EXPECT_EQ(std::count(dest.data(), dest.data() + 16, kSentinel), 16) << "refused input was read";

  EXPECT_EQ(Compress(ByteView(src.data(), kLimit), dest.data()), std::nullopt);  // no match
  EXPECT_EQ(dest.data()[0], 0x00) << "a control byte of eight literals";
  EXPECT_TRUE(std::equal(src.data(), src.data() + 8, dest.data() + 1));
}

TEST(PglzCompressTest, KnownOutputForRun) {
  // 40 x 'a': literal 'a', then a 3-byte tag (len 39 = 18 + 21, off 1).
  std::optional<std::vector<uint8_t>> c = Compress(ByteView(Repeat("a", 40)));
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(*c, Bytes({0x02, 'a', 0x0f, 0x01, 21}));
}

// Two inputs laid out one after the other in memory, so that a compressor that confused their
// positions would find real (wrong) matches instead of reading out of bounds: `first` starts
// with "WXYZ", `second` starts with "WXY!" and has its only "WXYZ" at offset 2000. A fresh
// compressor emits that "WXYZ" as literals; one that still saw the first input's positions
// would find a match for it (in `first`, or in second's own "WXY!").
struct TwoInputs {
  std::vector<uint8_t> buffer;
  ByteView first, second;
};
TwoInputs MakeTwoInputs() {
  TwoInputs t;
  uint32_t x = 7;
  auto filler = [&](size_t n) {  // compressible lower-case words
    static const char* const kWords[] = {"alpha ", "beta ", "gamma ", "delta ", "epsilon "};
    std::string words;
    while (words.size() < n) {
      x = x * 1103515245 + 12345;
      words += kWords[(x >> 16) % 5];
    }
    t.buffer.insert(t.buffer.end(), words.begin(), words.begin() + n);
  };
  auto text = [&](const char* s) { t.buffer.insert(t.buffer.end(), s, s + 4); };
  text("WXYZ");
  filler(1100);
  const size_t second_start = t.buffer.size();
  text("WXY!");
  filler(1996);
  text("WXYZ");
  filler(500);
  t.first = ByteView(t.buffer.data(), second_start);
  t.second = ByteView(t.buffer.data() + second_start, t.buffer.size() - second_start);
  return t;
}

std::vector<uint8_t> CompressWith(Compressor* c, ByteView in) {
  std::vector<uint8_t> out(MaxOutput(in.size));
  std::optional<int32_t> n = c->Compress(in, out.data(), kAlwaysStrategy);
  out.resize(n.value_or(0));
  return out;
}

// One Compressor, many inputs: a later input's output is exactly a fresh compressor's (positions
// remembered from an earlier input are never candidates).
TEST(PglzCompressTest, ReusedCompressorMatchesFreshOne) {
  TwoInputs t = MakeTwoInputs();
  Compressor fresh, reused;
  const std::vector<uint8_t> expected = CompressWith(&fresh, t.second);
  ASSERT_FALSE(expected.empty());
  for (int round = 0; round < 3; ++round) {
    CompressWith(&reused, t.first);
    EXPECT_EQ(CompressWith(&reused, t.second), expected) << "round " << round;
  }
}

}  // namespace

// Reaches the Compressor's position counter, to test its wrap without compressing 2 GB.
class CompressorTestPeer {
 public:
  static void AdvanceBase(Compressor* c, uint64_t positions) { c->AdvanceBase(positions); }
};

namespace {

// When the position counter wraps, the history is cleared: the output is still a fresh
// compressor's.
TEST(PglzCompressTest, PositionCounterWrapClearsHistory) {
  TwoInputs t = MakeTwoInputs();
  Compressor fresh, reused;
  const std::vector<uint8_t> expected = CompressWith(&fresh, t.second);
  for (int round = 0; round < 3; ++round) {
    CompressWith(&reused, t.first);
    CompressorTestPeer::AdvanceBase(&reused, uint64_t{1} << 32);  // to the wrap point
    EXPECT_EQ(CompressWith(&reused, t.second), expected) << "round " << round;
  }
}

// Buckets no input has filled hold no position, whatever the position counter's value: no match
// reaches into the bytes before the input (the words of t.first, which would match). A fresh
// compressor's counter is moved to around each value a head array filled with one repeated byte
// would hold short of the wrap (0x01010101 to 0x7F7F7F7F), in steps of 256 over 16 KB.
TEST(PglzCompressTest, UnfilledBucketsHoldNoPosition) {
  TwoInputs t = MakeTwoInputs();
  Compressor reference;
  const std::vector<uint8_t> expected = CompressWith(&reference, t.second);
  for (uint64_t byte : {0x01, 0x02, 0x10, 0x7F}) {
    for (int64_t delta = -8192; delta < 8192; delta += 256) {
      Compressor c;
      CompressorTestPeer::AdvanceBase(&c, 0x01010101 * byte + delta);
      ASSERT_EQ(CompressWith(&c, t.second), expected) << "byte " << byte << " delta " << delta;
    }
  }
}

// After the counter wraps, every bucket is empty again, not only those the next input fills
// early. Past the wrap the positions restart at 4096, so an input of 16.8 MB reaches the
// positions 0x01010101.. that a head array cleared to any byte but 0 would hold: a run of zeros
// (one bucket) with "XYZA" and, 100 bytes later, "XYZB" (a bucket no other position fills) at
// that point. "XYZB" must stay a literal: its bucket holds no position, "XYZA" is not in it.
TEST(PglzCompressTest, PositionCounterWrapEmptiesEveryBucket) {
  const size_t at = 0x01010101 - 4096;  // the input offset of position 0x01010101 after a wrap
  std::vector<uint8_t> in(at + 8192, 0);
  const uint8_t xyza[] = {'X', 'Y', 'Z', 'A'};
  std::copy(xyza, xyza + 4, in.begin() + at);
  std::copy(xyza, xyza + 3, in.begin() + at + 100);
  in[at + 103] = 'B';
  Compressor fresh, wrapped;
  const std::vector<uint8_t> expected = CompressWith(&fresh, ByteView(in));
  ASSERT_FALSE(expected.empty());
  CompressWith(&wrapped, ByteView(Repeat("0123456789abcdef", 16)));
  CompressorTestPeer::AdvanceBase(&wrapped, uint64_t{1} << 32);
  EXPECT_EQ(CompressWith(&wrapped, ByteView(in)), expected);
}

TEST(ToastDatumTest, HeaderLayout) {
  std::vector<uint8_t> out;
  PutCompressedDatumHeader(&out, {20, 100, kPglzMethodId});
  EXPECT_EQ(out, Bytes({0x52, 0x00, 0x00, 0x00, 100, 0, 0, 0}));  // 20 << 2 | 2
  out.clear();
  PutCompressedDatumHeader(&out, {20, 100, kLz4MethodId});
  EXPECT_EQ(out[7], 0x40);
}

TEST(ToastDatumTest, RoundTripAndSlice) {
  std::vector<uint8_t> raw = Repeat("hello world, ", 50);
  std::optional<std::vector<uint8_t>> d = CompressDatum(ByteView(raw));
  ASSERT_TRUE(d.has_value());
  StatusOr<CompressedDatumHeader> h = GetCompressedDatumHeader(ByteView(*d));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->total_size, d->size());
  EXPECT_EQ(h->raw_size, raw.size());
  EXPECT_EQ(h->method_id, kPglzMethodId);
  StatusOr<std::vector<uint8_t>> full = DecompressDatum(ByteView(*d));
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(*full, raw);
  StatusOr<std::vector<uint8_t>> slice = DecompressDatumSlice(ByteView(*d), 7);
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(*slice, std::vector<uint8_t>(raw.begin(), raw.begin() + 7));
}

TEST(ToastDatumTest, ShortDatumIsCorruption) {
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(Bytes({0x52, 0, 0}))).status().message(),
            "truncated compressed datum header");
}

TEST(ToastDatumTest, UncompressedHeaderIsRejected) {
  EXPECT_EQ(
      GetCompressedDatumHeader(ByteView(Bytes({0x20, 0, 0, 0, 1, 0, 0, 0}))).status().message(),
      "not an inline-compressed varlena");
}

TEST(ToastDatumTest, SizeMismatchIsCorruption) {
  EXPECT_EQ(
      GetCompressedDatumHeader(ByteView(Bytes({0x52, 0, 0, 0, 1, 0, 0, 0}))).status().message(),
      "varlena size differs from datum length");
}

TEST(ToastDatumTest, InvalidMethodIsCorruption) {
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(Bytes({0x2a, 0, 0, 0, 1, 0, 0, 0x80, 0, 0})))
                .status()
                .message(),
            "bad compression method id");
}

TEST(ToastDatumTest, RawSizeBeyondExpansionBoundIsCorruption) {
  // 2 payload bytes can produce at most 182 bytes.
  std::vector<uint8_t> d = Bytes({0x2a, 0, 0, 0, 183, 0, 0, 0, 0, 0});
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(d)).status().message(),
            "raw size exceeds what the payload can expand to");
  d[4] = 182;
  EXPECT_TRUE(GetCompressedDatumHeader(ByteView(d)).ok());
}

TEST(ToastDatumTest, Lz4IsNotSupported) {
  std::vector<uint8_t> d = Bytes({0x2a, 0, 0, 0, 10, 0, 0, 0x40, 0, 0});
  EXPECT_EQ(DecompressDatum(ByteView(d)).status().code(), StatusCode::kNotSupported);
}

// A raw size of 0 is corruption (PostgreSQL never compresses an empty value); 1 is a size.
TEST(ToastDatumTest, ZeroRawSizeIsCorruption) {
  std::vector<uint8_t> d = Bytes({0x2a, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(GetCompressedDatumHeader(ByteView(d)).status().message(), "zero raw size");
  d[4] = 1;
  EXPECT_TRUE(GetCompressedDatumHeader(ByteView(d)).ok());
}

// The default strategy's smallest input, 32 bytes, is compressed when it pays.
TEST(ToastDatumTest, SmallestCompressibleValueIsCompressed) {
  std::optional<std::vector<uint8_t>> d = CompressDatum(ByteView(Repeat("x", 32)));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(*DecompressDatum(ByteView(*d)), Repeat("x", 32));
}

// toast_compress_datum keeps the compressed datum only when it is more than 2 bytes smaller than
// the raw value (which matters below 40 bytes: above, the strategy's 25% saving implies it). The
// values: 32 bytes, `distinct` bytes with no repeat then zeros, which compress to control bytes,
// distinct + 1 literals and one 2-byte tag, with the 8-byte header 31, 30 and 29 bytes.
TEST(ToastDatumTest, CompressedDatumMustSaveMoreThanTwoBytes) {
  for (int distinct : {17, 16, 15}) {
    std::vector<uint8_t> raw(32, 0);
    for (int i = 0; i < distinct; ++i) raw[i] = static_cast<uint8_t>(i + 1);
    std::optional<std::vector<uint8_t>> c = Compress(ByteView(raw), kDefaultStrategy);
    ASSERT_TRUE(c.has_value());
    ASSERT_EQ(kCompressedHeaderSize + c->size(), 14u + distinct) << distinct;  // 32 - 1, - 2, - 3
    EXPECT_EQ(CompressDatum(ByteView(raw)).has_value(), distinct == 15) << distinct;
  }
}

TEST(ToastDatumTest, RawSizeFitsThirtyBits) {
  EXPECT_TRUE(RawSizeFits(0));
  EXPECT_TRUE(RawSizeFits(kExtSizeMask));
  EXPECT_FALSE(RawSizeFits(uint64_t{kExtSizeMask} + 1));
  EXPECT_FALSE(RawSizeFits(uint64_t{1} << 32));
}

// A value past the 30-bit raw-size field (1 GiB - 1) is not compressed. The 1 GiB value is
// reserved address space that reads as zeros, so the test costs no memory.
TEST(ToastDatumTest, ValueBeyondRawSizeFieldIsNotCompressed) {
  const size_t size = size_t{kExtSizeMask} + 1;
  const Mapping value(size);
  ASSERT_NE(value.data(), nullptr);
  EXPECT_FALSE(CompressDatum(ByteView(value.data(), size)).has_value());
}

TEST(ToastDatumTest, IncompressibleValueStaysUncompressed) {
  EXPECT_FALSE(CompressDatum(ByteView(Repeat("x", 10))).has_value());  // below 32 bytes
}

}  // namespace
}  // namespace pgstore::pglz
