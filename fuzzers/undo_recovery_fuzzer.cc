// Property: crash recovery (UndoLog::FromPages, ZheapPage::FromBytes, RecoverAfterCrash) on any
// crash image never crashes, never hangs, never writes outside the page's tuple space and returns
// a Status; on an undamaged image it gives the model's answer.
//
// Input: mode:u8 (bit 7: raw; bits 0-6: transaction slots, as fuzzers/undo_fuzz_ops.h), then
//   derived (bit 7 clear): ops_len:u16, an operation sequence of ops_len bytes (undo_fuzz_ops.h)
//       that makes a real crash image (page bytes, undo pages, commit log), then damage entries of
//       4 bytes, kind:u8 pos:u16 value:u8, applied to that image:
//         kind % 4 = 0  page byte pos % 8192 := value
//                    1  undo byte pos % (undo bytes) := value
//                    2  commit log: transaction (the xid of slot pos % slots, or pos itself if odd)
//                       set to committed, aborted or forgotten (value % 3)
//                    3  the undo pages cut to pos % (pages + 1) pages (later pages never written)
//       An image no entry changed must recover to the model's tuples (undo_harness.h).
//   raw (bit 7 set): the page (8192 bytes), entries:u8 commit log entries (xid:u32 state:u8),
//       then undo pages (8 KB each, the last zero-padded, at most 4).
// Oracles on a damaged or raw image: recovery returns Ok or an error Status (Corruption from
// RecoverAfterCrash itself); it applies at most slots x records undo records; when it succeeds,
// the page header (but pd_flags), the free space between pd_lower and pd_upper and every slot it
// did not free are unchanged, and recovering again changes nothing.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/undo_fuzz_ops.h"
#include "storage/page/page_format.h"

using namespace pgstore;
using Harness = generators::UndoHarness;

