// Heap tuple format: PostgreSQL 15's HeapTupleHeaderData (access/htup_details.h), frozen on disk.
//
//   tuple   := header bitmap? pad data
//   header  := t_xmin:u32 t_xmax:u32 t_cid:u32 t_ctid:(bi_hi:u16 bi_lo:u16 posid:u16)
//              t_infomask2:u16 t_infomask:u16 t_hoff:u8                      (23 bytes, LE)
//   bitmap  := ceil(natts / 8) bytes, present iff HEAP_HASNULL; attribute i is bit (i & 7) of
//              byte (i >> 3), 1 = not null; unused high bits are 0
//   pad     := zero bytes up to t_hoff = MAXALIGN(23 + bitmap length)
//   data    := per stored attribute that is not null, in order: zero padding to its alignment
//              (none for short or external varlenas), then its bytes (attlen bytes; a varlena's
//              VARSIZE_ANY bytes; a cstring's bytes and its NUL)
//
// natts (t_infomask2 & 0x07FF) may be smaller than the descriptor's: the attributes after it read
// as NULL, or as their missing default (atthasmissing). Offsets inside the data are relative to
// the tuple start, which is MAXALIGNed on a page, so alignment is computed from the tuple start.
#ifndef PGSTORE_STORAGE_TUPLE_HEAP_TUPLE_FORMAT_H_
#define PGSTORE_STORAGE_TUPLE_HEAP_TUPLE_FORMAT_H_

#include <cstddef>
#include <cstdint>

#include "storage/common/bytes.h"

namespace pgstore::tuple {

// Header field offsets (SizeofHeapTupleHeader = offsetof(t_bits) = 23).
inline constexpr size_t kOffXmin = 0;
inline constexpr size_t kOffXmax = 4;
inline constexpr size_t kOffCid = 8;
inline constexpr size_t kOffCtid = 12;
inline constexpr size_t kOffInfomask2 = 18;
inline constexpr size_t kOffInfomask = 20;
inline constexpr size_t kOffHoff = 22;
inline constexpr size_t kHeaderSize = 23;  // SizeofHeapTupleHeader

// t_infomask bits.
inline constexpr uint16_t kHasNull = 0x0001;
inline constexpr uint16_t kHasVarWidth = 0x0002;
inline constexpr uint16_t kHasExternal = 0x0004;
inline constexpr uint16_t kHasOidOld = 0x0008;  // pre-PG12 only; never written
inline constexpr uint16_t kXmaxKeyShrLock = 0x0010;
inline constexpr uint16_t kXmaxExclLock = 0x0040;
inline constexpr uint16_t kXmaxLockOnly = 0x0080;
inline constexpr uint16_t kXminCommitted = 0x0100;
inline constexpr uint16_t kXminInvalid = 0x0200;
inline constexpr uint16_t kXmaxCommitted = 0x0400;
inline constexpr uint16_t kXmaxInvalid = 0x0800;
inline constexpr uint16_t kXmaxIsMulti = 0x1000;
inline constexpr uint16_t kUpdated = 0x2000;
inline constexpr uint16_t kMovedOff = 0x4000;  // pre-9.0 VACUUM FULL, xvac in t_cid
inline constexpr uint16_t kMovedIn = 0x8000;
inline constexpr uint16_t kDataFlagsMask = kHasNull | kHasVarWidth | kHasExternal;
// Hint bits set lazily by readers: they differ between two copies of the same tuple.
inline constexpr uint16_t kHintBitsMask =
    kXminCommitted | kXminInvalid | kXmaxCommitted | kXmaxInvalid;

// t_infomask2.
inline constexpr uint16_t kNattsMask = 0x07FF;  // HEAP_NATTS_MASK: up to 2047 attributes
inline constexpr uint16_t kHotUpdated = 0x4000;
inline constexpr uint16_t kHeapOnlyTuple = 0x8000;

// Limits (htup_details.h).
inline constexpr int kMaxTupleAttributeNumber = 1664;  // 8 * 208, keeps t_hoff in a uint8
// MaxHeapTupleSize = BLCKSZ - MAXALIGN(SizeOfPageHeaderData + sizeof(ItemIdData)).
inline constexpr size_t kMaxHeapTupleSize = kBlockSize - MaxAlign(24 + 4);  // 8160
inline constexpr size_t kMinHeapTupleSize = MaxAlign(kHeaderSize);          // 24
// A formed tuple is at most MaxAllocSize (1 GB - 1), as palloc allows; bigger values would be
// TOASTed by PostgreSQL before reaching heap_form_tuple.
inline constexpr size_t kMaxFormedTupleSize = 0x3FFFFFFF;

static_assert(kMaxHeapTupleSize == 8160, "MaxHeapTupleSize");
static_assert(kMinHeapTupleSize == 24, "MinHeapTupleSize");

constexpr size_t BitmapLen(size_t natts) { return (natts + 7) / 8; }  // BITMAPLEN
// The only t_hoff PostgreSQL writes (and slot_deform_heap_tuple assumes).
constexpr size_t HeaderLength(size_t natts, bool has_null) {
  return MaxAlign(kHeaderSize + (has_null ? BitmapLen(natts) : 0));
}
static_assert(HeaderLength(8, true) == 24 && HeaderLength(9, true) == 32 &&
                  HeaderLength(72, true) == 32 && HeaderLength(73, true) == 40,
              "t_hoff = MAXALIGN(23 + BITMAPLEN(natts))");

// The header's transaction fields, which heap_insert and heap_update fill in; heap_form_tuple
// leaves them zero except t_ctid (invalid: block 0xFFFFFFFF, offset 0).
struct TupleHeaderFields {
  uint32_t xmin = 0;
  uint32_t xmax = 0;
  uint32_t cid = 0;
  uint32_t ctid_block = 0xFFFFFFFF;
  uint16_t ctid_offset = 0;
  uint16_t infomask_extra = 0;   // ORed into t_infomask (data flags are computed)
  uint16_t infomask2_extra = 0;  // ORed into t_infomask2 (natts is computed)
};

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_HEAP_TUPLE_FORMAT_H_
