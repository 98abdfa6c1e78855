// RapidCheck generators for heap tuples: descriptors mixing every attribute kind (by-value and
// by-reference fixed lengths of every alignment, varlenas plain and packable, cstrings, dropped
// attributes, missing defaults) and rows whose values take every varlena form (4B around the
// 126-byte packing limit, 1B short, inline-compressed, external TOAST pointers), with NULLs
// anywhere and runs of trailing NULLs over-weighted. Widths cross the bitmap's MAXALIGN steps
// (8/9, 72/73 attributes).
#ifndef PGSTORE_PROPERTIES_GENERATORS_TUPLE_GENERATORS_H_
#define PGSTORE_PROPERTIES_GENERATORS_TUPLE_GENERATORS_H_

#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/common/bytes.h"
#include "storage/tuple/tuple_desc.h"
#include "storage/tuple/varlena.h"

namespace pgstore::generators {

using OwnedRow = std::vector<std::optional<std::vector<uint8_t>>>;

struct TupleCase {
  tuple::TupleDesc desc;
  OwnedRow values;
};

inline tuple::Attribute GenAttribute() {
  tuple::Attribute a;
  switch (*rc::gen::inRange(0, 6)) {
    case 0: {  // by-value
      const int len = *rc::gen::element(1, 2, 4, 8);
      a.attlen = static_cast<int16_t>(len);
      a.attalign = len == 1 ? 'c' : len == 2 ? 's' : len == 4 ? 'i' : 'd';
      a.attbyval = true;
      break;
    }
    case 1:  // fixed-length by reference (name, uuid, interval-like)
      a.attlen = static_cast<int16_t>(*rc::gen::element(3, 6, 12, 16, 64));
      a.attalign = *rc::gen::element('c', 'i', 'd');
      a.attbyval = false;
      break;
    case 5:
      a.attlen = tuple::kCstringLen;
      a.attalign = 'c';
      a.attbyval = false;
      break;
    default:  // varlena, the most common kind
      a.attlen = tuple::kVarlenaLen;
      a.attalign = *rc::gen::element('i', 'd');
      a.attbyval = false;
      a.attstorage = *rc::gen::element('x', 'x', 'm', 'e', 'p');
      break;
  }
  a.attisdropped = *rc::gen::weightedElement<bool>({{9, false}, {1, true}});
  return a;
}

inline std::vector<uint8_t> GenBytes(size_t n) {
  return *rc::gen::container<std::vector<uint8_t>>(n, rc::gen::arbitrary<uint8_t>());
}

// A value valid for `a`.
inline std::vector<uint8_t> GenValue(const tuple::Attribute& a) {
  if (a.attlen > 0) return GenBytes(a.attlen);
  if (a.is_cstring()) {
    return *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange(0, 40),
                                                     rc::gen::inRange<uint8_t>(1, 255));
  }
  const int form = *rc::gen::weightedElement<int>({{6, 0}, {2, 1}, {1, 2}, {1, 3}});
  if (form == 0) {  // 4B uncompressed: sizes around the 126-byte packing limit
    const size_t n = *rc::gen::oneOf(rc::gen::element<size_t>(0, 1, 125, 126, 127, 128),
                                     rc::gen::inRange<size_t>(0, 300));
    return tuple::MakeVarlena(ByteView(GenBytes(n)));
  }
  if (form == 1) {  // already short (1B)
    const size_t n = *rc::gen::inRange<size_t>(0, 127);
    std::vector<uint8_t> v = {static_cast<uint8_t>(((n + 1) << 1) | 1)};
    std::vector<uint8_t> data = GenBytes(n);
    v.insert(v.end(), data.begin(), data.end());
    return v;
  }
  if (form == 2) {  // inline compressed: 4B header with the compressed bit, va_tcinfo, payload
    const size_t n = *rc::gen::inRange<size_t>(0, 200);
    std::vector<uint8_t> v;
    PutLE32(&v, static_cast<uint32_t>(((n + 8) << 2) | 2));
    PutLE32(&v, static_cast<uint32_t>(*rc::gen::inRange(1, 10000)) |
                    (static_cast<uint32_t>(*rc::gen::inRange(0, 2)) << 30));
    std::vector<uint8_t> payload = GenBytes(n);
    v.insert(v.end(), payload.begin(), payload.end());
    return v;
  }
  // External TOAST pointer: raw size 4 .. 1 GB - 1, stored size up to the raw data.
  const uint32_t rawsize = *rc::gen::oneOf(rc::gen::inRange<uint32_t>(4, 100000),
                                           rc::gen::element<uint32_t>(4, 0x3FFFFFFF));
  const uint32_t extsize = *rc::gen::inRange<uint32_t>(0, rawsize - 4 + 1);
  return tuple::MakeToastPointer(rawsize, extsize, *rc::gen::inRange<uint32_t>(0, 2),
                                 *rc::gen::arbitrary<uint32_t>(), *rc::gen::arbitrary<uint32_t>());
}

inline rc::Gen<tuple::TupleDesc> genTupleDesc() {
  return rc::gen::exec([] {
    const int natts =
        *rc::gen::oneOf(rc::gen::inRange(0, 12), rc::gen::element(7, 8, 9, 16, 17, 64, 72, 73, 80),
                        rc::gen::inRange(1, 200));
    std::vector<tuple::Attribute> attrs;
    for (int i = 0; i < natts; ++i) attrs.push_back(GenAttribute());
    // Columns added later with a default: a suffix of the descriptor, sometimes.
    if (natts > 0 && *rc::gen::weightedElement<bool>({{3, false}, {1, true}})) {
      const int first = *rc::gen::inRange(0, natts);
      for (int i = first; i < natts; ++i) {
        if (*rc::gen::arbitrary<bool>() || attrs[i].attisdropped) continue;
        attrs[i].atthasmissing = true;
        attrs[i].missing_value = GenValue(attrs[i]);
      }
    }
    return tuple::TupleDesc(std::move(attrs));
  });
}

// A row for `desc`: NULLs at some rate anywhere, and often a run of trailing NULLs.
inline OwnedRow GenRow(const tuple::TupleDesc& desc) {
  const int null_percent = *rc::gen::element(0, 0, 10, 50, 90, 100);
  const int natts = desc.natts();
  const int trailing = *rc::gen::oneOf(rc::gen::just(0), rc::gen::inRange(0, natts + 1));
  OwnedRow row;
  for (int i = 0; i < natts; ++i) {
    const bool null = i >= natts - trailing || *rc::gen::inRange(0, 100) < null_percent;
    if (null) {
      row.emplace_back(std::nullopt);
    } else {
      row.emplace_back(GenValue(desc.attr(i)));
    }
  }
  return row;
}

inline rc::Gen<TupleCase> genTupleCase() {
  return rc::gen::exec([] {
    tuple::TupleDesc desc = *genTupleDesc();
    OwnedRow values = GenRow(desc);
    return TupleCase{std::move(desc), std::move(values)};
  });
}

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_TUPLE_GENERATORS_H_
