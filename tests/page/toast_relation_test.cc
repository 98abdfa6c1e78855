// amcheck's TOAST checks on hand-made TOAST relations: every finding of toast_relation.h, and
// through VerifyHeapPage with the attribute of the pointer at fault.
#include "storage/page/toast_relation.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "storage/page/heap_page.h"
#include "storage/page/verify.h"
#include "storage/tuple/form.h"
#include "storage/tuple/varlena.h"

namespace pgstore::page {
namespace {

using Findings = std::vector<std::string>;

// A TOAST relation of one page, built chunk by chunk.
class ToastPage {
 public:
  // chunk_data is a 4B varlena of `size` bytes unless `data` gives the whole varlena.
  void AddChunk(uint32_t valueid, int32_t seq, size_t size, uint32_t xmax = 0,
                std::vector<uint8_t> data = {}) {
    std::vector<uint8_t> id(4), sq(4);
    StoreLE32(id.data(), valueid);
    StoreLE32(sq.data(), static_cast<uint32_t>(seq));
    if (data.empty()) data = tuple::MakeVarlena(ByteView(std::vector<uint8_t>(size, 'x')));
    tuple::FormOptions o;
    o.header.xmax = xmax;
    StatusOr<std::vector<uint8_t>> t =
        tuple::FormHeapTuple(desc_, {ByteView(id), ByteView(sq), ByteView(data)}, o);
    ASSERT_TRUE(t.ok()) << t.status().message();
    ASSERT_TRUE(page_.AddItem(ByteView(*t)).ok());
  }
  // A chunk whose chunk_seq is NULL (no seq) or whose chunk_data is NULL.
  void AddNullChunk(uint32_t valueid, std::optional<int32_t> seq) {
    std::vector<uint8_t> id(4), sq(4);
    StoreLE32(id.data(), valueid);
    StoreLE32(sq.data(), static_cast<uint32_t>(seq.value_or(0)));
    const std::vector<uint8_t> data = tuple::MakeVarlena(ByteView(std::vector<uint8_t>(8, 'x')));
    std::vector<tuple::Datum> values = {ByteView(id), std::nullopt, std::nullopt};
    if (seq) {
      values[1] = ByteView(sq);
    } else {
      values[2] = ByteView(data);
    }
    StatusOr<std::vector<uint8_t>> t = tuple::FormHeapTuple(desc_, values);
    ASSERT_TRUE(t.ok()) << t.status().message();
    ASSERT_TRUE(page_.AddItem(ByteView(*t)).ok());
  }
  void AddRawItem(const std::vector<uint8_t>& item) {
    ASSERT_TRUE(page_.AddItem(ByteView(item)).ok());
  }
  ToastRelation Relation() const {
    ToastRelation r;
    r.AddPage(page_.bytes());
    return r;
  }

 private:
  tuple::TupleDesc desc_ = *tuple::TupleDesc::FromSchema("oid,int4,bytea");
  HeapPage page_;
};

// A value of 5000 stored bytes: chunks of 1996, 1996 and 1008.
constexpr uint32_t kExtSize = 5000;

// amcheck's findings for value 7 of kExtSize bytes stored as these (chunk_seq, data size) chunks.
Findings CheckChunks(std::initializer_list<std::pair<int32_t, size_t>> chunks) {
  ToastPage p;
  for (const auto& [seq, size] : chunks) p.AddChunk(7, seq, size);
  return p.Relation().CheckValue(7, kExtSize);
}

TEST(ToastRelationTest, CompleteValueIsClean) {
  ToastPage p;
  p.AddChunk(7, 1, 1996);  // chunk order on the page does not matter
  p.AddChunk(7, 0, 1996);
  p.AddChunk(7, 2, 1008);
  const ToastRelation r = p.Relation();
  EXPECT_EQ(r.chunks(), 3u);
  EXPECT_EQ(r.CheckValue(7, kExtSize), Findings{});
  EXPECT_EQ(r.CheckValue(8, kExtSize), Findings{"toast value 8 not found in toast relation"});
}

TEST(ToastRelationTest, MissingRepeatedAndExtraChunks) {
  EXPECT_EQ(CheckChunks({{0, 1996}, {2, 1008}}),
            Findings{"toast value 7 chunk 2 where chunk 1 was expected"});
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 1996}, {1, 1996}, {2, 1008}}),
            Findings{"toast value 7 chunk 1 where chunk 2 was expected"});
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 1996}, {2, 1008}, {3, 1996}}),
            Findings{"toast value 7 chunk 3 follows last expected chunk 2"});
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 1996}}),
            Findings{"toast value 7 ended at chunk 2, expected to end at chunk 2"});
  EXPECT_EQ(CheckChunks({{-1, 1996}, {0, 1996}, {1, 1996}, {2, 1008}}),
            Findings{"toast value 7 chunk -1 where chunk 0 was expected"});
}

