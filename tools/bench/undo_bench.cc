// zheap-style undo, measured:
//   1. undo bytes per operation type for a pgbench accounts row (the zheap layout: header 24,
//      block part 14, payload header 4, payload, tuple, trailer 2; +32 for a transaction's first
//      record), and pack / unpack ns per record;
//   2. rollback ns per undo record (transactions of 50 in-place updates on one page, aborted);
//   3. pgbench's simple-update (UPDATE pgbench_accounts SET abalance = abalance + delta, one
//      transaction each) on an accounts table of --accounts rows, uniform and Zipfian (s = 0.99)
//      access: table pages after each --updates/4 updates, on zheap-style pages (in place, undo
//      elsewhere) and on heap pages (storage/page RelationFiller: a new version per update, no
//      vacuum), and the undo written.
//
//   bazel run --config=bench //tools/bench:undo_bench -- [--accounts N] [--updates N] [--reps N]
//                                                        [--record-iterations N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "storage/page/relation_filler.h"
#include "storage/tuple/form.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "storage/undo/zheap_page.h"
#include "storage/undo/zheap_table.h"
#include "tools/bench/bench_harness.h"

namespace pgstore {
namespace {

using bench::Median;
using undo::UndoRecord;
using undo::UndoType;

// A pgbench_accounts row's data: aid int4, bid int4, abalance int4, filler char(84) (a 1-byte
// varlena header: 85 bytes). zheap stores pass-by-value columns unaligned.
std::vector<uint8_t> AccountData(uint32_t aid, int32_t abalance) {
  std::vector<uint8_t> d(12);
  StoreLE32(&d[0], aid);
  StoreLE32(&d[4], 1 + aid / 100000);
  StoreLE32(&d[8], static_cast<uint32_t>(abalance));
  d.push_back(static_cast<uint8_t>((85 << 1) | 1));
  d.insert(d.end(), 84, ' ');
  return d;
}
std::vector<uint8_t> ZheapAccount(uint32_t aid, int32_t abalance) {
  std::vector<uint8_t> t = {4, 0, 0x02, 0, 5};  // natts 4, HASVARWIDTH, t_hoff 5
  const std::vector<uint8_t> d = AccountData(aid, abalance);
  t.insert(t.end(), d.begin(), d.end());
  return t;
}
// The same row as heap_form_tuple stores it (storage/tuple).
std::vector<uint8_t> HeapAccount(uint32_t aid, int32_t abalance) {
  static const tuple::TupleDesc desc = *tuple::TupleDesc::FromSchema("int4,int4,int4,bpchar");
  const std::vector<std::optional<std::vector<uint8_t>>> values = {
      *tuple::TupleDesc::ParseValue(desc.attr(0), std::to_string(aid)),
      *tuple::TupleDesc::ParseValue(desc.attr(1), std::to_string(1 + aid / 100000)),
      *tuple::TupleDesc::ParseValue(desc.attr(2), std::to_string(abalance)),
      *tuple::TupleDesc::ParseValue(desc.attr(3), std::string(84, ' '))};
  return *tuple::FormHeapTuple(desc, tuple::DatumsOf(values));
}

UndoRecord RecordOf(UndoType type) {
  UndoRecord r;
  r.rmid = undo::kRmZheap;
  r.type = type;
  r.reloid = 16384;
  r.xid = 1000;
  r.has_block = true;
  r.block = 3;
  r.offset = 7;
  const std::vector<uint8_t> row = ZheapAccount(7, 0);
  switch (type) {
    case UndoType::kInsert:
      break;
    case UndoType::kMultiInsert:
      r.payload = {1, 0, 60, 0};
      break;
    case UndoType::kUpdate:
      r.payload = {3, 0, 0, 0, 8, 0};
      r.tuple = row;
      break;
    case UndoType::kXidLockOnly:
    case UndoType::kXidLockForUpdate:
    case UndoType::kXidMultiLockOnly:
      r.payload = {3, 0, 0, 0};
      r.tuple = row;
      break;
    case UndoType::kItemIdUnused:
      r.payload = {1, 0, 2, 0, 3, 0, 4, 0};
      break;
    default:  // DELETE, INPLACE_UPDATE
      r.tuple = row;
      break;
  }
  return r;
}

void RecordSizes(int reps, int iterations) {
  std::printf("undo records (pgbench accounts row, %zu-byte zheap tuple)\n",
              ZheapAccount(1, 0).size());
  std::printf("  %-20s %6s %8s %9s %9s\n", "type", "bytes", "+xact", "pack ns", "unpack ns");
  for (uint8_t t = 0; t <= undo::kMaxUndoType; ++t) {
    const UndoRecord r = RecordOf(static_cast<UndoType>(t));
    UndoRecord first = r;
    first.has_transaction = true;
    std::vector<uint8_t> packed;
    if (!undo::PackUndoRecord(r, &packed).ok()) continue;
    std::vector<double> pack_ns, unpack_ns;
    const int kN = iterations;
    for (int rep = 0; rep < reps; ++rep) {
      size_t sink = 0;
      std::vector<uint8_t> buf;
      bench::Stopwatch watch;
      for (int i = 0; i < kN; ++i) {
        buf.clear();
        (void)undo::PackUndoRecord(r, &buf);
        sink += buf.size();
      }
      pack_ns.push_back(watch.Nanoseconds() / kN);
      watch.Restart();
      for (int i = 0; i < kN; ++i) sink += undo::UnpackUndoRecord(packed)->tuple.size();
      unpack_ns.push_back(watch.Nanoseconds() / kN);
      bench::KeepAlive(sink);
    }
    std::printf("  %-20s %6zu %8zu %9.1f %9.1f\n", undo::UndoTypeName(r.type), undo::PackedSize(r),
                undo::PackedSize(first), Median(pack_ns), Median(unpack_ns));
  }
}

void RollbackCost(int reps) {
  constexpr int kUpdates = 50, kXacts = 2000;
  std::vector<double> ns;
  for (int rep = 0; rep < reps; ++rep) {
    undo::UndoLog log(1);
    undo::XactTable xacts;
    undo::ZheapTable table(undo::ZheapPage(4), 16384, 0, &log, &xacts);
    uint32_t xid = 1;
    (void)xacts.Begin(xid);
    std::vector<uint16_t> offs;
    for (int i = 0; i < kUpdates; ++i) offs.push_back(*table.Insert(xid, ZheapAccount(i, 0)));
    (void)table.Commit(xid);
    double total = 0;
    for (int x = 0; x < kXacts; ++x) {
      (void)xacts.Begin(++xid);
      for (int i = 0; i < kUpdates; ++i) (void)table.Update(xid, offs[i], ZheapAccount(i, x));
      const bench::Stopwatch watch;
      (void)table.Abort(xid);
      total += watch.Nanoseconds();
    }
    ns.push_back(total / (kXacts * kUpdates));
  }
  std::printf("\nrollback: %.1f ns per undo record (in-place updates, %d per transaction)\n",
              Median(ns), kUpdates);
}

// The undo log's size in bytes at a pointer (its pages, headers included).
uint64_t UndoBytes(undo::UndoRecPtr p) { return undo::UndoRecPtrOffset(p); }

// The aid of the next update: uniform, or Zipfian with s = 0.99 over 1..n (inverse CDF).
class AccessPattern {
 public:
  AccessPattern(bool zipf, uint32_t n, uint32_t seed) : zipf_(zipf), n_(n), rng_(seed) {
    if (!zipf) return;
    cdf_.resize(n);
    double sum = 0;
    for (uint32_t i = 0; i < n; ++i) cdf_[i] = (sum += 1.0 / std::pow(i + 1.0, 0.99));
    for (double& c : cdf_) c /= sum;
  }
  uint32_t Next() {
    if (!zipf_) return 1 + rng_() % n_;
    const double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    // Scatter the popular aids over the table (as a hash of the rank would).
    const uint32_t rank =
        static_cast<uint32_t>(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin());
    return 1 + static_cast<uint32_t>((uint64_t{rank} * 2654435761u) % n_);
  }

