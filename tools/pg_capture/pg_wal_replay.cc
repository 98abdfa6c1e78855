// Replays heap UPDATE records captured from a real PostgreSQL 15 server (tools/pg_capture/
// pg_wal_capture's updates.tsv) through pgstore:
//   - redo: ReconstructNewTuple(old tuple, flags, block data) must equal the new tuple found on the
//     page in every header field (xmin = the record's xid, cmin 0, xmax, t_ctid, infomask2,
//     t_hoff) but the hint bits of t_infomask, and byte for byte in bitmap and data;
//   - encode: EncodeUpdate(old, new, prefix-suffix) must produce PostgreSQL's flags and block data
//     byte for byte (the whole new tuple for an update to another page, where PostgreSQL may not
//     refer to the old tuple).
// Also requires the capture to cover a prefix, a suffix, both, HOT and non-HOT updates, and updates
// to another page.
//
//   pg_wal_replay UPDATES_TSV        exit 0 if all agree, 1 on the first disagreement, 2 on usage
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/waldelta/update_delta.h"
#include "storage/waldelta/update_record.h"
#include "tools/cli_path.h"
#include "tools/pg_capture/tsv.h"

namespace pgstore {
namespace {

constexpr uint16_t kHintBits = 0x0100 | 0x0200 | 0x0400 | 0x0800;

using capture::FromHex;
using capture::Split;

std::string Hex(const std::vector<uint8_t>& v) {
  std::string s;
  char b[3];
  for (uint8_t x : v) {
    std::snprintf(b, sizeof b, "%02x", x);
    s += b;
  }
  return s;
}

int Fail(const std::string& where, const std::string& what) {
  std::fprintf(stderr, "pg_wal_replay: %s: %s\n", where.c_str(), what.c_str());
  return 1;
}

int Run(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "pg_wal_replay: cannot read %s\n", path);
    return 2;
  }
  int records = 0, prefix = 0, suffix = 0, both = 0, hot = 0, cold = 0, other_page = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = Split(line, '\t');
    const std::string where = "record at " + (f.empty() ? std::string("?") : f[0]);
    std::vector<uint8_t> block_data, old_tuple, page_tuple;
    if (f.size() != 12 || !FromHex(f[9], &block_data) || !FromHex(f[10], &old_tuple) ||
        !FromHex(f[11], &page_tuple)) {
      return Fail(where, "malformed line (12 tab-separated fields, hex in the last three)");
    }
    const uint32_t xid = std::stoul(f[2]);
    const uint8_t flags = static_cast<uint8_t>(std::stoul(f[3]));
    const uint32_t old_block = std::stoul(f[4]), new_block = std::stoul(f[6]);
    const uint16_t new_offnum = static_cast<uint16_t>(std::stoul(f[7]));
    const uint32_t new_xmax = std::stoul(f[8]);
    ++records;
    (f[1] == "HOT_UPDATE" ? hot : cold) += 1;
    other_page += old_block != new_block;
    const bool has_prefix = flags & waldelta::kFlagPrefixFromOld;
    const bool has_suffix = flags & waldelta::kFlagSuffixFromOld;
    prefix += has_prefix && !has_suffix;
    suffix += has_suffix && !has_prefix;
    both += has_prefix && has_suffix;

    // Redo.
    StatusOr<std::vector<uint8_t>> redone = waldelta::ReconstructNewTuple(
        old_tuple, flags, block_data, {xid, new_xmax, new_block, new_offnum});
    if (!redone.ok()) return Fail(where, "redo failed: " + redone.status().ToString());
    std::vector<uint8_t> expect = page_tuple;
    if (expect.size() != redone->size()) return Fail(where, "redo: tuple length differs");
    // Hint bits are set on the page after the update by readers; nothing else may differ.
    StoreLE16(&expect[20], LoadLE16(&expect[20]) & ~kHintBits);
    std::vector<uint8_t> got = *redone;
    StoreLE16(&got[20], LoadLE16(&got[20]) & ~kHintBits);
    if (got != expect) {
      return Fail(where, "redo: tuple differs\n  ours " + Hex(got) + "\n  page " + Hex(expect));
    }

    // Encode: the new tuple as it was logged (its infomask before any hint bit).
    const size_t head = (has_prefix ? 2 : 0) + (has_suffix ? 2 : 0);
    std::vector<uint8_t> logged = page_tuple;
    std::copy(block_data.begin() + head, block_data.begin() + head + 4, logged.begin() + 18);
    const bool same_page = old_block == new_block;
    StatusOr<waldelta::UpdateRecord> ours = waldelta::EncodeUpdate(
        old_tuple, logged, waldelta::DeltaMethod::kPrefixSuffix, /*eligible=*/same_page);
    if (!ours.ok()) return Fail(where, "encode failed: " + ours.status().ToString());
    if (ours->flags != (flags & (waldelta::kFlagPrefixFromOld | waldelta::kFlagSuffixFromOld))) {
      return Fail(where, "encode: flags differ: ours " + std::to_string(ours->flags) +
                             ", PostgreSQL's " + std::to_string(flags));
    }
    if (ours->block_data != block_data) {
      return Fail(where, "encode: block data differs\n  ours " + Hex(ours->block_data) +
                             "\n  PostgreSQL " + Hex(block_data));
    }
  }
  std::printf(
      "pg_wal_replay: %d records: redo equals the page and prefix-suffix encoding equals "
      "PostgreSQL's block data for all (%d prefix only, %d suffix only, %d both, %d HOT, "
      "%d not HOT, %d to another page)\n",
      records, prefix, suffix, both, hot, cold, other_page);
  if (records == 0 || prefix == 0 || suffix == 0 || both == 0 || hot == 0 || cold == 0 ||
      other_page == 0) {
    std::fprintf(stderr, "pg_wal_replay: the capture does not cover every kind of update\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace pgstore

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pg_wal_replay UPDATES_TSV\n");
    return 2;
  }
  return pgstore::Run(pgstore::cli::ResolvePath(argv[1]).c_str());
}
