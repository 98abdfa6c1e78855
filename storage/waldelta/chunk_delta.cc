#include "storage/waldelta/chunk_delta.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace pgstore::waldelta {
namespace {

constexpr uint32_t kBoundaryMask = 0x7u << 5;
constexpr uint8_t kCopyBit = 0x80;
constexpr uint8_t kLongCopy = 0x7f;

// 256 fixed pseudo-random words (splitmix64), so boundaries are the same on every build.
constexpr std::array<uint32_t, 256> MakeGear() {
  std::array<uint32_t, 256> g{};
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& v : g) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    v = static_cast<uint32_t>(z ^ (z >> 31));
  }
  return g;
}
constexpr std::array<uint32_t, 256> kGear = MakeGear();

// An open-addressing index of the old string's chunks by fingerprint. One per thread, rebuilt
// for each encode without clearing: a slot is in use only if it carries the current generation.
class ChunkIndex {
 public:
  void Build(ByteView old_data, const std::vector<uint32_t>& ends) {
    size_t cap = 16;
    while (cap < 2 * ends.size()) cap *= 2;
    if (slots_.size() < cap) slots_.resize(cap);
    ++generation_;  // 64 bits: never wraps, so no slot of an earlier build looks current
    mask_ = cap - 1;
    uint32_t start = 0;
    for (uint32_t end : ends) {
      const uint64_t fp = ChunkFingerprint(old_data.Sub(start, end - start));
      size_t i = fp & mask_;
      while (InUse(i) && slots_[i].fp != fp) i = (i + 1) & mask_;
      if (!InUse(i)) slots_[i] = Slot{fp, start, generation_};  // the first occurrence wins
      start = end;
    }
  }
  // The start of an old chunk with this fingerprint, or -1.
  int64_t Find(uint64_t fp) const {
    size_t i = fp & mask_;
    while (InUse(i)) {
      if (slots_[i].fp == fp) return slots_[i].start;
      i = (i + 1) & mask_;
    }
    return -1;
  }

 private:
  struct Slot {
    uint64_t fp = 0;
    uint32_t start = 0;
    uint64_t generation = 0;
  };
  bool InUse(size_t i) const { return slots_[i].generation == generation_; }
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  uint64_t generation_ = 0;
};

// The index and the chunk lists, kept per thread so that an encode allocates nothing once they
// have grown.
struct Workspace {
  ChunkIndex index;
  std::vector<uint32_t> old_ends;
  std::vector<uint32_t> target_ends;
};

void PutLiterals(const uint8_t* p, size_t n, std::vector<uint8_t>* out) {
  while (n > 0) {
    const size_t run = std::min(n, kMaxLiteralRun);
    out->push_back(static_cast<uint8_t>(run - 1));
    out->insert(out->end(), p, p + run);
    p += run;
    n -= run;
  }
}

void PutCopy(size_t off, size_t len, std::vector<uint8_t>* out) {
  if (len - kCopyMin < kLongCopy) {
    out->push_back(static_cast<uint8_t>(kCopyBit | (len - kCopyMin)));
  } else {
    out->push_back(kCopyBit | kLongCopy);
    PutLE16(out, static_cast<uint16_t>(len));
  }
  PutLE16(out, static_cast<uint16_t>(off));
}

}  // namespace

void ChunkBoundariesInto(ByteView s, std::vector<uint32_t>* ends) {
  ends->clear();
  uint32_t h = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size; ++i) {
    h = (h << 1) + kGear[s[i]];
    const size_t len = i + 1 - start;
    if ((len >= kChunkMin && (h & kBoundaryMask) == 0) || len == kChunkMax) {
      ends->push_back(static_cast<uint32_t>(i + 1));
      start = i + 1;
    }
  }
  if (start < s.size) ends->push_back(static_cast<uint32_t>(s.size));
}

uint64_t ChunkFingerprint(ByteView chunk) {
  const uint8_t* const p = chunk.data;
  const size_t n = chunk.size;
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    h = (h ^ LoadLE64(p + i)) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h ^ (h >> 32);
}

