#include "storage/tidstore/packed_leaf.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "storage/common/bytes.h"
#include "storage/tidstore/partition_point.h"

namespace pgstore::tidstore::internal {
namespace {

constexpr unsigned kOffsetBits = 24;
constexpr uint64_t kMaxStreamBits = uint64_t{1} << kOffsetBits;
constexpr uint32_t kMaxStep = (1u << 28) - 1;
constexpr size_t kStreamPadding = 7;
constexpr size_t kGroupsPerBucket = 2;

unsigned BitWidth(uint32_t v) { return v == 0 ? 0 : 32 - __builtin_clz(v); }

// The bits at `pos` (bits <= 32). Reads 8 bytes from pos / 8: the stream's padding covers them.
uint32_t ReadBits(const uint8_t* stream, uint64_t pos, unsigned bits) {
  const uint64_t word = LoadLE64(stream + (pos >> 3));
  return static_cast<uint32_t>((word >> (pos & 7)) & ((uint64_t{1} << bits) - 1));
}

struct GroupLayout {
  uint32_t bit_offset = 0;
  unsigned extra_bits = 0;
  unsigned slot_bits = 0;
  bool tagged = false;
  uint32_t step = 1;

  uint64_t Encode() const {
    return uint64_t{bit_offset} | uint64_t{extra_bits} << 24 | uint64_t{slot_bits} << 30 |
           uint64_t{tagged} << 35 | uint64_t{step} << 36;
  }
  static GroupLayout Decode(uint64_t v) {
    GroupLayout l;
    l.bit_offset = static_cast<uint32_t>(v & (kMaxStreamBits - 1));
    l.extra_bits = (v >> 24) & 63;
    l.slot_bits = (v >> 30) & 31;
    l.tagged = (v >> 35) & 1;
    l.step = static_cast<uint32_t>(v >> 36);
    return l;
  }
  uint64_t stride() const { return extra_bits + slot_bits; }
};

// A slot as the stream stores it: the slot itself in a group without pool entries; otherwise
// offset << 1 for an embedded value, unit << 1 | 1 for a pool entry, so that small values and
// small pools take few bits.
uint32_t SlotCode(uint16_t slot, bool tagged) {
  if (!tagged) return slot;
  return (slot & kPoolSlotBit) ? (uint32_t{slot} & ~uint32_t{kPoolSlotBit}) << 1 | 1
                               : uint32_t{slot} << 1;
}
uint16_t CodeSlot(uint32_t code, bool tagged) {
  if (!tagged) return static_cast<uint16_t>(code);
  return static_cast<uint16_t>((code & 1) ? kPoolSlotBit | code >> 1 : code >> 1);
}

// One group of a packed leaf: its entries' keys and slots, each read on its own.
class Group {
 public:
  Group(const uint8_t* stream, uint32_t first, uint64_t layout, size_t entries)
      : s_(stream), first_(first), l_(GroupLayout::Decode(layout)), entries_(entries) {}
  size_t entries() const { return entries_; }
  const GroupLayout& layout() const { return l_; }
  uint64_t Extra(size_t i) const {
    return ReadBits(s_, l_.bit_offset + i * l_.stride(), l_.extra_bits);
  }
  // 64-bit, so that a corrupt layout shows as a key too large rather than wrapping.
  uint64_t Key(size_t i) const { return first_ + uint64_t{l_.step} * i + Extra(i); }
  uint16_t Slot(size_t i) const {
    return CodeSlot(ReadBits(s_, l_.bit_offset + i * l_.stride() + l_.extra_bits, l_.slot_bits),
                    l_.tagged);
  }
  // The entry whose key is `key` (>= the first key), or false.
  bool IndexOf(uint32_t key, size_t* index) const {
    const uint32_t d = key - first_;
    if (l_.extra_bits == 0) {  // keys exactly step apart
      const uint32_t i = l_.step == 1 ? d : d / l_.step;
      *index = i;
      return i < entries_ && (l_.step == 1 || i * l_.step == d);
    }
    const size_t lo = PartitionPoint(entries_, [this, key](size_t i) { return Key(i) < key; });
    *index = lo;
    return lo < entries_ && Key(lo) == key;
  }