TEST(ToastRelationTest, ChunkWithNullSequenceNumber) {
  // The index on (chunk_id, chunk_seq) returns NULLs last: its finding comes after chunk 1's,
  // though the chunk is first on the page.
  ToastPage p;
  p.AddNullChunk(7, std::nullopt);
  p.AddChunk(7, 1, 1000);
  p.AddChunk(7, 0, 1996);
  p.AddChunk(7, 2, 1008);
  EXPECT_EQ(p.Relation().CheckValue(7, kExtSize),
            (Findings{"toast value 7 chunk 1 has size 1000, expected 1996",
                      "toast value 7 has a chunk with null sequence number"}));
}

TEST(ToastRelationTest, ChunkWithNullData) {
  // Its sequence number still counts: chunk 2 is the one expected next.
  ToastPage p;
  p.AddChunk(7, 2, 1008);
  p.AddNullChunk(7, 1);
  p.AddChunk(7, 0, 1996);
  EXPECT_EQ(p.Relation().CheckValue(7, kExtSize), Findings{"toast value 7 chunk 1 has null data"});
}

TEST(ToastRelationTest, RepeatedChunksAreCheckedInPageOrder) {
  // Equal keys come from the index in heap order: the 1996-byte chunk 1 first, then the other.
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 1996}, {1, 500}, {2, 1008}}),
            (Findings{"toast value 7 chunk 1 where chunk 2 was expected",
                      "toast value 7 chunk 1 has size 500, expected 1996"}));
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 500}, {1, 1996}, {2, 1008}}),
            (Findings{"toast value 7 chunk 1 has size 500, expected 1996",
                      "toast value 7 chunk 1 where chunk 2 was expected"}));
}

TEST(ToastRelationTest, LastChunkAtEverySizeBoundary) {
  auto check = [](uint32_t extsize, std::initializer_list<std::pair<int32_t, size_t>> chunks) {
    ToastPage p;
    for (const auto& [seq, size] : chunks) p.AddChunk(7, seq, size);
    return p.Relation().CheckValue(7, extsize);
  };
  EXPECT_EQ(check(1, {{0, 1}}), Findings{});
  EXPECT_EQ(check(1996, {{0, 1996}}), Findings{});
  EXPECT_EQ(check(1997, {{0, 1996}, {1, 1}}), Findings{});
  EXPECT_EQ(check(3992, {{0, 1996}, {1, 1996}}), Findings{});
  EXPECT_EQ(check(1996, {{0, 1996}, {1, 0}}),
            Findings{"toast value 7 chunk 1 follows last expected chunk 0"});
  EXPECT_EQ(check(1997, {{0, 1996}}),
            Findings{"toast value 7 ended at chunk 1, expected to end at chunk 1"});
  // A value of no bytes would have no chunks (L = -1), yet amcheck, like the index scan it
  // reports on, knows a value only by its chunks.
  EXPECT_EQ(check(0, {}), Findings{"toast value 7 not found in toast relation"});
  EXPECT_EQ(check(0, {{0, 0}}), Findings{"toast value 7 chunk 0 follows last expected chunk -1"});
}

TEST(ToastRelationTest, AHeaderOnlyTupleIsAChunkOfNoValue) {
  // 24 bytes, no attributes: every column reads as missing (NULL), so it is counted as a chunk
  // but filed under no value.
  std::vector<uint8_t> header_only(tuple::kMinHeapTupleSize, 0);
  header_only[22] = static_cast<uint8_t>(tuple::kMinHeapTupleSize);  // t_hoff
  ToastPage p;
  p.AddChunk(7, 0, 100);
  p.AddRawItem(header_only);
  const ToastRelation r = p.Relation();
  EXPECT_EQ(r.chunks(), 2u);
  EXPECT_EQ(r.CheckValue(7, 100), Findings{});
}

