#include "storage/waldelta/pglz_history.h"

#include <algorithm>
#include <cstring>

#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"

namespace pgstore::waldelta {
namespace {

constexpr int kHashBits = 12;
constexpr uint32_t kHashSize = 1u << kHashBits;

uint32_t Hash3(const uint8_t* p) {
  const uint32_t v = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16;
  return (v * 2654435761u) >> (32 - kHashBits);
}

// pglz's output: control bytes, each followed by the items its bits describe (LSB first).
class PglzWriter {
 public:
  explicit PglzWriter(std::vector<uint8_t>* out) : out_(out) {}
  void Literal(uint8_t b) {
    NextItem(false);
    out_->push_back(b);
  }
  void Tag(int len, int off) {
    NextItem(true);
    if (len > pglz::kMaxShortTagMatch) {
      out_->push_back(static_cast<uint8_t>(((off & 0xf00) >> 4) | 0x0f));
      out_->push_back(static_cast<uint8_t>(off & 0xff));
      out_->push_back(static_cast<uint8_t>(len - 18));
    } else {
      out_->push_back(static_cast<uint8_t>(((off & 0xf00) >> 4) | (len - 3)));
      out_->push_back(static_cast<uint8_t>(off & 0xff));
    }
  }

 private:
  void NextItem(bool tag) {
    if (bit_ == pglz::kItemsPerControlByte) {
      ctrl_pos_ = out_->size();
      out_->push_back(0);
      bit_ = 0;
    }
    if (tag) (*out_)[ctrl_pos_] |= static_cast<uint8_t>(1u << bit_);
    ++bit_;
  }
  std::vector<uint8_t>* out_;
  size_t ctrl_pos_ = 0;
  int bit_ = pglz::kItemsPerControlByte;
};

}  // namespace

std::vector<uint8_t> PglzHistoryEncode(ByteView history, ByteView target) {
  std::vector<uint8_t> out;
  if (target.empty()) return out;
  out.reserve(target.size + target.size / 8 + 1);
  std::vector<uint8_t> window(history.size + target.size);
  if (history.size > 0) std::memcpy(window.data(), history.data, history.size);
  std::memcpy(window.data() + history.size, target.data, target.size);
  const size_t w = window.size();
  std::vector<int32_t> head(kHashSize, -1);
  std::vector<int32_t> prev(w, -1);
  auto insert = [&](size_t pos) {
    if (pos + 3 > w) return;
    const uint32_t h = Hash3(&window[pos]);
    prev[pos] = head[h];
    head[h] = static_cast<int32_t>(pos);
  };
  for (size_t pos = 0; pos < history.size; ++pos) insert(pos);

  PglzWriter writer(&out);
  size_t pos = history.size;
  while (pos < w) {
    int best_len = 0, best_off = 0;
    if (pos + pglz::kMinMatch <= w) {
      const int max_len = static_cast<int>(std::min<size_t>(pglz::kMaxMatch, w - pos));
      int32_t cand = head[Hash3(&window[pos])];
      for (int steps = 0; cand >= 0 && steps < kPglzHistoryMaxChain; ++steps) {
        const size_t off = pos - static_cast<size_t>(cand);
        if (off > static_cast<size_t>(pglz::kMaxOffset)) break;
        int len = 0;
        while (len < max_len && window[cand + len] == window[pos + len]) ++len;
        if (len > best_len) {
          best_len = len;
          best_off = static_cast<int>(off);
          if (len >= kPglzHistoryGoodMatch || len == max_len) break;
        }
        cand = prev[cand];
      }
    }
    if (best_len >= pglz::kMinMatch) {
      writer.Tag(best_len, best_off);
      for (int i = 0; i < best_len; ++i) insert(pos + i);
      pos += best_len;
    } else {
      writer.Literal(window[pos]);
      insert(pos);
      ++pos;
    }
  }
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

}  // namespace pgstore::waldelta