 private:
  const uint8_t* s_;
  uint32_t first_;
  GroupLayout l_;
  size_t entries_;
};

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

// The group index: how many buckets, the shift that maps a key's distance from the first key to
// its bucket, and per bucket b the number of groups whose first key lies below bucket b's start
// (the last bucket reaching to the end of the key space: its entry b + 1 is every group).
struct GroupIndex {
  uint32_t shift = 0;
  std::vector<uint32_t> starts;
};
GroupIndex MakeGroupIndex(const std::vector<uint32_t>& firsts) {
  GroupIndex index;
  const size_t buckets = std::max<size_t>(1, firsts.size() / kGroupsPerBucket);
  const uint64_t span = firsts.back() - firsts.front();
  while ((span >> index.shift) >= buckets) ++index.shift;
  index.starts.assign(buckets + 1, 0);
  for (size_t b = 0; b < buckets; ++b) {
    const uint64_t start = firsts.front() + (uint64_t{b} << index.shift);
    index.starts[b] = static_cast<uint32_t>(std::lower_bound(firsts.begin(), firsts.end(), start) -
                                            firsts.begin());
  }
  index.starts[buckets] = static_cast<uint32_t>(firsts.size());
  return index;
}

size_t GroupEnd(size_t group, size_t size) {
  return std::min(size, (group + 1) * kPackedGroupSize);
}

}  // namespace

PackedLeaf* PackedLeaf::Pack(const Leaf& leaf) {
  const size_t n = leaf.size();
  if (n == 0) return nullptr;
  std::vector<uint16_t> slots;
  std::vector<uint32_t> pool;
  CompactValues(leaf, &slots, &pool);
  std::vector<uint32_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = leaf.KeyAt(i);
  const size_t num_groups = (n + kPackedGroupSize - 1) / kPackedGroupSize;
  std::vector<uint32_t> firsts;
  std::vector<uint8_t> layouts;
  firsts.reserve(num_groups);
  layouts.reserve(8 * num_groups);
  BitWriter writer;
  for (size_t g = 0; g < num_groups; ++g) {
    const size_t first = g * kPackedGroupSize, end = GroupEnd(g, n);
    if (writer.bits() >= kMaxStreamBits) return nullptr;
    GroupLayout layout;
    layout.bit_offset = static_cast<uint32_t>(writer.bits());
    layout.step = kMaxStep;
    for (size_t i = first + 1; i < end; ++i)
      layout.step = std::min(layout.step, keys[i] - keys[i - 1]);
    for (size_t i = first; i < end; ++i) layout.tagged |= (slots[i] & kPoolSlotBit) != 0;
    // Extras never decrease (each gap is at least the step): the last is the widest.
    const auto extra = [&](size_t i) {
      return keys[i] - keys[first] - static_cast<uint32_t>(i - first) * layout.step;
    };
    layout.extra_bits = BitWidth(extra(end - 1));
    for (size_t i = first; i < end; ++i) {
      layout.slot_bits = std::max(layout.slot_bits, BitWidth(SlotCode(slots[i], layout.tagged)));
    }
    firsts.push_back(keys[first]);
    PutLE64(&layouts, layout.Encode());
    for (size_t i = first; i < end; ++i) {
      writer.Put(extra(i), layout.extra_bits);
      writer.Put(SlotCode(slots[i], layout.tagged), layout.slot_bits);
    }
  }
  const std::vector<uint8_t> stream = writer.Finish();
  const GroupIndex index = MakeGroupIndex(firsts);
  const size_t num_buckets = index.starts.size() - 1;
  const size_t bytes = BytesFor(pool.size(), num_groups, num_buckets, stream.size());
  if (bytes >= leaf.Bytes()) return nullptr;

  PackedLeaf* p = new (::operator new(bytes)) PackedLeaf();
  p->kind = kPackedLeaf;
  p->depth = leaf.depth;
  p->size = static_cast<uint32_t>(n);
  p->pool_units = static_cast<uint32_t>(pool.size());
  p->num_groups = static_cast<uint32_t>(num_groups);
  p->stream_bytes = static_cast<uint32_t>(stream.size());
  p->num_buckets = static_cast<uint32_t>(num_buckets);
  p->bucket_shift = index.shift;
  uint8_t* out = reinterpret_cast<uint8_t*>(p + 1);
  // (An empty vector's data() may be null, which memcpy must not be given.)
  if (!pool.empty()) std::memcpy(out, pool.data(), pool.size() * 4);
  out += pool.size() * 4;
  std::memcpy(out, firsts.data(), firsts.size() * 4);
  out += firsts.size() * 4;
  std::memcpy(out, index.starts.data(), index.starts.size() * 4);
  out += index.starts.size() * 4;
  std::memcpy(out, layouts.data(), layouts.size());
  std::memcpy(out + layouts.size(), stream.data(), stream.size());
  return p;
}

void PackedLeaf::Free(PackedLeaf* p) { ::operator delete(p); }

size_t PackedLeaf::BytesFor(size_t pool_units, size_t num_groups, size_t num_buckets,
                            size_t stream_bytes) {
  // The pool, each group's first key and layout (4 + 8 bytes), the group index, the stream.
  return sizeof(PackedLeaf) + pool_units * 4 + num_groups * 12 + (num_buckets + 1) * 4 +
         stream_bytes;
}

bool PackedLeaf::Find(uint32_t suffix, uint16_t* slot) const {
  const uint32_t* f = firsts();
  if (suffix < f[0]) return false;
  // The number of groups whose first key is <= suffix: at least those below the suffix's bucket,
  // at most those below the next one.
  const uint64_t distance = suffix - f[0];  // 64-bit: bucket_shift may be 32
  const size_t bucket = std::min<uint64_t>(distance >> bucket_shift, num_buckets - 1);
  const size_t below = buckets()[bucket];
  const size_t count = below + PartitionPoint(buckets()[bucket + 1] - below,
                                              [=](size_t i) { return f[below + i] <= suffix; });
  const size_t g = count - 1;  // count >= 1: f[0] <= suffix
  const Group group(stream(), f[g], LoadLE64(layouts() + 8 * g),
                    GroupEnd(g, size) - g * kPackedGroupSize);
  size_t i;
  if (!group.IndexOf(suffix, &i)) return false;
  *slot = group.Slot(i);
  return true;
}

void PackedLeaf::Decode(std::vector<uint32_t>* keys, std::vector<uint16_t>* slots) const {
  keys->clear();
  slots->clear();
  for (size_t g = 0; g < num_groups; ++g) {
    const Group group(stream(), firsts()[g], LoadLE64(layouts() + 8 * g),
                      GroupEnd(g, size) - g * kPackedGroupSize);
    for (size_t i = 0; i < group.entries(); ++i) {
      keys->push_back(static_cast<uint32_t>(group.Key(i)));
      slots->push_back(group.Slot(i));
    }
  }
}

Status PackedLeaf::ValidateLayout() const {
  if (size == 0) return Status::Corruption("empty packed leaf");
  if (num_groups != (size + kPackedGroupSize - 1) / kPackedGroupSize) {
    return Status::Corruption("packed leaf group count");
  }
  // The group index exactly as Pack makes it (Find trusts its counts as bounds).
  {
    const GroupIndex index = MakeGroupIndex(std::vector<uint32_t>(firsts(), firsts() + num_groups));
    if (bucket_shift != index.shift || num_buckets + size_t{1} != index.starts.size() ||
        !std::equal(index.starts.begin(), index.starts.end(), buckets())) {
      return Status::Corruption("packed group index");
    }
  }
  uint64_t bits = 0;
  for (size_t g = 0; g < num_groups; ++g) {
    const GroupLayout layout = GroupLayout::Decode(LoadLE64(layouts() + 8 * g));
    if (layout.bit_offset != bits) return Status::Corruption("packed group bit offset");
    if (layout.extra_bits > 32 || layout.slot_bits > 16 || layout.step == 0) {
      return Status::Corruption("packed group widths");
    }
    bits += (GroupEnd(g, size) - g * kPackedGroupSize) * layout.stride();
  }
  if ((bits + 7) / 8 + kStreamPadding != stream_bytes) {
    return Status::Corruption("packed stream size");
  }
  // Exact key checks on the decoded keys (64-bit, so an overflow shows as a key too large).
  const uint64_t key_limit = uint64_t{1} << (8 * (4 - depth));
  uint64_t previous = 0;
  for (size_t g = 0; g < num_groups; ++g) {
    const Group group(stream(), firsts()[g], LoadLE64(layouts() + 8 * g),
                      GroupEnd(g, size) - g * kPackedGroupSize);
    for (size_t i = 0; i < group.entries(); ++i) {
      const uint64_t key = group.Key(i);
      if ((g > 0 || i > 0) && key <= previous) return Status::Corruption("leaf keys not ascending");
      if (key >= key_limit) return Status::Corruption("packed key beyond the leaf's width");
      previous = key;
    }
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
  const int width = leaf->width();
  leaf->keys.resize(keys.size() * width);
  for (size_t i = 0; i < keys.size(); ++i) std::memcpy(&leaf->keys[i * width], &keys[i], width);
  leaf->slots = std::move(slots);
  leaf->pool.assign(pool(), pool() + pool_units);
  return leaf;
}

}  // namespace pgstore::tidstore::internal
