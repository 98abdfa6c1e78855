// pg_checksum_page (storage/checksum_impl.h): PostgreSQL's data page checksum.
//
// The page is read as uint32 data[64][32] in native (little-endian) order with pd_checksum taken as
// 0. 32 lanes, each seeded from a fixed table, absorb one column each: tmp = sum ^ value;
// sum = tmp * 16777619 ^ (tmp >> 17); then two rounds of 0. The lanes are XORed together, XORed
// with the block number, and stored as (x % 65535) + 1, so a checksum is never 0.
#ifndef PGSTORE_STORAGE_PAGE_CHECKSUM_H_
#define PGSTORE_STORAGE_PAGE_CHECKSUM_H_

#include <cstdint>

#include "storage/common/bytes.h"

namespace pgstore::page {

// REQUIRES: page.size == kPageSize.
uint16_t PageChecksum(ByteView page, uint32_t blkno);

// The 32-bit hash before the (x % 65535) + 1 reduction. The reduction maps about 1 in 65535
// single-bit changes of a page to an unchanged checksum; the unreduced hash shows whether the
// change reached the hash at all.
uint32_t PageChecksumUnreduced(ByteView page, uint32_t blkno);

}  // namespace pgstore::page

#endif  // PGSTORE_STORAGE_PAGE_CHECKSUM_H_
