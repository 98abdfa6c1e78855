/* Forwards to PostgreSQL 15's pglz in libpgcommon.a; see postgres_pglz.h. */
/* postgres_fe.h must come first: it defines the types the others use. */
// clang-format off
#include "postgres_fe.h"
#include "common/pg_lzcompress.h"
// clang-format on

#include "properties/oracles/postgres_pglz.h"

static PgPglzStrategy FromPg(const PGLZ_Strategy* s) {
  PgPglzStrategy out = {s->min_input_size,   s->max_input_size,  s->min_comp_rate,
                        s->first_success_by, s->match_size_good, s->match_size_drop};
  return out;
}

PgPglzStrategy PgPglzDefaultStrategy(void) { return FromPg(PGLZ_strategy_default); }
PgPglzStrategy PgPglzAlwaysStrategy(void) { return FromPg(PGLZ_strategy_always); }

int32_t PgPglzCompress(const uint8_t* source, int32_t slen, uint8_t* dest,
                       const PgPglzStrategy* strategy) {
  PGLZ_Strategy s;
  s.min_input_size = strategy->min_input_size;
  s.max_input_size = strategy->max_input_size;
  s.min_comp_rate = strategy->min_comp_rate;
  s.first_success_by = strategy->first_success_by;
  s.match_size_good = strategy->match_size_good;
  s.match_size_drop = strategy->match_size_drop;
  return pglz_compress((const char*)source, slen, (char*)dest, &s);
}

int32_t PgPglzDecompress(const uint8_t* source, int32_t slen, uint8_t* dest, int32_t rawsize,
                         bool check_complete) {
  return pglz_decompress((const char*)source, slen, (char*)dest, rawsize, check_complete);
}

int32_t PgPglzMaximumCompressedSize(int32_t rawsize, int32_t total_compressed_size) {
  return pglz_maximum_compressed_size(rawsize, total_compressed_size);
}
