#include "properties/models/page_verify_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace pgstore::models {
namespace {

unsigned U16(const std::vector<uint8_t>& p, size_t at) { return p[at] | p[at + 1] << 8; }
uint32_t U32(const std::vector<uint8_t>& p, size_t at) {
  return U16(p, at) | static_cast<uint32_t>(U16(p, at + 2)) << 16;
}

struct Lp {
  unsigned off, flags, len;
};

// The fixed tuple header fields the chain checks read (htup_details.h).
struct Hdr {
  uint32_t xmin, xmax, cid, ctid_block;
  unsigned ctid_off, infomask2, infomask;
};

Hdr ReadHdr(const std::vector<uint8_t>& p, size_t at) {
  return Hdr{
      U32(p, at),      U32(p, at + 4),  U32(p, at + 8), U16(p, at + 12) << 16 | U16(p, at + 14),
      U16(p, at + 16), U16(p, at + 18), U16(p, at + 20)};
}

bool HeapOnly(const Hdr& h) { return h.infomask2 & 0x8000; }
bool HotUpdatedBit(const Hdr& h) { return h.infomask2 & 0x4000; }
bool XminAborted(const Hdr& h) { return (h.infomask & 0x0300) == 0x0200; }
// HeapTupleHeaderGetUpdateXid; -1 when it is a multixact's member (not lock-only, not invalid).
int64_t UpdateXid(const Hdr& h) {
  if (!(h.infomask & 0x0800) && (h.infomask & 0x1000) && !(h.infomask & 0x0080)) return -1;
  return h.xmax;
}

void HeaderBitFindings(const Hdr& h, int i, std::vector<ModelFinding>* out) {
  if ((h.infomask & 0x1000) && (h.infomask & 0x0400)) {
    out->push_back({i, "multixact xmax marked committed"});
  }
  if ((h.infomask & 0x0C00) == 0x0C00)
    out->push_back({i, "xmax hinted both committed and invalid"});
  if ((h.infomask & 0x1000) && h.xmax == 0 && !XminAborted(h)) {
    out->push_back({i, "multixact xmax is 0"});
  }
  if ((h.infomask & 0xC000) && !(h.infomask & 0x0300) && h.cid == 0) {
    out->push_back({i, "moved tuple without a VACUUM FULL xid"});
  }
  if (HotUpdatedBit(h) && !(h.infomask & 0x0800) && !XminAborted(h) && UpdateXid(h) == 0) {
    out->push_back({i, "HOT-updated tuple has xmax 0"});
  }
  if (HeapOnly(h) && !(h.infomask & 0x2000)) {
    out->push_back({i, "heap-only tuple not marked HEAP_UPDATED"});
  }
}

// amcheck's update chain walk over one page (verify_heapam.c, PostgreSQL 16), by line pointer.
void ChainFindings(const std::map<int, Hdr>& tuples, const std::map<int, int>& redirects, int n,
                   std::vector<ModelFinding>* out) {
  std::map<int, int> pred;
  std::set<int> covered;  // named by a multixact-updated tuple's t_ctid
  auto meet = [&](int i, int next) {
    out->push_back({i, "line pointer " + std::to_string(next) + " has two predecessors (also " +
                           std::to_string(pred[next]) + ")"});
  };
  for (int i = 1; i <= n; ++i) {
    if (redirects.count(i)) {
      const int next = redirects.at(i);
      if (!tuples.count(next)) continue;
      if (!HeapOnly(tuples.at(next)))
        out->push_back({i, "redirect to a tuple that is not heap-only"});
      if (pred.count(next)) {
        meet(i, next);
      } else {
        pred[next] = i;
      }
      continue;
    }
    if (!tuples.count(i)) continue;
    const Hdr& h = tuples.at(i);
    const int next = static_cast<int>(h.ctid_off);
    if (h.ctid_block != 0 || next == i || !tuples.count(next)) continue;
    const int64_t xmax = UpdateXid(h);
    if (xmax < 0) {
      covered.insert(next);
      continue;
    }
    if (xmax == 0 || xmax != tuples.at(next).xmin) continue;
    if (pred.count(next)) {
      meet(i, next);
      continue;
    }
    pred[next] = i;
    if (!HotUpdatedBit(h) && HeapOnly(tuples.at(next))) {
      out->push_back(
          {i, "non-HOT update produced a heap-only tuple at line pointer " + std::to_string(next)});
    }
    if (HotUpdatedBit(h) && !HeapOnly(tuples.at(next))) {
      out->push_back({i, "HOT update produced a tuple that is not heap-only at line pointer " +
                             std::to_string(next)});
    }
  }
  for (const auto& [i, h] : tuples) {
    if (pred.count(i) || covered.count(i) || h.xmin == 0 || XminAborted(h)) continue;
    if (HeapOnly(h)) out->push_back({i, "heap-only tuple is the root of a chain"});
  }
}

}  // namespace

