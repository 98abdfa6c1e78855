/* PostgreSQL 15's own pglz (libpgcommon.a), as a test oracle with plain C types.
 *
 * PostgreSQL's headers have no extern "C" guards, define Max/Min macros and redirect printf to
 * libpgport, so C++ code must not include them; this header is what C++ sees. The functions
 * forward to pglz_compress, pglz_decompress and pglz_maximum_compressed_size unchanged.
 * pglz_compress keeps static state: not thread-safe. */
#ifndef PGSTORE_PROPERTIES_ORACLES_POSTGRES_PGLZ_H_
#define PGSTORE_PROPERTIES_ORACLES_POSTGRES_PGLZ_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same six fields, in the same order, as PGLZ_Strategy. */
typedef struct PgPglzStrategy {
  int32_t min_input_size;
  int32_t max_input_size;
  int32_t min_comp_rate;
  int32_t first_success_by;
  int32_t match_size_good;
  int32_t match_size_drop;
} PgPglzStrategy;

/* PGLZ_strategy_default and PGLZ_strategy_always, read from the library itself. */
PgPglzStrategy PgPglzDefaultStrategy(void);
PgPglzStrategy PgPglzAlwaysStrategy(void);

/* dest must hold slen + 4 bytes. Returns the compressed size or -1. */
int32_t PgPglzCompress(const uint8_t* source, int32_t slen, uint8_t* dest,
                       const PgPglzStrategy* strategy);

/* PostgreSQL 15 reads up to 2 bytes past source + slen on input cut mid-tag: callers must make
 * those bytes readable. Returns the bytes produced or -1. */
int32_t PgPglzDecompress(const uint8_t* source, int32_t slen, uint8_t* dest, int32_t rawsize,
                         bool check_complete);

int32_t PgPglzMaximumCompressedSize(int32_t rawsize, int32_t total_compressed_size);

#ifdef __cplusplus
}

#include <optional>
#include <vector>

// Any struct with PGLZ_Strategy's six fields (pgstore::pglz::Strategy) as a PgPglzStrategy.
template <typename StrategyT>
PgPglzStrategy ToPgPglzStrategy(const StrategyT& s) {
  return {s.min_input_size,   s.max_input_size,  s.min_comp_rate,
          s.first_success_by, s.match_size_good, s.match_size_drop};
}

// PgPglzCompress with any such strategy: the compressed bytes, or nullopt where pglz gives up.
template <typename StrategyT>
std::optional<std::vector<uint8_t>> PgPglzCompressBytes(const std::vector<uint8_t>& raw,
                                                        const StrategyT& s) {
  std::vector<uint8_t> out(raw.size() + 4);
  const PgPglzStrategy pg = ToPgPglzStrategy(s);
  const int32_t n = PgPglzCompress(raw.data(), static_cast<int32_t>(raw.size()), out.data(), &pg);
  if (n < 0) return std::nullopt;
  out.resize(n);
  return out;
}
#endif

#endif /* PGSTORE_PROPERTIES_ORACLES_POSTGRES_PGLZ_H_ */