std::vector<uint32_t> ChunkBoundaries(ByteView s) {
  std::vector<uint32_t> ends;
  ChunkBoundariesInto(s, &ends);
  return ends;
}

std::vector<uint8_t> ChunkEncode(ByteView old_data, ByteView target) {
  std::vector<uint8_t> out;
  ChunkEncodeInto(old_data, target, &out);
  return out;
}

void ChunkEncodeInto(ByteView old_data, ByteView target, std::vector<uint8_t>* out_vector) {
  std::vector<uint8_t>& out = *out_vector;
  out.clear();
  thread_local Workspace ws;
  // Offsets are 16 bits; the old string of a heap tuple is far shorter (MaxHeapTupleSize).
  const size_t old_size = std::min<size_t>(old_data.size, 0xFFFF);
  const ByteView old_view(old_data.data, old_size);
  ChunkBoundariesInto(old_view, &ws.old_ends);
  ws.index.Build(old_view, ws.old_ends);
  const ChunkIndex& index = ws.index;
  ChunkBoundariesInto(target, &ws.target_ends);
  const std::vector<uint32_t>& ends = ws.target_ends;
  size_t literal_start = 0;  // target bytes [literal_start, pos) are not yet written
  size_t pos = 0;
  size_t chunk_start = 0;
  for (uint32_t chunk_end : ends) {
    const size_t start = chunk_start;
    chunk_start = chunk_end;
    if (start < pos) continue;  // inside the last match
    const size_t n = chunk_end - start;
    const int64_t hit = index.Find(ChunkFingerprint(target.Sub(start, n)));
    if (hit < 0 || static_cast<size_t>(hit) + n > old_size ||
        std::memcmp(old_view.data + hit, target.data + start, n) != 0) {
      continue;
    }
    size_t t = start, o = static_cast<size_t>(hit), len = n;
    while (t + len < target.size && o + len < old_size && target[t + len] == old_view[o + len]) {
      ++len;
    }
    while (t > literal_start && o > 0 && target[t - 1] == old_view[o - 1]) {
      --t;
      --o;
      ++len;
    }
    if (len < kCopyMin) continue;
    PutLiterals(target.data + literal_start, t - literal_start, &out);
    PutCopy(o, len, &out);
    pos = literal_start = t + len;
  }
  PutLiterals(target.data + literal_start, target.size - literal_start, &out);
}

StatusOr<std::vector<uint8_t>> ChunkDecode(ByteView old_data, ByteView body, size_t target_len) {
  std::vector<uint8_t> out;
  out.reserve(target_len);
  size_t i = 0;
  while (i < body.size) {
    const uint8_t op = body[i++];
    if (!(op & kCopyBit)) {
      const size_t run = size_t{op} + 1;
      if (body.size - i < run) return Status::Corruption("literal run beyond the delta");
      if (target_len - out.size() < run) return Status::Corruption("literal run beyond the target");
      out.insert(out.end(), body.data + i, body.data + i + run);
      i += run;
      continue;
    }
    size_t len = (op & kLongCopy) + kCopyMin;
    if ((op & kLongCopy) == kLongCopy) {
      if (body.size - i < 2) return Status::Corruption("truncated copy length");
      len = LoadLE16(body.data + i);
      i += 2;
    }
    if (body.size - i < 2) return Status::Corruption("truncated copy offset");
    const size_t off = LoadLE16(body.data + i);
    i += 2;
    if (off > old_data.size || old_data.size - off < len) {
      return Status::Corruption("copy of old[" + std::to_string(off) + ", +" + std::to_string(len) +
                                ") beyond the old data");
    }
    if (target_len - out.size() < len) return Status::Corruption("copy beyond the target");
    out.insert(out.end(), old_data.data + off, old_data.data + off + len);
  }
  if (out.size() != target_len) return Status::Corruption("delta shorter than its target");
  return out;
}

}  // namespace pgstore::waldelta
