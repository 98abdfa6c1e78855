// pglz throughput, pgstore against PostgreSQL 15's own pglz (libpgcommon.a), with lz4 and memcpy
// as the physical reference, on real data found on this machine plus test_pglz-style synthetic
// payloads (table rows, XML-like records, a 4095-byte period, random bytes):
//
//   bazel run --config=bench //tools/bench:pglz_bench -- [--chunk BYTES|0] [--reps N] [FILE...]
//
// A relative FILE is the caller's (BUILD_WORKING_DIRECTORY under bazel run); each input is its
// first MiB.
//
// Each input is measured cut into 2 KB and 8 KB chunks (TOAST-sized values) and whole, or at the
// one --chunk size given (0: whole). Chunks are compressed one by one with the "always" strategy,
// so every input is measured (the default strategy gives up on incompressible data), and
// pgstore's output is checked byte for byte against PostgreSQL's first. The implementations are
// timed round-robin, each repetition about 20 ms of passes; the medians over repetitions are
// reported in MB/s of raw data, with pgstore/PostgreSQL and pgstore as a percentage of lz4, and
// the geometric mean and the lowest of pgstore/PostgreSQL at the end.
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

constexpr size_t kMaxInputBytes = 1 << 20;  // each input is (at most) its first MiB

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
      {"ELF postgres binary", "/usr/lib/postgresql/15/bin/postgres", kMaxInputBytes},
      {"PG relation pg_proc", "/var/lib/postgresql/15/main/base/1/1255", 0},
      {"PG WAL segment", "/var/lib/postgresql/15/main/pg_wal/000000010000000000000001", 0},
  };
  std::vector<Input> inputs;
  for (const Source& s : sources) {
    Input in{s.name, {}};
    if (ReadPrefix(s.path, s.offset, kMaxInputBytes, &in.data)) {
      inputs.push_back(std::move(in));
    } else {
      std::fprintf(stderr, "note: skipping %s (%s not readable)\n", s.name, s.path);
    }
  }
  // Synthetic: text-like rows, XML-like records, a 4095-byte period, pseudo-random bytes.
  Input rows{"synthetic table rows", {}};
  for (int i = 0; rows.data.size() < kMaxInputBytes; ++i) {
    std::string r = std::to_string(i) + "|customer_" + std::to_string(i * 7919 % 10007) +
                    "|2024-01-" + std::to_string(1 + i % 28) + "|status=active|\n";
    rows.data.insert(rows.data.end(), r.begin(), r.end());
  }
  inputs.push_back(std::move(rows));
  Input xml{"synthetic XML records", {}};
  for (int i = 0; xml.data.size() < kMaxInputBytes; ++i) {
    std::string r = "<order id=\"" + std::to_string(100000 + i) + "\"><customer>C" +
                    std::to_string(i * 7919 % 10007) + "</customer><amount currency=\"EUR\">" +
                    std::to_string(i * 31 % 997) + "." + std::to_string(i % 100) +
                    "</amount><state>" + (i % 3 ? "shipped" : "open") + "</state></order>\n";
    xml.data.insert(xml.data.end(), r.begin(), r.end());
  }
  xml.data.resize(kMaxInputBytes);
  inputs.push_back(std::move(xml));
  Input periodic{"synthetic period 4095", Bytes(kMaxInputBytes)};
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
  Input random{"synthetic random", Bytes(kMaxInputBytes)};
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

// How many passes of `fn` take about 20 ms (timed once, after a warm-up pass).
int PassesFor(const std::function<void()>& fn) {
  fn();
  return std::max(1, static_cast<int>(0.02 / std::max(1e-7, Seconds(fn))));
}

// One implementation's compress or decompress pass over every chunk of an input.
struct Contender {
  const char* name;
  std::function<void()> pass;
  int passes = 1;
  std::vector<double> seconds;
  double MBps(size_t bytes) const { return bytes * passes / Median(seconds) / 1e6; }
};

// Times the contenders round-robin, `reps` times each, so that a noisy moment hits all alike.
void TimeRoundRobin(std::vector<Contender>* contenders, int reps) {
  for (Contender& c : *contenders) c.passes = PassesFor(c.pass);
  for (int r = 0; r < reps; ++r) {
    for (Contender& c : *contenders) {
      c.seconds.push_back(Seconds([&] {
        for (int p = 0; p < c.passes; ++p) c.pass();
      }));
    }
  }
}

