// pglz throughput, pgstore against PostgreSQL 15's own pglz (libpgcommon.a), with LZ4 for
// context, on real data found on this machine plus synthetic data:
//
//   bazel run --config=bench //tools/bench:pglz_bench -- [--chunk BYTES] [--reps N] [FILE...]
//
// A relative FILE is the caller's (BUILD_WORKING_DIRECTORY under bazel run).
//
// Each input is cut into chunks (default 16 KiB, a typical TOAST value) compressed one by one with
// the "always" strategy, so every input is measured (the default strategy gives up on
// incompressible data). Each repetition times every implementation back to back on the same
// chunks; the medians over repetitions are reported in MB/s of raw data, with the
// pgstore/PostgreSQL ratio per input, and the geometric mean of the ratios at the end.
#include <lz4.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "properties/oracles/postgres_pglz.h"
#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "tools/bench/bench_harness.h"
#include "tools/cli_path.h"

namespace {

using pgstore::bench::Median;
using Bytes = std::vector<uint8_t>;

struct Input {
  std::string name;
  Bytes data;
};

bool ReadPrefix(const std::string& path, size_t offset, size_t max_bytes, Bytes* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(static_cast<std::streamoff>(offset));
  out->resize(max_bytes);
  in.read(reinterpret_cast<char*>(out->data()), static_cast<std::streamsize>(max_bytes));
  out->resize(static_cast<size_t>(in.gcount()));
  return !out->empty();
}

std::vector<Input> DefaultInputs() {
  struct Source {
    const char* name;
    const char* path;
    size_t offset;
  };
  const Source sources[] = {
      {"license GPL-3", "/usr/share/common-licenses/GPL-3", 0},
      {"license Apache-2.0", "/usr/share/common-licenses/Apache-2.0", 0},
      {"C header (pg_proc_d.h)", "/usr/include/postgresql/15/server/catalog/pg_proc_d.h", 0},
      {"ELF postgres binary", "/usr/lib/postgresql/15/bin/postgres", 1 << 20},
      {"PG relation pg_proc", "/var/lib/postgresql/15/main/base/1/1255", 0},
      {"PG WAL segment", "/var/lib/postgresql/15/main/pg_wal/000000010000000000000001", 0},
  };
  std::vector<Input> inputs;
  for (const Source& s : sources) {
    Input in{s.name, {}};
    if (ReadPrefix(s.path, s.offset, 1 << 20, &in.data)) {
      inputs.push_back(std::move(in));
    } else {
      std::fprintf(stderr, "note: skipping %s (%s not readable)\n", s.name, s.path);
    }
  }
  // Synthetic: text-like rows, a 4095-byte period, pseudo-random bytes.
  Input rows{"synthetic table rows", {}};
  for (int i = 0; rows.data.size() < (1 << 20); ++i) {
    std::string r = std::to_string(i) + "|customer_" + std::to_string(i * 7919 % 10007) +
                    "|2024-01-" + std::to_string(1 + i % 28) + "|status=active|\n";
    rows.data.insert(rows.data.end(), r.begin(), r.end());
  }
  inputs.push_back(std::move(rows));
  Input periodic{"synthetic period 4095", Bytes(1 << 20)};
  uint32_t x = 1;
  for (size_t i = 0; i < periodic.data.size(); ++i) {
    if (i < 4095) {
      x = x * 1664525 + 1013904223;
      periodic.data[i] = static_cast<uint8_t>(x >> 24);
    } else {
      periodic.data[i] = periodic.data[i - 4095];
    }
  }
  inputs.push_back(std::move(periodic));
  Input random{"synthetic random", Bytes(1 << 20)};
  for (auto& b : random.data) {
    x = x * 1664525 + 1013904223;
    b = static_cast<uint8_t>(x >> 24);
  }
  inputs.push_back(std::move(random));
  return inputs;
}

double Seconds(const std::function<void()>& fn) {
  const pgstore::bench::Stopwatch watch;
  fn();
  return watch.Seconds();
}

struct Result {
  double ours, pg, lz4;
};

int Run(const std::vector<Input>& inputs, size_t chunk, int reps) {
  const PgPglzStrategy pg_always = PgPglzAlwaysStrategy();
  std::vector<double> comp_ratios, decomp_ratios;
  std::printf("%-26s %8s | %-30s | %-30s\n", "input", "ratio", "compress MB/s: pgstore  PG  lz4",
              "decompress MB/s: pgstore  PG  lz4");
  for (const Input& in : inputs) {
    std::vector<Bytes> chunks;
    for (size_t off = 0; off < in.data.size(); off += chunk) {
      chunks.emplace_back(in.data.begin() + off,
                          in.data.begin() + std::min(in.data.size(), off + chunk));
    }
    // Compressed forms (pgstore's, byte-identical to PostgreSQL's: checked here once more).
    std::vector<Bytes> pglz(chunks.size()), lz4(chunks.size());
    size_t compressed_total = 0;
    for (size_t i = 0; i < chunks.size(); ++i) {
      Bytes buf(pgstore::pglz::MaxOutput(chunks[i].size()));
      auto n = pgstore::pglz::Compress(pgstore::ByteView(chunks[i]), buf.data(),
                                       pgstore::pglz::kAlwaysStrategy);
      Bytes pgbuf(buf.size());
      int32_t pn = PgPglzCompress(chunks[i].data(), static_cast<int32_t>(chunks[i].size()),
                                  pgbuf.data(), &pg_always);
      if (n.value_or(-1) != pn ||
          (n && !std::equal(buf.begin(), buf.begin() + *n, pgbuf.begin()))) {
        std::fprintf(stderr, "error: pgstore and PostgreSQL disagree on %s\n", in.name.c_str());
        return 1;
      }
      buf.resize(n.value_or(0));  // empty: incompressible chunk (decompression skips it)
      compressed_total += n ? *n : chunks[i].size();
      pglz[i] = std::move(buf);
      Bytes lbuf(LZ4_compressBound(static_cast<int>(chunks[i].size())));
      int ln = LZ4_compress_default(
          reinterpret_cast<const char*>(chunks[i].data()), reinterpret_cast<char*>(lbuf.data()),
          static_cast<int>(chunks[i].size()), static_cast<int>(lbuf.size()));
      lbuf.resize(ln);
      lz4[i] = std::move(lbuf);
    }
    Bytes out(chunk + 8), scratch(pgstore::pglz::MaxOutput(chunk) + 8);
    auto ours_c = [&] {
      int64_t sum = 0;
      for (auto& c : chunks)
        sum += pgstore::pglz::Compress(pgstore::ByteView(c), scratch.data(),
                                       pgstore::pglz::kAlwaysStrategy)
                   .value_or(0);
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    auto pg_c = [&] {
      int64_t sum = 0;
      for (auto& c : chunks)
        sum += PgPglzCompress(c.data(), static_cast<int32_t>(c.size()), scratch.data(), &pg_always);
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    auto lz4_c = [&] {
      int64_t sum = 0;
      for (auto& c : chunks)
        sum += LZ4_compress_default(reinterpret_cast<const char*>(c.data()),
                                    reinterpret_cast<char*>(scratch.data()),
                                    static_cast<int>(c.size()), static_cast<int>(scratch.size()));
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    size_t decoded_bytes = 0;
    for (size_t i = 0; i < chunks.size(); ++i)
      decoded_bytes += pglz[i].empty() ? 0 : chunks[i].size();
    auto ours_d = [&] {
      int64_t sum = 0;
      for (size_t i = 0; i < chunks.size(); ++i) {
        if (pglz[i].empty()) continue;
        auto r = pgstore::pglz::Decompress(pgstore::ByteView(pglz[i]), out.data(), chunks[i].size(),
                                           pgstore::pglz::Completeness::kExact);
        sum += r.ok() ? static_cast<int64_t>(*r) : -1;
      }
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    auto pg_d = [&] {
      int64_t sum = 0;
      for (size_t i = 0; i < chunks.size(); ++i) {
        if (pglz[i].empty()) continue;
        sum += PgPglzDecompress(pglz[i].data(), static_cast<int32_t>(pglz[i].size()), out.data(),
                                static_cast<int32_t>(chunks[i].size()), true);
      }
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    auto lz4_d = [&] {
      int64_t sum = 0;
      for (size_t i = 0; i < chunks.size(); ++i) {
        if (pglz[i].empty()) continue;
        sum += LZ4_decompress_safe(reinterpret_cast<const char*>(lz4[i].data()),
                                   reinterpret_cast<char*>(out.data()),
                                   static_cast<int>(lz4[i].size()), static_cast<int>(out.size()));
      }
      pgstore::bench::KeepAlive(static_cast<uint64_t>(sum));
    };
    // Enough passes per timing for about 50 ms, measured on the first run of our compressor.
    const double once = std::max(1e-6, Seconds(ours_c));
    const int passes = std::max(1, static_cast<int>(0.05 / once));
    auto timed = [&](const std::function<void()>& fn) {
      return Seconds([&] {
        for (int p = 0; p < passes; ++p) fn();
      });
    };
    std::vector<double> t[6];
    for (int r = 0; r < reps; ++r) {
      t[0].push_back(timed(ours_c));
      t[1].push_back(timed(pg_c));
      t[2].push_back(timed(lz4_c));
      t[3].push_back(timed(ours_d));
      t[4].push_back(timed(pg_d));
      t[5].push_back(timed(lz4_d));
    }
    auto mbps = [&](int k, size_t bytes) { return bytes * passes / Median(t[k]) / 1e6; };
    Result c{mbps(0, in.data.size()), mbps(1, in.data.size()), mbps(2, in.data.size())};
    Result d{0, 0, 0};
    if (decoded_bytes > 0)
      d = {mbps(3, decoded_bytes), mbps(4, decoded_bytes), mbps(5, decoded_bytes)};
    comp_ratios.push_back(c.ours / c.pg);
    std::printf("%-26s %7.1f%% | %7.0f %6.0f %6.0f  x%.2f    | ", in.name.c_str(),
                100.0 * compressed_total / in.data.size(), c.ours, c.pg, c.lz4, c.ours / c.pg);
    if (decoded_bytes > 0) {
      decomp_ratios.push_back(d.ours / d.pg);
      std::printf("%7.0f %6.0f %6.0f  x%.2f\n", d.ours, d.pg, d.lz4, d.ours / d.pg);
    } else {
      std::printf("(incompressible: nothing to decompress)\n");
    }
    std::fflush(stdout);
  }
  auto geomean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += std::log(x);
    return std::exp(s / v.size());
  };
  std::printf(
      "\ngeometric mean pgstore/PostgreSQL: compress x%.2f, decompress x%.2f (%zu inputs, "
      "%d repetitions, medians)\n",
      geomean(comp_ratios), geomean(decomp_ratios), comp_ratios.size(), reps);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  size_t chunk = 16 << 10;
  int reps = 7;
  std::vector<std::string> files;
  pgstore::bench::Flags flags("pglz_bench", "[--chunk BYTES] [--reps N] [FILE...]");
  flags.Number("--chunk", &chunk);
  flags.Number("--reps", &reps);
  flags.Positional(&files);
  flags.Parse(argc, argv);
  // PostgreSQL's pglz takes int32 lengths: a chunk must fit one.
  if (chunk > (1u << 30)) flags.Fail("--chunk must be at most 1 GiB");
  std::vector<Input> inputs;
  for (const std::string& file : files) {
    Input in{file, {}};
    if (!ReadPrefix(pgstore::cli::ResolvePath(file), 0, 1 << 20, &in.data)) {
      flags.Fail("cannot read " + file);
    }
    inputs.push_back(std::move(in));
  }
  if (inputs.empty()) inputs = DefaultInputs();
  std::printf("pglz benchmark: %zu-byte chunks, 'always' strategy, %d repetitions\n\n", chunk,
              reps);
  return Run(inputs, chunk, reps);
}
