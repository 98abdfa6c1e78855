// Varlena headers (PostgreSQL 15 postgres.h, little-endian), as they appear inside a heap tuple.
//
//   first byte      form                      total size
//   xxxxxx00        4B uncompressed, aligned  LoadLE32 >> 2 (includes the 4-byte header)
//   xxxxxx10        4B inline-compressed      LoadLE32 >> 2; then va_tcinfo u32:
//                                               raw size (low 30 bits), method (top 2 bits)
//   00000001        1B_E external pointer     2 + payload; byte 1 = va_tag; on disk only
//                                               VARTAG_ONDISK (18) with a 16-byte varatt_external
//   xxxxxxx1 (!=1)  1B short, unaligned       byte >> 1 (includes the 1-byte header, max 127)
//
// Invariants: a 4B size is at least 4 (8 when compressed); a 1B header byte is never 0, which is
// what lets a reader tell a short varlena from alignment padding. Only the external form's tag 18
// may appear on disk; compression methods are 0 (pglz) and 1 (lz4).
#ifndef PGSTORE_STORAGE_TUPLE_VARLENA_H_
#define PGSTORE_STORAGE_TUPLE_VARLENA_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/common/status.h"

namespace pgstore::tuple {

inline constexpr size_t kVarHdrSz = 4;                 // VARHDRSZ
inline constexpr size_t kVarHdrSzShort = 1;            // VARHDRSZ_SHORT
inline constexpr size_t kVarHdrSzCompressed = 8;       // VARHDRSZ_COMPRESSED
inline constexpr size_t kVarHdrSzExternal = 2;         // VARHDRSZ_EXTERNAL
inline constexpr size_t kMaxShortVarlena = 127;        // VARATT_SHORT_MAX: 7-bit size
inline constexpr size_t kMaxVarlenaSize = 0x3FFFFFFF;  // 30-bit size, 1 GB - 1
inline constexpr uint8_t kVarTagOnDisk = 18;           // VARTAG_ONDISK
inline constexpr size_t kToastPointerPayload = 16;     // sizeof(varatt_external)
inline constexpr size_t kToastPointerSize = kVarHdrSzExternal + kToastPointerPayload;  // 18

enum class VarlenaForm { k4B, k4BCompressed, kExternal, kShort };

// The form announced by a varlena's first byte. REQUIRES: first points at one readable byte.
inline VarlenaForm VarlenaFormOf(uint8_t first) {
  if ((first & 0x01) == 0) return (first & 0x02) ? VarlenaForm::k4BCompressed : VarlenaForm::k4B;
  return first == 0x01 ? VarlenaForm::kExternal : VarlenaForm::kShort;
}

// The total size of the varlena starting at bytes[0], checked against bytes.size and the format
// (Corruption "truncated varlena header", "bad varlena size", "unexpected toast tag",
// "invalid compression method", "varlena extends past end of tuple"; for TOAST pointers, as
// amcheck: "toast raw size out of range" outside 4 .. 1 GB - 1, "toast external size exceeds raw
// size" when the stored size is more than the raw data).
StatusOr<size_t> CheckedVarlenaSize(ByteView bytes);

// VARATT_CAN_MAKE_SHORT: a 4B uncompressed varlena whose data fits a 1-byte header (<= 126 bytes).
// REQUIRES: value is a well-formed varlena.
bool CanMakeShort(ByteView value);
// The 1B form of such a value: header byte ((data + 1) << 1) | 1, then the data.
void AppendShortForm(ByteView value, std::vector<uint8_t>* out);
// An on-disk TOAST pointer (1B_E header, tag 18, varatt_external): `rawsize` includes the 4-byte
// header of the original value, `extsize` is the stored size in the TOAST table, `method` the
// compression method id (0 pglz, 1 lz4) when extsize < rawsize - 4.
std::vector<uint8_t> MakeToastPointer(uint32_t rawsize, uint32_t extsize, uint32_t method,
                                      uint32_t valueid, uint32_t toastrelid);
// The fields of an on-disk TOAST pointer, as stored (unchecked). REQUIRES: value holds at least
// kToastPointerSize bytes.
struct ToastPointer {
  uint32_t rawsize = 0;     // va_rawsize: the original value's size with its 4-byte header
  uint32_t extsize = 0;     // stored bytes in the TOAST relation (va_extinfo's low 30 bits)
  uint32_t method = 0;      // compression method (va_extinfo's top 2 bits)
  uint32_t valueid = 0;     // va_valueid: chunk_id of its chunks
  uint32_t toastrelid = 0;  // va_toastrelid
};
ToastPointer ReadToastPointer(ByteView value);
// A 4B uncompressed varlena holding `data` (SET_VARSIZE).
std::vector<uint8_t> MakeVarlena(ByteView data);
// The value with a 1B short header turned back into a 4B header (heap_tuple_untoast_attr's
// short case); other forms are returned unchanged. REQUIRES: a well-formed varlena.
std::vector<uint8_t> ExpandShortVarlena(ByteView value);

}  // namespace pgstore::tuple

#endif  // PGSTORE_STORAGE_TUPLE_VARLENA_H_
