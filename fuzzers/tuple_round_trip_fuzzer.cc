// Property: for a descriptor from the input's tail and a row decoded from its front, forming the
// tuple in every trailing-NULL mode gives the reference model's bytes, deforming it gives the row
// back (short varlenas widened), and truncation never makes the tuple longer.
#include <cstdint>
#include <optional>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tuple_fuzz_params.h"
#include "properties/generators/tuple_model_adapter.h"
#include "properties/models/tuple_model.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/form.h"

namespace {

using pgstore::ByteView;
using pgstore::fuzz::FrontReader;
using Row = std::vector<std::optional<std::vector<uint8_t>>>;

// A row is at most 255 attributes of at most ~270 bytes each; 64 KiB covers it.
constexpr size_t kMaxInput = 64 << 10;

// A value valid for `a`, in one of the varlena forms for varlenas. Selector bits: 0 null, 1-2 form.
std::optional<std::vector<uint8_t>> TakeValue(const pgstore::tuple::Attribute& a, FrontReader* in) {
  using namespace pgstore;
  const uint8_t sel = in->U8();
  if (sel & 1) return std::nullopt;
  if (a.attlen > 0) return in->Bytes(a.attlen);
  if (a.is_cstring()) {
    std::vector<uint8_t> s = in->Bytes(in->U8() % 64);
    for (auto& b : s) b = b == 0 ? 1 : b;
    return s;
  }
  std::vector<uint8_t> v;
  switch ((sel >> 1) & 3) {
    case 0:
      return tuple::MakeVarlena(ByteView(in->Bytes(in->U8())));
    case 1: {
      const size_t n = in->U8() % 127;
      v.push_back(static_cast<uint8_t>(((n + 1) << 1) | 1));
      break;
    }
    case 2: {
      const size_t n = in->U8();
      PutLE32(&v, static_cast<uint32_t>(((n + 8) << 2) | 2));
      PutLE32(&v, (n * 3 + 1) | (static_cast<uint32_t>(sel >> 7) << 30));
      std::vector<uint8_t> p = in->Bytes(n);
      v.insert(v.end(), p.begin(), p.end());
      return v;
    }
    default: {  // a TOAST pointer: raw size 4 .. 2^24 + 3, stored size within it
      const std::vector<uint8_t> f = in->Bytes(7);
      const uint32_t rawsize = 4 + (f[0] | f[1] << 8 | static_cast<uint32_t>(f[2]) << 16);
      const uint32_t extsize =
          (f[3] | f[4] << 8 | static_cast<uint32_t>(f[5]) << 16) % (rawsize - 3);
      return tuple::MakeToastPointer(rawsize, extsize, f[6] & 1, f[6], rawsize);
    }
  }
  std::vector<uint8_t> data = in->Bytes((v[0] >> 1) - 1);
  v.insert(v.end(), data.begin(), data.end());
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  fuzz::TailSplitter t(data, size);
  const tuple::TupleDesc desc = fuzz::TakeTupleDesc(&t);
  FrontReader in(t.Payload());
  Row row;
  for (int i = 0; i < desc.natts(); ++i) row.push_back(TakeValue(desc.attr(i), &in));

  const Row canonical = generators::CanonicalRow(desc, row);
  size_t previous_size = SIZE_MAX;
  for (tuple::TrailingNulls mode : {tuple::TrailingNulls::kOff, tuple::TrailingNulls::kKeepBitmap,
                                    tuple::TrailingNulls::kDropBitmap}) {
    tuple::FormOptions o;
    o.trailing_nulls = mode;
    StatusOr<std::vector<uint8_t>> formed = tuple::FormHeapTuple(desc, tuple::DatumsOf(row), o);
    FUZZ_ASSERT(formed.ok());
    FUZZ_ASSERT(*formed == models::ModelFormTuple(generators::ModelAttrsOf(desc), row,
                                                  generators::ModelTruncationOf(mode)));
    FUZZ_ASSERT(formed->size() <= previous_size);
    previous_size = formed->size();
    auto copy = fuzz::ExactCopy(ByteView(*formed));
    StatusOr<Row> back = tuple::CanonicalValues(ByteView(copy.get(), formed->size()), desc);
    FUZZ_ASSERT(back.ok());
    FUZZ_ASSERT(*back == canonical);
  }
  return 0;
}
