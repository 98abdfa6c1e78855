// A set of heap TIDs (block, offset) for vacuum's dead tuples: an adaptive radix tree over the
// 32-bit block number whose leaves hold each block's offsets.
//
// Shape. A key is the block number read as 4 bytes, most significant first. Inner nodes at depth d
// (0..2) index the child by key byte d, with four node sizes, grown as children are added:
//   Node4, Node16  sorted chunk array + child pointers      (8 + 5 * 4 / 8 + 9 * 16 bytes)
//   Node48         256-byte chunk index + 48 child pointers
//   Node256        256 child pointers
// A leaf at depth d holds every block below its d-byte prefix as sorted (suffix, slot) pairs, the
// suffix being the remaining 4 - d key bytes. A leaf with more than burst_entries entries at depth
// < 3 bursts into a Node over leaves one level deeper, so sparse keys share one compact leaf (3 to
// 6 bytes a block) and dense ranges end in depth-3 leaves of up to 256 blocks. The root may be a
// leaf: a small store is one sorted array.
// Values (offset_set.h): a single offset, or every offset 1..n, is embedded in the 16-bit slot;
// other sets are entries of the leaf's pool (a list, a bitmap, or runs, whichever is smallest).
// Replaced and removed entries are dead pool space, compacted when it exceeds the live space or the
// 15-bit unit index runs out. ShrinkToFit (and so BuildFromSorted and Union) freezes each leaf at
// depth 0 to 2 into a packed leaf (packed_leaf.h: one allocation, delta-coded keys, bit-packed
// slots) when that is smaller; that is what keeps a maximally sparse store under the array's 6
// bytes a TID. A change to a packed leaf unpacks it first.
//
// memory_usage() is the sum of the bytes the store has allocated: every node's and leaf's size and
// the capacity of each leaf's arrays (the allocator's own per-allocation overhead excluded).
#ifndef PGSTORE_STORAGE_TIDSTORE_TID_STORE_H_
#define PGSTORE_STORAGE_TIDSTORE_TID_STORE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "storage/common/status.h"
#include "storage/tidstore/offset_set.h"

namespace pgstore::tidstore {

struct Tid {
  uint32_t block = 0;
  uint16_t offset = 0;
};

// Checks offsets[0..n): n >= 1, strictly ascending, within 1..kMaxOffsetNumber. InvalidArgument
// "no offsets", "tuple offset out of range: N", "offsets not strictly ascending".
Status CheckOffsets(const uint16_t* offsets, size_t n);

inline constexpr size_t kDefaultBurstEntries = 8192;

class TidStore {
 public:
  // burst_entries: the most blocks a leaf above depth 3 holds before it bursts (at least 1). The
  // default is measured (tools/bench:tidstore_bench); tests lower it to reach every tree shape.
  explicit TidStore(size_t burst_entries = kDefaultBurstEntries);
  ~TidStore();
  TidStore(const TidStore&) = delete;
  TidStore& operator=(const TidStore&) = delete;
  TidStore(TidStore&& other) noexcept;
  TidStore& operator=(TidStore&& other) noexcept;

  // Sets (replaces) the offsets of `block`. On InvalidArgument the store is unchanged.
  Status SetBlockOffsets(uint32_t block, const uint16_t* offsets, size_t n);
  Status SetBlockOffsets(uint32_t block, const std::vector<uint16_t>& offsets) {
    return SetBlockOffsets(block, offsets.data(), offsets.size());
  }
  // Removes the block; returns whether it was present.
  bool RemoveBlock(uint32_t block);

  bool IsMember(Tid tid) const;
  // The block's offsets, ascending (empty if absent).
  std::vector<uint16_t> BlockOffsets(uint32_t block) const;

  // Calls fn(block, offsets) for every block in ascending order; stops early if fn returns false.
  void ForEachBlock(const std::function<bool(uint32_t, const std::vector<uint16_t>&)>& fn) const;

  // Releases spare capacity: compacts every leaf's pool and shrinks its arrays to their size
  // (BuildFromSorted and Union end with it).
  void ShrinkToFit();

  // Checks every structural invariant (as amcheck does for a heap): node kinds, depths and child
  // counts; chunk order; leaf keys strictly ascending; every slot a
  // valid offset or a well-formed pool entry; dead pool space exactly what no slot references;
  // the block and TID counts; the lookup shortcut and its prefix. Corruption naming the first
  // broken invariant. For tests.
  Status Validate() const;

  size_t num_blocks() const { return num_blocks_; }
  size_t num_tids() const { return num_tids_; }
  size_t MemoryUsage() const;

  // A store of the TIDs of a stream sorted by (block, offset), as vacuum produces it.
  // InvalidArgument if the stream is not strictly ascending or an offset is out of range.
  static StatusOr<TidStore> BuildFromSorted(const std::vector<Tid>& tids,
                                            size_t burst_entries = kDefaultBurstEntries);
  // Every TID of a and of b (with a's burst_entries).
  static TidStore Union(const TidStore& a, const TidStore& b);

  struct Node;  // implementation types, in tid_store.cc

 private:
  friend struct TidStoreTestPeer;  // tests break fields to see Validate report them

  // Recomputes shortcut_ (after every change to the tree).
  void UpdateShortcut();
  // Validate's check of shortcut_ and shortcut_prefix_.
  Status ValidateShortcut() const;

  Node* root_ = nullptr;
  // The first node on the root's path that is a leaf or has more than one child, and the key bytes
  // of the single-child nodes above it (the top shortcut_->depth bytes of shortcut_prefix_), which
  // every stored block has: IsMember checks them and starts there.
  const Node* shortcut_ = nullptr;
  uint32_t shortcut_prefix_ = 0;
  size_t burst_entries_;
  size_t num_blocks_ = 0;
  size_t num_tids_ = 0;
  uint32_t min_block_ = UINT32_MAX;  // a cheap range check before the descent
  uint32_t max_block_ = 0;
};

}  // namespace pgstore::tidstore

#endif  // PGSTORE_STORAGE_TIDSTORE_TID_STORE_H_
