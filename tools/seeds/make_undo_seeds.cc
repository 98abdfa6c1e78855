// Writes the seed corpora of the undo fuzz targets, built with storage/undo itself so that every
// seed is well-formed:
//   undo_record_decode_fuzzer  one packed record of every type, with and without each optional
//                              part (relation details, block, transaction, slot and subxact ids)
//   undo_log_decode_fuzzer     the pages of logs of 1..3 transactions whose records span pages
//   undo_ops_fuzzer            operation scripts (its byte encoding) with aborts and crashes
//
//   bazel run //tools/seeds:make_undo_seeds -- CORPORA_DIR   (a relative path is the caller's)
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "storage/undo/undo_log.h"
#include "storage/undo/undo_record.h"
#include "tools/cli_path.h"

namespace {

using namespace pgstore;
using namespace pgstore::undo;

void Write(const std::string& dir, const std::string& name, const std::vector<uint8_t>& bytes) {
  std::ofstream(dir + "/" + name, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

UndoRecord Record(UndoType type, int variant) {
  UndoRecord r;
  r.rmid = 22;
  r.type = type;
  r.reloid = 16384;
  r.prevxid = 700;
  r.xid = 735 + variant;
  r.cid = variant;
  r.fork = variant & 1 ? 1 : 0;
  r.has_block = variant & 2;
  r.blkprev = 0x0000010000000123ull;
  r.block = 9;
  r.offset = 4;
  r.has_transaction = variant & 4;
  r.transaction = {0, 1, 5, 0, 0};
  const std::vector<uint8_t> tuple = {0x03, 0x08, 0x02, 0x00, 0x05, 'z', 'h', 'e', 'a', 'p'};
  switch (type) {
    case UndoType::kInsert:
      if (variant & 8) r.payload = {1, 2, 3, 4};
      break;
    case UndoType::kMultiInsert:
      r.payload = {2, 0, 7, 0};
      break;
    case UndoType::kDelete:
    case UndoType::kInplaceUpdate:
      r.tuple = tuple;
      break;
    case UndoType::kUpdate:
      r.payload = {9, 0, 0, 0, 12, 0};
      r.tuple = tuple;
      break;
    case UndoType::kXidLockOnly:
    case UndoType::kXidLockForUpdate:
    case UndoType::kXidMultiLockOnly:
      r.payload = {3, 0, 0, 0};
      r.tuple = tuple;
      break;
    case UndoType::kItemIdUnused:
      r.payload = {1, 0, 2, 0, 5, 0};
      break;
  }
  if (variant & 8 && type != UndoType::kInsert) {
    r.payload_flags = kInfoPayloadContainsSlot;
    r.payload.insert(r.payload.end(), {6, 0, 0, 0});
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_undo_seeds CORPORA_DIR\n");
    return 2;
  }
  const std::string corpora = pgstore::cli::ResolvePath(argv[1]);
  int records = 0, logs = 0;
  for (uint8_t t = 0; t <= kMaxUndoType; ++t) {
    for (int variant : {0, 6, 9, 15}) {
      std::vector<uint8_t> packed;
      if (!PackUndoRecord(Record(static_cast<UndoType>(t), variant), &packed).ok()) continue;
      Write(corpora + "/undo_record_decode_fuzzer",
            "type" + std::to_string(t) + "_v" + std::to_string(variant), packed);
      ++records;
    }
  }
  for (int xacts = 1; xacts <= 3; ++xacts) {
    UndoLog log(5);
    for (int i = 0; i < 6 * xacts; ++i) {
      UndoRecord r = Record(UndoType::kDelete, 2);
      r.xid = 900 + i / 6;
      r.tuple.resize(5 + (i * 1399) % 3000, static_cast<uint8_t>(i));
      if (!log.Append(r).ok()) return 1;
    }
    std::vector<uint8_t> bytes;
    for (const UndoPage& p : log.Pages()) bytes.insert(bytes.end(), p.begin(), p.end());
    if (bytes.size() > 4 * kUndoPageSize) bytes.resize(4 * kUndoPageSize);
    Write(corpora + "/undo_log_decode_fuzzer", "log" + std::to_string(xacts), bytes);
    ++logs;
  }
  // Scripts: slots, then (op, xid pick, args...) as undo_ops_fuzzer reads them.
  const std::vector<std::vector<uint8_t>> scripts = {
      {1, 0, 1, 0, 3, 4,   'a', 'b', 'c', 'd', 1,   0, 3, 2, 'x', 'y', 5, 0, 0,
       2, 0, 0, 3, 6, 'l', 'o', 'n', 'g', 'e', 'r', 3, 0, 0, 4,   0,   0, 6, 0},
      {0, 0, 0, 1, 0, 2, 3, 'p', 'q', 'r', 1, 1, 2, 3, 's', 't', 'u', 2, 0, 0, 1, 1, 'v', 7},
      {4, 0, 1, 0, 1, 2, 'a', 'a', 0, 1, 1, 1, 2, 'b', 'b', 5, 0, 3, 1, 0, 6, 0, 7},
  };
  int n = 0;
  for (const auto& s : scripts)
    Write(corpora + "/undo_ops_fuzzer", "script" + std::to_string(n++), s);
  std::fprintf(stderr, "make_undo_seeds: %d records, %d logs, %d scripts\n", records, logs, n);
  return 0;
}
