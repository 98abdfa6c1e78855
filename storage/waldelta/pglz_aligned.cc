#include "storage/waldelta/pglz_aligned.h"

#include <algorithm>
#include <cstring>

#include "storage/pglz/pglz_format.h"
#include "storage/waldelta/pglz_writer.h"
#include "storage/waldelta/word_scan.h"

namespace pgstore::waldelta {

bool PglzAlignedEncodeInto(ByteView history, ByteView target, size_t prefix, size_t suffix,
                           std::vector<uint8_t>* out) {
  const uint8_t* const h = history.data;
  const uint8_t* const t = target.data;
  const size_t hn = history.size, tn = target.size;
  out->resize(tn + (tn + 7) / 8);  // all literals: a control byte per 8
  PglzWriter o{out->data()};
  // A shift s puts target byte i against history byte i + s. Shifts are signed: a history
  // shorter than the target's position puts the end-aligned shift below zero.
  using Shift = int64_t;
  const Shift start_shift = static_cast<Shift>(prefix);
  const Shift end_shift = static_cast<Shift>(hn) - static_cast<Shift>(suffix + tn);
  // The longest match at history position c for target byte i, or 0 if c is out of reach.
  auto match_at = [&](size_t i, Shift c) -> size_t {
    if (c < 0 || static_cast<size_t>(c) >= hn) return 0;
    if (hn + i - static_cast<size_t>(c) > static_cast<size_t>(pglz::kMaxOffset)) return 0;
    const size_t max =
        std::min({static_cast<size_t>(pglz::kMaxMatch), tn - i, hn - static_cast<size_t>(c)});
    return CommonLength(h + c, t + i, max);
  };
  Shift shift = start_shift;
  bool matched = false;
  size_t i = 0;
  // How many literals from target byte i until the current shift matches again, if it does
  // within `limit` bytes (byte i itself is known not to match); 0 if it does not.
  auto literal_run = [&](size_t i, size_t limit) -> size_t {
    const Shift from = static_cast<Shift>(i) + 1 + shift;  // history byte of target byte i + 1
    if (from < 0 || static_cast<size_t>(from) >= hn ||
        static_cast<Shift>(hn) - shift > pglz::kMaxOffset) {
      return 0;
    }
    const size_t readable = std::min(hn - static_cast<size_t>(from), tn - i - 1);
    const size_t k = NextRun3(h + from, t + i + 1, limit, readable);
    return k < limit ? 1 + k : 0;
  };
  while (i < tn) {
    size_t len = match_at(i, static_cast<Shift>(i) + shift);
    size_t run = 0;
    if (len < pglz::kMinMatch) {
      run = literal_run(i, kAlignedResyncEvery);
      // The current shift does not match again soon: try the end-aligned one, then search.
      if (run == 0 && shift != end_shift) {
        len = match_at(i, static_cast<Shift>(i) + end_shift);
        if (len >= pglz::kMinMatch) shift = end_shift;
      }
      // Literals with no run ahead are written kAlignedResyncEvery at a time, so this search runs
      // at the first literal after a match and then at every kAlignedResyncEvery-th.
      if (run == 0 && len < pglz::kMinMatch && i + 4 <= tn) {
        const uint32_t key = LoadLE32(t + i);
        const Shift here = static_cast<Shift>(i) + shift;
        const Shift lo = std::max<Shift>({here - static_cast<Shift>(kAlignedSearchBack), 0,
                                          static_cast<Shift>(hn + i) - pglz::kMaxOffset});
        const Shift hi = std::min<Shift>(here + static_cast<Shift>(kAlignedSearchAhead),
                                         static_cast<Shift>(hn) - 4);
        Shift c = here + 1 <= hi ? FindKey(h, hn, std::max(here + 1, lo), hi, key, false) : -1;
        if (c < 0 && lo <= here - 1) c = FindKey(h, hn, lo, std::min(here - 1, hi), key, true);
        if (c >= 0) {
          len = match_at(i, c);
          shift = c - static_cast<Shift>(i);
        }
      }
    }
    if (len >= pglz::kMinMatch) {
      o.Tag(static_cast<int>(len), static_cast<int>(static_cast<Shift>(hn) - shift));
      i += len;
      matched = true;
      continue;
    }
    // Nothing saved by now (matches found, if any, paid no more than their tags and the control
    // bits): the columns have moved or changed too much for this encoder.
    if (i >= kAlignedGiveUpAfter && static_cast<size_t>(o.p - out->data()) >= i) return false;
    if (run == 0) run = std::min(tn - i, kAlignedResyncEvery);
    o.Literals(t + i, run);
    i += run;
  }
  out->resize(static_cast<size_t>(o.p - out->data()));
  return matched;
}

}  // namespace pgstore::waldelta