std::vector<ModelFinding> ModelVerifyPage(
    const std::vector<uint8_t>& page, std::optional<uint16_t> expected_checksum,
    const std::function<bool(const std::vector<uint8_t>&)>& tuple_ok) {
  std::vector<ModelFinding> out;
  if (std::all_of(page.begin(), page.end(), [](uint8_t b) { return b == 0; })) return out;
  if (U16(page, 18) != 0x2004) out.push_back({0, "bad page size or version"});
  if (U16(page, 10) & ~0x7u) out.push_back({0, "unknown flag bits"});
  if (expected_checksum && U16(page, 8) != *expected_checksum) {
    out.push_back({0, "checksum mismatch"});
  }
  const unsigned lower = U16(page, 12), upper = U16(page, 14), special = U16(page, 16);
  if (!(24 <= lower && lower <= upper && upper <= special && special <= 8192)) {
    out.push_back({0, "corrupted page pointers"});
    return out;
  }
  if (special % 8 != 0) out.push_back({0, "pd_special not maxaligned"});
  if (special != 8192) out.push_back({0, "heap page has special space"});
  if ((lower - 24) % 4 != 0) out.push_back({0, "pd_lower not at a line pointer boundary"});
  const int n = static_cast<int>((lower - 24) / 4);
  if (n > 291) out.push_back({0, "too many line pointers"});

  auto lp = [&](int i) {
    const uint32_t v = U32(page, 24 + 4 * (i - 1));
    return Lp{v & 0x7FFF, (v >> 15) & 3, v >> 17};
  };
  std::vector<std::tuple<unsigned, int, unsigned>> items;  // (start, lp, end)
  std::map<int, Hdr> tuples;                               // normal items of 24 bytes or more
  std::map<int, int> redirects;                            // redirect -> its normal target
  for (int i = 1; i <= n; ++i) {
    const Lp l = lp(i);
    auto storage_ok = [&]() {
      bool ok = true;
      if (l.off % 8 != 0) out.push_back({i, "item not maxaligned"}), ok = false;
      if (l.off < upper) out.push_back({i, "item below pd_upper"}), ok = false;
      if (l.off + l.len > special) out.push_back({i, "item past pd_special"}), ok = false;
      if (ok) items.emplace_back(l.off, i, l.off + l.len);
      return ok;
    };
    if (l.flags == 0) {
      if (l.off != 0 || l.len != 0) out.push_back({i, "unused line pointer has storage"});
    } else if (l.flags == 2) {
      if (l.len != 0) out.push_back({i, "redirect has length"});
      if (l.off < 1 || static_cast<int>(l.off) > n) {
        out.push_back({i, "redirect target out of range"});
      } else if (lp(static_cast<int>(l.off)).flags != 1) {
        out.push_back({i, "redirect to a line pointer that is not normal"});
      } else {
        redirects[i] = static_cast<int>(l.off);
      }
    } else if (l.flags == 3) {
      if (l.len != 0) storage_ok();
    } else if (l.len == 0) {
      out.push_back({i, "normal line pointer has no length"});
    } else if (storage_ok()) {
      if (l.len < 24) {
        out.push_back({i, "item shorter than a tuple header"});
        continue;
      }
      const Hdr h = ReadHdr(page, l.off);
      tuples[i] = h;
      HeaderBitFindings(h, i, &out);
      if (!tuple_ok(std::vector<uint8_t>(page.begin() + l.off, page.begin() + l.off + l.len))) {
        out.push_back({i, "tuple"});
      }
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  for (size_t k = 1; k < items.size(); ++k) {
    if (std::get<0>(items[k]) < std::get<2>(items[k - 1])) {
      out.push_back({std::get<1>(items[k]),
                     "item overlaps line pointer " + std::to_string(std::get<1>(items[k - 1]))});
    }
  }
  ChainFindings(tuples, redirects, n, &out);
  return out;
}

}  // namespace pgstore::models
