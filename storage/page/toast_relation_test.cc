// amcheck's TOAST checks on hand-made TOAST relations: every finding of toast_relation.h, and
// through VerifyHeapPage with the attribute of the pointer at fault.
#include "storage/page/toast_relation.h"

#include <gtest/gtest.h>

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
  // A chunk whose chunk_seq is NULL.
  void AddNullSeqChunk(uint32_t valueid) {
    std::vector<uint8_t> id(4);
    StoreLE32(id.data(), valueid);
    const std::vector<uint8_t> data = tuple::MakeVarlena(ByteView(std::vector<uint8_t>(8, 'x')));
    StatusOr<std::vector<uint8_t>> t =
        tuple::FormHeapTuple(desc_, {ByteView(id), std::nullopt, ByteView(data)});
    ASSERT_TRUE(t.ok()) << t.status().message();
    ASSERT_TRUE(page_.AddItem(ByteView(*t)).ok());
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
  ToastPage p;
  p.AddChunk(7, 0, 100);
  p.AddNullSeqChunk(7);
  EXPECT_EQ(p.Relation().CheckValue(7, 100),
            Findings{"toast value 7 has a chunk with null sequence number or data"});
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
  const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema("int4,text,text");
  std::vector<uint8_t> id(4, 0);
  const std::vector<uint8_t> ok_ptr = tuple::MakeToastPointer(1996 + 4, 1996, 0, 7, 99);
  const std::vector<uint8_t> lost_ptr = tuple::MakeToastPointer(3000 + 4, 3000, 0, 9, 99);
  tuple::FormOptions o;
  o.header.infomask_extra = tuple::kXmaxInvalid;
  StatusOr<std::vector<uint8_t>> t =
      tuple::FormHeapTuple(desc, {ByteView(id), ByteView(ok_ptr), ByteView(lost_ptr)}, o);
  ASSERT_TRUE(t.ok()) << t.status().message();
  HeapPage main;
  ASSERT_TRUE(main.AddItem(ByteView(*t)).ok());
  VerifyOptions options;
  options.desc = &desc;
  options.toast = &r;
  const std::vector<PageProblem> problems = VerifyHeapPage(main.bytes(), 0, options);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].lp, 1);
  EXPECT_EQ(problems[0].attnum, 2);
  EXPECT_EQ(problems[0].check, "toast value 9 not found in toast relation");
  options.toast = nullptr;  // without the TOAST relation the pointers are only checked in form
  EXPECT_TRUE(VerifyHeapPage(main.bytes(), 0, options).empty());
}

}  // namespace
}  // namespace pgstore::page
