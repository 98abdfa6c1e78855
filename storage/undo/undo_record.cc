#include "storage/undo/undo_record.h"

#include <string>

namespace pgstore::undo {

const char* UndoTypeName(UndoType t) {
  static const char* const kNames[] = {"INSERT",
                                       "MULTI_INSERT",
                                       "DELETE",
                                       "INPLACE_UPDATE",
                                       "UPDATE",
                                       "XID_LOCK_ONLY",
                                       "XID_LOCK_FOR_UPDATE",
                                       "XID_MULTI_LOCK_ONLY",
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

Status CheckShapeSizes(UndoType type, uint8_t payload_flags, size_t payload_size,
                       size_t tuple_size) {
  if (static_cast<uint8_t>(type) > kMaxUndoType) {
    return Status::InvalidArgument("unknown undo record type");
  }
  if (payload_flags & ~(kInfoPayloadContainsSlot | kInfoPayloadContainsSubxact)) {
    return Status::InvalidArgument("payload flags other than slot and subxact");
  }
  const size_t ids = ((payload_flags & kInfoPayloadContainsSlot) ? 4 : 0) +
                     ((payload_flags & kInfoPayloadContainsSubxact) ? 4 : 0);
  const std::string name = UndoTypeName(type);
  if (payload_size < ids) {
    return Status::InvalidArgument(name + ": payload shorter than its slot/subxact ids");
  }
  const size_t n = payload_size - ids;  // the type's own payload
  const bool has_tuple = tuple_size > 0, whole_tuple = tuple_size >= kZheapTupleHeaderSize;
  bool payload_ok = false, tuple_ok = false;
  switch (type) {
    case UndoType::kInsert:
      payload_ok = n == 0 || n == 4;
      tuple_ok = !has_tuple;
      break;
    case UndoType::kMultiInsert:
      payload_ok = n == 4;
      tuple_ok = !has_tuple;
      break;
    case UndoType::kDelete:
    case UndoType::kInplaceUpdate:
      payload_ok = n == 0;
      tuple_ok = whole_tuple;
      break;
    case UndoType::kUpdate:
      payload_ok = n == 6;
      tuple_ok = whole_tuple;
      break;
    case UndoType::kXidLockOnly:
    case UndoType::kXidLockForUpdate:
    case UndoType::kXidMultiLockOnly:
      payload_ok = n == 4;
      tuple_ok = whole_tuple;
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

Status CheckShape(const UndoRecord& r) {
  PGSTORE_RETURN_IF_ERROR(
      CheckShapeSizes(r.type, r.payload_flags, r.payload.size(), r.tuple.size()));
  if (r.type == UndoType::kMultiInsert &&
      LoadLE16(r.payload.data()) > LoadLE16(r.payload.data() + 2)) {
    return Status::InvalidArgument("MULTI_INSERT: payload does not fit the type");
  }
  return Status::Ok();
}

StatusOr<size_t> DeclaredRecordLength(ByteView head) {
  const uint8_t* p = head.data;
  if (head.size > 1 && p[1] > kMaxUndoType) {
    return Status::Corruption("unknown undo record type " + std::to_string(p[1]));
  }
  if (head.size > 2 && (p[2] & ~kInfoKnownBits)) {
    return Status::Corruption("unknown undo info bits " + std::to_string(p[2] & ~kInfoKnownBits));
  }
  if (head.size < kHeaderSize) return size_t{0};
  const uint8_t info = p[2];
  size_t len = kHeaderSize;
  if (info & kInfoRelationDetails) {
    if (head.size < len + kRelationDetailsSize) return size_t{0};
    if (p[len] == kMainFork) return Status::Corruption("relation details for the main fork");
    len += kRelationDetailsSize;
  }
  len += ((info & kInfoBlock) ? kBlockPartSize : 0) +
         ((info & kInfoTransaction) ? kTransactionPartSize : 0);
  if (info & kInfoPayload) {
    if (head.size < len + kPayloadHeaderSize) return size_t{0};
    const size_t payload_len = LoadLE16(p + len), tuple_len = LoadLE16(p + len + 2);
    if (payload_len + tuple_len == 0) return Status::Corruption("empty payload part");
    const Status shape = CheckShapeSizes(
        static_cast<UndoType>(p[1]),
        info & (kInfoPayloadContainsSlot | kInfoPayloadContainsSubxact), payload_len, tuple_len);
    if (!shape.ok()) return Status::Corruption(shape.message());
    len += kPayloadHeaderSize + payload_len + tuple_len;
  }
  len += kTrailerSize;
  if (len > kMaxRecordSize) return Status::Corruption("undo record longer than 64 KB");
  return len;
}

Status PackUndoRecord(const UndoRecord& r, std::vector<uint8_t>* out) {
  PGSTORE_RETURN_IF_ERROR(CheckShape(r));
  if (PackedSize(r) > kMaxRecordSize) {  // so the u16 lengths below hold their parts too
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
