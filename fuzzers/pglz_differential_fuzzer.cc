// Property: pgstore's pglz and PostgreSQL 15's own (libpgcommon.a) produce identical compressed
// bytes for any input and strategy (including giving up), and the same decompression verdict
// and output for any bytes, raw size and mode.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/pglz_fuzz_params.h"
#include "properties/oracles/postgres_pglz.h"
#include "storage/pglz/compress.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"

namespace {

// 64 KiB: both hash-table sizes and history recycling are reached well below this; larger
// inputs only slow the (uninstrumented) PostgreSQL side down.
constexpr size_t kMaxInput = 64 << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  fuzz::TailSplitter t(data, size);
  const pglz::Strategy strategy = fuzz::TakeStrategy(&t);
  const bool exact = t.TakeBool();
  const size_t rawsize = t.TakeU16();
  ByteView payload = t.Payload();
  auto src = fuzz::ExactCopy(payload);
  const int32_t len = static_cast<int32_t>(payload.size);

  // Compression: byte-identical, including the decision to give up.
  std::vector<uint8_t> ours(pglz::MaxOutput(len));
  std::vector<uint8_t> theirs(pglz::MaxOutput(len));
  std::optional<int32_t> n = pglz::Compress(ByteView(src.get(), len), ours.data(), strategy);
  const PgPglzStrategy pg = ToPgPglzStrategy(strategy);
  const int32_t pg_n = PgPglzCompress(payload.data, len, theirs.data(), &pg);
  FUZZ_ASSERT(n.value_or(-1) == pg_n);
  if (n) FUZZ_ASSERT(std::equal(ours.begin(), ours.begin() + *n, theirs.begin()));

  // Decompression of the payload as a stream. PostgreSQL 15 may read 2 bytes past the end of
  // a stream cut mid-tag, so its copy gets 3 bytes of slack; ours gets none.
  std::vector<uint8_t> pg_src(payload.data, payload.data + payload.size);
  pg_src.resize(payload.size + 3, 0);
  std::vector<uint8_t> ours_out(rawsize + 1);
  std::vector<uint8_t> pg_out(rawsize + 1);
  StatusOr<size_t> d =
      pglz::Decompress(ByteView(src.get(), len), ours_out.data(), rawsize,
                       exact ? pglz::Completeness::kExact : pglz::Completeness::kPartial);
  const int32_t pg_d =
      PgPglzDecompress(pg_src.data(), len, pg_out.data(), static_cast<int32_t>(rawsize), exact);
  FUZZ_ASSERT(d.ok() == (pg_d >= 0));
  if (d.ok()) {
    FUZZ_ASSERT(static_cast<int32_t>(*d) == pg_d);
    FUZZ_ASSERT(std::equal(ours_out.begin(), ours_out.begin() + pg_d, pg_out.begin()));
  }
  return 0;
}
