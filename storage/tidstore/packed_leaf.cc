#include "storage/tidstore/packed_leaf.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "storage/common/bytes.h"

namespace pgstore::tidstore::internal {
namespace {

constexpr uint32_t kOffsetBits = 21;
constexpr uint32_t kMaxStreamBits = 1u << kOffsetBits;
constexpr size_t kStreamPadding = 7;

unsigned BitWidth(uint32_t v) { return v == 0 ? 0 : 32 - __builtin_clz(v); }

struct GroupLayout {
  uint32_t bit_offset;
  unsigned key_bits;
  unsigned slot_bits;
};

GroupLayout UnpackLayout(uint32_t layout) {
  return {layout & (kMaxStreamBits - 1), (layout >> kOffsetBits) & 63, layout >> 27};
}

uint32_t ReadBits(const uint8_t* stream, uint64_t pos, unsigned bits) {
  if (bits == 0) return 0;
  const uint64_t word = LoadLE64(stream + (pos >> 3));
  return static_cast<uint32_t>((word >> (pos & 7)) & ((uint64_t{1} << bits) - 1));
}

class BitWriter {
 public:
  void Put(uint32_t value, unsigned bits) {
    acc_ |= static_cast<uint64_t>(value) << pending_;
    pending_ += bits;
    total_ += bits;
    for (; pending_ >= 8; pending_ -= 8, acc_ >>= 8) bytes_.push_back(static_cast<uint8_t>(acc_));
  }
  uint64_t bits() const { return total_; }
  // The stream with its trailing padding.
  std::vector<uint8_t> Finish() {
    if (pending_ > 0) bytes_.push_back(static_cast<uint8_t>(acc_));
    bytes_.insert(bytes_.end(), kStreamPadding, 0);
    return std::move(bytes_);
  }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t acc_ = 0;
  unsigned pending_ = 0;
  uint64_t total_ = 0;
};

// A slot as the stream stores it: offset << 1 for an embedded offset, unit << 1 | 1 for a pool
// entry, so that small offsets and small pools take few bits.
uint32_t SlotCode(uint16_t slot) {
  return (slot & kPoolSlotBit) ? (uint32_t{slot} & ~uint32_t{kPoolSlotBit}) << 1 | 1
                               : uint32_t{slot} << 1;
}
uint16_t CodeSlot(uint32_t code) {
  return static_cast<uint16_t>((code & 1) ? kPoolSlotBit | code >> 1 : code >> 1);
}

size_t GroupEnd(size_t group, size_t size) {
  return std::min(size, (group + 1) * kPackedGroupSize);
}

}  // namespace

PackedLeaf* PackedLeaf::Pack(const Leaf& leaf) {
  const size_t n = leaf.size();
  if (n == 0) return nullptr;
  std::vector<uint32_t> pool;
  std::vector<uint16_t> slots(n);
  std::vector<uint32_t> keys(n);
  for (size_t i = 0; i < n; ++i) {
    keys[i] = leaf.KeyAt(i);
    const uint16_t slot = leaf.slots[i];
    if (!(slot & kPoolSlotBit)) {
      slots[i] = slot;
      continue;
    }
    const uint32_t* e = leaf.Entry(slot);
    slots[i] = static_cast<uint16_t>(kPoolSlotBit | pool.size());
    pool.insert(pool.end(), e, e + EntryUnits(e));
  }
  const size_t num_groups = (n + kPackedGroupSize - 1) / kPackedGroupSize;
  std::vector<uint32_t> groups;
  groups.reserve(2 * num_groups);
  BitWriter writer;
  for (size_t g = 0; g < num_groups; ++g) {
    const size_t first = g * kPackedGroupSize, end = GroupEnd(g, n);
    unsigned key_bits = 0, slot_bits = 0;
    for (size_t i = first; i < end; ++i) {
      if (i > first) key_bits = std::max(key_bits, BitWidth(keys[i] - keys[i - 1] - 1));
      slot_bits = std::max(slot_bits, BitWidth(SlotCode(slots[i])));
    }
    if (writer.bits() >= kMaxStreamBits) return nullptr;
    groups.push_back(keys[first]);
    groups.push_back(static_cast<uint32_t>(writer.bits()) | key_bits << kOffsetBits |
                     slot_bits << 27);
    writer.Put(SlotCode(slots[first]), slot_bits);
    for (size_t i = first + 1; i < end; ++i) {
      writer.Put(keys[i] - keys[i - 1] - 1, key_bits);
      writer.Put(SlotCode(slots[i]), slot_bits);
    }
  }
  const std::vector<uint8_t> stream = writer.Finish();
  const size_t bytes = sizeof(PackedLeaf) + pool.size() * 4 + groups.size() * 4 + stream.size();
  const size_t leaf_bytes = sizeof(Leaf) + n * leaf.width() + n * 2 + leaf.LiveUnits() * 4;
  if (bytes >= leaf_bytes) return nullptr;

  PackedLeaf* p = new (::operator new(bytes)) PackedLeaf();
  p->kind = kPackedLeaf;
  p->depth = leaf.depth;
  p->count = 0;
  p->size = static_cast<uint32_t>(n);
  p->pool_units = static_cast<uint32_t>(pool.size());
  p->num_groups = static_cast<uint32_t>(num_groups);
  p->stream_bytes = static_cast<uint32_t>(stream.size());
  uint8_t* out = reinterpret_cast<uint8_t*>(p + 1);
  // (An empty vector's data() may be null, which memcpy must not be given.)
  if (!pool.empty()) std::memcpy(out, pool.data(), pool.size() * 4);
  std::memcpy(out + pool.size() * 4, groups.data(), groups.size() * 4);
  std::memcpy(out + (pool.size() + groups.size()) * 4, stream.data(), stream.size());
  return p;
}

void PackedLeaf::Free(PackedLeaf* p) { ::operator delete(p); }

size_t PackedLeaf::Bytes() const {
  return sizeof(PackedLeaf) + pool_units * size_t{4} + num_groups * size_t{8} + stream_bytes;
}

bool PackedLeaf::Find(uint32_t suffix, uint16_t* slot) const {
  const uint32_t* g = groups();
  // The last group whose first key is <= suffix.
  size_t lo = 0, hi = num_groups;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (g[2 * mid] <= suffix) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == 0) return false;
  const size_t group = lo - 1;
  const GroupLayout layout = UnpackLayout(g[2 * group + 1]);
  const uint8_t* s = stream();
  // Entries after the first are (key delta, slot) of one fixed width: walk the key deltas only,
  // then read the one slot wanted.
  const uint64_t stride = layout.key_bits + layout.slot_bits;
  const uint64_t key_mask = (uint64_t{1} << layout.key_bits) - 1;
  const size_t entries = GroupEnd(group, size) - group * kPackedGroupSize;
  uint64_t key = g[2 * group];
  uint64_t key_pos = layout.bit_offset + layout.slot_bits;  // the second entry's key delta
  size_t i = 0;
  for (; key < suffix && i + 1 < entries; ++i, key_pos += stride) {
    key += ((LoadLE64(s + (key_pos >> 3)) >> (key_pos & 7)) & key_mask) + 1;
  }
  if (key != suffix) return false;
  const uint64_t slot_pos = i == 0 ? layout.bit_offset : key_pos - stride + layout.key_bits;
  *slot = CodeSlot(ReadBits(s, slot_pos, layout.slot_bits));
  return true;
}

