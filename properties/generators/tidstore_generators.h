// RapidCheck generators for the TID store: block numbers over-weighting 0, 2^31 - 1, 2^32 - 2,
// 2^32 - 1 and keys that share 0 to 3 leading bytes with a few anchors (so that leaves burst into
// every node size at every depth), and offset sets of every encoding: single offsets and runs from
// offset 1 (embedded), pairs, short lists, dense runs and bitmaps, up to 2048.
#ifndef PGSTORE_PROPERTIES_GENERATORS_TIDSTORE_GENERATORS_H_
#define PGSTORE_PROPERTIES_GENERATORS_TIDSTORE_GENERATORS_H_

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

namespace pgstore::generators {

inline rc::Gen<uint32_t> genBlock() {
  return rc::gen::exec([] {
    const uint32_t anchor = *rc::gen::element<uint32_t>(0u, 0x7FFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFFu,
                                                        0x01020304u, 0x00FF0000u);
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        return anchor;
      case 1:  // shares the top 3 bytes: same depth-3 leaf
        return (anchor & 0xFFFFFF00u) | *rc::gen::inRange<uint32_t>(0, 256);
      case 2:  // shares the top 2 bytes
        return (anchor & 0xFFFF0000u) | *rc::gen::inRange<uint32_t>(0, 65536);
      case 3:  // shares the top byte
        return (anchor & 0xFF000000u) | (*rc::gen::arbitrary<uint32_t>() & 0x00FFFFFFu);
      default:
        return *rc::gen::arbitrary<uint32_t>();
    }
  });
}

// Strictly ascending offsets within 1..2048, of a shape that favours one encoding.
inline rc::Gen<std::vector<uint16_t>> genOffsets() {
  return rc::gen::exec([] {
    std::set<uint16_t> s;
    switch (*rc::gen::inRange(0, 5)) {
      case 0:  // one (embedded)
        s.insert(*rc::gen::inRange<uint16_t>(1, 2049));
        break;
      case 1:  // a pair or a short list
        for (int i = *rc::gen::inRange(2, 6); i > 0; --i)
          s.insert(*rc::gen::inRange<uint16_t>(1, 2049));
        break;
      case 2: {  // a run; half of them from offset 1, as a page whose tuples all died (embedded)
        const uint16_t first =
            *rc::gen::arbitrary<bool>() ? uint16_t{1} : *rc::gen::inRange<uint16_t>(2, 300);
        const uint16_t last =
            *rc::gen::inRange<uint16_t>(first, std::min<uint16_t>(2048, first + 400));
        for (uint32_t o = first; o <= last; ++o) s.insert(static_cast<uint16_t>(o));
        break;
      }
      case 3: {  // every k-th offset: a bitmap
        const int step = *rc::gen::inRange(2, 5);
        const uint16_t first = *rc::gen::inRange<uint16_t>(1, 100);
        const int count = *rc::gen::inRange(4, 300);
        for (int i = 0; i < count && first + i * step <= 2048; ++i) {
          s.insert(static_cast<uint16_t>(first + i * step));
        }
        break;
      }
      default:  // anything, up to the maximum
        for (int i = *rc::gen::inRange(1, 60); i > 0; --i) {
          s.insert(*rc::gen::element<uint16_t>(1, 2, 291, 2047, 2048));
          s.insert(*rc::gen::inRange<uint16_t>(1, 2049));
        }
        break;
    }
    return std::vector<uint16_t>(s.begin(), s.end());
  });
}

// Offsets that break the contract: empty, 0, beyond 2048, unsorted or repeated.
inline rc::Gen<std::vector<uint16_t>> genInvalidOffsets() {
  return rc::gen::exec([] {
    std::vector<uint16_t> v = *genOffsets();
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        v.clear();
        break;
      case 1:
        v.insert(v.begin(), 0);
        break;
      case 2:
        v.push_back(*rc::gen::inRange<uint16_t>(2049, 65535));
        break;
      case 3:
        v.push_back(v.back());
        break;
      default:
        v.insert(v.begin(), static_cast<uint16_t>(v.back() == 1 ? 0 : v.back()));
        break;
    }
    return v;
  });
}

}  // namespace pgstore::generators

#endif  // PGSTORE_PROPERTIES_GENERATORS_TIDSTORE_GENERATORS_H_
