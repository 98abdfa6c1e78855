// Property: deforming arbitrary bytes as a heap tuple of an arbitrary descriptor never crashes and
// never reads out of bounds; it accepts exactly what the reference model accepts, with the same
// values (at an odd address too), and single-attribute access agrees with the full deform (and, on
// a rejected tuple, returns only bytes inside it); likewise with each data flag of t_infomask
// (HASNULL, HASVARWIDTH, HASEXTERNAL) flipped.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tuple_fuzz_params.h"
#include "properties/generators/tuple_model_adapter.h"
#include "properties/models/tuple_model.h"
#include "storage/tuple/deform.h"
#include "storage/tuple/heap_tuple_format.h"

namespace {

// A heap tuple is at most MaxHeapTupleSize (8160) bytes on a page; 16 KiB leaves room for the
// descriptor and for oversize inputs.
constexpr size_t kMaxInput = 16 << 10;

void CheckDeform(const pgstore::tuple::TupleDesc& desc, pgstore::ByteView payload) {
  using namespace pgstore;
  auto bytes = fuzz::ExactCopy(payload);
  const ByteView tup(bytes.get(), payload.size);

  StatusOr<std::vector<tuple::Datum>> ours = tuple::DeformHeapTuple(tup, desc);
  const auto model = models::ModelDeformTuple(generators::ModelAttrsOf(desc), payload.ToVector());
  FUZZ_ASSERT(ours.ok() == model.has_value());
  // Alignment is reckoned from the tuple's start, not its address: at an odd address, the same
  // values (and no field read through a misaligned typed pointer).
  const fuzz::OddCopy odd(payload);
  StatusOr<std::vector<tuple::Datum>> at_odd = tuple::DeformHeapTuple(odd.View(), desc);
  FUZZ_ASSERT(at_odd.ok() == ours.ok());
  if (!ours.ok()) {
    FUZZ_ASSERT(ours.status().IsCorruption());
    // Single-attribute access of a rejected tuple may accept an attribute before the damage,
    // but what it returns lies inside the tuple (read here, so that ASan sees any overrun).
    for (int i = 0; i < desc.natts(); ++i) {
      StatusOr<tuple::Datum> one = tuple::GetAttribute(tup, desc, i);
      if (!one.ok() || !one->has_value()) continue;
      const ByteView v = **one;
      FUZZ_ASSERT(v.data >= tup.data && v.size <= tup.size &&
                  v.data - tup.data <= static_cast<ptrdiff_t>(tup.size - v.size));
      volatile uint8_t sink = 0;
      for (size_t k = 0; k < v.size; ++k) sink = sink ^ v.data[k];
      (void)sink;
    }
    return;
  }
  for (int i = 0; i < desc.natts(); ++i) {
    const tuple::Datum& v = (*ours)[i];
    FUZZ_ASSERT(v.has_value() == (*model)[i].has_value());
    if (v) FUZZ_ASSERT(v->ToVector() == *(*model)[i]);
    FUZZ_ASSERT((*at_odd)[i].has_value() == v.has_value());
    if (v) FUZZ_ASSERT((*at_odd)[i]->ToVector() == v->ToVector());
    StatusOr<tuple::Datum> one = tuple::GetAttribute(tup, desc, i);
    FUZZ_ASSERT(one.ok());
    FUZZ_ASSERT(one->has_value() == v.has_value());
    if (v) FUZZ_ASSERT((*one)->data == v->data && (*one)->size == v->size);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  fuzz::TailSplitter t(data, size);
  const tuple::TupleDesc desc = fuzz::TakeTupleDesc(&t);
  const ByteView payload = t.Payload();
  CheckDeform(desc, payload);
  // The same tuple with each data flag of t_infomask flipped: what the decoder trusts the flags
  // for (a bitmap, variable-width values, TOAST pointers) is checked on every input, not only
  // when a mutation happens to hit those bits.
  if (payload.size <= tuple::kOffInfomask) return 0;
  std::vector<uint8_t> flipped = payload.ToVector();
  for (uint16_t flag : {tuple::kHasNull, tuple::kHasVarWidth, tuple::kHasExternal}) {
    flipped[tuple::kOffInfomask] ^= static_cast<uint8_t>(flag);  // all in the low byte
    CheckDeform(desc, ByteView(flipped));
    flipped[tuple::kOffInfomask] ^= static_cast<uint8_t>(flag);
  }
  return 0;
}
