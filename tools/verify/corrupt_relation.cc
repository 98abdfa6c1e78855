// corrupt_relation CLEAN OUT --schema TYPES [--copies K] [--seed S]
//
// Test tool of the amcheck differential (amcheck_differential): writes OUT as the pages of the
// heap relation file CLEAN followed by corrupt copies of them, K per corruption class, each with
// its t_ctid links and checksum made right for its new block (but in the class "checksum
// mismatch"), and prints
// one line per corrupt page: block, class, source block. Classes:
//   - every corruption of properties/generators/page_corruptions.h, named by the check it must
//     trip (on pages whose line pointers 1 and 2 are normal);
//   - one per amcheck check the generators do not make, applied to the first tuple (or redirect)
//     of a page that has what the class needs: "lp_len under 24", "natts above descriptor",
//     "attribute past tuple end", "toast tag", "toast compression method" (of a compressed
//     value), "toast raw size",
//     "toast value id", "toast extsize", "HASEXTERNAL cleared", "multixact committed", "xmax
//     committed and invalid", "multixact xmax 0", "moved without xvac", "HOT
//     update with xmax 0", "heap-only without HEAP_UPDATED", "redirect to non-heap-only",
//     "heap-only root";
//   - "random bytes": 1 to 4 bytes of the tuple space overwritten (a fuzzer's mutation, seeded).
// A class no page can take is reported on stderr and skipped.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "properties/generators/page_corruptions.h"
#include "storage/page/heap_page.h"
#include "storage/page/page_format.h"
#include "storage/page/toast_relation.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/heap_tuple_format.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/tuple/tuple_header.h"
#include "storage/tuple/varlena.h"
#include "tools/cli_flags.h"