 private:
  bool zipf_;
  uint32_t n_;
  std::mt19937 rng_;
  std::vector<double> cdf_;
};

int SimpleUpdate(uint32_t accounts, uint64_t updates, bool zipf) {
  std::printf("\npgbench simple-update, %u accounts, %s access (table pages)\n", accounts,
              zipf ? "Zipfian s=0.99" : "uniform");
  std::printf("  %12s %10s %10s %12s %14s\n", "updates", "zheap", "heap", "heap/zheap", "undo MB");
  // zheap-style: pages filled by inserts, each row's (page, offset) remembered.
  undo::UndoLog log(1);
  undo::XactTable xacts;
  std::vector<undo::ZheapTable> pages;
  std::vector<std::pair<uint32_t, uint16_t>> where(accounts + 1);
  uint32_t xid = 1;
  if (!xacts.Begin(xid).ok()) return 1;
  page::RelationFiller heap;
  std::vector<page::Tid> heap_tid(accounts + 1);
  for (uint32_t aid = 1; aid <= accounts; ++aid) {
    const std::vector<uint8_t> row = ZheapAccount(aid, 0);
    StatusOr<uint16_t> off =
        pages.empty() ? StatusOr<uint16_t>(Status::Busy("none")) : pages.back().Insert(xid, row);
    if (!off.ok()) {
      pages.emplace_back(undo::ZheapPage(4), 16384, static_cast<uint32_t>(pages.size()), &log,
                         &xacts);
      off = pages.back().Insert(xid, row);
      if (!off.ok()) return 1;
    }
    where[aid] = {static_cast<uint32_t>(pages.size() - 1), *off};
    heap_tid[aid] = *heap.Insert(HeapAccount(aid, 0));
  }
  if (!xacts.Commit(xid).ok()) return 1;
  const uint64_t undo_after_load = UndoBytes(log.insert_ptr());
  std::printf("  %12d %10zu %10zu %12.2f %14s\n", 0, pages.size(), heap.pages(),
              static_cast<double>(heap.pages()) / pages.size(), "-");
  AccessPattern pattern(zipf, accounts, zipf ? 7 : 5);
  std::mt19937 delta(11);
  std::vector<int32_t> balance(accounts + 1, 0);
  for (uint64_t u = 1; u <= updates; ++u) {
    const uint32_t aid = pattern.Next();
    balance[aid] += static_cast<int32_t>(delta() % 10001) - 5000;
    if (!xacts.Begin(++xid).ok()) return 1;
    const auto [pageno, off] = where[aid];
    StatusOr<uint16_t> got = pages[pageno].Update(xid, off, ZheapAccount(aid, balance[aid]));
    if (!got.ok() || *got != off) {
      std::fprintf(stderr, "undo_bench: zheap update of aid %u failed: %s\n", aid,
                   got.status().ToString().c_str());
      return 1;
    }
    if (!xacts.Commit(xid).ok()) return 1;
    StatusOr<page::Tid> tid = heap.Update(heap_tid[aid], HeapAccount(aid, balance[aid]));
    if (!tid.ok()) return 1;
    heap_tid[aid] = *tid;
    if (u % (updates / 4) == 0) {
      std::printf("  %12llu %10zu %10zu %12.2f %14.1f\n", static_cast<unsigned long long>(u),
                  pages.size(), heap.pages(), static_cast<double>(heap.pages()) / pages.size(),
                  (UndoBytes(log.insert_ptr()) - undo_after_load) / 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace pgstore

int main(int argc, char** argv) {
  using namespace pgstore;
  uint32_t accounts = 100000;
  uint64_t updates = 400000;
  int reps = 5;
  int record_iterations = 200000;
  bench::Flags flags("undo_bench",
                     "[--accounts N] [--updates N] [--reps N] [--record-iterations N]");
  flags.Number("--accounts", &accounts);
  flags.Number("--updates", &updates, uint64_t{4});  // reported after each quarter
  flags.Number("--reps", &reps);
  flags.Number("--record-iterations", &record_iterations);
  flags.Parse(argc, argv);
  RecordSizes(reps, record_iterations);
  RollbackCost(reps);
  if (SimpleUpdate(accounts, updates, false) != 0) return 1;
  if (SimpleUpdate(accounts, updates, true) != 0) return 1;
  return 0;
}
