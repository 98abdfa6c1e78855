#include "storage/waldelta/pglz_history.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/waldelta/pglz_writer.h"

namespace pgstore::waldelta {
namespace {

// The window and hash chains, kept per thread so that an encode allocates nothing once they have
// grown. The table has 2^bits lists, 9..12 bits by window size (as pglz scales its own). A list
// head is a virtual position, base + window position; heads below this call's base are left from
// earlier calls and mean "empty", so the table is never cleared between calls (only when the
// positions would pass kMaxBase, which keeps every head - base difference within int32_t).
constexpr int kMaxHashBits = 12;
constexpr uint32_t kMaxBase = uint32_t{1} << 31;
struct Workspace {
  std::vector<uint8_t> window;
  std::vector<uint32_t> head = std::vector<uint32_t>(size_t{1} << kMaxHashBits, 0);
  std::vector<int32_t> prev;
  uint32_t base = 1;
};

Workspace& ThreadWorkspace() {
  thread_local Workspace ws;
  return ws;
}

}  // namespace

void PglzHistoryEncodeInto(ByteView history, ByteView target, std::vector<uint8_t>* out) {
  out->clear();
  if (target.empty()) return;
  Workspace& ws = ThreadWorkspace();
  const size_t w = history.size + target.size;
  ws.window.resize(w + 1);  // one byte of padding: hash3 loads 4 bytes to use 3
  if (history.size > 0) std::memcpy(ws.window.data(), history.data, history.size);
  std::memcpy(ws.window.data() + history.size, target.data, target.size);
  ws.window[w] = 0;
  const int bits = w < 256 ? 9 : w < 1024 ? 10 : w < 4096 ? 11 : kMaxHashBits;
  if (ws.base > kMaxBase - w) {  // start the table afresh before positions pass kMaxBase
    std::fill(ws.head.begin(), ws.head.end(), 0);
    ws.base = 1;
  }
  const uint32_t base = ws.base;
  ws.base += static_cast<uint32_t>(w);
  ws.prev.resize(w);
  // Locals, not members: a uint8_t store may alias anything, so members would be reloaded after
  // every output byte.
  const uint8_t* const win = ws.window.data();
  uint32_t* const head = ws.head.data();
  int32_t* const prev = ws.prev.data();
  // The bytes at pos, pos + 1 and pos + 2 (pos + 3 <= w; the fourth byte loaded is masked off).
  auto hash3 = [win, bits](size_t pos) {
    const uint32_t v = LoadLE32(win + pos) & 0xFFFFFF;
    return (v * 2654435761u) >> (32 - bits);
  };
  // The newest window position in list h, or a negative number for none: a head left by an
  // earlier call is below base, and by at most kMaxBase, so the difference is negative.
  auto newest = [head, base](uint32_t h) { return static_cast<int32_t>(head[h] - base); };
  auto insert = [&](size_t pos) {
    if (pos + 3 > w) return;
    const uint32_t h = hash3(pos);
    prev[pos] = newest(h);
    head[h] = base + static_cast<uint32_t>(pos);
  };
  for (size_t pos = 0; pos < history.size; ++pos) insert(pos);

  out->resize(target.size + (target.size + 7) / 8);  // all literals: a control byte per 8
  PglzWriter o{out->data()};
  size_t pos = history.size;
  while (pos < w) {
    int best_len = 0, best_off = 0;
    if (pos + pglz::kMinMatch <= w) {
      const int max_len = static_cast<int>(std::min<size_t>(pglz::kMaxMatch, w - pos));
      int32_t cand = newest(hash3(pos));
      for (int steps = 0; cand >= 0 && steps < kPglzHistoryMaxChain; ++steps) {
        const size_t off = pos - static_cast<size_t>(cand);
        if (off > static_cast<size_t>(pglz::kMaxOffset)) break;
        int len = 0;
        while (len < max_len && win[cand + len] == win[pos + len]) ++len;
        if (len > best_len) {
          best_len = len;
          best_off = static_cast<int>(off);
          if (len >= kPglzHistoryGoodMatch || len == max_len) break;
        }
        cand = prev[cand];
      }
    }
    if (best_len >= pglz::kMinMatch) {
      o.Tag(best_len, best_off);
      for (int i = 0; i < best_len; ++i) insert(pos + i);
      pos += best_len;
    } else {
      o.Literal(win[pos]);
      insert(pos);
      ++pos;
    }
  }
  out->resize(static_cast<size_t>(o.p - out->data()));
}

std::vector<uint8_t> PglzHistoryEncode(ByteView history, ByteView target) {
  std::vector<uint8_t> out;
  PglzHistoryEncodeInto(history, target, &out);
  return out;
}

StatusOr<std::vector<uint8_t>> PglzHistoryDecode(ByteView history, ByteView body,
                                                 size_t target_len) {
  std::vector<uint8_t> window(history.size + target_len);
  if (history.size > 0) std::memcpy(window.data(), history.data, history.size);
  StatusOr<size_t> n = pglz::DecompressAfterHistory(body, window.data(), history.size, target_len,
                                                    pglz::Completeness::kExact);
  if (!n.ok()) return n.status();
  return std::vector<uint8_t>(window.begin() + history.size, window.end());
}

uint32_t PglzHistoryAdvanceBaseForTesting(uint32_t positions) {
  Workspace& ws = ThreadWorkspace();
  ws.base += positions;
  return ws.base;
}

}  // namespace pgstore::waldelta
