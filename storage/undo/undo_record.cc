#include "storage/undo/undo_record.h"

#include <string>

namespace pgstore::undo {
namespace {

// The payload's size without the optional slot and subxact ids, or -1 if the rest is malformed.
long TypePayloadSize(const UndoRecord& r) {
  const long extra = ((r.payload_flags & kInfoPayloadContainsSlot) ? 4 : 0) +
                     ((r.payload_flags & kInfoPayloadContainsSubxact) ? 4 : 0);
  const long n = static_cast<long>(r.payload.size()) - extra;
  return n < 0 ? -1 : n;
}

}  // namespace

const char* UndoTypeName(UndoType t) {
  static const char* const kNames[] = {"INSERT",        "MULTI_INSERT",      "DELETE",
                                       "INPLACE_UPDATE", "UPDATE",            "XID_LOCK_ONLY",
                                       "XID_LOCK_FOR_UPDATE", "XID_MULTI_LOCK_ONLY",
                                       "ITEMID_UNUSED"};
  const uint8_t i = static_cast<uint8_t>(t);
  return i <= kMaxUndoType ? kNames[i] : "?";
}

uint8_t UndoRecord::Info() const {
  uint8_t info = payload_flags & (kInfoPayloadContainsSlot | kInfoPayloadContainsSubxact);
  if (fork != kMainFork) info |= kInfoRelationDetails;
  if (has_block) info |= kInfoBlock;
  if (has_transaction) info |= kInfoTransaction;
  if (!payload.empty() || !tuple.empty()) info |= kInfoPayload;
  return info;
}

bool UndoRecord::operator==(const UndoRecord& o) const {
  return rmid == o.rmid && type == o.type && payload_flags == o.payload_flags &&
         reloid == o.reloid && prevxid == o.prevxid && xid == o.xid && cid == o.cid &&
         fork == o.fork && has_block == o.has_block &&
         (!has_block || (blkprev == o.blkprev && block == o.block && offset == o.offset)) &&
         has_transaction == o.has_transaction &&
         (!has_transaction || transaction == o.transaction) && payload == o.payload &&
         tuple == o.tuple;
}

size_t PackedSize(const UndoRecord& r) {
  const uint8_t info = r.Info();
  return kHeaderSize + ((info & kInfoRelationDetails) ? kRelationDetailsSize : 0) +
         ((info & kInfoBlock) ? kBlockPartSize : 0) +
         ((info & kInfoTransaction) ? kTransactionPartSize : 0) +
         ((info & kInfoPayload) ? kPayloadHeaderSize + r.payload.size() + r.tuple.size() : 0) +
         kTrailerSize;
}

Status CheckShape(const UndoRecord& r) {
  const uint8_t type = static_cast<uint8_t>(r.type);
  if (type > kMaxUndoType) return Status::InvalidArgument("unknown undo record type");
  if (r.payload_flags & ~(kInfoPayloadContainsSlot | kInfoPayloadContainsSubxact)) {
    return Status::InvalidArgument("payload flags other than slot and subxact");
  }
  const long n = TypePayloadSize(r);
  const std::string name = UndoTypeName(r.type);
  if (n < 0) return Status::InvalidArgument(name + ": payload shorter than its slot/subxact ids");
  const bool has_tuple = !r.tuple.empty();
  bool payload_ok = false, tuple_ok = false;
  switch (r.type) {
    case UndoType::kInsert:
      payload_ok = n == 0 || n == 4;
      tuple_ok = !has_tuple;
      break;
    case UndoType::kMultiInsert:
      payload_ok = n == 4 && LoadLE16(r.payload.data()) <= LoadLE16(r.payload.data() + 2);
      tuple_ok = !has_tuple;
      break;
    case UndoType::kDelete:
    case UndoType::kInplaceUpdate:
      payload_ok = n == 0;
      tuple_ok = r.tuple.size() >= kZheapTupleHeaderSize;
      break;
    case UndoType::kUpdate:
      payload_ok = n == 6;
      tuple_ok = r.tuple.size() >= kZheapTupleHeaderSize;
      break;
    case UndoType::kXidLockOnly:
    case UndoType::kXidLockForUpdate:
    case UndoType::kXidMultiLockOnly:
      payload_ok = n == 4;
      tuple_ok = r.tuple.size() >= kZheapTupleHeaderSize;
      break;
    case UndoType::kItemIdUnused:
      payload_ok = n >= 2 && n % 2 == 0;
      tuple_ok = !has_tuple;
      break;
  }
  if (!payload_ok) return Status::InvalidArgument(name + ": payload does not fit the type");
  if (!tuple_ok) return Status::InvalidArgument(name + ": tuple does not fit the type");
  return Status::Ok();
}

Status PackUndoRecord(const UndoRecord& r, std::vector<uint8_t>* out) {
  PGSTORE_RETURN_IF_ERROR(CheckShape(r));
  if (r.payload.size() > 0xFFFF || r.tuple.size() > 0xFFFF || PackedSize(r) > kMaxRecordSize) {
    return Status::InvalidArgument("undo record larger than 64 KB");
  }
  const uint8_t info = r.Info();
  const size_t start = out->size();
  out->push_back(r.rmid);
  out->push_back(static_cast<uint8_t>(r.type));
  out->push_back(info);
  out->push_back(0);
  PutLE16(out, 0);  // prevlen: never filled by zheap
  PutLE16(out, 0);
  PutLE32(out, r.reloid);
  PutLE32(out, r.prevxid);
  PutLE32(out, r.xid);
  PutLE32(out, r.cid);
  if (info & kInfoRelationDetails) out->push_back(r.fork);
  if (info & kInfoBlock) {
    PutLE64(out, r.blkprev);
    PutLE32(out, r.block);
    PutLE16(out, r.offset);
  }
  if (info & kInfoTransaction) {
    PutLE32(out, r.transaction.progress);
    PutLE32(out, r.transaction.xidepoch);
    PutLE32(out, r.transaction.dbid);
    PutLE32(out, 0);
    PutLE64(out, r.transaction.prevurp);
    PutLE64(out, r.transaction.next);
  }
  if (info & kInfoPayload) {
    PutLE16(out, static_cast<uint16_t>(r.payload.size()));
    PutLE16(out, static_cast<uint16_t>(r.tuple.size()));
    out->insert(out->end(), r.payload.begin(), r.payload.end());
    out->insert(out->end(), r.tuple.begin(), r.tuple.end());
  }
  PutLE16(out, static_cast<uint16_t>(out->size() - start + kTrailerSize));
  return Status::Ok();
}

StatusOr<UndoRecord> UnpackUndoRecord(ByteView packed) {
  if (packed.size < kHeaderSize + kTrailerSize) return Status::Corruption("undo record too short");
  if (packed.size > kMaxRecordSize) return Status::Corruption("undo record longer than 64 KB");
  const uint8_t* p = packed.data;
  UndoRecord r;
  r.rmid = p[0];
  if (p[1] > kMaxUndoType) {
    return Status::Corruption("unknown undo record type " + std::to_string(p[1]));
  }
  r.type = static_cast<UndoType>(p[1]);
  const uint8_t info = p[2];
  if (info & ~kInfoKnownBits) {
    return Status::Corruption("unknown undo info bits " + std::to_string(info & ~kInfoKnownBits));
  }
  r.payload_flags = info & (kInfoPayloadContainsSlot | kInfoPayloadContainsSubxact);
  r.reloid = LoadLE32(p + 8);
  r.prevxid = LoadLE32(p + 12);
  r.xid = LoadLE32(p + 16);
  r.cid = LoadLE32(p + 20);
  size_t pos = kHeaderSize;
  const size_t body_end = packed.size - kTrailerSize;
  auto need = [&](size_t n, const char* part) -> Status {
    if (body_end - pos < n) return Status::Corruption(std::string(part) + " past the record");
    return Status::Ok();
  };
  if (info & kInfoRelationDetails) {
    PGSTORE_RETURN_IF_ERROR(need(kRelationDetailsSize, "relation details"));
    r.fork = p[pos];
    if (r.fork == kMainFork) return Status::Corruption("relation details for the main fork");
    pos += kRelationDetailsSize;
  }
  if (info & kInfoBlock) {
    PGSTORE_RETURN_IF_ERROR(need(kBlockPartSize, "block part"));
    r.has_block = true;
    r.blkprev = LoadLE64(p + pos);
    r.block = LoadLE32(p + pos + 8);
    r.offset = LoadLE16(p + pos + 12);
    pos += kBlockPartSize;
  }
  if (info & kInfoTransaction) {
    PGSTORE_RETURN_IF_ERROR(need(kTransactionPartSize, "transaction part"));
    r.has_transaction = true;
    r.transaction.progress = LoadLE32(p + pos);
    r.transaction.xidepoch = LoadLE32(p + pos + 4);
    r.transaction.dbid = LoadLE32(p + pos + 8);
    r.transaction.prevurp = LoadLE64(p + pos + 16);
    r.transaction.next = LoadLE64(p + pos + 24);
    pos += kTransactionPartSize;
  }
  if (info & kInfoPayload) {
    PGSTORE_RETURN_IF_ERROR(need(kPayloadHeaderSize, "payload header"));
    const size_t payload_len = LoadLE16(p + pos), tuple_len = LoadLE16(p + pos + 2);
    pos += kPayloadHeaderSize;
    PGSTORE_RETURN_IF_ERROR(need(payload_len + tuple_len, "payload and tuple"));
    if (payload_len + tuple_len == 0) return Status::Corruption("empty payload part");
    r.payload.assign(p + pos, p + pos + payload_len);
    pos += payload_len;
    r.tuple.assign(p + pos, p + pos + tuple_len);
    pos += tuple_len;
  }
  if (pos != body_end) return Status::Corruption("bytes between the record's parts and trailer");
  if (LoadLE16(p + body_end) != packed.size) {
    return Status::Corruption("trailing length " + std::to_string(LoadLE16(p + body_end)) +
                              " is not the record's " + std::to_string(packed.size));
  }
  const Status shape = CheckShape(r);
  if (!shape.ok()) return Status::Corruption(shape.message());
  return r;
}

}  // namespace pgstore::undo
