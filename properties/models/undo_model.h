// Reference model of a zheap page under transactions (storage/undo/zheap_table.h), written from
// the rules and docs/formats.md §6, sharing no code with storage/: the page's visible
// contents as a map from offset to tuple bytes (the 5-byte header without its transaction slot and
// visibility bits, then the data), each running transaction's before-images (taken at its first
// change of a tuple), and enough bookkeeping to predict PageAddItem's offsets and when an
// operation must be Busy:
//   - a tuple another running transaction changed is Busy;
//   - a transaction holding no slot finds none (Busy) when running slot holders and committed
//     ones not yet all-visible (some older transaction still runs) fill every slot.
// Abort (and a crash, for every running transaction) puts the before-images back; offsets the
// transaction inserted become unused line pointers, reused lowest first.
#ifndef PGSTORE_PROPERTIES_MODELS_UNDO_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_UNDO_MODEL_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace pgstore::models {

class ZheapModel {
 public:
  using Bytes = std::vector<uint8_t>;
  enum class Outcome { kOk, kBusy };

  explicit ZheapModel(int num_slots) : num_slots_(num_slots) {}

  // The header and data without transaction slot and visibility bits.
  static Bytes Normalized(Bytes t) {
    t[1] &= 0x07;                  // t_infomask2: keep natts (bits 0..10)
    const uint16_t keep = 0x0007;  // t_infomask: HASNULL, HASVARWIDTH, HASEXTERNAL
    t[2] &= keep & 0xFF;
    t[3] = 0;
    return t;
  }

  uint32_t Begin() {
    const uint32_t xid = next_xid_++;
    running_[xid] = Xact{};
    return xid;
  }
  const std::map<uint16_t, Bytes>& visible() const { return visible_; }
  bool IsRunning(uint32_t xid) const { return running_.count(xid) > 0; }
  std::vector<uint32_t> Running() const {
    std::vector<uint32_t> v;
    for (const auto& [x, _] : running_) v.push_back(x);
    return v;
  }
  std::vector<uint16_t> TouchedBy(uint32_t xid) const {
    std::vector<uint16_t> v;
    for (const auto& [off, _] : running_.at(xid).before) v.push_back(off);
    return v;
  }

  // The offset PageAddItem gives the next item.
  uint16_t NextOffset() const {
    return unused_.empty() ? static_cast<uint16_t>(max_offset_ + 1) : *unused_.begin();
  }

  Outcome Insert(uint32_t xid, const Bytes& tuple) {
    if (SlotBusy(xid)) return Outcome::kBusy;
    const uint16_t off = TakeOffset();
    Touch(xid, off, std::nullopt);
    visible_[off] = Normalized(tuple);
    return Outcome::kOk;
  }
  // The new version's offset through *new_off.
  Outcome Update(uint32_t xid, uint16_t off, const Bytes& tuple, uint16_t* new_off) {
    if (TupleBusy(xid, off) || SlotBusy(xid)) return Outcome::kBusy;
    const Bytes old = visible_.at(off);
    Touch(xid, off, old);
    if (tuple.size() <= old.size()) {
      visible_[off] = Normalized(tuple);
      *new_off = off;
      return Outcome::kOk;
    }
    *new_off = TakeOffset();
    Touch(xid, *new_off, std::nullopt);
    visible_.erase(off);
    visible_[*new_off] = Normalized(tuple);
    return Outcome::kOk;
  }
  Outcome Delete(uint32_t xid, uint16_t off) {
    if (TupleBusy(xid, off) || SlotBusy(xid)) return Outcome::kBusy;
    Touch(xid, off, visible_.at(off));
    visible_.erase(off);
    return Outcome::kOk;
  }
  Outcome Lock(uint32_t xid, uint16_t off) {
    if (TupleBusy(xid, off) || SlotBusy(xid)) return Outcome::kBusy;
    Touch(xid, off, visible_.at(off));
    return Outcome::kOk;
  }
  void Commit(uint32_t xid) {
    if (running_.at(xid).has_slot) committed_holders_.insert(xid);
    Release(xid);
  }
  void Abort(uint32_t xid) {
    for (const auto& [off, before] : running_.at(xid).before) {
      if (before) {
        visible_[off] = *before;
      } else {
        visible_.erase(off);
        unused_.insert(off);
      }
    }
    Release(xid);
  }

 private:
  struct Xact {
    std::map<uint16_t, std::optional<Bytes>> before;
    bool has_slot = false;
  };

  bool AllVisible(uint32_t committed) const {
    return running_.empty() || running_.begin()->first > committed;
  }
  bool SlotBusy(uint32_t xid) const {
    if (running_.at(xid).has_slot) return false;
    int held = 0;
    for (const auto& [x, xact] : running_) held += x != xid && xact.has_slot;
    for (uint32_t c : committed_holders_) held += !AllVisible(c);
    return held >= num_slots_;
  }
  bool TupleBusy(uint32_t xid, uint16_t off) const {
    const auto it = owner_.find(off);
    return it != owner_.end() && it->second != xid;
  }
  uint16_t TakeOffset() {
    const uint16_t off = NextOffset();
    if (!unused_.empty()) {
      unused_.erase(unused_.begin());
    } else {
      max_offset_ = off;
    }
    return off;
  }
  void Touch(uint32_t xid, uint16_t off, std::optional<Bytes> before) {
    Xact& x = running_.at(xid);
    x.has_slot = true;
    if (!x.before.count(off)) x.before[off] = std::move(before);
    owner_[off] = xid;
  }
  void Release(uint32_t xid) {
    for (auto it = owner_.begin(); it != owner_.end();) {
      it = it->second == xid ? owner_.erase(it) : std::next(it);
    }
    running_.erase(xid);
    for (auto it = committed_holders_.begin(); it != committed_holders_.end();) {
      it = AllVisible(*it) ? committed_holders_.erase(it) : std::next(it);
    }
  }

  int num_slots_;
  uint32_t next_xid_ = 1;
  uint16_t max_offset_ = 0;
  std::set<uint16_t> unused_;
  std::map<uint16_t, Bytes> visible_;
  std::map<uint16_t, uint32_t> owner_;
  std::map<uint32_t, Xact> running_;
  std::set<uint32_t> committed_holders_;
};

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_UNDO_MODEL_H_
