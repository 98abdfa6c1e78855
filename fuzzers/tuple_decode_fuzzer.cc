// Property: deforming arbitrary bytes as a heap tuple of an arbitrary descriptor never crashes and
// never reads out of bounds; it accepts exactly what the reference model accepts, with the same
// values, and single-attribute access agrees with the full deform.
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "fuzzers/tuple_fuzz_params.h"
#include "properties/generators/tuple_model_adapter.h"
#include "properties/models/tuple_model.h"
#include "storage/tuple/deform.h"

namespace {

// A heap tuple is at most MaxHeapTupleSize (8160) bytes on a page; 16 KiB leaves room for the
// descriptor and for oversize inputs.
constexpr size_t kMaxInput = 16 << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;
  fuzz::TailSplitter t(data, size);
  const tuple::TupleDesc desc = fuzz::TakeTupleDesc(&t);
  const ByteView payload = t.Payload();
  auto bytes = fuzz::ExactCopy(payload);
  const ByteView tup(bytes.get(), payload.size);

  StatusOr<std::vector<tuple::Datum>> ours = tuple::DeformHeapTuple(tup, desc);
  const auto model = models::ModelDeformTuple(generators::ModelAttrsOf(desc), payload.ToVector());
  FUZZ_ASSERT(ours.ok() == model.has_value());
  if (!ours.ok()) {
    FUZZ_ASSERT(ours.status().IsCorruption());
    return 0;
  }
  for (int i = 0; i < desc.natts(); ++i) {
    const tuple::Datum& v = (*ours)[i];
    FUZZ_ASSERT(v.has_value() == (*model)[i].has_value());
    if (v) FUZZ_ASSERT(v->ToVector() == *(*model)[i]);
    StatusOr<tuple::Datum> one = tuple::GetAttribute(tup, desc, i);
    FUZZ_ASSERT(one.ok());
    FUZZ_ASSERT(one->has_value() == v.has_value());
    if (v) FUZZ_ASSERT((*one)->data == v->data && (*one)->size == v->size);
  }
  return 0;
}
