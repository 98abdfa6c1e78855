/* Forwards to PostgreSQL 15's pg_checksum_page; see postgres_checksum.h. */
/* postgres_fe.h must come first: it defines the types the others use. */
// clang-format off
#include "postgres_fe.h"
#include "storage/checksum_impl.h"
// clang-format on

#include "properties/oracles/postgres_checksum.h"

uint16_t PgChecksumPage(uint8_t* page, uint32_t blkno) {
  return pg_checksum_page((char*)page, blkno);
}
