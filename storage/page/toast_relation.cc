#include "storage/page/toast_relation.h"

#include <algorithm>

#include "storage/page/heap_page.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/varlena.h"

namespace pgstore::page {
namespace {

std::string Value(uint32_t valueid) { return "toast value " + std::to_string(valueid) + " "; }

}  // namespace

bool TupleIsLive(const tuple::TupleHeader& h) {
  if (h.xmin_hinted_aborted()) return false;
  return h.xmax == 0 || (h.infomask & tuple::kXmaxInvalid) || h.xmax_is_locked_only();
}

ToastRelation::ToastRelation() : desc_(*tuple::TupleDesc::FromSchema("oid,int4,bytea")) {}

void ToastRelation::AddPage(ByteView bytes) {
  StatusOr<HeapPage> page = HeapPage::FromBytes(bytes);
  if (!page.ok()) return;
  std::vector<tuple::Datum> values;
  for (int lp = 1; lp <= page->MaxOffset(); ++lp) {
    StatusOr<ByteView> item = page->GetItem(lp);
    if (!item.ok() || item->size < tuple::kMinHeapTupleSize) continue;
    if (!TupleIsLive(tuple::ReadRawTupleHeader(*item))) continue;
    if (!tuple::DeformHeapTupleInto(*item, desc_, &values).ok()) continue;
    ++chunks_;
    if (!values[0]) continue;  // no chunk_id: no value to file it under
    const uint32_t valueid = LoadLE32(values[0]->data);
    const int32_t seq = values[1] ? static_cast<int32_t>(LoadLE32(values[1]->data)) : 0;
    if (!values[1] || !values[2]) {
      values_[valueid].push_back({!values[1], !values[2], seq, 0, false});
      continue;
    }
    const ByteView data = *values[2];
    const tuple::VarlenaForm form = tuple::VarlenaFormOf(data[0]);
    const bool bad = form != tuple::VarlenaForm::k4B && form != tuple::VarlenaForm::kShort;
    const size_t header =
        form == tuple::VarlenaForm::kShort ? tuple::kVarHdrSzShort : tuple::kVarHdrSz;
    values_[valueid].push_back(
        {false, false, seq, bad ? 0 : static_cast<uint32_t>(data.size - header), bad});
  }
}

std::vector<std::string> ToastRelation::CheckValue(uint32_t valueid, uint32_t extsize) const {
  std::vector<std::string> out;
  const auto it = values_.find(valueid);
  if (it == values_.end()) return {Value(valueid) + "not found in toast relation"};
  std::vector<Chunk> chunks = it->second;
  std::stable_sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) {
    return a.null_seq != b.null_seq ? b.null_seq : a.seq < b.seq;  // NULLs last
  });
  const int64_t last = extsize == 0 ? -1 : (static_cast<int64_t>(extsize) - 1) / kToastMaxChunkSize;
  int64_t expected = 0;
  for (const Chunk& c : chunks) {
    if (c.null_seq) {
      out.push_back(Value(valueid) + "has a chunk with null sequence number");
      continue;
    }
    const std::string chunk = "chunk " + std::to_string(c.seq);
    if (c.seq != expected) {
      out.push_back(Value(valueid) + chunk + " where chunk " + std::to_string(expected) +
                    " was expected");
    }
    expected = c.seq + 1;
    if (c.null_data) {
      out.push_back(Value(valueid) + chunk + " has null data");
      continue;
    }
    if (c.bad_header) {
      out.push_back(Value(valueid) + chunk + " has an invalid varlena header");
      continue;
    }
    if (c.seq > last) {
      out.push_back(Value(valueid) + chunk + " follows last expected chunk " +
                    std::to_string(last));
      continue;
    }
    const uint32_t want = c.seq < last ? kToastMaxChunkSize
                                       : extsize - static_cast<uint32_t>(last) * kToastMaxChunkSize;
    if (c.size != want) {
      out.push_back(Value(valueid) + chunk + " has size " + std::to_string(c.size) + ", expected " +
                    std::to_string(want));
    }
  }
  if (expected <= last) {
    out.push_back(Value(valueid) + "ended at chunk " + std::to_string(expected) +
                  ", expected to end at chunk " + std::to_string(last));
  }
  return out;
}

}  // namespace pgstore::page
