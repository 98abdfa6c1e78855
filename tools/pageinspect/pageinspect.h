// pgstore's versions of pageinspect's heap_page_items and tuple_data_split (PostgreSQL 15,
// contrib/pageinspect/heapfuncs.c), over one 8 KB heap page, as tab-separated lines.
//
// items: blkno lp lp_off lp_flags lp_len t_xmin t_xmax t_field3 t_ctid t_infomask2 t_infomask
//        t_hoff t_bits t_data, one line per line pointer. As in PostgreSQL, the tuple fields are
//        empty (NULL) unless the item has storage, is at least 24 bytes, MAXALIGNed and inside the
//        page; t_bits and t_data are empty unless 23 <= t_hoff <= lp_len and t_hoff is MAXALIGNed;
//        t_bits is empty without HEAP_HASNULL. t_data is the hex of the bytes from t_hoff.
// split: blkno lp, then per descriptor attribute the hex of its stored bytes, or NULL (also for
//        attributes past the tuple's natts: pageinspect does not apply missing defaults); only
//        normal line pointers.
// Problems (the page verifier's findings; tuples that fail to deform) go to `errors` as
// "block B lp L: <check>" (lp 0 = page header), and the rest of the page is still listed.
#ifndef PGSTORE_TOOLS_PAGEINSPECT_PAGEINSPECT_H_
#define PGSTORE_TOOLS_PAGEINSPECT_PAGEINSPECT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/tuple/tuple_desc.h"

namespace pgstore::pageinspect {

struct Report {
  std::vector<std::string> lines;
  std::vector<std::string> errors;
};

// REQUIRES: page.size == 8192.
void HeapPageItems(ByteView page, uint32_t blkno, Report* out);
void TupleDataSplit(ByteView page, uint32_t blkno, const tuple::TupleDesc& desc, Report* out);

std::string Hex(ByteView bytes);

}  // namespace pgstore::pageinspect

#endif  // PGSTORE_TOOLS_PAGEINSPECT_PAGEINSPECT_H_
