// RapidCheck generators for UPDATEs: an old row of a generated descriptor (tuple_generators.h)
// and a new row derived from it column by column, the way UPDATEs change rows: most columns kept,
// some changed in place (same size), some grown or shrunk (the data after them shifts), NULLs
// coming and going (the bitmap changes and the data shifts), occasionally a byte prepended to a
// value. Both rows are formed into heap tuples with storage/tuple, as a table stores them.
#ifndef PGSTORE_PROPERTIES_GENERATORS_UPDATE_GENERATORS_H_
#define PGSTORE_PROPERTIES_GENERATORS_UPDATE_GENERATORS_H_

#include <rapidcheck.h>

#include <vector>

#include "properties/generators/tuple_generators.h"
#include "storage/tuple/form.h"
#include "storage/tuple/varlena.h"

namespace pgstore::generators {

struct UpdateCase {
  std::vector<uint8_t> old_tuple;
  std::vector<uint8_t> new_tuple;
};

// A varlena value with one more byte in front of its data (4B values only; others unchanged).
inline std::vector<uint8_t> PrependByte(const tuple::Attribute& a, std::vector<uint8_t> v,
                                        uint8_t byte) {
  if (!a.is_varlena() || v.size() < 4 || (v[0] & 3) != 0) return v;
  std::vector<uint8_t> data(v.begin() + 4, v.end());
  data.insert(data.begin(), byte);
  return tuple::MakeVarlena(ByteView(data));
}

inline OwnedRow MutateRow(const tuple::TupleDesc& desc, const OwnedRow& old_row) {
  const int change_percent = *rc::gen::element(0, 5, 20, 50, 100);
  OwnedRow row = old_row;
  for (int i = 0; i < desc.natts(); ++i) {
    if (*rc::gen::inRange(0, 100) >= change_percent) continue;
    const tuple::Attribute& a = desc.attr(i);
    switch (*rc::gen::inRange(0, 4)) {
      case 0:  // a new value (any size)
        row[i] = GenValue(a);
        break;
      case 1:  // NULL comes or goes
        row[i] = row[i] ? std::nullopt : std::optional<std::vector<uint8_t>>(GenValue(a));
        break;
      case 2:  // a byte prepended
        if (row[i]) row[i] = PrependByte(a, *row[i], *rc::gen::arbitrary<uint8_t>());
        break;
      default:  // same size, bytes flipped in place (not the varlena header)
        if (row[i] && row[i]->size() > 4) {
          const size_t at = *rc::gen::inRange<size_t>(4, row[i]->size());
          (*row[i])[at] ^= static_cast<uint8_t>(*rc::gen::inRange(1, 256));
        }
        break;
    }
  }
  return row;
}

// An update whose tuples both form (rows too large for a heap tuple are regenerated).
inline rc::Gen<UpdateCase> genUpdateCase() {
  return rc::gen::exec([] {
    for (;;) {
      const tuple::TupleDesc desc = *genTupleDesc();
      const OwnedRow old_row = GenRow(desc);
      const OwnedRow new_row = MutateRow(desc, old_row);
      StatusOr<std::vector<uint8_t>> o = tuple::FormHeapTuple(desc, tuple::DatumsOf(old_row));
      StatusOr<std::vector<uint8_t>> n = tuple::FormHeapTuple(desc, tuple::DatumsOf(new_row));
      if (o.ok() && n.ok() && n->size() <= 8160) return UpdateCase{*o, *n};
    }
  });
}

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_UPDATE_GENERATORS_H_
