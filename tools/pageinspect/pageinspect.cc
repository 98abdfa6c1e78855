#include "tools/pageinspect/pageinspect.h"

#include "storage/page/heap_page.h"
#include "storage/page/verify.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_header.h"

namespace pgstore::pageinspect {
namespace {

using page::HeapPage;
using page::ItemId;
using page::LpFlags;

std::string Where(uint32_t blkno, int lp) {
  return "block " + std::to_string(blkno) + " lp " + std::to_string(lp) + ": ";
}

// The tuple header fields heap_page_items shows, read without any check but bounds.
std::string TupleColumns(ByteView item) {
  const uint8_t* p = item.data;
  const uint32_t block = static_cast<uint32_t>(LoadLE16(p + tuple::kOffCtid)) << 16 |
                         LoadLE16(p + tuple::kOffCtid + 2);
  const uint16_t infomask2 = LoadLE16(p + tuple::kOffInfomask2);
  const uint16_t infomask = LoadLE16(p + tuple::kOffInfomask);
  const size_t hoff = p[tuple::kOffHoff];
  std::string s = std::to_string(LoadLE32(p + tuple::kOffXmin)) + "\t" +
                  std::to_string(LoadLE32(p + tuple::kOffXmax)) + "\t" +
                  std::to_string(LoadLE32(p + tuple::kOffCid)) + "\t(" + std::to_string(block) +
                  "," + std::to_string(LoadLE16(p + tuple::kOffCtid + 4)) + ")\t" +
                  std::to_string(infomask2) + "\t" + std::to_string(infomask) + "\t" +
                  std::to_string(hoff) + "\t";
  if (hoff < tuple::kHeaderSize || hoff > item.size || hoff != MaxAlign(hoff)) {
    return s + "\t";
  }
  if (infomask & tuple::kHasNull) {
    const size_t natts = infomask2 & tuple::kNattsMask;
    const size_t bits = tuple::BitmapLen(natts) * 8;
    // PostgreSQL would read past t_hoff for a bitmap that does not fit; print only what is there.
    for (size_t i = 0; i < bits && tuple::kHeaderSize + i / 8 < hoff; ++i) {
      s += (p[tuple::kHeaderSize + i / 8] >> (i % 8)) & 1 ? '1' : '0';
    }
  }
  return s + "\t" + Hex(item.Sub(hoff, item.size - hoff));
}

}  // namespace

std::string Hex(ByteView bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size * 2);
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

void HeapPageItems(ByteView bytes, uint32_t blkno, Report* out) {
  for (const page::PageProblem& p : page::VerifyHeapPage(bytes, blkno)) {
    out->errors.push_back(Where(blkno, p.lp) + p.check);
  }
  const HeapPage pg = *HeapPage::FromBytes(bytes);
  for (int lp = 1; lp <= pg.MaxOffset(); ++lp) {
    const ItemId id = pg.GetItemId(lp);
    std::string line = std::to_string(blkno) + "\t" + std::to_string(lp) + "\t" +
                       std::to_string(id.off) + "\t" + std::to_string(static_cast<int>(id.flags)) +
                       "\t" + std::to_string(id.len) + "\t";
    if (id.len != 0 && id.len >= tuple::kMinHeapTupleSize && id.off == MaxAlign(id.off) &&
        static_cast<size_t>(id.off) + id.len <= bytes.size) {
      line += TupleColumns(bytes.Sub(id.off, id.len));
    } else {
      line += "\t\t\t\t\t\t\t\t\t";
    }
    out->lines.push_back(std::move(line));
  }
}

void TupleDataSplit(ByteView bytes, uint32_t blkno, const tuple::TupleDesc& desc, Report* out) {
  const HeapPage pg = *HeapPage::FromBytes(bytes);
  for (int lp = 1; lp <= pg.MaxOffset(); ++lp) {
    if (pg.GetItemId(lp).flags != LpFlags::kNormal) continue;
    StatusOr<ByteView> item = pg.GetItem(lp);
    if (!item.ok()) {
      out->errors.push_back(Where(blkno, lp) + item.status().message());
      continue;
    }
    StatusOr<std::vector<tuple::Datum>> values = tuple::DeformHeapTuple(*item, desc);
    if (!values.ok()) {
      out->errors.push_back(Where(blkno, lp) + "tuple: " + values.status().message());
      continue;
    }
    const int natts = tuple::ParseTupleHeader(*item)->natts;
    std::string line = std::to_string(blkno) + "\t" + std::to_string(lp);
    for (int i = 0; i < desc.natts(); ++i) {
      const tuple::Datum& v = (*values)[i];
      line += "\t";
      if (i >= natts || !v) {
        line += "NULL";
      } else {
        line += Hex(*v);
        if (desc.attr(i).is_cstring()) line += "00";
      }
    }
    out->lines.push_back(std::move(line));
  }
}

}  // namespace pgstore::pageinspect
