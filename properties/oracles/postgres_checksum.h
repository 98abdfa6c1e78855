/* PostgreSQL 15's pg_checksum_page (storage/checksum_impl.h, compiled from the installed server
 * headers) behind a plain C interface. Test-only oracle. */
#ifndef PGSTORE_PROPERTIES_ORACLES_POSTGRES_CHECKSUM_H_
#define PGSTORE_PROPERTIES_ORACLES_POSTGRES_CHECKSUM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* REQUIRES: page points at 8192 writable bytes (pd_checksum is zeroed and restored). */
uint16_t PgChecksumPage(uint8_t* page, uint32_t blkno);

#ifdef __cplusplus
}
#endif

#endif /* PGSTORE_PROPERTIES_ORACLES_POSTGRES_CHECKSUM_H_ */