TEST(ToastRelationTest, ChunkSizesAndHeaders) {
  ToastPage p;
  p.AddChunk(7, 0, 1996);
  p.AddChunk(7, 1, 1000);
  std::vector<uint8_t> compressed = {(16 << 2) | 2, 0, 0, 0, 100, 0, 0, 0};  // 4B compressed
  compressed.resize(16, 0);
  p.AddChunk(7, 2, 0, 0, compressed);
  EXPECT_EQ(p.Relation().CheckValue(7, kExtSize),
            (Findings{"toast value 7 chunk 1 has size 1000, expected 1996",
                      "toast value 7 chunk 2 has an invalid varlena header"}));
  // The last chunk holds the rest.
  EXPECT_EQ(CheckChunks({{0, 1996}, {1, 1996}, {2, 1996}}),
            Findings{"toast value 7 chunk 2 has size 1996, expected 1008"});
}

TEST(ToastRelationTest, DeletedChunksAreNotSeen) {
  ToastPage p;
  p.AddChunk(7, 0, 1996, /*xmax=*/500);
  EXPECT_EQ(p.Relation().chunks(), 0u);
  EXPECT_EQ(p.Relation().CheckValue(7, 100), Findings{"toast value 7 not found in toast relation"});
}

TEST(ToastRelationTest, LiveMeansXmaxUnsetInvalidOrOnlyALocker) {
  using namespace tuple;
  TupleHeader h;
  EXPECT_TRUE(TupleIsLive(h));
  h.xmax = 500;
  EXPECT_FALSE(TupleIsLive(h));
  h.infomask = kXmaxInvalid;
  EXPECT_TRUE(TupleIsLive(h));
  h.infomask = kXmaxLockOnly;
  EXPECT_TRUE(TupleIsLive(h));
  h.infomask = kXmaxExclLock;  // a pre-9.3 FOR UPDATE lock
  EXPECT_TRUE(TupleIsLive(h));
  h.infomask = kXmaxExclLock | kXmaxIsMulti;
  EXPECT_FALSE(TupleIsLive(h));
  h.xmax = 0;
  h.infomask = kXminInvalid;  // inserted by an aborted transaction
  EXPECT_FALSE(TupleIsLive(h));
}

TEST(ToastRelationTest, VerifierChecksEachPointerOfALiveTuple) {
  ToastPage toast;
  toast.AddChunk(7, 0, 1996);
  const ToastRelation r = toast.Relation();
  std::vector<uint8_t> id(4, 0);
  const std::vector<uint8_t> ok_ptr = tuple::MakeToastPointer(1996 + 4, 1996, 0, 7, 99);
  const std::vector<uint8_t> lost_ptr = tuple::MakeToastPointer(3000 + 4, 3000, 0, 9, 99);
  // The pointer to the missing value last, then first: the finding names its attribute.
  struct Layout {
    const char* schema;
    std::vector<tuple::Datum> values;
    int lost_attnum;
  };
  for (const Layout& layout :
       {Layout{"int4,text,text", {ByteView(id), ByteView(ok_ptr), ByteView(lost_ptr)}, 2},
        Layout{"text,int4,text", {ByteView(lost_ptr), ByteView(id), ByteView(ok_ptr)}, 0}}) {
    const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema(layout.schema);
    tuple::FormOptions o;
    o.header.infomask_extra = tuple::kXmaxInvalid;
    StatusOr<std::vector<uint8_t>> t = tuple::FormHeapTuple(desc, layout.values, o);
    ASSERT_TRUE(t.ok()) << t.status().message();
    HeapPage main;
    ASSERT_TRUE(main.AddItem(ByteView(*t)).ok());
    VerifyOptions options;
    options.desc = &desc;
    options.toast = &r;
    const std::vector<PageProblem> problems = VerifyHeapPage(main.bytes(), 0, options);
    ASSERT_EQ(problems.size(), 1u) << layout.schema;
    EXPECT_EQ(problems[0].lp, 1);
    EXPECT_EQ(problems[0].attnum, layout.lost_attnum);
    EXPECT_EQ(problems[0].check, "toast value 9 not found in toast relation");
    options.toast = nullptr;  // without the TOAST relation the pointers are only checked in form
    EXPECT_TRUE(VerifyHeapPage(main.bytes(), 0, options).empty());
  }
}

}  // namespace
}  // namespace pgstore::page
