// Undo records at their bounds: a record head read a byte at a time (what recovery sees of a
// record torn at any point) is judged on exactly the bytes present, a record of exactly 64 KB
// packs and unpacks while one byte more is refused, each part that runs past the record is named,
// and every error names the byte that was wrong.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/undo/undo_record.h"
#include "storage/undo/zheap_table.h"
#include "tests/undo/test_tuples.h"

namespace pgstore::undo {
namespace {

using fixtures::ZTupleOfSize;

// The first `n` bytes of a record, in a buffer of exactly that size (so ASan sees a read past it).
StatusOr<size_t> LengthOfHead(const std::vector<uint8_t>& record, size_t n) {
  const std::vector<uint8_t> head(record.begin(), record.begin() + n);
  return DeclaredRecordLength(ByteView(head));
}

std::vector<uint8_t> Packed(const UndoRecord& r) {
  std::vector<uint8_t> out;
  const Status s = PackUndoRecord(r, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

UndoRecord Delete(size_t tuple_data_bytes) {
  UndoRecord r;
  r.rmid = kRmZheap;
  r.type = UndoType::kDelete;
  r.xid = 900;
  r.tuple = ZTupleOfSize(tuple_data_bytes);
  return r;
}

// Bytes 0..23 (the header), then a payload header of (payload_len, tuple_len).
std::vector<uint8_t> HeaderBytes(UndoType type, uint8_t info) {
  std::vector<uint8_t> v(kHeaderSize, 0);
  v[0] = kRmZheap;
  v[1] = static_cast<uint8_t>(type);
  v[2] = info;
  return v;
}

TEST(UndoRecordBoundsTest, EveryPrefixOfARecordIsAStartOrItsLength) {
  for (uint8_t fork : {kMainFork, uint8_t{1}}) {
    for (bool with_parts : {false, true}) {
      UndoRecord r;
      r.fork = fork;
      if (with_parts) {
        r = Delete(40);
        r.fork = fork;
        r.has_block = true;
        r.has_transaction = true;
        r.payload_flags = kInfoPayloadContainsSlot;
        r.payload = {1, 0, 0, 0};
      }
      const std::vector<uint8_t> packed = Packed(r);
      // The length is known once the last part it depends on is read: the payload header, or
      // else the relation details, or else the header.
      const size_t known_from =
          with_parts ? packed.size() - kTrailerSize - r.payload.size() - r.tuple.size()
                     : kHeaderSize + (fork != kMainFork ? kRelationDetailsSize : 0);
      for (size_t n = 0; n <= packed.size(); ++n) {
        StatusOr<size_t> len = LengthOfHead(packed, n);
        ASSERT_TRUE(len.ok()) << n << ": " << len.status().ToString();
        EXPECT_EQ(*len, n < known_from ? 0 : packed.size())
            << "fork " << int{fork} << (with_parts ? ", all parts, " : ", header only, ") << n;
      }
    }
  }
}

TEST(UndoRecordBoundsTest, ABadTypeOrInfoByteIsCorruptionAsSoonAsItIsRead) {
  std::vector<uint8_t> v = HeaderBytes(static_cast<UndoType>(9), 0);
  StatusOr<size_t> len = LengthOfHead(v, 2);
  EXPECT_TRUE(len.status().IsCorruption());
  EXPECT_EQ(len.status().message(), "unknown undo record type 9");
  v = HeaderBytes(UndoType::kDelete, 0x40 | kInfoBlock);
  len = LengthOfHead(v, 3);
  EXPECT_TRUE(len.status().IsCorruption());
  EXPECT_EQ(len.status().message(), "unknown undo info bits 64");
  // The same bytes in a whole record: Unpack names them too.
  std::vector<uint8_t> record = Packed(Delete(3));
  record[1] = 200;
  EXPECT_EQ(UnpackUndoRecord(record).status().message(), "unknown undo record type 200");
  record = Packed(Delete(3));
  record[2] |= 0x80;
  EXPECT_EQ(UnpackUndoRecord(record).status().message(), "unknown undo info bits 128");
}

TEST(UndoRecordBoundsTest, APayloadPartOfNoBytesIsCorruption) {
  // INSERT allows no payload and no tuple, but then the record has no payload part at all.
  std::vector<uint8_t> v = HeaderBytes(UndoType::kInsert, kInfoPayload);
  PutLE16(&v, 0);
  PutLE16(&v, 0);
  StatusOr<size_t> len = DeclaredRecordLength(ByteView(v));
  EXPECT_EQ(len.status().message(), "empty payload part");
  PutLE16(&v, static_cast<uint16_t>(v.size() + kTrailerSize));
  EXPECT_EQ(UnpackUndoRecord(v).status().message(), "empty payload part");
}

TEST(UndoRecordBoundsTest, ARecordOfExactly64KBIsTheLargest) {
  // A DELETE's fixed parts: header, payload header, trailer; the rest is its tuple.
  const size_t fixed = kHeaderSize + kPayloadHeaderSize + kTrailerSize;
  const size_t largest_data = kMaxRecordSize - fixed - fixtures::kZTupleHeader;
  const UndoRecord largest = Delete(largest_data);
  const std::vector<uint8_t> packed = Packed(largest);
  ASSERT_EQ(packed.size(), kMaxRecordSize);
  EXPECT_EQ(*DeclaredRecordLength(ByteView(packed)), kMaxRecordSize);
  StatusOr<UndoRecord> back = UnpackUndoRecord(packed);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, largest);

  std::vector<uint8_t> out;
  EXPECT_EQ(PackUndoRecord(Delete(largest_data + 1), &out).message(),
            "undo record larger than 64 KB");
  EXPECT_TRUE(out.empty());
  // A head declaring one byte more: the tuple length is one larger.
  std::vector<uint8_t> head(packed.begin(), packed.begin() + kHeaderSize + kPayloadHeaderSize);
  StoreLE16(&head[kHeaderSize + 2], static_cast<uint16_t>(largest.tuple.size() + 1));
  EXPECT_EQ(DeclaredRecordLength(ByteView(head)).status().message(),
            "undo record longer than 64 KB");
  // ITEMID_UNUSED's payload (u16 offsets, so of even length) is the other part that can grow:
  // its u16 length field fits, the record does not.
  UndoRecord unused;
  unused.type = UndoType::kItemIdUnused;
  unused.payload.assign(kMaxRecordSize - fixed - 1, 0);  // the largest even length
  EXPECT_EQ(Packed(unused).size(), kMaxRecordSize - 1);
  unused.payload.resize(unused.payload.size() + 2);
  EXPECT_EQ(PackUndoRecord(unused, &out).message(), "undo record larger than 64 KB");
}

TEST(UndoRecordBoundsTest, APartRunningPastTheRecordIsNamed) {
  // Info says relation details and a block part, but the record is a bare header and trailer.
  std::vector<uint8_t> v = HeaderBytes(UndoType::kInsert, kInfoRelationDetails | kInfoBlock);
  PutLE16(&v, static_cast<uint16_t>(v.size() + kTrailerSize));
  StatusOr<UndoRecord> r = UnpackUndoRecord(v);
  EXPECT_TRUE(r.status().IsCorruption());
  EXPECT_EQ(r.status().message(), "relation details past the record");
}

TEST(UndoRecordBoundsTest, TypesWithoutATupleTakeNotEvenOneByte) {
  std::vector<uint8_t> out;
  for (UndoType type : {UndoType::kInsert, UndoType::kItemIdUnused}) {
    UndoRecord r;
    r.type = type;
    if (type == UndoType::kItemIdUnused) r.payload = {1, 0};
    r.tuple = {0};
    EXPECT_EQ(PackUndoRecord(r, &out).message(),
              std::string(UndoTypeName(type)) + ": tuple does not fit the type");
  }
}

// A transaction part left at its defaults is "not applied" (progress 0), of epoch 0 and no
// database, linked to nothing: 32 zero bytes.
TEST(UndoRecordBoundsTest, ADefaultTransactionPartIsAllZero) {
  UndoRecord r;
  r.has_transaction = true;
  const std::vector<uint8_t> packed = Packed(r);
  ASSERT_EQ(packed.size(), kHeaderSize + kTransactionPartSize + kTrailerSize);
  EXPECT_EQ(std::vector<uint8_t>(packed.begin() + kHeaderSize,
                                 packed.begin() + kHeaderSize + kTransactionPartSize),
            std::vector<uint8_t>(kTransactionPartSize, 0));
}

}  // namespace
}  // namespace pgstore::undo