namespace {

using namespace pgstore;
using page::HeapPage;
using page::ItemId;
using page::LpFlags;

// A corruption of one page: false if the page has nothing it applies to.
using Corruption = std::function<bool(HeapPage*)>;

struct Context {
  tuple::TupleDesc desc;
  std::mt19937 rng;
};

uint16_t Get16(const HeapPage& p, size_t at) { return LoadLE16(p.bytes().data + at); }
void Set16(HeapPage* p, size_t at, uint16_t v) { StoreLE16(p->mutable_data() + at, v); }

// The first normal tuple (at least a header long) for which pick(lp, tuple offset) is true.
bool ForFirstTuple(HeapPage* p, const std::function<bool(int, size_t)>& pick) {
  for (int lp = 1; lp <= p->MaxOffset(); ++lp) {
    const ItemId id = p->GetItemId(lp);
    if (id.flags != LpFlags::kNormal || id.len < tuple::kMinHeapTupleSize) continue;
    if (pick(lp, id.off)) return true;
  }
  return false;
}

// Offset in the page of the first TOAST pointer of a live tuple (compressed if asked), or 0.
size_t FirstToastPointer(const HeapPage& p, const Context& c, bool compressed, size_t* tuple_off) {
  for (int lp = 1; lp <= p.MaxOffset(); ++lp) {
    StatusOr<ByteView> item = p.GetItem(lp);
    // A dead tuple's pointers go unchecked (its value may be gone): take a live one.
    if (!item.ok() || item->size < tuple::kMinHeapTupleSize ||
        !page::TupleIsLive(tuple::ReadRawTupleHeader(*item))) {
      continue;
    }
    StatusOr<std::vector<tuple::Datum>> values = tuple::DeformHeapTuple(*item, c.desc);
    if (!values.ok()) continue;
    for (size_t i = 0; i < values->size(); ++i) {
      const tuple::Datum& v = (*values)[i];
      if (c.desc.attr(static_cast<int>(i)).attlen != -1 || !v ||
          tuple::VarlenaFormOf((*v)[0]) != tuple::VarlenaForm::kExternal) {
        continue;
      }
      const tuple::ToastPointer ptr = tuple::ReadToastPointer(*v);
      // VARATT_EXTERNAL_IS_COMPRESSED: fewer bytes stored than the raw data.
      if (compressed && ptr.extsize + tuple::kVarHdrSz >= ptr.rawsize) continue;
      *tuple_off = p.GetItemId(lp).off;
      return static_cast<size_t>(v->data - p.bytes().data);
    }
  }
  return 0;
}

// Applies f to the first TOAST pointer: f(pointer offset, tuple offset).
Corruption OnToastPointer(Context* c, std::function<void(HeapPage*, size_t, size_t)> f,
                          bool compressed = false) {
  return [c, f, compressed](HeapPage* p) {
    size_t tuple_off = 0;
    const size_t at = FirstToastPointer(*p, *c, compressed, &tuple_off);
    if (at == 0) return false;
    f(p, at, tuple_off);
    return true;
  };
}

// Sets and clears infomask bits of the first tuple whose infomask/infomask2 pass `want`.
Corruption OnHeader(std::function<bool(uint16_t, uint16_t)> want, uint16_t set_mask,
                    uint16_t clear_mask, uint16_t set_mask2, uint16_t clear_mask2) {
  return [=](HeapPage* p) {
    return ForFirstTuple(p, [&](int, size_t off) {
      const uint16_t m = Get16(*p, off + tuple::kOffInfomask);
      const uint16_t m2 = Get16(*p, off + tuple::kOffInfomask2);
      if (!want(m, m2)) return false;
      Set16(p, off + tuple::kOffInfomask, static_cast<uint16_t>((m | set_mask) & ~clear_mask));
      Set16(p, off + tuple::kOffInfomask2, static_cast<uint16_t>((m2 | set_mask2) & ~clear_mask2));
      return true;
    });
  };
}

std::vector<std::pair<std::string, Corruption>> Classes(Context* c) {
  using namespace tuple;
  std::vector<std::pair<std::string, Corruption>> out;
  for (const generators::PageCorruption kind : generators::AllPageCorruptions()) {
    HeapPage scratch;
    const std::string name = generators::CorruptPage(kind, &scratch);
    out.emplace_back(name, [kind](HeapPage* p) {
      if (p->MaxOffset() < 2 || p->GetItemId(1).flags != LpFlags::kNormal ||
          p->GetItemId(2).flags != LpFlags::kNormal) {
        return false;
      }
      generators::CorruptPage(kind, p);
      return true;
    });
  }
  out.emplace_back("lp_len under 24", [](HeapPage* p) {
    return ForFirstTuple(p, [&](int lp, size_t off) {
      p->SetItemId(lp, ItemId{static_cast<uint16_t>(off), LpFlags::kNormal, 16});
      return true;
    });
  });
  out.emplace_back("natts above descriptor", [c](HeapPage* p) {
    return ForFirstTuple(p, [&](int, size_t off) {
      const uint16_t m2 = Get16(*p, off + kOffInfomask2);
      Set16(p, off + kOffInfomask2,
            static_cast<uint16_t>((m2 & ~kNattsMask) | (c->desc.natts() + 1)));
      return true;
    });
  });
  out.emplace_back("attribute past tuple end", [](HeapPage* p) {
    return ForFirstTuple(p, [&](int lp, size_t off) {
      const uint8_t hoff = p->bytes()[off + kOffHoff];
      if (hoff != 24 || p->GetItemId(lp).len <= 28) return false;
      p->SetItemId(lp, ItemId{static_cast<uint16_t>(off), LpFlags::kNormal, 26});
      return true;
    });
  });
  out.emplace_back("toast tag", OnToastPointer(c, [](HeapPage* p, size_t at, size_t) {
                     p->mutable_data()[at + 1] = 3;  // VARTAG_EXPANDED_RO: memory only
                   }));
  out.emplace_back("toast compression method",
                   OnToastPointer(
                       c,
                       [](HeapPage* p, size_t at, size_t) {
                         const uint32_t extinfo = LoadLE32(p->bytes().data + at + 6);
                         StoreLE32(p->mutable_data() + at + 6, (extinfo & 0x3FFFFFFF) | (2u << 30));
                       },
                       /*compressed=*/true));
  out.emplace_back("toast raw size", OnToastPointer(c, [](HeapPage* p, size_t at, size_t) {
                     StoreLE32(p->mutable_data() + at + 2, 0x7FFFFFF0);
                   }));
  out.emplace_back("toast value id", OnToastPointer(c, [](HeapPage* p, size_t at, size_t) {
                     StoreLE32(p->mutable_data() + at + 10, 0xFFFFFF00);
                   }));
  out.emplace_back("toast extsize", OnToastPointer(c, [](HeapPage* p, size_t at, size_t) {
                     const uint32_t extinfo = LoadLE32(p->bytes().data + at + 6);
                     StoreLE32(p->mutable_data() + at + 6, extinfo - 1);
                   }));
  out.emplace_back("HASEXTERNAL cleared", OnToastPointer(c, [](HeapPage* p, size_t, size_t off) {
                     Set16(p, off + kOffInfomask,
                           static_cast<uint16_t>(Get16(*p, off + kOffInfomask) & ~kHasExternal));
                   }));
  out.emplace_back("multixact committed",
                   OnHeader([](uint16_t, uint16_t) { return true; }, kXmaxIsMulti | kXmaxCommitted,
                            kXmaxInvalid, 0, 0));
  out.emplace_back("xmax committed and invalid", OnHeader([](uint16_t, uint16_t) { return true; },
                                                          kXmaxCommitted | kXmaxInvalid, 0, 0, 0));
  out.emplace_back("multixact xmax 0", [](HeapPage* p) {
    return ForFirstTuple(p, [&](int, size_t off) {
      if (LoadLE32(p->bytes().data + off + kOffXmax) != 0) return false;
      Set16(p, off + kOffInfomask,
            static_cast<uint16_t>(Get16(*p, off + kOffInfomask) | kXmaxIsMulti));
      return true;
    });
  });
  out.emplace_back("moved without xvac", [](HeapPage* p) {
    return ForFirstTuple(p, [&](int, size_t off) {
      const uint16_t m = Get16(*p, off + kOffInfomask);
      Set16(p, off + kOffInfomask,
            static_cast<uint16_t>((m | kMovedIn) & ~(kXminCommitted | kXminInvalid)));
      StoreLE32(p->mutable_data() + off + kOffCid, 0);
      return true;
    });
  });
  out.emplace_back("HOT update with xmax 0", [](HeapPage* p) {
    return ForFirstTuple(p, [&](int, size_t off) {
      if (LoadLE32(p->bytes().data + off + kOffXmax) != 0) return false;
      Set16(p, off + kOffInfomask,
            static_cast<uint16_t>(Get16(*p, off + kOffInfomask) & ~kXmaxInvalid));
      Set16(p, off + kOffInfomask2,
            static_cast<uint16_t>(Get16(*p, off + kOffInfomask2) | kHotUpdated));
      return true;
    });
  });
  out.emplace_back(
      "heap-only without HEAP_UPDATED",
      OnHeader([](uint16_t m, uint16_t m2) { return (m2 & kHeapOnlyTuple) && (m & kUpdated); }, 0,
               kUpdated, 0, 0));
  out.emplace_back("redirect to non-heap-only", [](HeapPage* p) {
    for (int lp = 1; lp <= p->MaxOffset(); ++lp) {
      const ItemId id = p->GetItemId(lp);
      if (id.flags != LpFlags::kRedirect || id.off < 1 || id.off > p->MaxOffset()) continue;
      const ItemId target = p->GetItemId(id.off);
      if (target.flags != LpFlags::kNormal) continue;
      const size_t at = target.off + kOffInfomask2;
      Set16(p, at, static_cast<uint16_t>(Get16(*p, at) & ~kHeapOnlyTuple));
      return true;
    }
    return false;
  });
  out.emplace_back("heap-only root", [](HeapPage* p) {
    // The tuple whose t_ctid leads to a heap-only tuple now names itself.
    return ForFirstTuple(p, [&](int lp, size_t off) {
      const uint16_t next = Get16(*p, off + kOffCtid + 4);
      if (!(Get16(*p, off + kOffInfomask2) & kHotUpdated) || next == lp) return false;
      Set16(p, off + kOffCtid + 4, static_cast<uint16_t>(lp));
      return true;
    });
  });
  out.emplace_back("random bytes", [c](HeapPage* p) {
    const size_t upper = p->upper();
    if (upper >= page::kPageSize) return false;
    const int n = std::uniform_int_distribution<int>(1, 4)(c->rng);
    for (int i = 0; i < n; ++i) {
      const size_t at = std::uniform_int_distribution<size_t>(upper, page::kPageSize - 1)(c->rng);
      p->mutable_data()[at] = static_cast<uint8_t>(c->rng());
    }
    return true;
  });
  return out;
}

// The page as if written at block `to`: t_ctid links within the page follow it from `from`.
void Relocate(HeapPage* p, uint32_t from, uint32_t to) {
  for (int lp = 1; lp <= p->MaxOffset(); ++lp) {
    const ItemId id = p->GetItemId(lp);
    if (id.flags != LpFlags::kNormal || id.len < tuple::kMinHeapTupleSize) continue;
    uint8_t* ctid = p->mutable_data() + id.off + tuple::kOffCtid;
    if ((static_cast<uint32_t>(LoadLE16(ctid)) << 16 | LoadLE16(ctid + 2)) != from) continue;
    StoreLE16(ctid, static_cast<uint16_t>(to >> 16));
    StoreLE16(ctid + 2, static_cast<uint16_t>(to));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  std::string schema;
  int copies = 8;
  unsigned seed = 1;
  cli::Flags flags("corrupt_relation", "CLEAN OUT --schema TYPES [--copies K] [--seed S]");
  flags.Positional(&files);
  flags.Text("--schema", &schema);
  flags.Number("--copies", &copies);
  flags.Number("--seed", &seed, 0u);
  flags.Parse(argc, argv);
  if (files.size() != 2 || schema.empty()) flags.Fail("need CLEAN, OUT and --schema");
  StatusOr<tuple::TupleDesc> desc = tuple::TupleDesc::FromSchema(schema);
  if (!desc.ok()) flags.Fail("--schema: " + desc.status().message());
  std::ifstream in(files[0], std::ios::binary);
  std::vector<uint8_t> bytes;
  if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in || bytes.empty() || bytes.size() % page::kPageSize != 0) {
    flags.Fail("cannot read whole pages from " + files[0]);
  }
  std::vector<HeapPage> clean;
  for (size_t at = 0; at < bytes.size(); at += page::kPageSize) {
    clean.push_back(*HeapPage::FromBytes(ByteView(bytes.data() + at, page::kPageSize)));
  }
  Context context{*desc, std::mt19937(seed)};
  std::ofstream out(files[1], std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  uint32_t block = static_cast<uint32_t>(clean.size());
  for (const auto& [name, corrupt] : Classes(&context)) {
    int made = 0;
    for (size_t source = 0; source < clean.size() && made < copies; ++source) {
      HeapPage p = clean[source];
      Relocate(&p, static_cast<uint32_t>(source), block);
      p.SetChecksum(block);  // the generators' checksum corruption starts from a valid one
      if (!corrupt(&p)) continue;
      if (name != "checksum mismatch") p.SetChecksum(block);
      out.write(reinterpret_cast<const char*>(p.bytes().data), page::kPageSize);
      std::cout << block << "\t" << name << "\t" << source << "\n";
      ++block;
      ++made;
    }
    if (made == 0) std::cerr << "corrupt_relation: no page takes '" << name << "'\n";
  }
  if (!out) {
    std::cerr << "corrupt_relation: cannot write " << files[1] << "\n";
    return 1;
  }
  return 0;
}