namespace {

constexpr size_t kMaxOps = 4096;     // as undo_ops_fuzzer: longer sequences reach nothing new
constexpr size_t kMaxDamage = 64;    // entries; more only re-damage the same image
constexpr size_t kMaxUndoPages = 4;  // raw mode

// Where transaction slot `slot` (1-based) of a page with `slots` slots lies (zheap_page.h).
size_t SlotOffset(int slots, int slot) {
  return page::kPageSize - (slots - slot + 1) * undo::kTransInfoSize;
}

void SetState(undo::XactTable* xacts, uint32_t xid, int state) {
  undo::XactTable t;  // XactTable keeps no API to forget a transaction: rebuild it
  for (const auto& [x, s] : xacts->states()) {
    if (x == xid) continue;
    (void)t.Begin(x);
    if (s == undo::XactTable::State::kCommitted) (void)t.Commit(x);
    if (s == undo::XactTable::State::kAborted) t.MarkAborted(x);
  }
  if (xid != 0 && state != 2) {
    (void)t.Begin(xid);
    if (state == 0)
      (void)t.Commit(xid);
    else
      t.MarkAborted(xid);
  }
  *xacts = t.AfterCrash();
}

// Applies the damage entries; returns whether the image changed.
bool Damage(fuzz::FrontReader* in, Harness::CrashImage* image) {
  const Harness::CrashImage before = *image;
  for (size_t n = 0; n < kMaxDamage && !in->empty(); ++n) {
    const uint8_t kind = in->U8() % 4;
    const uint16_t pos = in->U16();
    const uint8_t value = in->U8();
    if (kind == 0) {
      image->page[pos % page::kPageSize] = value;
    } else if (kind == 1 && !image->undo.empty()) {
      const size_t at = pos % (image->undo.size() * undo::kUndoPageSize);
      image->undo[at / undo::kUndoPageSize][at % undo::kUndoPageSize] = value;
    } else if (kind == 2) {
      const int slot = 1 + pos % image->slots;
      const size_t off = SlotOffset(image->slots, slot);
      const uint32_t xid = (pos & 1) ? pos : static_cast<uint32_t>(LoadLE64(&image->page[off]));
      SetState(&image->xacts, xid, value % 3);
    } else if (kind == 3) {
      image->undo.resize(std::min<size_t>(image->undo.size(), pos % (image->undo.size() + 1)));
    }
  }
  return image->page != before.page || image->undo != before.undo ||
         image->xacts.states() != before.xacts.states();
}

Harness::CrashImage RawImage(fuzz::FrontReader* in, int slots) {
  Harness::CrashImage image;
  image.slots = slots;
  image.page = in->Bytes(page::kPageSize);
  undo::XactTable xacts;
  for (int n = in->U8(); n > 0; --n) {
    const uint32_t xid = in->U32();
    SetState(&xacts, xid, in->U8() % 3);
  }
  image.xacts = xacts;
  while (!in->empty() && image.undo.size() < kMaxUndoPages) {
    const std::vector<uint8_t> bytes = in->Bytes(undo::kUndoPageSize);
    undo::UndoPage page;
    std::copy(bytes.begin(), bytes.end(), page.begin());
    image.undo.push_back(page);
  }
  return image;
}

// Recovery of a damaged or arbitrary image, with the oracles of the file comment.
void CheckRecovery(const Harness::CrashImage& image) {
  undo::UndoLog log(1);
  undo::XactTable xacts = image.xacts;
  undo::ZheapTable::RecoveryStats stats;
  StatusOr<undo::ZheapTable> table = Harness::Recover(image, &log, &xacts, &stats);
  FUZZ_ASSERT(stats.records_applied <= static_cast<size_t>(image.slots) * log.num_records());
  FUZZ_ASSERT(stats.transactions_rolled_back <= image.slots);
  if (!table.ok()) {
    const bool page_ok = undo::ZheapPage::FromBytes(ByteView(image.page), image.slots).ok();
    const bool log_ok = undo::UndoLog::FromPages(1, image.undo).ok();
    // RecoverAfterCrash itself (the page and the log were readable) reports only Corruption.
    if (page_ok && log_ok) FUZZ_ASSERT(table.status().IsCorruption());
    return;
  }
  const ByteView after = table->page().bytes();
  const std::vector<uint8_t>& before = image.page;
  for (size_t i = 0; i < page::kPageHeaderSize; ++i) {
    if (i != page::kOffFlags && i != page::kOffFlags + 1) FUZZ_ASSERT(after[i] == before[i]);
  }
  const size_t lower = LoadLE16(&before[page::kOffLower]),
               upper = LoadLE16(&before[page::kOffUpper]);
  for (size_t i = lower; i < upper && i < page::kPageSize; ++i) FUZZ_ASSERT(after[i] == before[i]);
  for (int s = 1; s <= image.slots; ++s) {
    const size_t off = SlotOffset(image.slots, s);
    const bool same = std::equal(after.begin() + off, after.begin() + off + undo::kTransInfoSize,
                                 before.begin() + off);
    const bool freed = std::all_of(after.begin() + off, after.begin() + off + undo::kTransInfoSize,
                                   [](uint8_t b) { return b == 0; });
    FUZZ_ASSERT(same || freed);
  }
  (void)table->VisibleTuples();
  const std::vector<uint8_t> once(after.begin(), after.end());
  const Status again = table->RecoverAfterCrash();
  if (!again.ok()) std::fprintf(stderr, "second recovery: %s\n", again.ToString().c_str());
  FUZZ_ASSERT(again.ok());
  FUZZ_ASSERT(std::equal(once.begin(), once.end(), table->page().bytes().begin()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const int slots = fuzz::UndoSlots(data[0] & 0x7F);
  fuzz::FrontReader in(data + 1, size - 1);
  if (data[0] & 0x80) {
    if (size > 1 + page::kPageSize + 256 * 5 + kMaxUndoPages * undo::kUndoPageSize) return 0;
    CheckRecovery(RawImage(&in, slots));
    return 0;
  }
  const size_t ops_len = std::min<size_t>(in.U16(), kMaxOps);
  const std::vector<uint8_t> ops = in.Bytes(std::min(ops_len, size > 3 ? size - 3 : 0));
  Harness harness(slots);
  models::ZheapModel model(slots);
  std::string err = fuzz::RunUndoOps(ops.data(), ops.size(), &harness, &model);
  if (err.empty()) {
    Harness::CrashImage image = harness.TakeCrashImage();
    if (Damage(&in, &image)) {
      CheckRecovery(image);
    } else {
      err = harness.RecoverFrom(model, image);
    }
  }
  if (!err.empty()) {
    std::fprintf(stderr, "undo_recovery_fuzzer: %s\n", err.c_str());
    FUZZ_ASSERT(err.empty());
  }
  return 0;
}