void PackedLeaf::Decode(std::vector<uint32_t>* keys, std::vector<uint16_t>* slots) const {
  keys->clear();
  slots->clear();
  const uint32_t* g = groups();
  const uint8_t* s = stream();
  for (size_t group = 0; group < num_groups; ++group) {
    const GroupLayout layout = UnpackLayout(g[2 * group + 1]);
    uint64_t pos = layout.bit_offset;
    uint32_t key = g[2 * group];
    const size_t entries = GroupEnd(group, size) - group * kPackedGroupSize;
    for (size_t i = 0; i < entries; ++i) {
      if (i > 0) {
        key += ReadBits(s, pos, layout.key_bits) + 1;
        pos += layout.key_bits;
      }
      keys->push_back(key);
      slots->push_back(CodeSlot(ReadBits(s, pos, layout.slot_bits)));
      pos += layout.slot_bits;
    }
  }
}

Status PackedLeaf::ValidateLayout() const {
  if (size == 0) return Status::Corruption("empty packed leaf");
  if (num_groups != (size + kPackedGroupSize - 1) / kPackedGroupSize) {
    return Status::Corruption("packed leaf group count");
  }
  const uint64_t key_limit = uint64_t{1} << (8 * (4 - depth));
  const uint32_t* g = groups();
  uint64_t bits = 0;
  for (size_t group = 0; group < num_groups; ++group) {
    const GroupLayout layout = UnpackLayout(g[2 * group + 1]);
    if (layout.bit_offset != bits) return Status::Corruption("packed group bit offset");
    if (layout.key_bits > 32 || layout.slot_bits > 16) {
      return Status::Corruption("packed group widths");
    }
    const size_t entries = GroupEnd(group, size) - group * kPackedGroupSize;
    bits += layout.slot_bits + (entries - 1) * (layout.key_bits + layout.slot_bits);
  }
  if ((bits + 7) / 8 + kStreamPadding != stream_bytes) {
    return Status::Corruption("packed stream size");
  }
  // Exact key checks on the decoded keys (64-bit sums, so an overflow shows as a key too large).
  const uint8_t* s = stream();
  uint64_t previous = 0;
  for (size_t group = 0; group < num_groups; ++group) {
    const GroupLayout layout = UnpackLayout(g[2 * group + 1]);
    uint64_t pos = layout.bit_offset + layout.slot_bits;
    uint64_t key = g[2 * group];
    if (group > 0 && key <= previous) return Status::Corruption("leaf keys not ascending");
    const size_t entries = GroupEnd(group, size) - group * kPackedGroupSize;
    for (size_t i = 1; i < entries; ++i) {
      key += ReadBits(s, pos, layout.key_bits) + uint64_t{1};
      pos += layout.key_bits + layout.slot_bits;
    }
    if (key >= key_limit) return Status::Corruption("packed key beyond the leaf's width");
    previous = key;
  }
  return Status::Ok();
}

Leaf* PackedLeaf::Unpack() const {
  std::vector<uint32_t> keys;
  std::vector<uint16_t> slots;
  Decode(&keys, &slots);
  Leaf* leaf = new Leaf();
  leaf->kind = kLeaf;
  leaf->depth = depth;
  leaf->count = 0;
  const int width = leaf->width();
  leaf->keys.resize(keys.size() * width);
  for (size_t i = 0; i < keys.size(); ++i) std::memcpy(&leaf->keys[i * width], &keys[i], width);
  leaf->slots = std::move(slots);
  leaf->pool.assign(pool(), pool() + pool_units);
  return leaf;
}

}  // namespace pgstore::tidstore::internal
