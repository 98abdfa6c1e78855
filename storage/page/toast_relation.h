// The chunks of a TOAST relation read offline from its pages, and amcheck's checks of one toasted
// value against them (verify_heapam's check_toasted_attribute, PostgreSQL 15).
//
// A TOAST relation's tuples are (chunk_id oid, chunk_seq int4, chunk_data bytea): a value of
// extsize stored bytes is chunks 0 .. L = (extsize - 1) / 1996, each of TOAST_MAX_CHUNK_SIZE = 1996
// data bytes but the last, which holds extsize - L * 1996. chunk_data is a plain varlena (4B, or
// 1B when heap_form_tuple packed it); any other form is corrupt.
//
// Only live chunks count, as amcheck's index scan with SnapshotToast sees them: normal tuples whose
// xmin is not hinted aborted and whose xmax is 0, hinted invalid, or only a locker's. A tuple that
// fails the deform checks is no chunk (VerifyHeapPage reports it).
//
// Findings for one value, each "toast value V ...": "not found in toast relation"; "chunk S where
// chunk E was expected" (a gap or a repeat, in chunk_seq order); "chunk S follows last expected
// chunk L"; "chunk S has size X, expected Y"; "chunk S has an invalid varlena header"; "ended at
// chunk E, expected to end at chunk L"; "has a chunk with null sequence number"; "chunk S has null
// data". The index on (chunk_id, chunk_seq) puts chunks of a NULL chunk_seq last, so those are
// reported after the others.
#ifndef PGSTORE_STORAGE_PAGE_TOAST_RELATION_H_
#define PGSTORE_STORAGE_PAGE_TOAST_RELATION_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/tuple/tuple_header.h"

namespace pgstore::page {

inline constexpr uint32_t kToastMaxChunkSize = 1996;  // TOAST_MAX_CHUNK_SIZE for 8 KB pages

// Whether amcheck would follow this tuple's TOAST pointers, and count it as a live chunk: xmin
// not hinted aborted; xmax 0, hinted invalid, or lock-only.
bool TupleIsLive(const tuple::TupleHeader& h);

class ToastRelation {
 public:
  ToastRelation();

  // Adds the live chunks of one page: every normal item inside the page that deforms as a
  // chunk (a page that is not 8192 bytes adds nothing). Memory: one small entry per chunk, at
  // most 291 per page.
  void AddPage(ByteView page);

  // amcheck's findings for the value `valueid` of `extsize` stored bytes.
  std::vector<std::string> CheckValue(uint32_t valueid, uint32_t extsize) const;

  size_t chunks() const { return chunks_; }

 private:
  struct Chunk {
    bool null_seq;   // chunk_seq is NULL (seq is then meaningless)
    bool null_data;  // chunk_data is NULL
    int32_t seq;
    uint32_t size;    // data bytes
    bool bad_header;  // chunk_data is neither a 4B nor a 1B plain varlena
  };
  tuple::TupleDesc desc_;  // oid, int4, bytea
  std::map<uint32_t, std::vector<Chunk>> values_;
  size_t chunks_ = 0;
};

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_TOAST_RELATION_H_