std::string ChunkLabel(size_t chunk) {
  return chunk == 0 ? "whole input" : std::to_string(chunk >> 10) + " KB chunks";
}

// The figures of one input cut into one chunk size: MB/s of raw data for pgstore, PostgreSQL,
// lz4 and memcpy, compressing and decompressing.
struct Row {
  double ours_over_pg_compress = 0, ours_over_pg_decompress = 0;
  bool decompressed = false;
};

// Compresses and decompresses `in` cut into `chunk`-byte pieces (0: the whole input as one piece)
// with each implementation; returns false if pgstore's output differs from PostgreSQL's.
bool MeasureInput(const Input& in, size_t chunk, int reps, Row* row) {
  const PgPglzStrategy pg_always = PgPglzAlwaysStrategy();
  const size_t piece = chunk == 0 ? in.data.size() : chunk;
  std::vector<Bytes> chunks;
  for (size_t off = 0; off < in.data.size(); off += piece) {
    chunks.emplace_back(in.data.begin() + off,
                        in.data.begin() + std::min(in.data.size(), off + piece));
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
    if (n.value_or(-1) != pn || (n && !std::equal(buf.begin(), buf.begin() + *n, pgbuf.begin()))) {
      std::fprintf(stderr, "error: pgstore and PostgreSQL disagree on %s, chunk %zu\n",
                   in.name.c_str(), i);
      return false;
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
  Bytes out(piece + 8), scratch(std::max<size_t>(pgstore::pglz::MaxOutput(piece),
                                                 LZ4_compressBound(static_cast<int>(piece))));
  auto each_chunk = [&](auto&& fn) {
    return [&chunks, fn] {
      uint64_t sum = 0;
      for (size_t i = 0; i < chunks.size(); ++i) sum += fn(i);
      pgstore::bench::KeepAlive(sum);
    };
  };
  std::vector<Contender> compress = {
      {"pgstore", each_chunk([&](size_t i) {
         return pgstore::pglz::Compress(pgstore::ByteView(chunks[i]), scratch.data(),
                                        pgstore::pglz::kAlwaysStrategy)
             .value_or(0);
       })},
      {"PostgreSQL", each_chunk([&](size_t i) {
         return PgPglzCompress(chunks[i].data(), static_cast<int32_t>(chunks[i].size()),
                               scratch.data(), &pg_always);
       })},
      {"lz4", each_chunk([&](size_t i) {
         return LZ4_compress_default(reinterpret_cast<const char*>(chunks[i].data()),
                                     reinterpret_cast<char*>(scratch.data()),
                                     static_cast<int>(chunks[i].size()),
                                     static_cast<int>(scratch.size()));
       })},
      {"memcpy", each_chunk([&](size_t i) {
         std::memcpy(scratch.data(), chunks[i].data(), chunks[i].size());
         return scratch[i % chunks[i].size()];
       })},
  };
  // Decompression of the chunks pglz compressed (an incompressible chunk is stored raw).
  size_t decoded_bytes = 0;
  for (size_t i = 0; i < chunks.size(); ++i)
    decoded_bytes += pglz[i].empty() ? 0 : chunks[i].size();
  std::vector<Contender> decompress = {
      {"pgstore", each_chunk([&](size_t i) -> int64_t {
         if (pglz[i].empty()) return 0;
         auto r = pgstore::pglz::Decompress(pgstore::ByteView(pglz[i]), out.data(),
                                            chunks[i].size(), pgstore::pglz::Completeness::kExact);
         return r.ok() ? static_cast<int64_t>(*r) : -1;
       })},
      {"PostgreSQL", each_chunk([&](size_t i) -> int64_t {
         if (pglz[i].empty()) return 0;
         return PgPglzDecompress(pglz[i].data(), static_cast<int32_t>(pglz[i].size()), out.data(),
                                 static_cast<int32_t>(chunks[i].size()), true);
       })},
      {"lz4", each_chunk([&](size_t i) -> int64_t {
         if (pglz[i].empty()) return 0;
         return LZ4_decompress_safe(reinterpret_cast<const char*>(lz4[i].data()),
                                    reinterpret_cast<char*>(out.data()),
                                    static_cast<int>(lz4[i].size()), static_cast<int>(out.size()));
       })},
      {"memcpy", each_chunk([&](size_t i) -> int64_t {
         if (pglz[i].empty()) return 0;
         std::memcpy(out.data(), chunks[i].data(), chunks[i].size());
         return out[i % chunks[i].size()];
       })},
  };
  TimeRoundRobin(&compress, reps);
  if (decoded_bytes > 0) TimeRoundRobin(&decompress, reps);

  auto print = [](const std::vector<Contender>& c, size_t bytes) {
    const double ours = c[0].MBps(bytes), pg = c[1].MBps(bytes), lz = c[2].MBps(bytes);
    std::printf("%6.0f %6.0f %6.0f %6.0f  x%.2f %5.0f%%", ours, pg, lz, c[3].MBps(bytes), ours / pg,
                100.0 * ours / lz);
    return ours / pg;
  };
  std::printf("%-24s %6.1f%% | ", in.name.c_str(), 100.0 * compressed_total / in.data.size());
  row->ours_over_pg_compress = print(compress, in.data.size());
  std::printf(" | ");
  row->decompressed = decoded_bytes > 0;
  if (row->decompressed) {
    row->ours_over_pg_decompress = print(decompress, decoded_bytes);
    std::printf("\n");
  } else {
    std::printf("(incompressible: nothing to decompress)\n");
  }
  std::fflush(stdout);
  return true;
}

double GeometricMean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::log(x);
  return v.empty() ? 0 : std::exp(s / v.size());
}

int Run(const std::vector<Input>& inputs, const std::vector<size_t>& chunk_sizes, int reps) {
  std::vector<double> comp_all, decomp_all;
  for (size_t chunk : chunk_sizes) {
    std::printf("\n%s\n", ChunkLabel(chunk).c_str());
    std::printf("%-24s %7s | %-47s | %s\n", "input", "ratio",
                "compress MB/s: pgstore PG lz4 memcpy  /PG  /lz4",
                "decompress MB/s: pgstore PG lz4 memcpy  /PG  /lz4");
    std::vector<double> comp, decomp;
    for (const Input& in : inputs) {
      Row row;
      if (!MeasureInput(in, chunk, reps, &row)) return 1;
      comp.push_back(row.ours_over_pg_compress);
      if (row.decompressed) decomp.push_back(row.ours_over_pg_decompress);
    }
    std::printf("geometric mean pgstore/PostgreSQL over %s: compress x%.2f, decompress x%.2f\n",
                ChunkLabel(chunk).c_str(), GeometricMean(comp), GeometricMean(decomp));
    comp_all.insert(comp_all.end(), comp.begin(), comp.end());
    decomp_all.insert(decomp_all.end(), decomp.begin(), decomp.end());
  }
  std::printf(
      "\ngeometric mean pgstore/PostgreSQL: compress x%.2f, decompress x%.2f (%zu rows, %d "
      "repetitions, medians)\n",
      GeometricMean(comp_all), GeometricMean(decomp_all), comp_all.size(), reps);
  std::printf("lowest row pgstore/PostgreSQL: compress x%.2f, decompress x%.2f\n",
              *std::min_element(comp_all.begin(), comp_all.end()),
              decomp_all.empty() ? 0.0 : *std::min_element(decomp_all.begin(), decomp_all.end()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> chunk_sizes = {2 << 10, 8 << 10, 0};
  constexpr size_t kNotGiven = SIZE_MAX;
  size_t chunk = kNotGiven;
  int reps = 7;
  std::vector<std::string> files;
  pgstore::bench::Flags flags("pglz_bench", "[--chunk BYTES|0] [--reps N] [FILE...]");
  flags.Number("--chunk", &chunk, size_t{0});
  flags.Number("--reps", &reps);
  flags.Positional(&files);
  flags.Parse(argc, argv);
  // PostgreSQL's pglz takes int32 lengths: a chunk must fit one.
  if (chunk != kNotGiven) {
    if (chunk > (1u << 30)) flags.Fail("--chunk must be at most 1 GiB");
    chunk_sizes = {chunk};
  }
  std::vector<Input> inputs;
  for (const std::string& file : files) {
    Input in{file, {}};
    if (!ReadPrefix(pgstore::cli::ResolvePath(file), 0, kMaxInputBytes, &in.data)) {
      flags.Fail("cannot read " + file);
    }
    inputs.push_back(std::move(in));
  }
  if (inputs.empty()) inputs = DefaultInputs();
  std::printf("pglz benchmark: 'always' strategy, %d repetitions; MB/s of raw data (medians)\n",
              reps);
  return Run(inputs, chunk_sizes, reps);
}
